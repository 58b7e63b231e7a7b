"""A torch class named as a type outside annotations is a ``reference`` usage; called, subclassed, with
an attribute taken from it, or passed to an unknown function, it stays what it was
(analysis/type_positions.py)."""

from __future__ import annotations

import pytest

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.analysis.incremental import INCREMENTAL, IncrementalAnalyzer

HEADER = (
    "import typing\n"
    "from typing import Callable, Optional, TypeAlias, TypeVar, cast\n"
    "import torch\n"
    "from torch import Tensor, nn\n"
)


def usages(analyze, body: str) -> list[tuple[int, int, str, str]]:
    """``(line in body, column, torch_api, usage)`` of the findings of ``body`` after the imports."""
    result = analyze(HEADER + body)
    return [(f.line - 4, f.column, f.torch_api, f.usage.value) for f in result.findings]


T, M = "torch.Tensor", "torch.nn.Module"


@pytest.mark.parametrize(("body", "expected"), [
    # a type alias: the arguments of Callable[...] (the nested list too)
    ("sig = Callable[[Tensor, Tensor], Tensor]\n",
     [(1, 17, T, "reference"), (1, 25, T, "reference"), (1, 34, T, "reference")]),
    ("o = Optional[torch.Tensor]\n", [(1, 14, T, "reference")]),
    ("o = typing.Union[torch.Tensor, nn.Module]\n", [(1, 18, T, "reference"), (1, 32, M, "reference")]),
    # builtin generics and a | between types
    ("g = tuple[Tensor, ...] | Tensor\n", [(1, 11, T, "reference"), (1, 26, T, "reference")]),
    ("g = list[Tensor]\nh = dict[str, nn.Module]\n", [(1, 10, T, "reference"), (2, 15, M, "reference")]),
    ("u = torch.Tensor | None\n", [(1, 5, T, "reference")]),
    ("u = int | Tensor | None\n", [(1, 11, T, "reference")]),
    # an alias built from typing objects, subscripted again
    ("S = typing.Union[int, tuple[int, ...]]\nA = S[Tensor]\n", [(2, 7, T, "reference")]),
    # the value of a TypeAlias, whatever the generic it subscripts
    ("A: TypeAlias = torch.Tensor\n", [(1, 16, T, "reference")]),
    ("A: typing.TypeAlias = torch.Tensor | typing.Iterable[torch.Tensor]\n",
     [(1, 23, T, "reference"), (1, 54, T, "reference")]),
    # typing functions: the type of cast, the bound and constraints of TypeVar, NewType's type
    ("def f(x):\n    return cast(list[Tensor], x), cast(Tensor | None, x), typing.cast(nn.Module, x)\n",
     [(2, 22, T, "reference"), (2, 40, T, "reference"), (2, 71, M, "reference")]),
    ("V = TypeVar('V', bound=Tensor)\nW = TypeVar('W', Tensor, nn.Module)\n",
     [(1, 24, T, "reference"), (2, 18, T, "reference"), (2, 26, M, "reference")]),
    ("N = typing.NewType('N', torch.Tensor)\n", [(1, 25, T, "reference")]),
    # class identity tests
    ("def f(x):\n    return type(x) is torch.Tensor, Tensor == type(x), x.__class__ is not Tensor\n",
     [(2, 23, T, "reference"), (2, 37, T, "reference"), (2, 75, T, "reference")]),
    # ``__class__`` whatever ``type`` is
    ("def type(x):\n    return x\nc = (1).__class__ is Tensor\n", [(3, 22, T, "reference")]),
    ("def f(x):\n    return type(x) in (Tensor, nn.Module)\n",
     [(2, 24, T, "reference"), (2, 32, M, "reference")]),
    ("def f(x):\n    match x:\n        case Tensor():\n            return 1\n        case nn.Module():\n"
     "            return 2\n",
     [(3, 14, T, "reference"), (5, 14, M, "reference")]),
])
def test_a_class_named_as_a_type_is_a_reference(analyze, body, expected):
    assert usages(analyze, body) == expected


@pytest.mark.parametrize(("body", "expected"), [
    # called, subclassed, an attribute or method taken from it
    ("t = torch.Tensor(3)\n", [(1, 5, T, "call")]),
    ("class P(torch.Tensor):\n    pass\n", [(1, 9, T, "base_class")]),
    ("w = torch.Tensor.add(1, 2)\n", [(1, 5, "torch.Tensor.add", "call")]),
    ("m = Tensor._make_subclass\n", [(1, 5, T, "attribute")]),
    ("h = torch.Tensor.__torch_function__\n", [(1, 5, T, "attribute")]),
    ("o = Optional[Tensor._make_subclass]\n", [(1, 14, T, "attribute")]),
    ("o = list[torch.Tensor(3)]\n", [(1, 10, T, "call")]),
    # stored, passed to a function that may instantiate it, used as a key, or-ed with a value
    ("k = torch.Tensor\n", [(1, 5, T, "attribute")]),
    ("def f(g, x):\n    return g(torch.Tensor, x)\n", [(2, 14, T, "attribute")]),
    ("def f(d):\n    return d[torch.Tensor]\n", [(2, 14, T, "attribute")]),
    ("def f(x):\n    return torch.Tensor | x\n", [(2, 12, T, "attribute")]),
    ("types = [torch.Tensor, nn.Module]\n", [(1, 10, T, "attribute"), (1, 24, M, "attribute")]),
    # the value argument of cast, a class pattern that reads attributes
    ("def f(x):\n    return cast(x, torch.Tensor)\n", [(2, 20, T, "attribute")]),
    ("def f(x):\n    match x:\n        case Tensor(shape=s):\n            return s\n",
     [(3, 14, T, "attribute")]),
    # a value compared with type(x) that is no class; a shadowed ``type``
    ("def f(x):\n    return type(x) is torch.float32\n", [(2, 23, "torch.float32", "attribute")]),
    ("def type(x):\n    return x\nc = type(1) is Tensor\n", [(3, 16, T, "attribute")]),
    # a subscript of a torch class is no typing construct
    ("f = torch.futures.Future[torch.Tensor]\n",
     [(1, 5, "torch.jit.Future", "attribute"), (1, 26, T, "attribute")]),
])
def test_a_class_used_otherwise_keeps_its_usage(analyze, body, expected):
    assert usages(analyze, body) == expected


def test_an_edited_alias_changes_the_usage_where_it_is_subscripted(kb):
    """The incremental analysis re-reads ``S[Tensor]`` when ``S`` stops being a typing alias."""
    options = AnalysisOptions(use_jedi=False)
    analyzer = IncrementalAnalyzer("m.py", kb, options)
    text = HEADER + "S = typing.Union[int, tuple[int, ...]]\n\n\ndef f():\n    return S[Tensor]\n"
    edited = text.replace("S = typing.Union[int, tuple[int, ...]]", "S = {}")
    seen = []
    for source in (text, edited):
        got = analyzer.analyze(source)
        full = analyze_source(source, "m.py", kb, options)
        assert [f.to_dict() for f in got.findings] == [f.to_dict() for f in full.findings]
        seen.append([(f.line, f.column, f.usage.value) for f in got.findings])
    assert analyzer.stats.mode == INCREMENTAL
    assert seen == [[(9, 14, "reference")], [(9, 14, "attribute")]]
