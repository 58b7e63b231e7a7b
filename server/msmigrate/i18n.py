"""Bilingual (English / Chinese) user-visible messages.

Each area of the product keeps its catalogue in ``msmigrate/messages/<area>.py`` as
``MESSAGES = {"key": ("English text", "中文文本")}``; keys are prefixed by area
(``kb.``, ``scan.``, ``rule.``, ``lsp.``, ``check.``, ``report.``). Texts use ``str.format`` fields.
A rule module (``msmigrate/rules/<family>/msmNNN_<name>.py``, named by ``msmigrate/registry.py``) keeps its
own texts the same way, as a ``MESSAGES`` literal that the catalogue reads from the source without importing
the rule (nor what the rule imports).

A field written ``{name:messages}`` takes a sequence of *message references* instead of a ready-made
string: ``(key, ((field, value), ...))`` pairs (see :func:`ref`), each rendered in the requested language
and joined with that language's list separator. Messages composed of other messages thus carry their
parts as language-neutral data (tuples: hashable; JSON turns them into lists, which render the same).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import string
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Literal

from msmigrate.registry import rule_module_names, rule_module_path

Lang = Literal["en", "zh"]
LANGS: tuple[Lang, ...] = ("en", "zh")

# A reference to a catalogue message with its fields: ``(key, ((field, value), ...))``.
MessageRef = tuple[str, tuple[tuple[str, object], ...]]
_MESSAGES_SPEC = "messages"
_PACKAGE = Path(__file__).resolve().parent
_MESSAGES_LINE = re.compile(r"^MESSAGES\b[^\n]*=\s*\{$", re.MULTILINE)  # a rule module's texts start here


def normalize_lang(lang: str | None) -> Lang:
    """Map ``zh``, ``zh-cn``, ``zh_CN``, ``zh-Hans`` … to ``zh``; everything else to ``en``."""
    return "zh" if lang and lang.lower().startswith("zh") else "en"


@cache
def catalogue() -> dict[str, tuple[str, str]]:
    """All messages of all areas, merged (duplicate keys are a programming error)."""
    from msmigrate import messages

    areas = [(f"messages/{info.name}.py", getattr(importlib.import_module(f"msmigrate.messages.{info.name}"),
                                                     "MESSAGES", {}))
             for info in pkgutil.iter_modules(messages.__path__)]
    merged: dict[str, tuple[str, str]] = {}
    for where, texts_of in [*areas, *rule_messages()]:
        for key, texts in texts_of.items():
            if key in merged:
                raise ValueError(f"duplicate message key {key!r} in {where}")
            merged[key] = texts
    return merged


def rule_messages() -> list[tuple[str, dict[str, tuple[str, str]]]]:
    """The ``MESSAGES`` of each rule module ``msmigrate/registry.py`` names, read from its source
    without importing the rule (nor what the rule imports): ``(path, texts)``.

    The texts are the module's top-level literal that starts with a line ``MESSAGES...= {`` and ends with
    the first line ``}`` after it; only that part of the file is parsed. A listed module without one, or
    with anything but a literal there, raises (naming the file).
    """
    found = []
    for name in rule_module_names():
        where = rule_module_path(name)
        source = (_PACKAGE / where).read_text(encoding="utf-8")
        start = _MESSAGES_LINE.search(source)
        end = source.find("\n}\n", start.start()) if start else -1
        if start is None or end < 0:
            raise ValueError(f"{where}: no MESSAGES literal (a line 'MESSAGES... = {{' up to a line '}}')")
        try:
            assignment = ast.parse(source[start.start() : end + 3]).body[0]
            if not isinstance(assignment, ast.AnnAssign | ast.Assign) or assignment.value is None:
                raise ValueError("not an assignment")
            found.append((where, ast.literal_eval(assignment.value)))
        except (SyntaxError, ValueError) as exc:
            raise ValueError(f"{where}: MESSAGES must be a literal assignment ({exc})") from exc
    return found


def t(key: str, lang: str | None = "en", /, **fields: object) -> str:
    """Return message ``key`` in ``lang`` with ``fields`` substituted (``{name:messages}`` fields take
    message references, rendered in ``lang`` too)."""
    en, zh = catalogue()[key]
    text = zh if normalize_lang(lang) == "zh" else en
    if not fields:
        return text
    if ":" + _MESSAGES_SPEC + "}" in text:
        return _Formatter(lang).vformat(text, (), fields)
    return text.format(**fields)


def ref(key: str, /, **fields: object) -> MessageRef:
    """A reference to message ``key`` with ``fields``, to be rendered later in any language."""
    return key, tuple(fields.items())


def t_list(refs: Iterable[Sequence], lang: str | None = "en") -> str:
    """Render message references (tuples from :func:`ref`, or the lists JSON makes of them) in ``lang``,
    joined with the language's list separator."""
    separator = t("common.list_separator", lang)
    return separator.join(t(key, lang, **dict(fields)) for key, fields in refs)


class _Formatter(string.Formatter):
    """``str.format`` plus the ``messages`` format spec (a field holding message references)."""

    def __init__(self, lang: str | None) -> None:
        self.lang = lang

    def format_field(self, value: object, format_spec: str) -> str:
        if format_spec == _MESSAGES_SPEC:
            return t_list(value, self.lang)  # type: ignore[arg-type]
        return format(value, format_spec)


@cache
def _fields_of(key: str) -> tuple[tuple[str, bool], ...] | None:
    """The fields message ``key`` formats in either language, each with whether it takes message
    references; ``None`` when a text uses more than plain and ``messages`` fields (positions, indexes,
    other format specs), which only rendering can check."""
    fields: dict[str, bool] = {}
    try:
        for text in catalogue()[key]:
            for _literal, name, spec, conversion in string.Formatter().parse(text):
                if name is None:
                    continue
                if not name.isidentifier() or spec not in ("", _MESSAGES_SPEC) or (spec and conversion):
                    return None
                fields[name] = fields.get(name, False) or spec == _MESSAGES_SPEC
    except ValueError:  # a malformed text: rendering tells
        return None
    return tuple(fields.items())


def renders(key: str, fields: dict[str, object]) -> bool | None:
    """Whether ``t(key, lang, **fields)`` renders in both languages, told from the message's fields
    without formatting: ``True`` when every field it names is given (message references as lists of
    ``[key, [[field, value], ...]]`` pairs that render too), ``False`` when one is missing; ``None``
    where only rendering can tell (an unknown key, unusual texts or values)."""
    if key not in catalogue():
        return None
    if not fields:
        return True  # t() returns the text as it is
    plan = _fields_of(key)
    if plan is None:
        return None
    for name, takes_refs in plan:
        if name not in fields:
            return False
        if takes_refs:
            refs = fields[name]
            if type(refs) not in (list, tuple):
                return None
            for item in refs:
                if type(item) not in (list, tuple) or len(item) != 2:
                    return None
                ref_key, pairs = item
                if type(ref_key) is not str or type(pairs) not in (list, tuple):
                    return None
                inner: dict[str, object] = {}
                for pair in pairs:
                    if type(pair) not in (list, tuple) or len(pair) != 2 or type(pair[0]) is not str:
                        return None
                    inner[pair[0]] = pair[1]
                if renders(ref_key, inner) is not True:
                    return None
    return True
