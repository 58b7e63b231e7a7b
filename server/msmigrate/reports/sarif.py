"""SARIF 2.1.0 report (GitHub code scanning), built with the ``sarif-om`` object model.

* ``tool.driver.rules``: every rule of the registry (id, title, explanation, help URL, default level);
* results: ``ruleId``/``ruleIndex``, ``level``, the message, and a location whose ``artifactLocation.uri``
  is the file's path relative to ``%SRCROOT%`` (the report root, declared in ``originalUriBaseIds``);
* columns count Unicode code points (``columnKind``), ``endColumn`` is exclusive as in SARIF;
* files that could not be analysed are ``toolExecutionNotifications`` of the invocation (level ``error``);
  files analysed despite a syntax error are too (level ``warning``, region = the error's line).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import attr
import sarif_om as om

from msmigrate.model.finding import Severity
from msmigrate.rules.loader import all_rules
from msmigrate.scan.model import ScanReport

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "note",
          Severity.HINT: "note"}
INFORMATION_URI = "https://www.mindspore.cn/docs/en/r2.6.0/note/api_mapping/pytorch_api_mapping.html"


def to_sarif_json(value: Any) -> Any:
    """Serialise sarif-om objects with their schema property names, leaving out unset fields."""
    if attr.has(type(value)):
        out = {}
        for field in attr.fields(type(value)):
            item = getattr(value, field.name)
            if item is None or (isinstance(item, int | float) and item == -1 == field.default):
                continue  # unset, or sarif-om's "-1 = not given" default of indexes and offsets
            out[field.metadata.get("schema_property_name", field.name)] = to_sarif_json(item)
        return out
    if isinstance(value, dict):
        return {k: to_sarif_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_sarif_json(v) for v in value]
    return value


def _uri(path: str) -> str:
    return quote(path, safe="/")


def build_sarif(report: ScanReport, lang: str = "en") -> om.SarifLog:
    rules = all_rules()
    index = {rule.id: i for i, rule in enumerate(rules)}
    descriptors = [
        om.ReportingDescriptor(
            id=rule.id,
            name=rule.category.value,
            short_description=om.MultiformatMessageString(text=rule.title(lang)),
            full_description=om.MultiformatMessageString(text=rule.explanation(lang)),
            help_uri=rule.docs_url,
            default_configuration=om.ReportingConfiguration(level=_LEVEL[rule.severity]),
            properties={"category": rule.category.value, "fixable": rule.fixable},
        )
        for rule in rules
    ]
    results = []
    for file, f in report.findings():
        result = om.Result(
            rule_id=f.rule,
            level=_LEVEL[f.severity],
            message=om.Message(text=f.message(lang)),
            locations=[om.Location(physical_location=om.PhysicalLocation(
                artifact_location=om.ArtifactLocation(uri=_uri(file.path), uri_base_id=SRCROOT),
                region=om.Region(start_line=f.line, start_column=f.column, end_line=f.end_line,
                                 end_column=f.end_column),
            ))],
            properties={
                "category": f.category.value,
                "torchApi": f.torch_api,
                "mindsporeApi": f.mindspore_api,
                "fixable": f.fixable,
            },
        )
        if f.rule in index:
            result.rule_index = index[f.rule]
        results.append(result)
    notifications = [
        om.Notification(
            level="error",
            message=om.Message(text=file.error(lang)),
            locations=[om.Location(physical_location=om.PhysicalLocation(
                artifact_location=om.ArtifactLocation(uri=_uri(file.path), uri_base_id=SRCROOT)))],
        )
        for file in report.files
        if file.error_key
    ]
    notifications += [
        om.Notification(
            level="warning",
            message=om.Message(text=file.syntax_error(lang)),
            locations=[om.Location(physical_location=om.PhysicalLocation(
                artifact_location=om.ArtifactLocation(uri=_uri(file.path), uri_base_id=SRCROOT),
                region=om.Region(start_line=file.syntax_error_line) if file.syntax_error_line else None,
            ))],
        )
        for file in report.files
        if file.recovered
    ]
    base_ids = {}
    if report.root:
        base_ids[SRCROOT] = om.ArtifactLocation(uri=Path(report.root).as_uri() + "/")
    run = om.Run(
        tool=om.Tool(driver=om.ToolComponent(
            name=report.tool, version=report.version, semantic_version=report.version,
            information_uri=INFORMATION_URI, rules=descriptors,
        )),
        invocations=[om.Invocation(execution_successful=True, tool_execution_notifications=notifications)],
        original_uri_base_ids=base_ids or None,
        results=results,
        column_kind="unicodeCodePoints",
        properties={"mindsporeVersion": report.mindspore_version},
    )
    return om.SarifLog(version="2.1.0", schema_uri=SARIF_SCHEMA, runs=[run])


def render_sarif(report: ScanReport, lang: str = "en") -> str:
    log = to_sarif_json(build_sarif(report, lang))
    ordered = {"$schema": log.pop("$schema"), "version": log.pop("version"), **log}
    return json.dumps(ordered, indent=2, ensure_ascii=False) + "\n"
