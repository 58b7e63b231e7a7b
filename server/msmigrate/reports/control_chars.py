"""Terminal-safe text: control characters from scanned file names and code shown as escapes.

A file name or a line of code can hold terminal escape sequences (``\\x1b]0;title\\x07`` sets the window
title, ``\\x1b[2J`` clears the screen) or bidirectional overrides that reorder what is displayed. The
text report shows every C0/C1 control character, DEL and the bidirectional controls as ``\\x1b`` /
``\\u202e`` instead of emitting them.
"""

from __future__ import annotations

import re

_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str) -> str:
    """``text`` with every control character written as its Python escape (``\\x1b``, ``\\u202e``)."""
    return _CONTROLS.sub(_escape, text)
