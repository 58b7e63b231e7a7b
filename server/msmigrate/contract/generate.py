"""``msmigrate dev generate``: the files the editor clients share with the server, from the server's tables.

Written (paths relative to the repository root):

* ``client-vscode/package.json``: ``contributes.configuration`` (the rest of the manifest is kept);
* ``client-vscode/package.nls.json``, ``package.nls.zh-cn.json``: the ``config.*`` keys (others kept);
* ``client-pycharm/lsp4ij-template/settings.schema.json`` and ``settings.json`` (LSP4IJ);
* ``client-vscode/src/protocol.ts``: finding categories, severities, setting choices, report formats,
  mapping-category labels, command ids and their argument and reply types.

Sources: :mod:`msmigrate.contract.settings`, :mod:`msmigrate.contract.commands`,
``reports.REPORT_FORMATS``, ``FindingCategory``, ``Severity``, ``MappingCategory`` and the messages.
JSON is written with two-space indents, ``ensure_ascii=False`` and a final newline: a rerun is
byte-identical, and :func:`stale` lists the files that differ from what would be written.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

from msmigrate.contract import settings as spec
from msmigrate.contract.commands import COMMANDS, ErrorReply
from msmigrate.i18n import catalogue
from msmigrate.knowledge.model import MappingCategory
from msmigrate.model.finding import FindingCategory, Severity
from msmigrate.reports import REPORT_FORMATS

PACKAGE_JSON = "client-vscode/package.json"
NLS = {"en": "client-vscode/package.nls.json", "zh": "client-vscode/package.nls.zh-cn.json"}
LSP4IJ_SCHEMA = "client-pycharm/lsp4ij-template/settings.schema.json"
LSP4IJ_SETTINGS = "client-pycharm/lsp4ij-template/settings.json"
PROTOCOL_TS = "client-vscode/src/protocol.ts"
NLS_PREFIX = "config."


def _text(key: str, lang: str) -> str:
    """A message without formatting (descriptions hold ``${...}`` and braces literally)."""
    en, zh = catalogue()[key]
    return zh if lang == "zh" else en


def _nls_key(message: str) -> str:
    return NLS_PREFIX + message.removeprefix("settings.")


def _dump(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# --- VS Code ----------------------------------------------------------------------------------------
def _vscode_property(s: spec.Setting) -> dict[str, Any]:
    prop: dict[str, Any] = {"type": s.type}
    if s.type == "array":
        prop["items"] = {"type": "string", **({"pattern": s.item_pattern} if s.item_pattern else {})}
    if s.choices:
        prop["enum"] = list(s.choices)
    if s.choice_messages:
        prop["enumDescriptions"] = [f"%{_nls_key(m)}%" for m in s.choice_messages]
    elif s.choice_labels:
        prop["enumDescriptions"] = list(s.choice_labels)
    prop["default"] = s.default
    prop["scope"] = s.scope
    prop["markdownDescription"] = f"%{_nls_key(s.description_key)}%"
    return prop


def vscode_configuration() -> dict[str, Any]:
    return {
        "title": f"%{_nls_key('settings.title')}%",
        "properties": {f"{spec.SECTION}.{s.key}": _vscode_property(s) for s in spec.SETTINGS},
    }


def _nls_entries(lang: str) -> dict[str, str]:
    entries = {_nls_key("settings.title"): _text("settings.title", lang)}
    for s in spec.SETTINGS:
        text = _text(s.description_key, lang)
        if s.note:
            text += (" " if lang == "en" else "") + _text(s.note, lang)
        entries[_nls_key(s.description_key)] = text
        for message in s.choice_messages:
            entries[_nls_key(message)] = _text(message, lang)
    return entries


def _package_json(current: str) -> str:
    manifest = json.loads(current)
    manifest.setdefault("contributes", {})["configuration"] = vscode_configuration()
    return _dump(manifest)


def _nls(current: str, lang: str) -> str:
    kept = {k: v for k, v in json.loads(current).items() if not k.startswith(NLS_PREFIX)}
    return _dump({**kept, **_nls_entries(lang)})


# --- LSP4IJ -----------------------------------------------------------------------------------------
def _lsp4ij_description(s: spec.Setting) -> str:
    key = s.lsp4ij_message or s.description_key
    return f"{_text(key, 'en')}\n{_text(key, 'zh')}"


def _lsp4ij_property(s: spec.Setting) -> dict[str, Any]:
    prop: dict[str, Any] = {"type": s.type}
    if s.type == "array":
        prop["items"] = {"type": "string", **({"pattern": s.item_pattern} if s.item_pattern else {})}
    if s.choices:
        prop["enum"] = list(s.choices)
    prop["default"] = s.default
    prop["description"] = _lsp4ij_description(s)
    return prop


def _nested(settings: list[spec.Setting], leaf: Callable[[spec.Setting], Any]) -> dict[str, Any]:
    """Settings with dotted keys as nested objects (``severity.missing`` → ``{"severity": {...}}``)."""
    out: dict[str, Any] = {}
    for s in settings:
        *groups, name = s.key.split(".")
        target = out
        for group in groups:
            target = target.setdefault(group, {})
        target[name] = leaf(s)
    return out


def lsp4ij_schema() -> dict[str, Any]:
    ours = [s for s in spec.SETTINGS if spec.LSP4IJ in s.clients]
    properties = _nested(ours, _lsp4ij_property)
    group = {
        "type": "object",
        "additionalProperties": False,
        "description": "\n".join(_text(spec.SEVERITY_GROUP_MESSAGE, lang) for lang in ("en", "zh")),
        "properties": properties["severity"],
    }
    properties["severity"] = group
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": f'msmigrate language-server settings (workspace/configuration section "{spec.SECTION}")',
        "type": "object",
        "additionalProperties": False,
        "properties": {
            spec.SECTION: {"type": "object", "additionalProperties": False, "properties": properties}
        },
    }


def lsp4ij_settings() -> dict[str, Any]:
    ours = [s for s in spec.SETTINGS if spec.LSP4IJ in s.clients]
    return {spec.SECTION: _nested(ours, lambda s: s.default)}


# --- TypeScript -------------------------------------------------------------------------------------
def _ts_type(hint: Any) -> str:
    """A TypeScript type for a Python annotation of a JSON value."""
    simple = {str: "string", int: "number", float: "number", bool: "boolean", Any: "unknown",
              type(None): "null"}
    if hint in simple:
        return simple[hint]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_ts_type(a) for a in args)
    if origin is list:
        inner = _ts_type(args[0])
        return f"({inner})[]" if " " in inner else f"{inner}[]"
    if origin is dict:
        return f"Record<{_ts_type(args[0])}, {_ts_type(args[1])}>"
    raise TypeError(f"no TypeScript type for {hint!r}")


def _ts_string_list(name: str, values: list[str] | tuple[str, ...], doc: str) -> list[str]:
    items = ", ".join(json.dumps(v, ensure_ascii=False) for v in values)
    return [f"/** {doc} */", f"export const {name} = [{items}] as const;"]


def _ts_interface(name: str, members: list[tuple[str, bool, str]], doc: str) -> list[str]:
    lines = [f"/** {doc} */", f"export interface {name} {{"]
    lines += [f"  {member}{'' if required else '?'}: {kind};" for member, required, kind in members]
    return [*lines, "}"]


def _argument_interface(arguments: type) -> list[str]:
    hints = typing.get_type_hints(arguments)
    members = [(f.name, False, _ts_type(hints[f.name])) for f in fields(arguments)]
    positional = ", ".join(arguments.POSITIONAL)  # type: ignore[attr-defined]
    doc = f"{(arguments.__doc__ or '').strip()} Positional order: {positional}.".replace("``", "`")
    return _ts_interface(arguments.__name__, members, doc)


def _reply_interface(reply: type) -> list[str]:
    hints = typing.get_type_hints(reply, include_extras=True)
    members = []
    for name, hint in hints.items():
        optional = typing.get_origin(hint) is typing.NotRequired
        members.append((name, not optional, _ts_type(typing.get_args(hint)[0] if optional else hint)))
    doc = f"Reply of a command (contract/commands.py {reply.__name__})."
    return _ts_interface(reply.__name__, members, doc)


def _labels(name: str, values: list[str], key: Callable[[str], str], doc: str) -> list[str]:
    lines = [f"/** {doc} */", f"export const {name}: Record<string, {{ en: string; zh: string }}> = {{"]
    for value in values:
        en, zh = (json.dumps(_text(key(value), lang), ensure_ascii=False) for lang in ("en", "zh"))
        lines.append(f"  {value}: {{ en: {en}, zh: {zh} }},")
    return [*lines, "};"]


def protocol_ts() -> str:
    out = [
        "// Generated by `msmigrate dev generate` from the server's tables (server/msmigrate/contract/);",
        "// do not edit: change the tables and run `msmigrate dev generate` again.",
        "",
        f"export const SECTION = {json.dumps(spec.SECTION)};",
        "",
    ]
    blocks = [
        _ts_string_list("FINDING_CATEGORIES", [c.value for c in FindingCategory],
                        "Finding categories (model/finding.py FindingCategory)."),
        ["export type FindingCategory = (typeof FINDING_CATEGORIES)[number];"],
        _labels("FINDING_CATEGORY_LABELS", [c.value for c in FindingCategory],
                lambda c: f"report.category.{c}",
                "Display names of the finding categories, as the server's reports word them."),
        _ts_string_list("SEVERITIES", [s.value for s in Severity],
                        "Severities of findings, most severe first."),
        ["export type Severity = (typeof SEVERITIES)[number];"],
        _ts_string_list("SEVERITY_LEVELS", spec.SEVERITY_LEVELS,
                        "Values of the `severity.<category>` settings (`default`: each finding's own)."),
        ["export type SeverityLevel = (typeof SEVERITY_LEVELS)[number];"],
        _ts_string_list("MINDSPORE_VERSIONS", spec.MINDSPORE_VERSIONS, "Values of `mindsporeVersion`."),
        _ts_string_list("LANGUAGES", spec.LANGUAGES, "Values of `language`."),
        _ts_string_list("DEVICES", spec.DEVICES, "Values of `device`."),
        _ts_string_list("IMPORT_STRATEGIES", spec.IMPORT_STRATEGIES,
                        "Values of `importStrategy` (client only)."),
        _ts_string_list("MAPPING_CATEGORIES", [c.value for c in MappingCategory],
                        "Mapping-table categories (knowledge/model.py MappingCategory)."),
        _labels("MAPPING_CATEGORY_LABELS", [c.value for c in MappingCategory], lambda c: f"kb.category.{c}",
                "Display names of the mapping-table categories, as the server words them."),
        ["/** Report formats the editor offers to export, in picker order (reports/__init__.py). */",
         "export const EXPORT_FORMATS = ["]
        + [f'  {{ id: "{name}", label: "{f.label}", extension: "{f.extension}" }},'
           for name, f in sorted(((n, f) for n, f in REPORT_FORMATS.items() if f.editor_rank is not None),
                                 key=lambda item: item[1].editor_rank or 0)]
        + ["] as const;"],
        ["/** Every report format the server renders, with its file extension. */",
         "export const REPORT_EXTENSIONS: Record<string, string> = {"]
        + [f'  {name}: "{f.extension}",' for name, f in REPORT_FORMATS.items()] + ["};"],
        ["/** The server's `workspace/executeCommand` ids (contract/commands.py). */",
         "export const SERVER_COMMANDS = {"]
        + [f'  {c.name}: "{c.id}",' for c in COMMANDS] + ["} as const;"],
    ]
    seen: set[type] = set()
    for command in COMMANDS:
        if command.arguments not in seen:
            seen.add(command.arguments)
            blocks.append(_argument_interface(command.arguments))
    blocks.append(_reply_interface(ErrorReply))
    for command in COMMANDS:
        if command.reply is not None:
            blocks.append(_reply_interface(command.reply))
    blocks.append(_ts_interface("CommandArguments", [(c.name, True, c.arguments.__name__) for c in COMMANDS],
                                "Each command's argument object."))
    replies = [(c.name, True, f"{c.reply.__name__ if c.reply else 'Record<string, unknown>'} | ErrorReply")
               for c in COMMANDS]
    blocks.append(_ts_interface("CommandReplies", replies, "Each command's reply."))
    for block in blocks:
        out += [*block, ""]
    return "\n".join(out)


# --- files ------------------------------------------------------------------------------------------
def outputs(root: Path) -> dict[str, str]:
    """Relative path → the text ``msmigrate dev generate`` writes there (from the files under ``root``
    for the parts it does not own)."""

    def current(relative: str) -> str:
        return (root / relative).read_text(encoding="utf-8")

    return {
        PACKAGE_JSON: _package_json(current(PACKAGE_JSON)),
        NLS["en"]: _nls(current(NLS["en"]), "en"),
        NLS["zh"]: _nls(current(NLS["zh"]), "zh"),
        LSP4IJ_SCHEMA: _dump(lsp4ij_schema()),
        LSP4IJ_SETTINGS: _dump(lsp4ij_settings()),
        PROTOCOL_TS: protocol_ts(),
    }


def stale(root: Path) -> list[str]:
    """The generated files under ``root`` whose content differs from what would be written."""
    found = []
    for relative, text in outputs(root).items():
        path = root / relative
        if not path.is_file() or path.read_bytes() != text.encode("utf-8"):
            found.append(relative)
    return found


def write(root: Path) -> list[str]:
    """Write the generated files that changed; returns their relative paths."""
    changed = stale(root)
    texts = outputs(root)
    for relative in changed:
        (root / relative).write_bytes(texts[relative].encode("utf-8"))
    return changed
