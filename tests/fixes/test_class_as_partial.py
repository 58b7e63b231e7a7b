"""A torch module whose CPU replacement is a function (knowledge/param_facts.CLASS_AS_PARTIAL): 2.6's
``mint.nn.Fold`` / ``mint.nn.Unfold`` have no CPU kernel (Col2ImExt / Im2ColExt), ``ops.fold`` /
``ops.unfold`` passed the derived check on CPU; the instance is written as ``functools.partial`` of the
function with the constructor's arguments bound by keyword, where it is only called."""

from __future__ import annotations

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.api import fix_all, fixes_for
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.device_targets import runnable_target

_MODULE = (
    "import torch\nimport torch.nn as nn\n\n\n"
    "class Patches(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.unfold = nn.Unfold(3, padding=1)\n"
    "        self.fold = nn.Fold((8, 8), kernel_size=(2, 2), stride=2)\n"
)


def test_the_cpu_alternatives_are_the_functions(kb26) -> None:
    pairs = (("torch.nn.Fold", "mindspore.ops.fold"), ("torch.nn.Unfold", "mindspore.ops.unfold"))
    for api, function in pairs:
        found = runnable_target(api, "2.6")
        assert (found.row.mindspore_api, found.verified, found.derived is not None) == (function, True, True)
        assert found.replaced == api.replace("torch.nn.", "mindspore.mint.nn.")
    # the 2.4 table's derived mapping of nn.Fold (mint.nn.Fold) gets the same replacement
    assert runnable_target("torch.nn.Fold", "2.4").row.mindspore_api == "mindspore.ops.fold"


def test_module_attributes_become_partials(kb26) -> None:
    new, _applied = fix_all(_MODULE, "m.py", kb26)
    assert new == (
        "import functools\n"
        "import mindspore\n\n\n"
        "class Patches(mindspore.nn.Cell):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.unfold = functools.partial(mindspore.ops.unfold, kernel_size=3, padding=1)\n"
        "        self.fold = functools.partial(mindspore.ops.fold, output_size=mindspore.tensor((8, 8)), "
        "kernel_size=(2, 2), stride=2)\n"
    )


def test_existing_imports_are_used_and_a_call_at_once_is_rewritten(kb26) -> None:
    source = (
        "from functools import partial as bind\nimport mindspore as ms\nimport torch\n"
        "y = torch.nn.Unfold(2)(x)\n"
        "f: object = torch.nn.Fold(size, 2)\n"
    )
    new, _applied = fix_all(source, "m.py", kb26)
    assert new == (
        "from functools import partial as bind\nimport mindspore as ms\n"
        "y = bind(ms.ops.unfold, kernel_size=2)(x)\n"
        "f: object = bind(ms.ops.fold, output_size=ms.tensor(size).reshape(-1).broadcast_to((2,)), "
        "kernel_size=2)\n"
    )


def test_title_and_safety(kb26) -> None:
    source = "import torch.nn as nn\nu = nn.Unfold(2, 1)\n"
    findings = [f for f in analyze_source(source, "m.py", kb26).findings if f.torch_api == "torch.nn.Unfold"]
    (fix,) = [f for f in fixes_for(source, "m.py", findings, kb26) if f.edits]
    assert fix.title("en") == (
        "Write the torch.nn.Unfold instance as functools.partial(mindspore.ops.unfold, …), the function "
        "with the constructor's arguments bound by keyword (arguments: kernel_size=, dilation=); it is "
        "called as the module was, also in GRAPH_MODE, but it is no Cell: it cannot go in a SequentialCell "
        "or CellList (mindspore.mint.nn.Unfold has no CPU kernel in MindSpore 2.10; this target, a derived "
        "mapping, was verified on CPU)"
    )
    assert fix.title("zh").startswith(
        "将 torch.nn.Unfold 实例写为 functools.partial(mindspore.ops.unfold, …)")
    assert not is_safe(findings[0], kb26)  # no Cell any more: applied with --unsafe-fixes only


def test_an_instance_used_as_a_cell_is_left_alone(kb26) -> None:
    """In nn.Sequential (SequentialCell takes Cells), as another call's argument, or kept in a list, a
    function would not do: no fix is offered for the module."""
    source = (
        "import torch.nn as nn\n"
        "s = nn.Sequential(nn.Unfold(2), nn.Flatten())\n"
        "layers = [nn.Fold((4, 4), 2)]\n"
        "a, b = nn.Unfold(2), nn.Unfold(3)\n"
    )
    findings = [f for f in analyze_source(source, "m.py", kb26).findings
                if f.torch_api in ("torch.nn.Unfold", "torch.nn.Fold")]
    assert len(findings) == 4
    assert [f for f in fixes_for(source, "m.py", findings, kb26) if f.edits] == []


def test_arguments_on_their_own_lines_keep_their_layout(kb26) -> None:
    source = ("import torch.nn as nn\nu = nn.Unfold(  # patches\n    3,\n    padding=1,\n)\n"
              "f = nn.Fold(\n    (4, 4), 2)\n")
    new, _applied = fix_all(source, "m.py", kb26)
    assert new == (
        "import functools\nimport mindspore\n"
        "u = functools.partial(mindspore.ops.unfold,  # patches\n    kernel_size=3,\n    padding=1,\n)\n"
        "f = functools.partial(mindspore.ops.fold,\n"
        "    output_size=mindspore.tensor((4, 4)), kernel_size=2)\n"
    )
