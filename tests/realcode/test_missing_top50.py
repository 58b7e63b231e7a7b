"""The 50 torch APIs that pinned real code reports "missing" most often each get a concrete answer.

The list is committed (``missing_top50.json``, written by ``benchmarks/missing_api_frequency.py --write``) so
that every run checks the answers in a second, and a reviewer sees the list change in a diff; the slow test
scans the pinned packages again (about 30 s) and fails when the committed list is stale — after a change that
moves an API in or out of "missing", rerun the command and answer any new API.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.missing_answers import answer_kind

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))

from missing_frequency import COMMAND, TABLE, TOP, count_missing, load_top, top_document  # noqa: E402

# the kind of answer of each API of the list, read from the advice and the compositions (docs/missing-apis.md)
EXPECTED_KINDS = {
    "composition": {
        "torch.nn.functional.scaled_dot_product_attention", "torch.distributions.utils.broadcast_all",
        "torch.finfo", "torch.finfo.eps", "torch.Tensor.neg_", "torch.Tensor.addcdiv_",
        "torch.Tensor.addcmul_", "torch.nn.RMSNorm", "torch.Tensor.unfold", "torch.nn.Module.modules",
        "torch.nn.Module.named_parameters",
    },
    "fix": {"torch.Tensor.detach"},
}


def test_the_committed_list_is_the_top_50_in_order():
    document = load_top()
    assert document["command"] == COMMAND and document["table"] == TABLE
    top = document["top"]
    assert len(top) == TOP == 50
    assert len({row["torch_api"] for row in top}) == 50
    assert top == sorted(top, key=lambda row: (-row["findings"], row["torch_api"]))
    assert all(row["findings"] >= 12 and row["packages"] for row in top)
    assert document["missing_findings"] >= sum(row["findings"] for row in top)


def test_every_api_of_the_top_50_has_a_concrete_answer():
    kb = get_knowledge_base(TABLE)
    kinds = {row["torch_api"]: answer_kind(row["torch_api"], kb) for row in load_top()["top"]}
    assert {api for api, kind in kinds.items() if kind is None} == set()
    for kind, apis in EXPECTED_KINDS.items():
        assert {api for api in kinds if kinds[api] == kind} == apis, kind
    others = set(kinds) - set().union(*EXPECTED_KINDS.values())
    assert {api for api in kinds if kinds[api] == "recipe"} == others


def test_answer_kind_says_none_for_an_uncatalogued_api_and_mapping_for_a_mapped_one():
    kb = get_knowledge_base(TABLE)
    assert answer_kind("torch.distributions.ExponentialFamily", kb) is None  # rank 66: the first unanswered
    assert answer_kind("torch.optim.LBFGS", kb) is None  # "ask the community" is not an answer
    assert answer_kind("torch.abs", kb) == "mapping"
    assert answer_kind("torch.Tensor.view", kb) == "mapping"  # a verified derived mapping
    assert answer_kind("torch.finfo.tiny", kb) == "composition"  # a member of the composition's result


@pytest.mark.slow
def test_a_new_scan_of_the_pinned_packages_gives_the_committed_list():
    found, packages = count_missing()
    assert top_document(found, packages) == load_top()
