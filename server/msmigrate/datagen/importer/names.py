"""Canonical API names from table cells."""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import unquote, urlsplit

from msmigrate.knowledge.inventory_index import InventoryIndex

TORCH_ROOTS: tuple[str, ...] = ("torch", "torchvision", "torchaudio", "torchtext")
_DOTTED_RE = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)+$")
_NOT_SUPPORTED = {"", "none", "-", "—", "not supported", "unsupported", "不支持", "无", "暂无", "n/a"}


def clean_name(text: str) -> str:
    """``torch.Tensor.view()`` / `` `torch.abs` `` / ``torch. abs`` → dotted name without markup."""
    text = text.replace("`", "").replace("\\_", "_").replace("*", "")
    text = re.sub(r"\(.*\)$", "", text.strip())  # "torch.abs()" or "torch.max(dim)"
    return re.sub(r"\s+", "", text).rstrip(".")


def is_dotted(name: str) -> bool:
    return bool(_DOTTED_RE.match(name))


def is_torch_name(name: str) -> bool:
    return is_dotted(name) and name.split(".", 1)[0] in TORCH_ROOTS


def is_mindspore_name(name: str) -> bool:
    return is_dotted(name) and name.split(".", 1)[0] == "mindspore"


def name_from_url(url: str, roots: tuple[str, ...]) -> str | None:
    """The API name a documentation URL points at (its ``#anchor`` or page name), if it is one."""
    parts = urlsplit(url)
    for candidate in (unquote(parts.fragment), unquote(parts.path).rsplit("/", 1)[-1].removesuffix(".html")):
        candidate = clean_name(candidate)
        if is_dotted(candidate) and candidate.split(".", 1)[0] in roots:
            return candidate
    return None


def canonical_torch_name(text: str, url: str | None = None) -> str | None:
    """Canonical torch name of a link (text preferred, the URL when the text is not a plain API name)."""
    return _canonical_name(text, url, is_torch_name, TORCH_ROOTS)


def canonical_mindspore_name(text: str, url: str | None = None) -> str | None:
    return _canonical_name(text, url, is_mindspore_name, ("mindspore",))


def _canonical_name(
    text: str, url: str | None, is_name: Callable[[str], bool], roots: tuple[str, ...]
) -> str | None:
    name = clean_name(text)
    if is_name(name):
        return name
    return name_from_url(url, roots) if url else None


def means_unsupported(text: str) -> bool:
    """A MindSpore cell that names no API (empty, ``None``, ``Not supported`` …)."""
    return text.strip().strip("`*").strip().lower() in _NOT_SUPPORTED


def names_by_lower(inventory: InventoryIndex) -> dict[str, list[str]]:
    """Every spelling the inventory knows (canonical names and aliases), by its lower-case text."""
    found: dict[str, list[str]] = {}
    for name in sorted({*inventory, *inventory.aliases}):
        found.setdefault(name.lower(), []).append(name)
    return found


def torch_spelling_for(written: str, inventory: InventoryIndex, by_lower: dict[str, list[str]]) -> str | None:
    """The torch API a table's name stands for when torch has no API of that name but exactly one
    function, class or member whose name differs only in letter case (``torch.nn.SeLU`` →
    ``torch.nn.SELU``, ``torch.optim.AdaMax`` → ``torch.optim.Adamax``; modules such as
    ``torch.optim.adamax`` do not count); ``None`` when torch has the name, or no single such API."""
    if not is_torch_name(written) or not len(inventory) or inventory.resolve(written) is not None:
        return None
    candidates = []
    for name in by_lower.get(written.lower(), []):
        canonical = inventory.resolve(name)
        if canonical is not None and inventory[canonical].get("kind") != "module":
            candidates.append(name)
    return candidates[0] if len(candidates) == 1 else None
