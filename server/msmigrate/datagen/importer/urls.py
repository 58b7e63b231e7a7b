"""URLs of the mapping tables: language variants and difference-page file names."""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

_LANG_SEGMENT_RE = re.compile(r"/(docs|tutorials)/en/")


def zh_url_from_en(url: str) -> str:
    """The Chinese page of a mindspore.cn URL.

    The docs site keeps both languages under the same path and differs only in the language
    segment (``/docs/en/r2.4.10/...`` ↔ ``/docs/zh-CN/r2.4.10/...``), so when the Chinese table has
    no matching row we build the Chinese address from the English one by that pattern.
    """
    return _LANG_SEGMENT_RE.sub(lambda m: f"/{m.group(1)}/zh-CN/", url, count=1)


def is_diff_url(url: str) -> bool:
    return "/pytorch_diff/" in url


def diff_page_name(url: str) -> str | None:
    """Source file stem of a difference page URL (``.../pytorch_diff/all.html`` → ``all``)."""
    if not is_diff_url(url):
        return None
    path = unquote(urlsplit(url).path)
    stem = path.rsplit("/", 1)[-1]
    for suffix in (".html", ".md"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
    return stem or None


def clean_url(url: str) -> str:
    return url.strip().strip("<>")
