"""Typed view of the generated JSON in ``mapping_data/`` (see docs/data-format.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class MappingCategory(StrEnum):
    """How a mapping-table row describes the torch → MindSpore correspondence."""

    CONSISTENT = "consistent"
    PARAM_NAMES = "param_names"  # consistent function, parameter names differ
    DEFAULT_VALUES = "default_values"  # consistent function, default values differ
    DATA_TYPES = "data_types"  # consistent function, parameter data types differ
    PARAM_COUNT_ORDER = "param_count_order"  # number or order of parameters differs
    NO_VERBOSE = "no_verbose"  # MindSpore has no `verbose` parameter (lr schedulers)
    NO_INPLACE = "no_inplace"  # MindSpore has no `inplace` parameter
    OTHER_DIFFERENCE = "other_difference"  # a stated difference that fits no class above
    DIFF_PAGE = "diff_page"  # the differences are documented on a difference page
    UNSUPPORTED = "unsupported"  # the table lists the torch API but names no MindSpore API

    @property
    def is_consistent(self) -> bool:
        return self is MappingCategory.CONSISTENT


@dataclass(frozen=True, slots=True)
class DefaultDifference:
    param: str
    torch_default: str | None
    mindspore_default: str | None


@dataclass(frozen=True, slots=True)
class MappingRow:
    """One row of an official mapping table plus the facts parsed for it."""

    torch_api: str
    mindspore_api: str | None
    category: MappingCategory
    section: str
    urls: dict[str, str] = field(default_factory=dict)  # torch, mindspore_en, mindspore_zh, diff_en, diff_zh
    param_renames: dict[str, str] = field(default_factory=dict)  # torch name → MindSpore name
    param_renames_source: str | None = None  # "diff_page" | "derived" | "table"
    input_renames: dict[str, str] = field(default_factory=dict)
    torch_only_params: tuple[str, ...] = ()
    mindspore_only_params: tuple[str, ...] = ()
    default_differences: tuple[DefaultDifference, ...] = ()
    diff_page: str | None = None
    # the table's own spelling when it names no torch API and torch has exactly one whose name differs
    # only in letter case (``torch.nn.SeLU``): ``torch_api`` is then that API (``torch.nn.SELU``)
    torch_api_written: str | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MappingRow:
        return cls(
            torch_api=data["torch_api"],
            mindspore_api=data.get("mindspore_api"),
            category=MappingCategory(data["category"]),
            section=data.get("section", ""),
            urls=dict(data.get("urls", {})),
            param_renames=dict(data.get("param_renames", {})),
            param_renames_source=data.get("param_renames_source"),
            input_renames=dict(data.get("input_renames", {})),
            torch_only_params=tuple(data.get("torch_only_params", ())),
            mindspore_only_params=tuple(data.get("mindspore_only_params", ())),
            default_differences=tuple(
                DefaultDifference(d["param"], d.get("torch_default"), d.get("mindspore_default"))
                for d in data.get("default_differences", ())
            ),
            diff_page=data.get("diff_page"),
            torch_api_written=data.get("torch_api_written"),
        )

    def to_json(self) -> dict[str, Any]:
        """The row as stored in ``mapping_data/`` (the inverse of :meth:`from_json`)."""
        return {
            "torch_api": self.torch_api,
            "mindspore_api": self.mindspore_api,
            "category": self.category.value,
            "section": self.section,
            "urls": dict(self.urls),
            "param_renames": dict(self.param_renames),
            "param_renames_source": self.param_renames_source,
            "input_renames": dict(self.input_renames),
            "torch_only_params": list(self.torch_only_params),
            "mindspore_only_params": list(self.mindspore_only_params),
            "default_differences": [
                {"param": d.param, "torch_default": d.torch_default, "mindspore_default": d.mindspore_default}
                for d in self.default_differences
            ],
            "diff_page": self.diff_page,
            **({"torch_api_written": self.torch_api_written} if self.torch_api_written else {}),
        }

    @property
    def has_differences(self) -> bool:
        return not self.category.is_consistent


@dataclass(frozen=True, slots=True)
class MappingTable:
    """All rows of one MindSpore version's table."""

    mindspore_version: str  # user-facing: "1.10", "2.3", "2.4", "2.6"
    release: str  # source release folder, e.g. "r2.4.10"
    pytorch_doc_version: str
    general_difference_params: tuple[str, ...]
    rows: tuple[MappingRow, ...]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MappingTable:
        return cls(
            mindspore_version=data["mindspore_version"],
            release=data["release"],
            pytorch_doc_version=data.get("pytorch_doc_version", ""),
            general_difference_params=tuple(data.get("general_difference_params", ())),
            rows=tuple(MappingRow.from_json(r) for r in data["rows"]),
        )
