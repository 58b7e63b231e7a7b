"""Parameter facts checked against the installed MindSpore signature (``mindspore_inventory.json``).

A mapping row's renames come from documentation written for older MindSpore versions; the inventory
holds the signatures of the installed one (2.10). :func:`plan_arguments` maps the arguments of one call
(torch parameter names, by position and by keyword) onto the MindSpore overload that takes them all:
a keyword the MindSpore signature accepts keeps its name, else the row's rename if the signature has it,
else a parameter of the signature found by name similarity or by position; what is left is a parameter
MindSpore lacks. :func:`default_differences` compares the defaults of the two signatures.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from msmigrate.knowledge.mindspore_calls import Companion, mindspore_calls
from msmigrate.knowledge.param_names import param_names

Param = dict[str, Any]
Signature = Sequence[Param]
_calls = mindspore_calls()  # knowledge/facts/mindspore_calls.toml: the reviewed facts, with their reasons

POSITIONAL = ("positional_only", "positional_or_keyword")
_VARIADIC = ("var_positional", "var_keyword")
# what a parameter takes, by its name (knowledge/facts/param_names.toml): an axis, or a tensor (to tell
# overloads apart, and to keep a parameter from being matched by position with one of another kind: torch's
# ``other`` is no ``axis``), a shape; the names of the tensor an operator works on, as its first parameter
# (torch.linalg.inv(A) → inv(input)); parameter names that mean the same value in torch and MindSpore
_names = param_names()
INTEGER_PARAMS = _names.takes["int"]
TENSOR_PARAMS = _names.takes["tensor"]
SHAPE_PARAMS = _names.takes["shape"]
PRIMARY_INPUTS = _names.first_inputs
SAME_MEANING: dict[str, frozenset[str]] = _names.same_meaning
_SIMILAR = 0.8  # difflib ratio from which two parameter names are the same parameter (keepdim/keepdims)
# a MindSpore default that means "not given" (decided by other parameters), and a torch default the
# stubs do not show: neither can be compared
_UNCOMPARABLE = frozenset({"None", "..."})


def method_as_function(torch_kind: str | None, mindspore_kind: str | None) -> bool:
    """Whether a torch Tensor method maps to a MindSpore function that takes the tensor as its first
    argument (``x.roll(1)`` → ``mindspore.numpy.roll(x, 1)``), by the two inventory kinds."""
    return torch_kind == "tensor_method" and mindspore_kind == "function"


def receiver_first(torch_kind: str | None, mindspore_kind: str | None) -> bool:
    """Whether a torch method's receiver becomes the first argument of its MindSpore function (a Tensor
    method as :func:`method_as_function`, ``model.load_state_dict(sd)`` → ``load_param_into_net(model,
    sd)``): the call's arguments land on the parameters after it."""
    return torch_kind in ("tensor_method", "method") and mindspore_kind == "function"


# torch classes whose instance is written ``functools.partial(function, name=value, …)`` of a MindSpore
# function (``nn.Unfold(2)`` → ``functools.partial(mindspore.ops.unfold, kernel_size=2)``)
CLASS_AS_PARTIAL: frozenset[tuple[str, str]] = frozenset(_calls.class_as_partial)


def class_as_partial(torch_api: str | None, mindspore_api: str | None) -> bool:
    """Whether an instance of the torch class ``torch_api`` is written as ``functools.partial`` of the
    MindSpore function ``mindspore_api`` (:data:`CLASS_AS_PARTIAL`)."""
    return (torch_api, mindspore_api) in CLASS_AS_PARTIAL


@dataclass(frozen=True, slots=True)
class ArgumentPlan:
    """How one call's arguments are written for the chosen MindSpore overload."""

    overload: int
    renames: tuple[tuple[str, str], ...] = ()  # keyword: torch name → MindSpore name
    to_keyword: tuple[tuple[int, str], ...] = ()  # positional argument index → MindSpore keyword
    shifted: tuple[tuple[str, str], ...] = ()  # by position: torch parameter → MindSpore parameter there
    missing: tuple[str, ...] = ()  # torch parameters passed that the MindSpore signature lacks
    var_keyword: bool = False  # the MindSpore overload takes **kwargs (unknown keywords pass unchecked)
    targets: tuple[tuple[str, str], ...] = ()  # every torch parameter name → its MindSpore name
    # by position, names unrelated: torch parameter → the MindSpore parameter it lands on (also in targets)
    landed: tuple[tuple[str, str], ...] = ()


def names_of(signature: Signature) -> list[str]:
    return [p["name"] for p in signature if p.get("kind") not in _VARIADIC]


def accepts(signatures: Sequence[Signature], name: str) -> bool:
    """Whether some overload takes ``name`` as a keyword (or takes ``**kwargs``)."""
    return any(
        p.get("kind") == "var_keyword" or (p["name"] == name and p.get("kind") not in ("positional_only",
                                                                                       *_VARIADIC))
        for signature in signatures for p in signature
    )


def keyword_target(name: str, overload: Signature, renames: Mapping[str, str],
                   torch_names: Sequence[str]) -> str | None:
    """The MindSpore keyword of ``overload`` for torch parameter ``name``: the same name, the row's
    rename, a name of the same meaning (:data:`SAME_MEANING`), a similar name, or the parameter at the same
    position (names the torch signature also has
    are never taken over), else ``None``."""
    keywords = [p["name"] for p in overload if p.get("kind") not in ("positional_only", *_VARIADIC)]
    if name in keywords:
        return name
    renamed = renames.get(name)
    if renamed in keywords:
        return renamed
    free = [k for k in keywords if k not in torch_names]
    same = [k for k in free if k in SAME_MEANING.get(name, ())]
    if same:
        return same[0]
    close = difflib.get_close_matches(name, free, n=1, cutoff=_SIMILAR)
    if close:
        return close[0]
    if name in torch_names:
        position = list(torch_names).index(name)
        positional = [p["name"] for p in overload if p.get("kind") in POSITIONAL]
        if position < len(positional) and positional[position] in free \
                and _same_kind(name, positional[position]):
            return positional[position]
    return None


def param_kind(name: str) -> str | None:
    return "int" if name in INTEGER_PARAMS else "tensor" if name in TENSOR_PARAMS else None


def _value_kind(name: str) -> str | None:
    if name in SHAPE_PARAMS:
        return "shape"
    return param_kind(name) or ("tensor" if name in PRIMARY_INPUTS else None)


def _other_kind(a: str, b: str) -> bool:
    """Two names known to take different kinds of value (``dim`` and ``indices``, ``A`` and ``shape``)."""
    kinds = (_value_kind(a), _value_kind(b))
    return None not in kinds and kinds[0] != kinds[1]


def _same_kind(a: str, b: str) -> bool:
    """Two names known to take the same kind of value (``dim`` and ``axis``)."""
    kind = param_kind(a)
    return kind is not None and kind == param_kind(b)


def plan_arguments(
    positional: Sequence[str | None],
    keywords: Sequence[str],
    torch_names: Sequence[str],
    mindspore_signatures: Sequence[Signature],
    renames: Mapping[str, str],
) -> ArgumentPlan | None:
    """The best MindSpore overload for a call passing ``positional`` (the torch parameter of each
    positional argument, ``None`` when unknown) and ``keywords``; ``None`` without a signature."""
    best: tuple[tuple[int, int, int], ArgumentPlan] | None = None
    for index, overload in enumerate(mindspore_signatures):
        plan = _plan(index, overload, positional, keywords, torch_names, renames)
        score = (len(plan.missing), len(plan.to_keyword), len(plan.renames))
        if best is None or score < best[0]:
            best = (score, plan)
    return best[1] if best is not None else None


def _plan(index: int, overload: Signature, positional: Sequence[str | None], keywords: Sequence[str],
          torch_names: Sequence[str], renames: Mapping[str, str]) -> ArgumentPlan:
    var_keyword = any(p.get("kind") == "var_keyword" for p in overload)
    var_positional = any(p.get("kind") == "var_positional" for p in overload)
    slots = [p["name"] for p in overload if p.get("kind") in POSITIONAL]
    # a wrapper's ``(first, *args, **kwargs)`` (``Parameter.__new__``): what its ``*args`` mean is not known,
    # its ``**kwargs`` take a keyword as the keywords of the call do (``Parameter(x, requires_grad=False)``)
    wrapper = bool(slots) and var_keyword and any(
        p.get("kind") == "var_positional" and p["name"] == "args" for p in overload)
    passes_on = var_positional and not wrapper
    targets = _targets(overload, tuple(torch_names), tuple(sorted(renames.items())),
                       tuple(sorted(set(keywords) - set(torch_names))))
    renamed: list[tuple[str, str]] = []
    to_keyword: list[tuple[int, str]] = []
    shifted: list[tuple[str, str]] = []
    missing: list[str] = []
    landed: list[tuple[str, str]] = []
    claimed = {t for t in targets.values() if t is not None} | set(torch_names)
    converting = False
    for position, name in enumerate(positional):
        if name is None:
            continue
        target = targets.get(name)
        slot = slots[position] if position < len(slots) else None
        if not converting and slot is not None and (slot == target or target is None and slot == name):
            continue
        if not converting and target is None and slot is not None and slot not in claimed \
                and not _other_kind(name, slot):
            # compared by where it lands: the slot no other torch parameter names takes it (torch.save's
            # obj → save_obj, add_module's name → child_name)
            landed.append((name, slot))
            continue
        if position == 0 and target is None and name in PRIMARY_INPUTS and slot in PRIMARY_INPUTS:
            continue
        if not converting and slot is None and passes_on:
            continue
        converting = True  # once one argument moves to a keyword, the ones after it must too
        if target is None and wrapper and slot is None:
            target = name
        if slot is not None and slot != target:
            shifted.append((name, slot))
        if target is None:
            missing.append(name)
        else:
            to_keyword.append((position, target))
    for name in keywords:
        target = targets.get(name)
        if target is None:
            if not var_keyword:
                missing.append(name)
        elif target != name:
            renamed.append((name, target))
    named = {n: t for n, t in targets.items() if t is not None} | dict(landed)
    return ArgumentPlan(
        index, tuple(renamed), tuple(to_keyword), tuple(shifted), tuple(missing), var_keyword,
        tuple(sorted(named.items())), tuple(landed),
    )


_TARGETS: dict[tuple, tuple[Signature, dict[str, str | None]]] = {}


def _targets(overload: Signature, torch_names: tuple[str, ...], renames: tuple[tuple[str, str], ...],
             extra: tuple[str, ...]) -> dict[str, str | None]:
    """:func:`keyword_target` of every name, cached per overload (the inventories' signatures live as long
    as the process; the cache keeps the overload so that its id stays its own)."""
    key = (id(overload), torch_names, renames, extra)
    found = _TARGETS.get(key)
    if found is None or found[0] is not overload:
        if len(_TARGETS) > 20000:
            _TARGETS.clear()
        mapping = dict(renames)
        found = _TARGETS[key] = (overload, {n: keyword_target(n, overload, mapping, torch_names)
                                            for n in (*torch_names, *extra)})
    return found[1]


REQUIRED = "<required>"  # the "MindSpore default" of a parameter MindSpore requires


def default_differences(torch_signature: Signature, mindspore_overload: Signature,
                        targets: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """(torch parameter, torch default, MindSpore default) where the two signatures give one parameter
    (same name or its target) different defaults; :data:`REQUIRED` where MindSpore requires a parameter
    to which torch gives a literal default (``torch.optim.SGD``'s ``lr=0.001``: MindSpore's SGD has none)."""
    ms_defaults = {p["name"]: p.get("default") for p in mindspore_overload if p.get("kind") not in _VARIADIC}
    required = {p["name"] for p in mindspore_overload
                if "default" not in p and p.get("kind") in ("positional_or_keyword", "keyword_only")}
    found = []
    for param in torch_signature:
        name, torch_default = param["name"], param.get("default")
        target = targets.get(name)
        if target in required and literal_kind(torch_default) is not None:
            found.append((name, str(torch_default), REQUIRED))
            continue
        ms_default = ms_defaults.get(target) if target else None
        if torch_default is None or ms_default is None or _UNCOMPARABLE & {torch_default, ms_default}:
            continue
        if torch_default.startswith("<") or ms_default.startswith("<"):  # an object's repr (an enum member)
            continue
        if _normal(torch_default) != _normal(ms_default):
            found.append((name, torch_default, ms_default))
    return found


# MindSpore-only parameters whose default changes what a torch call computes: (parameter, the value that
# makes MindSpore compute what torch does, the MindSpore parameters whose passing makes it necessary)
COMPANIONS: dict[str, tuple[Companion, ...]] = _calls.companions


# the same, for one torch API mapped to a MindSpore API that other torch APIs map to as well
PAIR_COMPANIONS: dict[tuple[str, str], tuple[Companion, ...]] = _calls.pair_companions


# parameter renames of one torch API → MindSpore API pair, where the row that offers the pair has none
PAIR_RENAMES: dict[tuple[str, str], dict[str, str]] = _calls.pair_renames


def pair_renames(torch_api: str, mindspore_api: str) -> dict[str, str]:
    """The reviewed renames of :data:`PAIR_RENAMES` for the pair (empty when none)."""
    return dict(PAIR_RENAMES.get((torch_api, mindspore_api), {}))


def companions(mindspore_api: str, overload: Signature, passed_targets: set[str],
               torch_api: str = "") -> list[tuple[str, str, str]]:
    """(parameter, value to pass, MindSpore default) of :data:`COMPANIONS` (and of :data:`PAIR_COMPANIONS`
    for ``torch_api``) the call must add: the overload has the parameter with another default, the call
    does not pass it and passes one of the parameters that need it (:data:`REQUIRED` for one MindSpore
    requires)."""
    defaults = {p["name"]: p.get("default", REQUIRED) for p in overload}
    wanted = (*COMPANIONS.get(mindspore_api, ()), *PAIR_COMPANIONS.get((torch_api, mindspore_api), ()))
    return [(name, value, defaults[name]) for name, value, needed_with in wanted
            if name in defaults and defaults[name] != value and name not in passed_targets
            and (not needed_with or passed_targets & set(needed_with))]


# (parameter, the parameter whose value it takes): torch's default (None) means another parameter's value
DEFAULT_FROM: dict[str, tuple[tuple[str, str], ...]] = _calls.default_from


def defaults_from(mindspore_api: str, overload: Signature,
                  passed: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """(parameter, value to pass, MindSpore default) of :data:`DEFAULT_FROM` for a call that leaves the
    parameter out and passes the one it takes its value from (``passed``: parameter → source text)."""
    defaults = {p["name"]: p.get("default") for p in overload}
    return [(name, passed[source], defaults[name]) for name, source in DEFAULT_FROM.get(mindspore_api, ())
            if name in defaults and name not in passed and source in passed]


# MindSpore parameters that take torch's values in another meaning, and how a torch value is written for
# them: ``COMPLEMENT`` (MindSpore's value is ``1 - torch's``), ``SQUARE`` (``torch's ** 2``) or a table of
# literal values (the BatchNorm momentum, L2Normalize's epsilon, backend names…)
COMPLEMENT = "1 - value"
SQUARE = "value ** 2"
KEEP_OTHERS = "*"  # in a table of values: the values it does not list mean the same in MindSpore
Conversion = str | dict[str, str]
VALUE_MEANINGS: dict[str, dict[str, Conversion]] = _calls.value_meanings


def converts(mindspore_api: str, param: str | None) -> bool:
    """Whether MindSpore's ``param`` of ``mindspore_api`` takes torch's values in another meaning."""
    return param is not None and param in VALUE_MEANINGS.get(mindspore_api, {})


def mindspore_value(mindspore_api: str, param: str | None, torch_value: str) -> str | None:
    """The source text of the value of MindSpore's ``param`` that means what ``torch_value`` (source text)
    means in torch: the value itself, or as :data:`VALUE_MEANINGS` says (a complement computed for a
    number, written ``1 - name`` / ``1 - (…)`` for an expression); ``None`` where no value can be written
    (``momentum=None``, torch's cumulative average; an expression for a table of values)."""
    conversion = VALUE_MEANINGS.get(mindspore_api, {}).get(param or "")
    if conversion is None:
        return torch_value
    text = torch_value.strip()
    if isinstance(conversion, dict):
        return conversion.get(text, text if KEEP_OTHERS in conversion else None)
    if text == "None":
        return None
    try:
        number = float(text)
    except ValueError:
        simple = all(part.isidentifier() for part in text.split("."))
        if conversion == SQUARE:
            return f"{text} ** 2" if simple else f"({text}) ** 2"
        return f"1 - {text}" if simple else f"1 - ({text})"
    if conversion == SQUARE:
        return repr(float(f"{number * number:.12g}"))
    return repr(round(1.0 - number, 12))


def literal_kind(text: str | None) -> str | None:
    """``str`` / ``bool`` / ``int`` / ``float`` for a default written as a literal, else ``None``."""
    if not text:
        return None
    if text[0] in "'\"":
        return "str"
    if text in ("True", "False"):
        return "bool"
    try:
        float(text)
    except ValueError:
        return None
    return "float" if any(c in text for c in ".eE") else "int"


def same_default(a: str, b: str) -> bool:
    """Whether two defaults (source text) are the same value (``0.9`` and ``0.90``, quotes aside)."""
    return _normal(a) == _normal(b)


def _normal(default: str) -> str:
    """A default for comparison: ``2.0`` and ``2`` are one number, quotes and package prefixes aside."""
    try:
        return repr(float(default))
    except ValueError:
        pass
    return default.replace('"', "'").replace("torch.", "").replace("mindspore.", "")


# torch calls that no argument-by-argument rewrite keeps the meaning of, and the message key of what to
# write by hand (fields: torch_api, mindspore_api)
MANUAL_REWRITES: dict[tuple[str, str], str] = _calls.manual_rewrites


# torch parameters MindSpore's API does not take, and the values that mean what it does without them
ABSENT_MEANS: dict[str, dict[str, tuple[str, ...]]] = _calls.absent_means


def means_absent(mindspore_api: str, torch_param: str, torch_value: str) -> bool:
    """Whether passing ``torch_value`` (source text) for ``torch_param``, which ``mindspore_api`` does not
    take, means what MindSpore does without it (:data:`ABSENT_MEANS`)."""
    values = ABSENT_MEANS.get(mindspore_api, {}).get(torch_param, ())
    return torch_value.strip() in values or KEEP_OTHERS in values
