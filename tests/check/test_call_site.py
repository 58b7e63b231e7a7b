"""Argument texts of the call under the cursor (values are later used only when literal)."""

from msmigrate.check.call_site import call_args_at

SOURCE = (
    "import torch\n"
    "y = torch.nn.functional.softmax(x, dim=-1)\n"
    "z = torch.sum(torch.abs(x), 1, keepdim=True, **opts)\n"
    "s = '😀'; w = torch.clamp(x, -0.5, max=0.5)\n"
)


def test_arguments_of_the_call_under_the_position():
    found = call_args_at(SOURCE, 2, 10)
    assert (found.args, found.kwargs) == (["x"], {"dim": "-1"})


def test_innermost_call_and_star_arguments():
    outer = call_args_at(SOURCE, 3, 6)
    assert (outer.args, outer.kwargs) == (["torch.abs(x)", "1"], {"keepdim": "True"})
    inner = call_args_at(SOURCE, 3, 15)
    assert inner.args == ["x"]


def test_code_point_columns_after_wide_characters():
    found = call_args_at(SOURCE, 4, 15)  # 'torch' of torch.clamp starts at code point 15
    assert (found.args, found.kwargs) == (["x", "-0.5"], {"max": "0.5"})


def test_no_call_or_broken_source():
    assert call_args_at(SOURCE, 1, 3) is None
    assert call_args_at("def (:\n", 1, 1) is None
