"""The labelled real-code findings (``labels.json``): schema, analysis of the sampled files, judgement.

Each label is a position (package, file, line, column) drawn at random from the findings of a scan of pinned
third-party code (``draw_sample.py``), and what a reviewer found right there by reading the code and running
MindSpore 2.10: the torch API (identification), and the claim — rule, MindSpore target, category, severity
class (``attention``: warning/error, ``note``: information/hint) and the decisive words the message must
contain (``not_words``: words it must not contain). ``rule``, ``mindspore_api`` and ``category`` hold one
value or a list of acceptable ones; ``null`` among the rules means "no finding" is right; ``"*"`` accepts
anything. A word ``"a|b"`` is satisfied by either. ``no_cpu_kernel`` lists targets that do not run on CPU
for that call (MindSpore 2.10 CPU: no kernel, or an in-place method that leaves the tensor unchanged): a
claim naming one of them is right on CPU only if its message says so (mentions "CPU").
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from realcode_packages import PACKAGES, scan_roots, source_root

LABELS = Path(__file__).resolve().parent / "labels.json"
SEVERITY_CLASS = {"error": "attention", "warning": "attention", "information": "note", "hint": "note"}
_KEYS = {"package", "file", "line", "column", "rule", "torch_api", "mindspore_api", "category", "severity",
         "words", "not_words", "no_cpu_kernel", "topic", "reason"}
_REQUIRED = _KEYS - {"not_words", "no_cpu_kernel"}


def load_labels(path: Path = LABELS) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def schema_problems(data: dict[str, Any]) -> list[str]:
    """What is wrong with the labels file's shape (empty when it is well-formed)."""
    from msmigrate.model.finding import FindingCategory

    categories = {c.value for c in FindingCategory}
    problems: list[str] = []
    if data.get("schema_version") != 1 or data.get("table") != "2.6" or data.get("device") != "CPU":
        problems.append("header: schema_version 1, table 2.6, device CPU expected")
    seen: set[tuple] = set()
    for n, label in enumerate(data.get("labels", [])):
        where = f"label {n} ({label.get('file')}:{label.get('line')})"
        keys = set(label)
        if not _REQUIRED <= keys <= _KEYS:
            problems.append(f"{where}: keys {sorted(keys ^ _REQUIRED - {'not_words', 'no_cpu_kernel'})}")
            continue
        position = (label["package"], label["file"], label["line"], label["column"])
        if position in seen:
            problems.append(f"{where}: position labelled twice")
        seen.add(position)
        if label["package"] not in PACKAGES:
            problems.append(f"{where}: unknown package {label['package']}")
        if not (isinstance(label["line"], int) and isinstance(label["column"], int) and label["line"] > 0
                and label["column"] > 0):
            problems.append(f"{where}: line and column are positive integers")
        rules = as_list(label["rule"])
        if not rules or not all(r is None or (isinstance(r, str) and r.startswith("MSM")) for r in rules):
            problems.append(f"{where}: rule is an MSMnnn id, null, or a list of them")
        cats = as_list(label["category"])
        known = all(c in categories or (c is None and None in rules) for c in cats)
        if label["category"] != "*" and not known:
            problems.append(f"{where}: category {label['category']!r}")
        if label["severity"] not in ("attention", "note", None):
            problems.append(f"{where}: severity is attention, note or null")
        for key in ("words", "not_words", "no_cpu_kernel"):
            value = label.get(key, [])
            if not (isinstance(value, list) and all(isinstance(w, str) and w for w in value)):
                problems.append(f"{where}: {key} is a list of non-empty strings")
        if len(label["words"]) > 3:
            problems.append(f"{where}: at most 3 decisive words")
        if not (isinstance(label["reason"], str) and label["reason"]) or not label["topic"]:
            problems.append(f"{where}: a reason and a topic are required")
        if set(label.get("no_cpu_kernel", [])) - set(as_list(label["mindspore_api"])):
            problems.append(f"{where}: no_cpu_kernel names a target the label does not accept")
    return problems


def as_list(value: Any) -> list:
    return value if isinstance(value, list) else [value]


def _project_index(package: str) -> tuple[Path, Any]:
    """The report root of a scan of ``package`` and the project index the scan builds of it (the module
    classes, and the fields its files build, which MSM710 reads across files)."""
    from msmigrate.scan.discovery import discover
    from msmigrate.scan.runner import project_index_of

    found = discover([str(r) for r in scan_roots(package)], respect_gitignore=False)
    return found.root, project_index_of(found.files)


Found = dict[tuple[str, str], dict[tuple[int, int], Any]]  # (package, file) -> (line, column) -> Finding


def analyse(labels: list[dict[str, Any]], version: str = "2.6") -> Found:
    """The findings of every labelled file by position, analysed as ``msmigrate scan`` of the package does."""
    from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
    from msmigrate.knowledge.base import get_knowledge_base

    kb = get_knowledge_base(version)
    files: dict[str, set[str]] = defaultdict(set)
    for label in labels:
        files[label["package"]].add(label["file"])
    found: Found = {}
    for package, names in sorted(files.items()):
        root, index = _project_index(package)
        options = AnalysisOptions(use_jedi=False, module_classes=index.module_classes,
                                  project_fields=index.fields)
        for name in sorted(names):
            path = source_root(package) / name
            result = analyze_source(path.read_bytes(), path.relative_to(root).as_posix(), kb, options)
            if result.error_key is not None:
                raise AssertionError(f"{package} {name}: {result.error()}")
            found[(package, name)] = {(f.line, f.column): f for f in result.findings}
    return found


@dataclass(slots=True)
class Verdict:
    label: dict[str, Any]
    finding: Any  # msmigrate.model.finding.Finding | None
    identified: bool
    claim: bool
    claim_cpu: bool
    severity: bool | None  # None: not judged
    why: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        lab = self.label
        return f"{lab['package']} {lab['file']}:{lab['line']}:{lab['column']}"

    def got(self) -> str:
        f = self.finding
        if f is None:
            return "no finding"
        return (f"{f.rule} {f.torch_api} -> {f.mindspore_api} [{f.category.value}, {f.severity.value}]: "
                f"{f.message()}")

    def expected(self) -> str:
        lab = self.label
        text = f"{lab['rule']} {lab['torch_api']} -> {lab['mindspore_api']} [{lab['category']}]"
        if lab["words"]:
            text += f" words {lab['words']}"
        if lab.get("not_words"):
            text += f" not {lab['not_words']}"
        return text


def _accepts(allowed: Any, value: Any) -> bool:
    return allowed == "*" or value in as_list(allowed)


def judge(label: dict[str, Any], finding: Any) -> Verdict:
    """Identification, claim (also on CPU) and severity class of the finding at a label's position."""
    rules = as_list(label["rule"])
    why: list[str] = []
    if label["torch_api"] is not None:
        identified = finding is not None and finding.torch_api == label["torch_api"]
    elif None in rules:  # no torch API there: a finding naming one mis-identifies the code
        identified = finding is None or finding.torch_api is None
    else:  # a pattern finding (no single API)
        identified = finding is not None
    if finding is None:
        claim = None in rules
        if not claim:
            why.append("no finding")
        return Verdict(label, None, identified, claim, claim, None, why)
    message = finding.message().lower()
    if not _accepts(label["rule"], finding.rule):
        why.append("rule")
    if not _accepts(label["mindspore_api"], finding.mindspore_api):
        why.append("target")
    if not _accepts(label["category"], finding.category.value):
        why.append("category")
    missing = [w for w in label["words"] if not any(alt.lower() in message for alt in w.split("|"))]
    if missing:
        why.append(f"words {missing}")
    present = [w for w in label.get("not_words", []) if w.lower() in message]
    if present:
        why.append(f"says {present}")
    claim = not why
    claim_cpu = claim and (finding.mindspore_api not in label.get("no_cpu_kernel", []) or "cpu" in message)
    if claim and not claim_cpu:
        why.append("no CPU kernel, not said")
    severity = None
    if label["severity"] is not None:
        severity = SEVERITY_CLASS[finding.severity.value] == label["severity"]
    return Verdict(label, finding, identified, claim, claim_cpu, severity, why)


def verdicts(data: dict[str, Any] | None = None) -> list[Verdict]:
    data = data if data is not None else load_labels()
    labels = data["labels"]
    found = analyse(labels, data["table"])
    return [judge(lab, found[(lab["package"], lab["file"])].get((lab["line"], lab["column"])))
            for lab in labels]


def figures(results: list[Verdict]) -> dict[str, int]:
    judged = [v for v in results if v.severity is not None]
    return {
        "labels": len(results),
        "identified": sum(v.identified for v in results),
        "claims_right": sum(v.claim for v in results),
        "claims_right_cpu": sum(v.claim_cpu for v in results),
        "severity_judged": len(judged),
        "severity_right": sum(bool(v.severity) for v in judged),
    }
