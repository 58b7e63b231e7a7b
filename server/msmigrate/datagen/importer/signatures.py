"""Parameter lists from the signature code blocks of difference pages (``torch.all(input, dim, ...)``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_START_RE = re.compile(
    r"(?m)^\s*(?:class\s+)?((?:torch|torchvision|torchaudio|torchtext|mindspore)(?:\.\w+)+)\s*\("
)
_IDENT_RE = re.compile(r"^[A-Za-z_]\w*$")


@dataclass(frozen=True, slots=True)
class SigParam:
    name: str
    default: str | None = None  # source text of the default, None when required
    kind: str = "positional"  # positional | keyword_only | var_positional | var_keyword | call_input

    @property
    def required(self) -> bool:
        return self.default is None and self.kind in ("positional", "keyword_only", "call_input")


def parse_signatures(code: str) -> dict[str, list[list[SigParam]]]:
    """Every ``name(params)`` signature that starts a line of ``code``, keyed by full API name."""
    found: dict[str, list[list[SigParam]]] = {}
    for m in _START_RE.finditer(code):
        inner = _balanced(code, m.end() - 1)
        if inner is None:
            continue
        params = parse_params(inner)
        # ``mindspore.ops.Sort(axis=-1)(x)`` / ``torch.nn.ReLU()(input)``: the call's inputs follow
        rest = code[m.end() + len(inner) + 1 :]
        stripped = rest.lstrip(" \t")
        if stripped.startswith("("):
            call = _balanced(stripped, 0)
            if call is not None:
                params += [SigParam(p.name, p.default, "call_input") for p in parse_params(call)]
        found.setdefault(m.group(1), []).append(params)
    return found


def _balanced(text: str, open_index: int) -> str | None:
    """Text between the bracket at ``open_index`` and its partner."""
    depth = 0
    quote = ""
    for i in range(open_index, len(text)):
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return text[open_index + 1 : i]
    return None


def split_top_level(text: str, sep: str = ",") -> list[str]:
    parts: list[str] = []
    depth = 0
    quote = ""
    current: list[str] = []
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0 and not quote:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def parse_params(inner: str) -> list[SigParam]:
    params: list[SigParam] = []
    keyword_only = False
    for part in split_top_level(inner.replace("\n", " ")):
        if part == "*":
            keyword_only = True
            continue
        if part in ("/", "...", "…"):
            continue
        kind = "keyword_only" if keyword_only else "positional"
        if part.startswith("**"):
            kind, part = "var_keyword", part[2:]
        elif part.startswith("*"):
            kind, part = "var_positional", part[1:]
            keyword_only = True
        head, eq, default = _split_default(part)
        name = head.split(":", 1)[0].strip()
        if not _IDENT_RE.match(name):
            continue
        params.append(SigParam(name, re.sub(r"\s+", " ", default.strip()) if eq else None, kind))
    return params


def _split_default(part: str) -> tuple[str, bool, str]:
    depth = 0
    for i, ch in enumerate(part):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "=" and depth == 0 and part[i + 1 : i + 2] != "=" and part[i - 1 : i] not in "!<>=":
            return part[:i], True, part[i + 1 :]
    return part, False, ""
