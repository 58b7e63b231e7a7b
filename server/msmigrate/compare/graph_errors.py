"""Where a GRAPH_MODE failure comes from: MindSpore's message carries "The Traceback of Net Construct Code",
frames ``# 0 In file /path/model.py:24, 15~24`` (or ``:12~14``) each followed by the source; the last frame
is where compilation stopped. The static rule that flags that line (``rules/graph/``) is named with
it, found by analysing the file, so the editor shows the same place before anyone runs."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from msmigrate.model.finding import Finding

_FRAME = re.compile(r"^# ?\d+ In file (?P<file>.+?):(?P<line>\d+)(?:~(?P<end>\d+))?(?:, [\d~]+)?\s*$")
GRAPH_RULES = ("MSM701", "MSM702", "MSM703", "MSM704", "MSM705", "MSM706", "MSM707", "MSM708", "MSM709",
               "MSM710", "MSM711", "MSM712")
NOT_CALLABLE = "The object is not callable"
_UNSUPPORTED_OP = re.compile(r"Unsupported op \[(?P<op>\w+)\] on (?P<device>\w+)")
MAX_FILES = 300  # files of the model's package searched for a kernel failure's call


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
    """The line that says what failed (a kernel failure's "Unsupported op [Chunk] on CPU, …" line)."""
    unsupported = _UNSUPPORTED_OP.search(message)
    if unsupported:
        return next(raw.strip() for raw in message.splitlines() if unsupported.group(0) in raw)
    for raw in message.strip().splitlines():
        if raw.strip() and set(raw.strip()) != {"-"}:
            return raw.strip()
    return ""


def _project_fields(path: Path, known: dict[Path, tuple]) -> tuple[tuple[str, str, str], ...]:
    """The fields built in the project of ``path`` (its outermost package, else its folder), read once per
    project in ``known``, so a rule sees a field another file builds (MSM710: efficientnet's list stride)."""
    from msmigrate.scan.runner import project_index
    from msmigrate.weights.model_spec import import_root

    root, dotted = import_root(path)
    top = root / dotted.split(".")[0] if "." in dotted else path.parent
    if top not in known:
        known[top] = project_index([top]).fields if top.is_dir() else ()
    return known[top]


def _rule_at(path: Path, line: int, end_line: int, known: dict[Path, tuple] | None = None) -> str | None:
    from msmigrate.knowledge.base import get_knowledge_base
    from msmigrate.rules.graph._family import graph_findings

    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    kb = get_knowledge_base("auto")
    rules = (f.rule for f in graph_findings(source, str(path), kb) if f.rule in GRAPH_RULES
             and line <= f.line <= end_line)
    rule = next(rules, None)
    if rule is None and any("==" in text or "!=" in text for text in source.splitlines()[line - 1:end_line]):
        # a comparison: a field another file of the project builds may make it MSM710's
        fields = _project_fields(path, {} if known is None else known)
        rule = next((f.rule for f in graph_findings(source, str(path), kb, fields) if f.rule in GRAPH_RULES
                     and line <= f.line <= end_line), None)
    return rule


def _package_finding(model_file: Path, chosen: Callable[[Finding], bool]) -> tuple[Path, int, str] | None:
    """The first finding ``chosen`` accepts in the model's package, its own file first."""
    from msmigrate.knowledge.base import get_knowledge_base
    from msmigrate.rules.graph._family import graph_findings
    from msmigrate.weights.model_spec import import_root

    root = import_root(model_file)[0]
    files = [model_file, *(f for f in sorted(root.rglob("*.py")) if f != model_file)][:MAX_FILES]
    for path in files:
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for finding in graph_findings(source, str(path), get_knowledge_base("auto")):
            if chosen(finding):
                return path, finding.line, source.splitlines()[finding.line - 1].strip()
    return None


def _kernel_call(op: str, model_file: Path) -> tuple[Path, int, str] | None:
    """A kernel failure names the operator, not the line: the MSM704 finding in the model's package whose
    method the operator is (``Chunk`` ← ``x.chunk(…, dim=…)``)."""
    return _package_finding(
        model_file, lambda f: f.rule == "MSM704" and op.lower().startswith(f.message_args["method"])
    )


def place(reply: dict[str, Any], model_file: Path | None = None) -> GraphError:
    """The graph error of a worker reply ``{"type", "message", "during"?}``, placed in the user's source."""
    message = str(reply.get("message", ""))
    error = GraphError(
        first_line(message), str(reply.get("type", "")), during=str(reply.get("during", "forward"))
    )
    found = frames(message)
    unsupported = _UNSUPPORTED_OP.search(message)
    if not found and unsupported and model_file is not None:
        call = _kernel_call(unsupported["op"], model_file)
        if call is not None:
            path, line, source = call
            return GraphError(
                error.message, error.kind, str(path), line, line, source, "MSM704", error.during
            )
    if not found:
        return error
    known: dict[Path, tuple] = {}  # the projects' built fields, read once
    ruled = [(frame, rule) for frame in reversed(found)
             if (rule := _rule_at(Path(frame[0]), frame[1], frame[2], known)) is not None]
    if not ruled and error.message.startswith(NOT_CALLABLE) and model_file is not None:
        # a CellDict subclass called (MSM709) fails where it is called, often inside MindSpore's own
        # SequentialCell: the class is the place to change
        cls = _package_finding(model_file, lambda f: f.rule == "MSM709")
        if cls is not None:
            path, line, source = cls
            return GraphError(
                error.message, error.kind, str(path), line, line, source, "MSM709", error.during
            )
    # the innermost frame a rule flags (a library's code fails inside: einops' try, MSM705 at the call in
    # construct), else the innermost frame
    (file, line, end), rule = ruled[0] if ruled else (found[-1], None)
    path = Path(file)
    source = None
    try:
        source = path.read_text(encoding="utf-8").splitlines()[line - 1].strip()
    except (OSError, UnicodeDecodeError, IndexError):
        pass
    return GraphError(error.message, error.kind, file, line, end, source, rule, error.during)
