"""What kind of checkpoint a file is, from its first bytes (no framework, nothing unpickled)."""

from __future__ import annotations

from pathlib import Path


def is_safetensors(path: Path) -> bool:
    """A safetensors file: 8 bytes of header length (little-endian), then a JSON object."""
    try:
        with path.open("rb") as f:
            head = f.read(9)
    except OSError:
        return False
    return len(head) == 9 and head[8:9] == b"{" and int.from_bytes(head[:8], "little") > 1
