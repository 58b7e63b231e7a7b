"""Where a GRAPH_MODE failure comes from: MindSpore's message carries "The Traceback of Net Construct Code",
frames ``# 0 In file /path/model.py:24, 15~24`` (or ``:12~14``) each followed by the source; the last frame
is where compilation stopped. The static rule that flags that line (``rules/graph_mode.py``) is named with
it, found by analysing the file, so the editor shows the same place before anyone runs."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_FRAME = re.compile(r"^# ?\d+ In file (?P<file>.+?):(?P<line>\d+)(?:~(?P<end>\d+))?(?:, [\d~]+)?\s*$")
GRAPH_RULES = ("MSM701", "MSM702", "MSM703")


@dataclass(frozen=True, slots=True)
class GraphError:
    message: str  # the first line of MindSpore's message
    kind: str  # the exception type
    file: str | None = None
    line: int | None = None
    end_line: int | None = None
    source: str | None = None  # the line as it is in the file
    rule: str | None = None  # the static rule that flags it
    during: str = "forward"  # forward | training

    def to_json(self) -> dict[str, Any]:
        return {
            "message": self.message,
            "type": self.kind,
            "file": self.file,
            "line": self.line,
            "end_line": self.end_line,
            "source": self.source,
            "rule": self.rule,
            "during": self.during,
        }


def frames(message: str) -> list[tuple[str, int, int]]:
    """``(file, first line, last line)`` of every frame of the construct-code traceback, outermost first."""
    found = []
    for raw in message.splitlines():
        match = _FRAME.match(raw.strip())
        if match:
            line = int(match["line"])
            found.append((match["file"], line, int(match["end"]) if match["end"] else line))
    return found


def first_line(message: str) -> str:
    for raw in message.strip().splitlines():
        if raw.strip() and set(raw.strip()) != {"-"}:
            return raw.strip()
    return ""


def _rule_at(path: Path, line: int, end_line: int) -> str | None:
    from msmigrate.knowledge.base import get_knowledge_base
    from msmigrate.rules.graph_mode import graph_findings

    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    for finding in graph_findings(source, str(path), get_knowledge_base("auto")):
        if finding.rule in GRAPH_RULES and line <= finding.line <= end_line:
            return finding.rule
    return None


def place(reply: dict[str, Any]) -> GraphError:
    """The graph error of a worker reply ``{"type", "message", "during"?}``, placed in the user's source."""
    message = str(reply.get("message", ""))
    error = GraphError(
        first_line(message), str(reply.get("type", "")), during=str(reply.get("during", "forward"))
    )
    found = frames(message)
    if not found:
        return error
    file, line, end = found[-1]
    path = Path(file)
    source = None
    try:
        source = path.read_text(encoding="utf-8").splitlines()[line - 1].strip()
    except (OSError, UnicodeDecodeError, IndexError):
        pass
    return GraphError(
        error.message, error.kind, file, line, end, source, _rule_at(path, line, end), error.during
    )
