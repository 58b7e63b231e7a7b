"""torch.distributed.gather/scatter take their tensor list on the root rank only (None, or left out,
elsewhere); MindSpore 2.10's mint.distributed.gather/scatter want a list on every rank ("Expected list or
tuple" for None; a rank that raises leaves the root waiting). An empty list on the other ranks gave
torch's results on CPU in a 2-rank group (conversion suite): the fix writes one there
(``value_forms.LIST``, ``param_facts.COMPANIONS`` / ``VALUE_MEANINGS``)."""

from __future__ import annotations

import ast

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.api import fix_all, fixes_by_finding
from msmigrate.i18n import t
from msmigrate.knowledge.value_forms import LIST, adapted, needed

SOURCE = ("import torch.distributed as dist\n"
          "dist.gather(x, [a, b] if rank == 0 else None, 0)\n"
          "dist.gather(x, gather_list=parts, dst=1)\n"
          "dist.gather(x, None, 0)\n"
          "dist.gather(x, [a, b], 0)\n"
          "dist.gather(x, dst=0)\n"
          "dist.scatter(x, chunks if rank == 0 else None, 0)\n"
          "dist.scatter(x, scatter_list=chunks, src=0)\n"
          "dist.scatter(x, src=0)\n")


def _node(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def test_list_form_text():
    assert adapted(LIST, "parts", _node("parts")) == "parts or []"
    assert adapted(LIST, "p if r == 0 else None", _node("p if r == 0 else None")) == (
        "(p if r == 0 else None) or []")
    assert adapted(LIST, "batch['parts']", _node("batch['parts']")) == "batch['parts'] or []"
    # a list written as one needs nothing; None is a value written [] (VALUE_MEANINGS), not wrapped
    assert [needed(LIST, _node(text), False) for text in ("[a, b]", "(a, b)", "[p for p in q]", "None",
                                                          "parts")] == [False, False, False, False, True]


def test_gather_and_scatter_2_6_get_a_list_on_every_rank(kb26):
    fixed, _ = fix_all(SOURCE, "m.py", kb26)
    assert fixed == ("import mindspore\n"
                     "mindspore.mint.distributed.gather(x, ([a, b] if rank == 0 else None) or [], 0)\n"
                     "mindspore.mint.distributed.gather(x, gather_list=parts or [], dst=1)\n"
                     "mindspore.mint.distributed.gather(x, [], 0)\n"
                     "mindspore.mint.distributed.gather(x, [a, b], 0)\n"
                     "mindspore.mint.distributed.gather(x, dst=0, gather_list=[])\n"
                     "mindspore.mint.distributed.scatter(x, (chunks if rank == 0 else None) or [], 0)\n"
                     "mindspore.mint.distributed.scatter(x, scatter_list=chunks or [], src=0)\n"
                     "mindspore.mint.distributed.scatter(x, src=0, scatter_list=[])\n")


def test_titles_and_findings_say_the_list(kb26):
    source = "import torch.distributed as dist\ndist.gather(x, parts, 0)\n"
    findings = analyze_source(source, "m.py", kb26).findings
    (title,) = [fix.title("en") for f, fix in fixes_by_finding(source, "m.py", findings, kb26)
                if f.torch_api == "torch.distributed.gather"]
    assert title == ("Replace torch.distributed.gather with mindspore.mint.distributed.gather (arguments: "
                     "parts or []; then review the documented differences)")
    (finding,) = [f for f in findings if f.torch_api == "torch.distributed.gather"]
    assert t(finding.message_key, "en", **finding.message_args) == (
        "torch.distributed.gather → mindspore.mint.distributed.gather (MindSpore takes or returns these "
        "values in another form (int32 indices, a Tensor for a number, a tuple of outputs, a list on every "
        "rank): parts → parts or []).")
    assert "parts → parts or []" in t(finding.message_key, "zh", **finding.message_args)
