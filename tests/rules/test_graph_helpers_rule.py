"""MSM707: the helper module's einsum (torch.einsum's composition on CPU) called in code GRAPH_MODE compiles
(met by ``msmigrate compare`` on segment-anything's ImageEncoderViT). The last test runs the helper's own
source under MindSpore 2.10: it matches NumPy in PyNative mode and stops in GRAPH_MODE with the message the
finding quotes."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.rules.graph._family import graph_findings

TEMPLATE = (Path(__file__).resolve().parents[2] / "server/msmigrate/knowledge/compositions/templates"
            / "einsum.py.txt")
MS = """import mindspore.nn as nn
{imports}


class Net(nn.Cell):
    def construct(self, a, b):
        return {call}


def outside(a, b):
    return {call}
"""


def _found(imports: str, call: str) -> list[tuple[str, int, dict[str, str]]]:
    source = MS.format(imports=imports, call=call)
    return [(f.rule, f.line, f.message_args)
            for f in graph_findings(source, "m.py", get_knowledge_base("2.6"))]


def test_the_helpers_einsum_in_construct_is_flagged_and_not_as_einops() -> None:
    args = {"name": "einsum", "function": "Net.construct", "api": "torch.einsum",
            "error": "Got an unexpected keyword argument 'default'"}
    assert _found("import ms_compat", "ms_compat.einsum('ij,jk->ik', a, b)") == [("MSM707", 7, args)]
    assert _found("from ms_compat import einsum", "einsum('ij,jk->ik', a, b)") == [("MSM707", 7, args)]
    assert _found("import ms_compat", "ms_compat.rearrange(a, 'i j -> j i')") == [
        ("MSM705", 7, {"name": "rearrange", "function": "Net.construct"})]
    assert _found("import einops", "einops.einsum(a, b, 'i j, j k -> i k')") == [
        ("MSM705", 7, {"name": "einsum", "function": "Net.construct"})]
    assert _found("import mindspore", "mindspore.ops.matmul(a, b)") == []


def test_message_in_both_languages() -> None:
    source = MS.format(imports="import ms_compat", call="ms_compat.einsum('ij,jk->ik', a, b)")
    (finding,) = graph_findings(source, "m.py", get_knowledge_base("2.6"))
    assert finding.message("en") == (
        "einsum in Net.construct: the helper's composition of torch.einsum runs in PyNative mode only; "
        "GRAPH_MODE does not compile it (\"Got an unexpected keyword argument 'default'\")"
    )
    assert finding.message("zh") == (
        "Net.construct 中的 einsum：辅助模块中 torch.einsum 的组合实现只能在 PyNative 模式下运行；GRAPH_MODE "
        "无法编译（\"Got an unexpected keyword argument 'default'\"）"
    )


PROBE = """
import json, sys
import numpy as np
import mindspore as ms
import mindspore.nn as nn
import ms_compat


class Net(nn.Cell):
    def construct(self, a, b):
        return ms_compat.einsum("bhwc,hkc->bhwk", a, b)


rng = np.random.default_rng(0)
a = rng.standard_normal((1, 2, 3, 4)).astype(np.float32)
b = rng.standard_normal((2, 5, 4)).astype(np.float32)
out = {}
ms.set_context(mode=ms.PYNATIVE_MODE)
got = Net()(ms.Tensor(a), ms.Tensor(b)).asnumpy()
out["pynative"] = float(np.abs(got - np.einsum("bhwc,hkc->bhwk", a, b)).max())
ms.set_context(mode=ms.GRAPH_MODE)
try:
    Net()(ms.Tensor(a), ms.Tensor(b))
    out["graph"] = None
except Exception as exc:
    out["graph"] = str(exc).strip().splitlines()[0]
print("RESULT " + json.dumps(out))
"""


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mindspore") is None, reason="needs mindspore")
def test_the_helpers_einsum_runs_in_pynative_and_does_not_compile(tmp_path: Path) -> None:
    (tmp_path / "ms_compat.py").write_text(TEMPLATE.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "probe.py").write_text(PROBE, encoding="utf-8")  # GRAPH_MODE compiles from a file
    run = subprocess.run([sys.executable, "probe.py"], capture_output=True, text=True, timeout=900,
                         cwd=tmp_path)
    line = next((line for line in run.stdout.splitlines() if line.startswith("RESULT ")), None)
    assert line is not None, run.stderr[-2000:]
    result = json.loads(line.removeprefix("RESULT "))
    assert result["pynative"] < 1e-5
    assert result["graph"] is not None and "Got an unexpected keyword argument 'default'" in result["graph"]
