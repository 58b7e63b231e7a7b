"""Bilingual (English / Chinese) user-visible messages.

Each area of the product keeps its catalogue in ``msmigrate/messages/<area>.py`` as
``MESSAGES = {"key": ("English text", "中文文本")}``; keys are prefixed by area
(``kb.``, ``scan.``, ``rule.``, ``lsp.``, ``check.``, ``report.``). Texts use ``str.format`` fields.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Literal

Lang = Literal["en", "zh"]
LANGS: tuple[Lang, ...] = ("en", "zh")


def normalize_lang(lang: str | None) -> Lang:
    """Map ``zh``, ``zh-cn``, ``zh_CN``, ``zh-Hans`` … to ``zh``; everything else to ``en``."""
    return "zh" if lang and lang.lower().startswith("zh") else "en"


@cache
def catalogue() -> dict[str, tuple[str, str]]:
    """All messages of all areas, merged (duplicate keys are a programming error)."""
    from msmigrate import messages

    merged: dict[str, tuple[str, str]] = {}
    for info in pkgutil.iter_modules(messages.__path__):
        module = importlib.import_module(f"msmigrate.messages.{info.name}")
        for key, texts in getattr(module, "MESSAGES", {}).items():
            if key in merged:
                raise ValueError(f"duplicate message key {key!r} in messages/{info.name}.py")
            merged[key] = texts
    return merged


def t(key: str, lang: str | None = "en", /, **fields: object) -> str:
    """Return message ``key`` in ``lang`` with ``fields`` substituted."""
    en, zh = catalogue()[key]
    text = zh if normalize_lang(lang) == "zh" else en
    return text.format(**fields) if fields else text
