"""JSON report: the versioned document of docs/report-schema.md (schema in ``schema/report-v1.json``)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from msmigrate.scan.model import ScanReport


def render_json(report: ScanReport, lang: str = "en") -> str:
    return json.dumps(report.to_json(lang), indent=2, ensure_ascii=False) + "\n"


def report_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) every JSON report validates against."""
    text = resources.files("msmigrate.reports").joinpath("schema/report-v1.json").read_text(encoding="utf-8")
    return json.loads(text)
