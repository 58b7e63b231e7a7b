"""The torch side of ``msmigrate compare`` saves every submodule call's inputs (``worker_layer_inputs``):
before the layer runs (an in-place layer changes them after), each tensor once while it is the same object
and unchanged, the model's own inputs by position, and anything that is not a tensor, ``None`` or a scalar
as the reason the call cannot be checked alone."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from support import needs_frameworks

from msmigrate.compare.worker_layer_inputs import TensorFiles, describe, hook_inputs

pytestmark = needs_frameworks


def _files(tmp_path: Path) -> TensorFiles:
    return TensorFiles(np, tmp_path, lambda v: (v.detach().numpy(), str(v.dtype).removeprefix("torch.")))


def test_a_tensor_is_saved_once_until_it_changes(tmp_path: Path) -> None:
    import torch

    files = _files(tmp_path)
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    first = files.save(x)
    assert first == {"file": str(tmp_path / "0.npy"), "shape": [2, 3], "dtype": "float32"}
    assert files.save(x) is first
    x.add_(1.0)  # in place: torch's version counter moves, the saved values are stale
    assert files.save(x)["file"] == str(tmp_path / "1.npy")
    assert np.load(tmp_path / "1.npy").tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert np.load(tmp_path / "0.npy")[0, 0] == 0.0
    files.remember(x, {"input": 0})  # the model's input: MindSpore uses its own
    assert files.save(x) == {"input": 0}


def test_what_a_call_can_be_rebuilt_from(tmp_path: Path) -> None:
    import torch

    files = _files(tmp_path)
    x = torch.ones(2)
    is_tensor = lambda v: isinstance(v, torch.Tensor)  # noqa: E731
    found = describe((x, None, 3), {"mask": None, "scale": 0.5, "causal": True}, is_tensor, files)
    assert found == {
        "args": [{"tensor": files.save(x)}, {"none": True}, {"value": 3}],
        "kwargs": {"mask": {"none": True}, "scale": {"value": 0.5}, "causal": {"value": True}},
    }
    assert describe((x, (x, x)), {}, is_tensor, files) == {"unchecked": {"position": "2", "type": "tuple"}}
    assert describe((x,), {"cache": [x]}, is_tensor, files) == {
        "unchecked": {"position": "cache", "type": "list"}}


def test_the_inputs_are_those_before_an_in_place_layer(tmp_path: Path) -> None:
    import torch

    model = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU(inplace=True))
    with torch.no_grad():
        model[0].weight.copy_(torch.eye(3))
        model[0].bias.zero_()
    files = _files(tmp_path)
    records, handles = hook_inputs(model.named_modules(), lambda v: isinstance(v, torch.Tensor), files)
    x = torch.tensor([[1.0, -2.0, 3.0]])
    with torch.no_grad():
        out = model(x)
    for handle in handles:
        handle.remove()
    assert sorted(records) == [("", 0), ("0", 0), ("1", 0)]
    assert records[("", 0)] == records[("0", 0)]  # the model's input is the first layer's: one file
    relu_input = np.load(records[("1", 0)]["args"][0]["tensor"]["file"])
    assert relu_input.tolist() == [[1.0, -2.0, 3.0]]  # saved before ReLU changed it in place
    assert out.tolist() == [[1.0, 0.0, 3.0]]
    with pytest.raises(KeyError):
        records[("1", 1)]
