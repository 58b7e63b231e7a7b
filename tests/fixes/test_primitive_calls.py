"""A torch function written as a call of a MindSpore Primitive class (fixes/primitive_calls.py): F.normalize
on CPU, where mint.nn.functional.normalize has no kernel, becomes ops.L2Normalize(axis, epsilon)(x) with
epsilon = eps ** 2 and torch's defaults (the conversion suite runs the default call against torch)."""

from __future__ import annotations

import pytest

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.api import fix_all, fixes_for
from msmigrate.fixes.primitive_calls import is_primitive_call
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.device_targets import runnable_targets
from msmigrate.knowledge.param_facts import mindspore_value

HEADER = "import torch\nimport torch.nn.functional as F\nx = torch.zeros(2, 3)  # input\n"
NORMALIZE = "torch.nn.functional.normalize"


def _body(source: str, kb) -> list[str]:
    new, _applied = fix_all(HEADER + source, "m.py", kb)
    return [line for line in new.splitlines()
            if line and not line.startswith("import ") and not line.endswith("# input")]


def test_l2normalize_epsilon_is_the_square_of_torchs_eps():
    assert mindspore_value("mindspore.ops.L2Normalize", "epsilon", "1e-12") == "1e-24"
    assert mindspore_value("mindspore.ops.L2Normalize", "epsilon", "1e-6") == "1e-12"
    assert mindspore_value("mindspore.ops.L2Normalize", "epsilon", "0.9") == "0.81"
    assert mindspore_value("mindspore.ops.L2Normalize", "epsilon", "eps") == "eps ** 2"
    assert mindspore_value("mindspore.ops.L2Normalize", "epsilon", "self.eps") == "self.eps ** 2"
    assert mindspore_value("mindspore.ops.L2Normalize", "epsilon", "a + b") == "(a + b) ** 2"
    assert mindspore_value("mindspore.ops.L2Normalize", "axis", "1e-6") == "1e-6"


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_normalize_on_cpu_is_l2normalize_with_torchs_defaults(version):
    kb = get_knowledge_base(version)
    assert runnable_targets(NORMALIZE, version)[0].row.mindspore_api == "mindspore.ops.L2Normalize"
    source = ("a = F.normalize(x)\n"
              "b = F.normalize(x, dim=0, eps=1e-6)\n"
              "c = F.normalize(x, 2, -1)\n"
              "d = F.normalize(input=x * 2, p=2.0, dim=-1, eps=self.eps)\n"
              "e = F.normalize(x, 2.0, 1, 1e-12, None)\n"
              "f = F.normalize(x, p=1.0)\n")
    assert _body(source, kb) == [
        "a = mindspore.ops.L2Normalize(axis=1, epsilon=1e-24)(x)",
        "b = mindspore.ops.L2Normalize(axis=0, epsilon=1e-12)(x)",
        "c = mindspore.ops.L2Normalize(axis=-1, epsilon=1e-24)(x)",
        "d = mindspore.ops.L2Normalize(axis=-1, epsilon=self.eps ** 2)(x * 2)",
        "e = mindspore.ops.L2Normalize(axis=1, epsilon=1e-24)(x)",
        "f = F.normalize(x, p=1.0)",  # L2Normalize computes the 2-norm only
    ]


def test_titles_say_what_is_written_and_why_another_p_is_not(kb26):
    source = HEADER + "a = F.normalize(x, dim=-1)\nf = F.normalize(x, p=1.0)\n"
    findings = [f for f in analyze_source(source, "m.py", kb26).findings if f.torch_api == NORMALIZE]
    written, left = fixes_for(source, "m.py", findings, kb26)
    assert written.title("en") == (
        "Replace torch.nn.functional.normalize with mindspore.ops.L2Normalize (arguments: → "
        "L2Normalize(axis=-1, epsilon=1e-24)(…); then review the documented differences) "
        "(mindspore.mint.nn.functional.normalize has no CPU kernel "
        "in MindSpore 2.10; this target, a derived mapping, was verified on CPU)")
    assert written.title("zh") == (
        "将 torch.nn.functional.normalize 替换为 mindspore.ops.L2Normalize（参数：→ "
        "L2Normalize(axis=-1, epsilon=1e-24)(…)；替换后请核对文档所列差异）"
        "（mindspore.mint.nn.functional.normalize 在 MindSpore 2.10 "
        "中没有 CPU 算子实现；该目标为推导映射，已在 CPU 上验证）")
    assert left.edits == []
    assert left.title("en") == (
        "No automatic fix for torch.nn.functional.normalize: mindspore.ops.L2Normalize does not take 'p'; "
        "rewrite this argument by hand (see the difference page).")
    assert left.title("zh") == (
        "torch.nn.functional.normalize 无法自动修复：mindspore.ops.L2Normalize 不支持参数 'p'，"
        "请参照差异说明手动改写该参数。")


def test_a_primitive_of_an_unreviewed_pair_is_not_written_as_a_call():
    """The 1.10 table maps torch.distributed.all_reduce, which changes its tensor in place, to the
    Primitive ops.AllReduce, whose call returns a new tensor: not rewritten (only the reviewed pairs of
    primitive_calls.PRIMITIVE_CALLS are written as calls of the Primitive)."""
    kb = get_knowledge_base("1.10")
    assert kb.mapping("torch.distributed.all_reduce").mindspore_api == "mindspore.ops.AllReduce"
    assert not is_primitive_call(kb, "torch.distributed.all_reduce", "mindspore.ops.AllReduce")
    assert is_primitive_call(kb, NORMALIZE, "mindspore.ops.L2Normalize")
    assert _body("torch.distributed.all_reduce(x)\n", kb) == ["torch.distributed.all_reduce(x)"]
