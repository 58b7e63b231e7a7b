"""Per-call facts memoised per API verdict and call shape (issue 15): the memo gives exactly what
``call_verdict`` gives, keyed on everything the verdict reads of a call."""

import ast

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.analysis.call_facts import call_shape, call_verdict, call_verdict_memo
from msmigrate.analysis.categorize import categorize, verdict_cache
from msmigrate.knowledge.base import get_knowledge_base

TENSORS = {"x", "y"}


def _is_tensor(node):
    return isinstance(node, ast.Name) and node.id in TENSORS


def _call(text: str) -> tuple[ast.Call, str]:
    return ast.parse(text, mode="eval").body, text


def _shape(text: str, is_tensor=_is_tensor):
    call, source = _call(text)
    return call_shape(call, is_tensor, lambda node: ast.get_source_segment(source, node) or "")


def test_call_shape_holds_places_kinds_and_texts():
    assert _shape("torch.max(x, 1)") == ((False, "tensor", "x"), (False, "int", "1"))
    assert _shape("m.max(x, dim=-1)") == ((False, "tensor", "x"), ("dim", "int", "-1"))
    assert _shape("torch.max(*a, **k)") == ((True, None, "*a"), (None, None, "k"))
    # the same text, another kind: another shape
    assert _shape("torch.max(x, n)") != _shape("torch.max(x, n)", lambda node: True)
    assert _shape("torch.max(x, 1)") != _shape("torch.max(x, 1.0)")
    assert _shape("f()") == ()


def test_memo_gives_what_call_verdict_gives():
    kb = get_knowledge_base("2.6")
    verdicts = verdict_cache(kb)
    cases = [("torch.max", "torch.max(x, 1)"), ("torch.max", "torch.max(x, y)"),
             ("torch.max", "torch.max(x, n)"), ("torch.nn.Linear", "nn.Linear(4, 8, bias=False)"),
             ("torch.nn.Linear", "nn.Linear(4, 8)"), ("torch.nn.Flatten", "nn.Flatten()"),
             ("torch.nn.BatchNorm2d", "nn.BatchNorm2d(8, momentum=0.2)"), ("torch.zeros", "torch.zeros(*s)")]
    found = []
    for api, text in cases:
        verdict = categorize(api, kb, verdicts)
        call, source = _call(text)

        def segment(node, source=source):
            return ast.get_source_segment(source, node) or ""

        expected = call_verdict(verdict, call, kb, _is_tensor)
        first = call_verdict_memo(verdict, call, kb, _is_tensor, segment)
        again = call_verdict_memo(verdict, _call(text)[0], kb, _is_tensor, segment)
        assert first == expected, text
        assert again is first, text  # a memo hit
        found.append(first is not None)
    assert found == [True, True, True, True, True, False, True, True]
    # calls of the same text whose argument kinds differ get their own verdicts
    verdict = categorize("torch.max", kb, verdicts)
    tensor = call_verdict_memo(verdict, _call("torch.max(x, n)")[0], kb, lambda node: True, lambda node: "n")
    unknown = call_verdict_memo(verdict, _call("torch.max(x, n)")[0], kb, lambda node: False,
                                lambda node: "n")
    assert tensor is not unknown


def test_calls_of_one_shape_get_their_own_message_args():
    kb = get_knowledge_base("2.6")
    source = "import torch.nn as nn\na = nn.Linear(4, 8)\nb = nn.Linear(4, 8)\n"
    result = analyze_source(source, "m.py", kb, AnalysisOptions(use_jedi=False))
    linear = [f for f in result.findings if f.torch_api == "torch.nn.Linear"]
    assert [f.line for f in linear] == [2, 3]
    assert linear[0].message_args == linear[1].message_args
    assert linear[0].message_args is not linear[1].message_args
