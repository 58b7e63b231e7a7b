"""The outcome of one equivalence check, as sent back by the worker."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import Any


class CheckStatus(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    SKIPPED = "skipped"


class Reason(StrEnum):
    """Why a check did not pass (stable enum values, recorded in ``verified-*.json``)."""

    VALUE_MISMATCH = "value_mismatch"
    SHAPE_MISMATCH = "shape_mismatch"
    DTYPE_MISMATCH = "dtype_mismatch"
    NAN_MISMATCH = "nan_mismatch"
    OUTPUT_STRUCTURE = "output_structure"
    TORCH_ERROR = "torch_error"
    MINDSPORE_ERROR = "mindspore_error"
    UNSUPPORTED_ON_DEVICE = "unsupported_on_device"
    MEMBER_KIND = "member_kind"  # a torch method whose MindSpore counterpart is a property
    PARAMETER_NAMES = "parameter_names"  # a container registers its layers' parameters under other names
    NO_EFFECT = "no_effect"  # ran without error but changed nothing where torch does (an optimizer step)
    API_NOT_FOUND = "api_not_found"
    PARAM_COPY = "param_copy"
    MISSING_FRAMEWORK = "missing_framework"
    DEVICE_UNAVAILABLE = "device_unavailable"
    WORKER_CRASH = "worker_crash"
    WORKER_START = "worker_start"
    TIMEOUT = "timeout"
    MEMORY_LIMIT = "memory_limit"
    BAD_REQUEST = "bad_request"
    BAD_REPLY = "bad_reply"  # the worker answered something that is not a result
    NO_MAPPING = "no_mapping"
    NOT_OP = "not_op"  # distributed, data processing … no single-op comparison
    RANDOM = "random"  # output depends on a random generator
    UNINITIALIZED = "uninitialized"  # output memory is uninitialized (empty)
    NON_TENSOR_OUTPUT = "non_tensor_output"
    NO_INPUT_RULE = "no_input_rule"  # no spec and no generic rule can build the inputs
    SPEC_SKIP = "spec_skip"  # the spec table says why in its note


@dataclass(slots=True)
class CheckResult:
    """One API pair checked on one device."""

    api: str
    mindspore_api: str | None
    status: CheckStatus
    reason: str | None = None  # a ``Reason`` value
    detail: str | None = None  # exception text, note of the spec table, …
    # the form MindSpore's result was put in before the comparison, as the fix writes it
    # (``value_forms.CHECKED_FORMS``: ``sorted_first_output``)
    result_form: str | None = None
    max_abs_error: float | None = None
    max_rel_error: float | None = None
    cosine_similarity: float | None = None
    first_mismatch_index: list[int] | None = None
    first_mismatch_output: int | None = None  # which output of a tuple result (0 for a single tensor)
    torch_shapes: list[list[int]] = field(default_factory=list)
    mindspore_shapes: list[list[int]] = field(default_factory=list)
    torch_dtypes: list[str] = field(default_factory=list)
    mindspore_dtypes: list[str] = field(default_factory=list)
    rtol: float | None = None
    atol: float | None = None
    torch_version: str | None = None
    mindspore_version: str | None = None
    numpy_version: str | None = None  # of the worker's interpreter (see check/numpy_support.py)
    device: str = "CPU"
    duration: float = 0.0

    @property
    def passed(self) -> bool:
        return self.status is CheckStatus.PASS

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["status"] = str(self.status)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CheckResult:
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        values["status"] = CheckStatus(values.get("status", "error"))
        return cls(**values)

    @classmethod
    def from_reply(cls, data: Any) -> CheckResult:
        """A result from a worker's reply, checked field by field; ``ValueError`` names what is wrong."""
        if type(data) is not dict:
            raise ValueError(f"not an object: {type(data).__name__}")
        status = data.get("status", "error")
        if status not in CheckStatus.__members__.values():
            raise ValueError(f"status {status!r}")
        for name, kinds in _REPLY_FIELDS.items():
            if name in data and not _is(data[name], kinds):
                raise ValueError(f"{name}: {type(data[name]).__name__}")
        reason = data.get("reason")
        if reason is not None and reason not in Reason.__members__.values():
            raise ValueError(f"reason {reason!r}")
        return cls.from_json(data)

    @classmethod
    def error(
        cls, api: str, mindspore_api: str | None, reason: Reason, detail: str, device: str = "CPU"
    ) -> CheckResult:
        return cls(api, mindspore_api, CheckStatus.ERROR, str(reason), detail, device=device)

    @classmethod
    def skipped(
        cls,
        api: str,
        mindspore_api: str | None,
        reason: Reason,
        detail: str | None = None,
        device: str = "CPU",
    ) -> CheckResult:
        return cls(api, mindspore_api, CheckStatus.SKIPPED, str(reason), detail, device=device)


_NUMBER = (int, float)
_OPTIONAL_STR = (str, type(None))
_OPTIONAL_NUMBER = (int, float, type(None))
# the type of each field of a reply: a tuple of types, or ``list`` with the type of the items
_REPLY_FIELDS: dict[str, Any] = {
    "api": (str,),
    "mindspore_api": _OPTIONAL_STR,
    "reason": _OPTIONAL_STR,
    "detail": _OPTIONAL_STR,
    "result_form": _OPTIONAL_STR,
    "max_abs_error": _OPTIONAL_NUMBER,
    "max_rel_error": _OPTIONAL_NUMBER,
    "cosine_similarity": _OPTIONAL_NUMBER,
    "first_mismatch_index": ("list", (int,), True),
    "first_mismatch_output": (int, type(None)),
    "torch_shapes": ("list", ("list", (int,), False), False),
    "mindspore_shapes": ("list", ("list", (int,), False), False),
    "torch_dtypes": ("list", (str,), False),
    "mindspore_dtypes": ("list", (str,), False),
    "rtol": _OPTIONAL_NUMBER,
    "atol": _OPTIONAL_NUMBER,
    "torch_version": _OPTIONAL_STR,
    "mindspore_version": _OPTIONAL_STR,
    "numpy_version": _OPTIONAL_STR,
    "device": (str,),
    "duration": _NUMBER,
}


def _is(value: Any, kinds: Any) -> bool:
    """Whether ``value`` has the type ``kinds`` of :data:`_REPLY_FIELDS` (``bool`` is no number)."""
    if kinds[0] == "list":
        _, items, optional = kinds
        if value is None:
            return optional
        return type(value) is list and all(_is(item, items) for item in value)
    if type(value) is bool:
        return bool in kinds
    return isinstance(value, kinds)
