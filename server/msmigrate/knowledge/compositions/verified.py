"""Which compositions passed their numeric check (``mapping_data/verified-compositions-<device>.json``,
written by ``msmigrate check --compositions``): only those are offered.

A composition passes when every case of its check (``knowledge/facts/composition_cases.toml``: inputs,
masks, options) gave torch's result. The helpers are checked on CPU; they use operators MindSpore has on
every device.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from msmigrate.i18n import t
from msmigrate.knowledge.compositions.catalogue import METHOD, Composition, composition_for
from msmigrate.paths import data_dir

CHECK_DEVICE = "CPU"


def verified_path(device: str = CHECK_DEVICE, folder: Path | None = None) -> Path:
    return (folder or data_dir()) / f"verified-compositions-{device}.json"


@cache
def _results(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


@dataclass(frozen=True, slots=True)
class CompositionCheck:
    """The stored check of one composition."""

    composition: Composition
    passed: bool
    cases: int  # how many cases were compared
    device: str
    torch_version: str
    mindspore_version: str

    def call_text(self, module: str = "ms_compat") -> str:
        """How the fix writes the call: ``ms_compat.scaled_dot_product_attention(...)``, ``ms_compat.unfold(x,
        ...)``."""
        inside = "x, ..." if self.composition.form == METHOD else "..."
        return f"{module}.{self.composition.helper}({inside})"

    def note(self, lang: str = "en") -> str:
        """The sentence hover and lookup show."""
        return t("kb.note.composition", lang, call=self.call_text(), cases=self.cases, device=self.device,
                 torch=self.torch_version, mindspore=self.mindspore_version)


def composition_check(torch_api: str | None, device: str = CHECK_DEVICE) -> CompositionCheck | None:
    """The stored check of the composition of ``torch_api`` (None: no composition, or never checked)."""
    composition = composition_for(torch_api)
    if composition is None:
        return None
    data = _results(verified_path(device))
    entry = (data.get("compositions") or {}).get(composition.torch_api)
    if not isinstance(entry, dict) or entry.get("helper") != composition.helper:
        return None
    cases = entry.get("cases") or {}
    return CompositionCheck(composition, entry.get("status") == "pass" and bool(cases), len(cases), device,
                            str(data.get("torch_version")), str(data.get("mindspore_version")))


def offered_composition(torch_api: str | None) -> Composition | None:
    """The composition the fix writes for ``torch_api``: one whose check passed (None otherwise)."""
    check = composition_check(torch_api)
    return check.composition if check is not None and check.passed else None
