"""The unit of output of every analysis: a :class:`Finding` at a source range.

Coordinates: ``line``/``end_line`` are 1-based; ``column``/``end_column`` are 1-based and count
Unicode code points (``end_column`` is exclusive: ``end_column - column`` is the length on one line).
The language server converts them to LSP's 0-based UTF-16 positions; reports print them as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from msmigrate.i18n import t

if TYPE_CHECKING:
    from msmigrate.model.resolution import Resolution


class FindingCategory(StrEnum):
    CONSISTENT = "consistent"  # mapped, no differences
    DIFFERENCES = "differences"  # mapped, with stated differences
    MISSING = "missing"  # real torch API, no mapping row
    POSSIBLE_TENSOR_API = "possible_tensor_api"  # unknown receiver, name and arguments fit a Tensor method
    DATA_PROCESSING = "data_processing"  # torch.utils.data, torchvision/torchaudio/torchtext data parts
    UNKNOWN_TORCH_NAME = "unknown_torch_name"  # not in the torch inventory: typo or removed API
    DYNAMIC_SHAPE = "dynamic_shape"  # graph-mode compliance: dynamic shapes
    SPARSE = "sparse"  # graph-mode compliance: sparse tensors
    FRAMEWORK_PATTERN = "framework_pattern"  # framework idioms (Module→Cell, training step, …)


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFORMATION = "information"
    HINT = "hint"

    @property
    def rank(self) -> int:
        return {"hint": 0, "information": 1, "warning": 2, "error": 3}[self.value]


class UsageKind(StrEnum):
    CALL = "call"
    ATTRIBUTE = "attribute"  # a reference that is not called (torch.float32, act = nn.ReLU)
    REFERENCE = "reference"  # a type named, not used: annotations, isinstance/issubclass class arguments
    BASE_CLASS = "base_class"
    DECORATOR = "decorator"
    CONTEXT_MANAGER = "context_manager"
    TENSOR_METHOD = "tensor_method"
    TENSOR_ATTRIBUTE = "tensor_attribute"
    MODULE_METHOD = "module_method"
    OPTIMIZER_METHOD = "optimizer_method"
    IMPORT = "import"
    PATTERN = "pattern"  # a rule finding not tied to one API reference


@dataclass(slots=True)
class Finding:
    line: int
    column: int
    end_line: int
    end_column: int
    torch_api: str | None
    mindspore_api: str | None
    category: FindingCategory
    rule: str
    severity: Severity
    message_key: str
    message_args: dict[str, Any] = field(default_factory=dict)
    fixable: bool = False
    usage: UsageKind = UsageKind.CALL
    written_api: str | None = None  # the torch name as the code spells it, when not ``torch_api`` itself
    # what the fix writes for this usage, on which device, how safely (model/resolution.py): set by the
    # analysis for every API finding; ``None`` for a rule's own finding
    resolution: Resolution | None = None

    def message(self, lang: str = "en") -> str:
        text = t(self.message_key, lang, **self.message_args)
        also = self.message_args.get("also")
        return t("analysis.also", lang, message=_sentence(text, lang), also=also) if also else text

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        """The public JSON shape (documented in docs/report-schema.md)."""
        shape = {
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "torch_api": self.torch_api,
            "mindspore_api": self.mindspore_api,
            "category": self.category.value,
            "rule": self.rule,
            "severity": self.severity.value,
            "message": self.message(lang),
            "fixable": self.fixable,
            "usage": self.usage.value,
        }
        if self.written_api is not None:
            shape["written_api"] = self.written_api
        return shape


@dataclass(slots=True)
class FileResult:
    """Analysis of one file: its findings, or an error (key into the message catalogue).

    ``syntax_error_line``/``syntax_error_detail`` (Python's message, untranslated) are set when the file
    had a syntax error and the findings come only from the parts that parse (they may be incomplete).
    """

    path: str
    findings: list[Finding] = field(default_factory=list)
    error_key: str | None = None
    error_args: dict[str, Any] = field(default_factory=dict)
    lines: int = 0
    syntax_error_line: int | None = None
    syntax_error_detail: str | None = None

    def error(self, lang: str = "en") -> str | None:
        return t(self.error_key, lang, **self.error_args) if self.error_key else None

    @property
    def recovered(self) -> bool:
        """True when a syntax error was recovered from (findings may be incomplete)."""
        return self.syntax_error_detail is not None

    def syntax_error(self, lang: str = "en") -> str | None:
        """The note that findings may be incomplete because of a syntax error, or ``None``."""
        if self.syntax_error_detail is None:
            return None
        return t("analysis.recovered", lang, line=self.syntax_error_line or "?",
                 detail=self.syntax_error_detail)

    def syntax_error_dict(self, lang: str = "en") -> dict[str, Any] | None:
        """The public JSON shape of the syntax error (docs/report-schema.md), or ``None``."""
        if self.syntax_error_detail is None:
            return None
        return {"line": self.syntax_error_line, "detail": self.syntax_error_detail,
                "message": self.syntax_error(lang)}


def _sentence(text: str, lang: str) -> str:
    """``text`` ending as a sentence, so that what follows it ("Also: …") does not run on from it."""
    if text.endswith((".", "。", "!", "！", "?", "？", ":", "：")):
        return text
    return text + ("。" if lang.lower().startswith("zh") else ".")
