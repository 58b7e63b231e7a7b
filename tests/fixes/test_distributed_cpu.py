"""torch.distributed calls whose 2.6 target fails on CPU as torch writes it (MindSpore 2.10, a 2-rank
group of the conversion suite):

- gather/scatter take their tensor list on the root rank only (None, or left out, elsewhere);
  mint.distributed.gather/scatter want a list on every rank ("Expected list or tuple" for None; a rank that
  raises leaves the root waiting). An empty list on the other ranks gave torch's results: the fix writes
  one there (``value_forms.LIST``, ``param_facts.COMPANIONS`` / ``VALUE_MEANINGS``).
- reduce: mint.distributed.reduce has no CPU kernel; all_reduce gives dst torch's result (and the other
  ranks too, whose tensors torch leaves unspecified): written on CPU without dst
  (``device_targets.DEVICE_ONLY``, ``param_facts.ABSENT_MEANS``)."""

from __future__ import annotations

import ast

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.api import fix_all, fixes_by_finding
from msmigrate.i18n import t
from msmigrate.knowledge.device_targets import runnable_target
from msmigrate.knowledge.param_facts import means_absent
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


REDUCE = ("import torch.distributed as dist\n"
          "dist.reduce(x, 0)\n"
          "dist.reduce(x, dst=0)\n"
          "dist.reduce(x, 0, op)\n"
          "dist.reduce(x, 1, op=op, async_op=True)\n"
          "dist.reduce(tensor=x, dst=rank - 1, group=g)\n")


def test_reduce_on_cpu_is_all_reduce_without_dst(kb26):
    assert fix_all(REDUCE, "m.py", kb26, device="CPU")[0] == (
        "import mindspore\n"
        "mindspore.mint.distributed.all_reduce(x)\n"
        "mindspore.mint.distributed.all_reduce(x)\n"
        "mindspore.mint.distributed.all_reduce(x, op=op)\n"  # op moves to its keyword
        "mindspore.mint.distributed.all_reduce(x, op=op, async_op=True)\n"
        "mindspore.mint.distributed.all_reduce(tensor=x, group=g)\n")


def test_reduce_stays_reduce_where_it_is_not_known_to_fail(kb26):
    expected = REDUCE.replace("dist.reduce", "mindspore.mint.distributed.reduce").replace(
        "import torch.distributed as dist\n", "import mindspore\n")
    for device in ("Ascend", "GPU"):  # GPU: not measured, the table's target stands
        assert fix_all(REDUCE, "m.py", kb26, device=device)[0] == expected


def test_reduce_replacement_facts(kb26):
    target = runnable_target("torch.distributed.reduce", "2.6", "CPU")
    assert (target.row.mindspore_api, target.replaced, target.reason) == (
        "mindspore.mint.distributed.all_reduce", "mindspore.mint.distributed.reduce",
        "fix.device_only.reduce")
    assert runnable_target("torch.distributed.reduce", "2.6", "GPU") is None
    assert runnable_target("torch.distributed.all_reduce", "2.6", "CPU") is None
    # any dst means what all_reduce does without it; other parameters' values still count
    assert means_absent("mindspore.mint.distributed.all_reduce", "dst", "rank - 1")
    assert not means_absent("mindspore.mint.distributed.all_reduce", "src", "0")
    source = "import torch.distributed as dist\ndist.reduce(x, 0)\n"
    findings = analyze_source(source, "m.py", kb26).findings
    (fix,) = [fix for f, fix in fixes_by_finding(source, "m.py", findings, kb26)
              if f.torch_api == "torch.distributed.reduce"]
    assert fix.title("en") == (
        "Replace torch.distributed.reduce with mindspore.mint.distributed.all_reduce (arguments: −dst; "
        "then review the documented differences) "
        "(mindspore.mint.distributed.reduce has no CPU kernel in MindSpore 2.10; all_reduce gives every rank "
        "the reduced tensor, dst's included (torch leaves the other ranks' tensors unspecified), so dst is "
        "dropped)")
    assert "all_reduce 让每个进程都得到归约结果" in fix.title("zh")


def test_an_argument_by_position_meaning_its_absence_is_dropped_too(kb24):
    # init_method 'env://' (torch's default) is what communication.init does without it, by keyword or not
    source = ("import torch.distributed as dist\n"
              "dist.init_process_group('gloo', 'env://')\n"
              "dist.init_process_group('gloo', 'tcp://h:1')\n")
    assert fix_all(source, "m.py", kb24)[0] == ("import torch.distributed as dist\n"
                                                "import mindspore\n"
                                                "mindspore.communication.init(None)\n"
                                                "dist.init_process_group('gloo', 'tcp://h:1')\n")


def test_a_list_left_out_is_added_as_one_mindspore_requires(kb24, kb26):
    source = "import torch.distributed as dist\ndist.scatter(x, src=0)\n"
    (finding,) = [f for f in analyze_source(source, "m.py", kb26).findings
                  if f.torch_api == "torch.distributed.scatter"]
    # MindSpore's scatter_list has no default: none is shown
    assert t(finding.message_key, "en", **finding.message_args) == (
        "torch.distributed.scatter → mindspore.mint.distributed.scatter (MindSpore needs scatter_list=[] to "
        "compute what torch does).")
    # the same for any required companion (tensor_dot's axes)
    source = "import torch\na = torch.zeros(3)\ny = torch.dot(a, a)\n"
    (finding,) = [f for f in analyze_source(source, "m.py", kb24).findings if f.torch_api == "torch.dot"]
    assert t(finding.message_key, "en", **finding.message_args) == (
        "torch.dot → mindspore.ops.tensor_dot (MindSpore needs axes=1 to compute what torch does; see the "
        "difference page).")


def test_a_reviewed_replacement_leaves_no_unchecked_cpu_alternative(kb26):
    # the 2.4 row's comm_func.reduce (no CPU kernel either: "Unsupported op [Reduce] on CPU") is not
    # derived as a CPU alternative of the reviewed target; init_process_group's reviewed one stays
    from msmigrate.datagen.derive_device import device_alternatives
    from msmigrate.knowledge.base import get_knowledge_base

    found = device_alternatives(kb26, [get_knowledge_base(v) for v in ("2.4", "2.3", "1.10")])
    assert "torch.distributed.reduce" not in found
    init = found["torch.distributed.init_process_group"]["candidates"]
    assert [c["row"]["mindspore_api"] for c in init] == ["mindspore.communication.init"]
