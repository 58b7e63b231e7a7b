"""Reviewed exceptions to the derived mappings: candidates that are wrong although the names match.

Each entry is ``(torch API, MindSpore API or "*" for every candidate): reason``. The reason is kept in
``derived-<v>.json`` (``excluded``) so a reader of the data sees why a candidate is not offered. Add an
entry only after reading both APIs' documentation; never use this table to add mappings.
"""

from __future__ import annotations

EXCEPTIONS: dict[tuple[str, str], str] = {}
