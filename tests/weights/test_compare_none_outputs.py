"""``msmigrate compare`` with outputs that hold ``None``: whisper's attention returns ``(out, None)`` in
torch's SDPA path and ``(out, qk)`` in the path its migration takes. Positions are kept (a ``None`` is a leaf
of its own), so the tensors compared are those at the same place, and a tensor where torch has ``None`` is a
note shown to the user (en and zh), not a divergence; a tensor torch has and MindSpore has not diverges."""

from __future__ import annotations

import numpy as np
import pytest
from support import needs_frameworks

from msmigrate.compare.config import CompareSpec, InputSpec
from msmigrate.compare.markdown import render_markdown
from msmigrate.compare.report import render_text
from msmigrate.compare.worker_common import flatten
from msmigrate.compare.worker_numbers import compare_all

TORCH_NET = '''
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        return self.proj(x), None


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Attention()

    def forward(self, x):
        out, _ = self.attn(x)
        return out
'''

MS_NET = '''
import mindspore
import mindspore.nn as nn


class Attention(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4)

    def construct(self, x):
        out = self.proj(x)
        return out, mindspore.ops.matmul(x, x.transpose(0, 2, 1))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.attn = Attention()

    def construct(self, x):
        out, _ = self.attn(x)
        return out
'''


def _leaf(*shape: int) -> tuple[np.ndarray, str]:
    return np.arange(np.prod(shape), dtype=np.float32).reshape(shape), "float32"


def test_none_keeps_its_position_when_flattened() -> None:
    value = {"a": (np.ones(2), None), "b": [None, np.zeros(3)]}
    leaves = flatten(value, lambda v: isinstance(v, np.ndarray), lambda v: (v, str(v.dtype)))
    assert [None if leaf is None else leaf[0].shape for leaf in leaves] == [(2,), None, None, (3,)]
    assert flatten(None, lambda v: False, lambda v: v) == [None]


def test_a_tensor_where_torch_has_none_is_a_note_not_a_divergence() -> None:
    out = _leaf(2, 3)
    result = compare_all([out, None], [out, _leaf(2, 5, 5)], 1e-4, 1e-4)
    assert result == {"status": "match", "reason": None, "max_abs": 0.0, "max_rel": 0.0, "detail": None,
                      "extra": [{"index": 2, "shape": [2, 5, 5]}]}
    # the other way round, MindSpore lacks a tensor torch returns: a divergence
    assert compare_all([out, _leaf(2, 5, 5)], [out, None], 1e-4, 1e-4) == {
        "status": "diverge", "reason": "structure", "max_abs": None, "max_rel": None,
        "detail": "output 2: torch a tensor [2, 5, 5], MindSpore None"}
    # positions, not order of tensors: torch (None, a) against MindSpore (b, a) compares a with a
    assert compare_all([None, out], [_leaf(7), out], 1e-4, 1e-4)["extra"] == [{"index": 1, "shape": [7]}]
    assert compare_all([out], [out, out], 1e-4, 1e-4)["detail"] == "1 torch tensors, 2 MindSpore tensors"


@pytest.mark.slow
@needs_frameworks
def test_an_attention_that_returns_its_weights_where_torch_returns_none_matches(tmp_path) -> None:  # noqa: ANN001
    from msmigrate.compare.service import compare_models

    (tmp_path / "tnet.py").write_text(TORCH_NET)
    (tmp_path / "msnet.py").write_text(MS_NET)
    spec = CompareSpec(
        "attn", f"{tmp_path}/tnet.py:Net()", f"{tmp_path}/msnet.py:Net()",
        [InputSpec((2, 3, 4), "float32", -1.0, 1.0, None)], modes=("pynative",),
    )
    report = compare_models(spec)
    assert report.status == "match", report.to_json()
    (mode,) = report.modes
    assert [(r["name"], r["status"], r.get("extra")) for r in mode.layers] == [
        ("attn.proj", "match", None),
        ("attn", "match", [{"index": 2, "shape": [2, 3, 3]}]),
        ("", "match", None),
    ]
    assert render_text(report, "en").splitlines()[4:6] == [
        "    3 layer outputs compared: 0 differ in the whole model, 0 have no MindSpore cell of that name",
        "    1 layer outputs hold a tensor where torch's hold None (not compared; not a divergence: the "
        "migrated code computes a result the torch code skips, e.g. attention weights): "
        "attn (output 2, shape [2, 3, 3])",
    ]
    zh = ("1 个层输出在 torch 为 None 的位置上是张量（未比较，不算不一致：迁移后的代码计算了 torch "
          "代码跳过的结果，例如注意力权重）：attn（第 2 项输出，形状 [2, 3, 3]）")
    assert zh in render_text(report, "zh")
    assert "attn \\(output 2, shape \\[2, 3, 3\\]\\)" in render_markdown(report, "en")
