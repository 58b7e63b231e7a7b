"""Findings under the canonical torch name, with the spelling as written; MSM103 only for names torch 2.13
lacks, and "did you mean" only for near-miss spellings of the last part."""

from __future__ import annotations

import pytest

from msmigrate.analysis.categorize import categorize
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.model.finding import Finding
from msmigrate.scan.worker import finding_from_row, finding_to_row

REAL_APIS = """\
import torch
import torch.multiprocessing as mp
from torch.distributed import rpc

def run(x, fn):
    if torch.jit.is_scripting():
        return x
    torch.testing.assert_close(x, x)
    mp.spawn(fn, nprocs=2)
    graph = torch.fx.symbolic_trace(fn)
    rpc.remote("worker", fn)
    torch.distributed.rpc.remote("worker", fn)
    window = torch.signal.windows.hann(4)
    normal = torch.distributions.Normal(0.0, 1.0)
    torch.accelerator.is_available()
    with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.MATH):
        pass
"""


def _api_findings(result):
    return [(f.line, f.column, f.torch_api, f.written_api, f.rule) for f in result.findings]


def test_public_torch_apis_are_not_unknown(analyze):
    findings = _api_findings(analyze(REAL_APIS))
    assert [f for f in findings if f[4] == "MSM103"] == []
    assert {(line, name) for line, _c, name, _w, _r in findings} == {
        (6, "torch.jit.is_scripting"),
        (8, "torch.testing.assert_close"),
        (9, "torch.multiprocessing.spawn"),
        (10, "torch.fx.symbolic_trace"),
        (11, "torch.distributed.rpc.remote"),
        (12, "torch.distributed.rpc.remote"),
        (13, "torch.signal.windows.hann"),
        (14, "torch.distributions.Normal"),
        (15, "torch.accelerator.is_available"),
        (16, "torch.nn.attention.sdpa_kernel"),
        (16, "torch.nn.attention.SDPBackend.MATH"),
    }


def test_findings_carry_the_canonical_and_the_written_name(analyze):
    code = (
        "import torch\nfrom torch.nn.modules.loss import L1Loss\nimport torch.nn.modules.module as mm\n"
        "torch.functional.split(x, 2)\nL1Loss()\nm = torch.nn.Linear(2, 2)\nm.to('cpu')\ntorch.split(x, 2)\n"
        "mm.Module\n"
    )
    assert _api_findings(analyze(code)) == [
        (4, 1, "torch.split", "torch.functional.split", "MSM101"),
        (5, 1, "torch.nn.L1Loss", "torch.nn.modules.loss.L1Loss", "MSM100"),
        (6, 5, "torch.nn.Linear", None, "MSM101"),
        (7, 3, "torch.nn.Module.to", None, "MSM200"),
        (8, 1, "torch.split", None, "MSM101"),
        (9, 1, "torch.nn.Module", "torch.nn.modules.module.Module", "MSM200"),
    ]


def test_written_api_in_json_and_cache_rows(analyze):
    finding = analyze("import torch\ntorch.functional.split(x, 2)\n").findings[0]
    assert finding.to_dict()["written_api"] == "torch.functional.split"
    assert "written_api" not in analyze("import torch\ntorch.split(x, 2)\n").findings[0].to_dict()
    assert finding_from_row(finding_to_row(finding)) == finding
    assert Finding.__dataclass_fields__["written_api"].default is None


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [
        ("torch.nn.Linaer", "torch.nn.Linear"),
        ("torch.sofmax", "torch.softmax"),
        ("torch.jit.is_scriptin", "torch.jit.is_scripting"),
        ("torch.nn.Batchnorm2d", "torch.nn.BatchNorm2d"),  # a case slip
        ("torch.Tensor.viw", "torch.Tensor.view"),
        ("torch.nn.functionl.relu", "torch.nn.functional.relu"),  # the typo further up
    ],
)
def test_typos_get_the_near_spelling(kb, name, suggestion):
    verdict = categorize(name, kb)
    assert (verdict.rule, verdict.message_key) == ("MSM103", "analysis.api.unknown_suggest")
    assert verdict.message_args["suggestion"] == suggestion


@pytest.mark.parametrize(
    "name",
    [
        "torch.jit.is_scripted_module",  # not a typo of is_scripting or script
        "torch.nn.Linr",  # two edits on a short word
        "torch.nn.NoSuchLayer",
        "torch.totally_unknown_function",
    ],
)
def test_other_unknown_names_get_no_suggestion(kb, name):
    verdict = categorize(name, kb)
    assert (verdict.rule, verdict.message_key) == ("MSM103", "analysis.api.unknown")
    assert "suggestion" not in verdict.message_args


def test_a_real_api_is_never_unknown():
    kb26 = get_knowledge_base("2.6")
    for name in ("torch.jit.is_scripting", "torch.jit.script", "torch.nn.modules.loss.L1Loss"):
        assert categorize(name, kb26).rule != "MSM103", name
