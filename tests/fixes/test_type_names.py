"""``msmigrate fix`` (safe fixes only) renames a torch class named as a type outside annotations (type
aliases, typing subscripts, ``A | B``, ``cast``, ``TypeVar``, ``type(x) is C``, ``case C()``); a class
called, subclassed, stored, passed on or with an attribute taken from it is left as it is."""

from __future__ import annotations

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.project import FixOptions, fix_source
from msmigrate.fixes.safety import is_safe
from msmigrate.model.finding import UsageKind


def safe_fixed(source: str, kb) -> str | None:
    new, _ = fix_source(source.encode(), "m.py", kb, FixOptions(mindspore_version="2.6", write=False))
    return new.decode() if new is not None else None


TYPE_NAMES = '''from typing import Callable, Optional, TypeAlias, TypeVar, cast

import torch
from torch import Tensor, nn

Signature = Callable[[Tensor, Tensor], Tensor]
Grads: TypeAlias = tuple[Tensor, ...] | Tensor
V = TypeVar("V", bound=nn.Module)


def f(x, m):
    y = cast(list[Tensor], x)
    if type(x) is torch.Tensor and isinstance(m, (nn.Module, nn.Flatten)):
        return y
    match x:
        case Tensor():
            return Optional[Tensor]
    return None
'''


def test_type_names_are_renamed_by_the_safe_fixes(kb26):
    assert safe_fixed(TYPE_NAMES, kb26) == '''from typing import Callable, Optional, TypeAlias, TypeVar, cast

import mindspore

Signature = Callable[[mindspore.Tensor, mindspore.Tensor], mindspore.Tensor]
Grads: TypeAlias = tuple[mindspore.Tensor, ...] | mindspore.Tensor
V = TypeVar("V", bound=mindspore.nn.Cell)


def f(x, m):
    y = cast(list[mindspore.Tensor], x)
    if type(x) is mindspore.Tensor and isinstance(m, (mindspore.nn.Cell, mindspore.nn.Flatten)):
        return y
    match x:
        case mindspore.Tensor():
            return Optional[mindspore.Tensor]
    return None
'''


def test_other_classes_named_as_types(kb26):
    """torch.Generator (consistent) and nn.Parameter (with differences) are renamed to their MindSpore
    classes; torch.device, which MindSpore has no class for, is the str MindSpore names devices with
    (rules/missing/msm201_equivalent.py)."""
    source = (
        "from typing import Optional\n\nimport torch\nfrom torch import nn\n\n"
        "Devices = dict[torch.device | None, torch.Tensor]\nGen = Optional[torch.Generator]\n"
        "Params = list[nn.Parameter]\n"
    )
    assert safe_fixed(source, kb26) == (
        "from typing import Optional\n\nimport mindspore\n\n"
        "Devices = dict[str | None, mindspore.Tensor]\nGen = Optional[mindspore.Generator]\n"
        "Params = list[mindspore.Parameter]\n"
    )


NOT_TYPE_NAMES = '''from typing import cast

import torch
from torch import Tensor


class P(torch.Tensor):
    pass


def f(x, g):
    k = torch.Tensor
    a = g(Tensor)
    b = Tensor._make_subclass(P, x)
    c = cast(x, Tensor)
    match x:
        case Tensor(shape=s):
            return s
    return torch.Tensor(3), k, a, b, c
'''


def test_a_class_called_subclassed_or_passed_on_is_not_renamed_by_the_safe_fixes(kb26):
    assert safe_fixed(NOT_TYPE_NAMES, kb26) is None
    findings = analyze_source(NOT_TYPE_NAMES, "m.py", kb26).findings
    assert [(f.line, f.usage, is_safe(f, kb26)) for f in findings if f.torch_api == "torch.Tensor"] == [
        (7, UsageKind.BASE_CLASS, False),
        (12, UsageKind.ATTRIBUTE, False),
        (13, UsageKind.ATTRIBUTE, False),
        (14, UsageKind.ATTRIBUTE, False),
        (15, UsageKind.ATTRIBUTE, False),
        (17, UsageKind.ATTRIBUTE, False),
        (19, UsageKind.CALL, False),
        (19, UsageKind.ATTRIBUTE, False),  # ``k``, holding the class
    ]
