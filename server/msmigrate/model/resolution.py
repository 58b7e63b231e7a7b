"""The resolution of one API finding: what the fix writes for this usage of a torch API, on which device,
with which arguments, how safely, and on what evidence.

It is computed once, by the core (``analysis/resolution.py`` for a usage in code,
``knowledge/resolution.py`` for a name looked up without a call), and read by everything that states a
claim about the finding: its message, hover, ``msmigrate lookup``, the quick-fix and ``msmigrate fix``,
the safety policy (``fixes/safety.py``), reports and ``msmigrate check API``. Plain data only (this
module sits in the model layer): every field is a JSON value once :meth:`Resolution.to_json` has run, and
:meth:`Resolution.from_json` rebuilds it (scan workers, the scan cache, the language server's findings).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any


class Write(StrEnum):
    """How the fix writes the target (the fixer dispatches on it; it never chooses another target)."""

    NAME = "name"  # the reference replaced by the MindSpore name (function, class, attribute)
    METHOD = "method"  # ``x.name(…)`` renamed to the MindSpore method, or only its arguments adapted
    METHOD_TO_FUNCTION = "method_to_function"  # ``x.roll(1)`` → ``mindspore.numpy.roll(x, 1)``
    PROPERTY_TO_METHOD = "property_to_method"  # ``x.real`` → ``x.real()``
    CLASS_AS_PARTIAL = "class_as_partial"  # ``nn.Unfold(2)`` → ``functools.partial(ops.unfold, …)``
    PRIMITIVE_CALL = "primitive_call"  # ``F.normalize(x)`` → ``ops.L2Normalize(…)(x)``
    OUTPUT_SHAPE = "output_shape"  # a Primitive called with the call's output shape
    REWRITE = "rewrite"  # the missing-API catalogue's exact rewrite (``x.size(1)`` → ``x.shape[1]``)
    EXPLAIN = "explain"  # no edit: the fix explains what to do by hand (``explain`` holds the key)
    NONE = "none"  # nothing to write (no target, the same text, or no mechanical rewrite)


class Safety(StrEnum):
    """Whether ``msmigrate fix`` applies the fix without ``--unsafe-fixes``."""

    SAFE = "safe"  # the rewrite cannot change what the program computes
    UNSAFE = "unsafe"  # offered; applied only with ``--unsafe-fixes``
    BY_HAND = "by_hand"  # the fix only explains (no edits), or leaves a step to do by hand


@dataclass(frozen=True, slots=True)
class ArgPlan:
    """How one call's arguments are written for the target (``fixes/api_fixes.py`` follows it).

    ``where`` is a positional index written as digits, or a keyword. ``checked`` is False when no
    MindSpore signature was known: the row's renames apply and nothing else was checked."""

    renames: tuple[tuple[str, str], ...] = ()  # keyword: torch name → MindSpore name
    to_keyword: tuple[tuple[int, str], ...] = ()  # positional index → the MindSpore keyword it is passed as
    missing: tuple[str, ...] = ()  # torch parameters passed that the MindSpore signature lacks
    added: tuple[tuple[str, str], ...] = ()  # keywords added: (name, value) (companions, torch defaults)
    retyped: tuple[str, ...] = ()  # parameters whose value has another type in MindSpore
    meanings: tuple[tuple[str, str], ...] = ()  # (where, value written in MindSpore's meaning)
    forms: tuple[tuple[str, str], ...] = ()  # (where, form MindSpore takes the value in: value_forms)
    result_form: str = ""  # the form the result is turned into torch's (value_forms.RESULT_FORMS)
    absent: tuple[tuple[int, str], ...] = ()  # positional arguments dropped: their value means absence
    drops: tuple[str, ...] = ()  # keywords dropped: placement / layout or a value meaning absence
    # the argument that blocks the rewrite: (fix.blocked.* message key, parameter, value as written)
    blocked: tuple[str, str, str] | None = None
    checked: bool = True
    # the positional index from which the call's arguments, torch's separate values of ``*size``, are
    # written as one tuple for the MindSpore parameter there (``analysis/packed_args.py``)
    packed: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {f.name: _jsonable(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_json(cls, data: Any) -> ArgPlan:
        if not isinstance(data, dict) or set(data) != {f.name for f in fields(cls)}:
            raise ValueError("not an argument plan")
        return cls(
            renames=_pairs(data["renames"], str, str), to_keyword=_pairs(data["to_keyword"], int, str),
            missing=_texts(data["missing"]), added=_pairs(data["added"], str, str),
            retyped=_texts(data["retyped"]), meanings=_pairs(data["meanings"], str, str),
            forms=_pairs(data["forms"], str, str), result_form=_text(data["result_form"]),
            absent=_pairs(data["absent"], int, str), drops=_texts(data["drops"]),
            blocked=None if data["blocked"] is None else _triple(data["blocked"]),
            checked=_flag(data["checked"]),
            packed=None if data["packed"] is None else _number(data["packed"]))


# the names the JSON of a resolution has always used (``msmigrate lookup --json``, the scan cache): the table
# version a row comes from is ``version`` in code and ``table`` there
JSON_KEYS = {"version": "table", "row_version": "row_table"}


def json_key(name: str) -> str:
    return JSON_KEYS.get(name, name)


@dataclass(frozen=True, slots=True)
class Replacement:
    """The mapping's own target does not work on the device (or is used otherwise than the torch name):
    what the resolution writes instead, and why (the fix's title and the notes say it)."""

    kind: str  # "device" (no kernel / no effect there), "write_back" (an in-place API's result written
    # back with Tensor.assign_value), "candidate" (a derived candidate used as the torch name is),
    # "other_table" (another table's target used as the torch name is), "temporary" (an in-place method
    # on a temporary tensor: its out-of-place counterpart, whose result is all the code reads)
    replaced: str  # the mapping's own target
    version: str  # of the table the written row comes from
    device: str
    failure: str = ""  # how ``replaced`` fails there (device_targets.NO_KERNEL, NO_EFFECT)
    reason: str = ""  # a reviewed fact's message key (device_targets.DEVICE_ONLY)
    verified: bool = True  # False: same values on the device, int32 where torch gives int64
    note: str = ""  # with ``verified`` False: the check's note
    form: str = ""  # the result form the target's check applied (value_forms.CHECKED_FORMS)
    derived: bool = False  # the written row is a derived candidate (or a CPU alternative)
    new_tensor: bool = False  # write_back: the in-place API's own replacement returns a new tensor
    tensor: str = ""  # write_back: the tensor written back, as the code spells it

    def to_json(self) -> dict[str, Any]:
        return {json_key(f.name): getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: Any) -> Replacement:
        if not isinstance(data, dict) or set(data) != {json_key(f.name) for f in fields(cls)}:
            raise ValueError("not a replacement")
        texts = {f.name: _text(data[json_key(f.name)]) for f in fields(cls) if f.type == "str"}
        flags = {f.name: _flag(data[json_key(f.name)]) for f in fields(cls) if f.type == "bool"}
        return cls(**texts, **flags)


@dataclass(frozen=True, slots=True)
class Evidence:
    """Where the written target comes from and what the checks recorded for it on the device."""

    source: str  # "table", "derived", or the Replacement kind ("device", "write_back", …); "" unmapped
    version: str  # of the table (or derived file) of the written row
    # the numeric check of the written pair on the device: pass | fail | error | skipped, or
    # unsupported_on_device (no kernel there, or no effect); "" when none was run there
    check: str = ""
    device: str = "CPU"

    def to_json(self) -> dict[str, Any]:
        return {json_key(f.name): getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: Any) -> Evidence:
        if not isinstance(data, dict) or set(data) != {json_key(f.name) for f in fields(cls)}:
            raise ValueError("not evidence")
        return cls(**{f.name: _text(data[json_key(f.name)]) for f in fields(cls)})


@dataclass(frozen=True, slots=True)
class Resolution:
    """What the fix writes for one usage of ``torch_api`` with the table of ``version`` on ``device``.

    ``target`` is the MindSpore API written (``None``: nothing mapped); the finding's ``mindspore_api``
    and message name it. ``row_api``/``row_version``/``row_derived`` name the mapping row it comes from
    (another torch API's row for a write-back: ``torch.Tensor.clamp`` for ``clamp_``). ``category`` is the
    finding category for this call. ``by_call``: the call chose the target (a name looked up alone gets
    another one, e.g. a device replacement this call's arguments cannot be written for)."""

    torch_api: str
    version: str
    device: str
    target: str | None
    category: str
    write: Write = Write.NONE
    plan: ArgPlan | None = None
    replacement: Replacement | None = None
    safety: Safety = Safety.UNSAFE
    safety_reason: str = ""  # message key resolution.safety.<reason> (messages/resolution.py)
    evidence: Evidence = field(default_factory=lambda: Evidence("", ""))
    row_api: str | None = None
    row_version: str | None = None
    row_derived: bool = False
    explain: str = ""  # Write.EXPLAIN: the fix title's message key
    by_call: bool = False

    def safety_text(self, lang: str = "en") -> str:
        """``safe: the pair passed the numeric check on CPU`` (``messages/resolution.py``)."""
        from msmigrate.i18n import t

        verdict = t(f"resolution.safety.{self.safety.value}", lang)
        if not self.safety_reason:
            return verdict
        reason = t(f"resolution.safety.reason.{self.safety_reason}", lang, device=self.device)
        return f"{verdict}: {reason}" if lang != "zh" else f"{verdict}：{reason}"

    @property
    def table_target(self) -> str | None:
        """The mapping's own target (the replaced one, when the resolution writes another)."""
        return self.replacement.replaced if self.replacement is not None else self.target

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            data[json_key(f.name)] = value.to_json() if hasattr(value, "to_json") else (
                value.value if isinstance(value, StrEnum) else value)
        return data

    @classmethod
    def from_json(cls, data: Any) -> Resolution:
        """The resolution :meth:`to_json` wrote; ``ValueError`` for anything else (a damaged cache)."""
        if not isinstance(data, dict) or set(data) != {json_key(f.name) for f in fields(cls)}:
            raise ValueError("not a resolution")
        try:
            return cls(
                torch_api=_text(data["torch_api"]), version=_text(data["table"]),
                device=_text(data["device"]),
                target=_optional(data["target"]), category=_text(data["category"]),
                write=Write(data["write"]),
                plan=None if data["plan"] is None else ArgPlan.from_json(data["plan"]),
                replacement=(None if data["replacement"] is None
                             else Replacement.from_json(data["replacement"])),
                safety=Safety(data["safety"]), safety_reason=_text(data["safety_reason"]),
                evidence=Evidence.from_json(data["evidence"]), row_api=_optional(data["row_api"]),
                row_version=_optional(data["row_table"]), row_derived=_flag(data["row_derived"]),
                explain=_text(data["explain"]), by_call=_flag(data["by_call"]))
        except (TypeError, KeyError) as exc:
            raise ValueError("not a resolution") from exc


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _text(value: Any) -> str:
    if type(value) is not str:
        raise ValueError("not a text")
    return value


def _optional(value: Any) -> str | None:
    return None if value is None else _text(value)


def _flag(value: Any) -> bool:
    if type(value) is not bool:
        raise ValueError("not a flag")
    return value


def _number(value: Any) -> int:
    if type(value) is not int:
        raise ValueError("not a number")
    return value


def _texts(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        raise ValueError("not a list")
    return tuple(_text(v) for v in value)


def _pairs(value: Any, first: type, second: type) -> tuple[tuple[Any, Any], ...]:
    if not isinstance(value, list | tuple):
        raise ValueError("not a list")
    check = {int: _number, str: _text}
    out = []
    for item in value:
        if not isinstance(item, list | tuple) or len(item) != 2:
            raise ValueError("not a pair")
        out.append((check[first](item[0]), check[second](item[1])))
    return tuple(out)


def _triple(value: Any) -> tuple[str, str, str]:
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise ValueError("not a triple")
    return _text(value[0]), _text(value[1]), _text(value[2])
