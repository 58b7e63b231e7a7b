"""Quality of the findings on real code the team did not write, per 1,000 lines.

Scans the given folders (no cache) and prints:
- findings per 1,000 lines, by severity;
- duplicate positions: (file, line, column) carrying more than one finding (target 0);
- Tensor findings on receivers shown to be modules (target 0), judged here independently of the
  analyzer: ``self`` in a method of a module class, ``self.<attr>`` assigned a module instance in the class,
  a name assigned a module instance in the same function; module classes are the classes of the scanned
  folders whose bases are ``Module``/``nn.<Capitalised>`` or another such class (by name, across files);
- "missing"/"unknown" findings (MSM103, MSM2xx) whose API has a MindSpore counterpart of the same name
  in the MindSpore inventory (``torch.Tensor.X`` ↔ ``mindspore.Tensor.X``, ``torch.nn.Module.X`` ↔
  ``mindspore.nn.Cell.X``, ``torch.nn.X`` ↔ ``mindspore.mint.nn.X``/``mindspore.nn.X``, …), as % of the API
  findings (MSM1xx, MSM2xx, MSM600).

Usage: ``python benchmarks/real_code_quality.py [--mindspore-version 2.6] [--json] FOLDER...``
Example: the installed torch package's own ``nn/``, ``optim/`` and ``distributions/`` sources.
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.model.finding import Severity, UsageKind
from msmigrate.scan import scan_paths
from msmigrate.scan.options import ScanOptions

_API_RULE_PREFIXES = ("MSM1", "MSM2", "MSM6")
_MISSING_RULES = ("MSM103", "MSM200", "MSM201", "MSM202", "MSM203", "MSM204")
_COUNTERPARTS = (  # torch prefix → MindSpore prefixes tried with the same remaining name
    ("torch.Tensor.", ("mindspore.Tensor.",)),
    ("torch.nn.Module.", ("mindspore.nn.Cell.",)),
    ("torch.nn.functional.", ("mindspore.mint.nn.functional.", "mindspore.ops.")),
    ("torch.nn.init.", ("mindspore.common.initializer.",)),
    ("torch.nn.", ("mindspore.mint.nn.", "mindspore.nn.")),
    ("torch.optim.", ("mindspore.mint.optim.", "mindspore.nn.")),
    ("torch.linalg.", ("mindspore.mint.linalg.", "mindspore.ops.")),
    ("torch.special.", ("mindspore.mint.special.", "mindspore.ops.")),
    ("torch.fft.", ("mindspore.mint.fft.", "mindspore.ops.")),
    ("torch.distributions.", ("mindspore.nn.probability.distribution.",)),
    ("torch.", ("mindspore.mint.", "mindspore.ops.", "mindspore.")),
)


def counterpart(torch_api: str, mindspore: dict) -> str | None:
    """The MindSpore API of the same name under the corresponding namespace, if the inventory has one
    under any spelling (pairs reviewed as different despite the name, datagen/derive_exceptions.py,
    are not counterparts)."""
    from msmigrate.datagen.derive_exceptions import EXCEPTIONS

    resolve = getattr(mindspore, "resolve", None)
    for prefix, targets in _COUNTERPARTS:
        if torch_api.startswith(prefix):
            rest = torch_api[len(prefix):]
            for target in targets:
                name = target + rest
                known = resolve(name) is not None if resolve else name in mindspore
                if known and (torch_api, name) not in EXCEPTIONS:
                    return name
            return None
    return None


# --- an independent judgement of receivers shown to be modules -------------------------------------
def _base_name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def module_class_names(trees: list[ast.Module]) -> set[str]:
    """Names of classes (over all files) deriving from ``Module`` or another capitalised ``nn.X`` class."""
    bases: dict[str, set[str]] = {}
    direct: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                names = {_base_name(b) for b in node.bases}
                bases.setdefault(node.name, set()).update(names)
                for base in node.bases:
                    if _base_name(base) == "Module" or (
                        isinstance(base, ast.Attribute) and _base_name(base.value) == "nn"
                        and base.attr[:1].isupper() and base.attr not in ("Parameter", "Buffer")
                    ):
                        direct.add(node.name)
    found = set(direct)
    changed = True
    while changed:
        changed = False
        for name, names in bases.items():
            if name not in found and names & found:
                found.add(name)
                changed = True
    return found


def _is_module_call(node: ast.expr, classes: set[str]) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in classes
    return (isinstance(func, ast.Attribute) and _base_name(func.value) == "nn" and func.attr[:1].isupper()
            and func.attr not in ("Parameter", "Buffer")) or _base_name(func) in classes


def module_receivers(tree: ast.Module, classes: set[str]) -> set[tuple[int, int]]:
    """(line, 0-based column) of the attribute names whose receiver is shown to be a module."""
    found: set[tuple[int, int]] = set()
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef) or cls.name not in classes:
            continue
        module_attrs = {
            target.attr
            for node in ast.walk(cls) if isinstance(node, ast.Assign) and _is_module_call(node.value, classes)
            for target in node.targets
            if isinstance(target, ast.Attribute) and _base_name(target.value) == "self"
        }
        for function in cls.body:
            if not isinstance(function, ast.FunctionDef) or not function.args.args:
                continue
            if any(_base_name(d) in ("staticmethod", "classmethod") for d in function.decorator_list):
                continue
            this = function.args.args[0].arg
            rebound = {t.id for n in ast.walk(function) if isinstance(n, ast.Assign)
                       for t in n.targets if isinstance(t, ast.Name)}
            if this in rebound:
                continue
            for node in ast.walk(function):
                if not isinstance(node, ast.Attribute):
                    continue
                receiver = node.value
                if (isinstance(receiver, ast.Name) and receiver.id == this) or (
                    isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name)
                    and receiver.value.id == this and receiver.attr in module_attrs
                ):
                    found.add(_name_position(node))
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        assigned: dict[str, list[bool]] = {}
        for node in ast.walk(function):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assigned.setdefault(target.id, []).append(_is_module_call(node.value, classes))
        modules = {name for name, kinds in assigned.items() if all(kinds)}
        for node in ast.walk(function):
            receiver = getattr(node, "value", None)
            if isinstance(node, ast.Attribute) and isinstance(receiver, ast.Name) and receiver.id in modules:
                found.add(_name_position(node))
    return found


def _name_position(node: ast.Attribute) -> tuple[int, int]:
    return (node.end_lineno or node.lineno, (node.end_col_offset or 0) - len(node.attr))


def measure(folders: list[str], version: str) -> dict:
    """Copies the folders into a temporary one first: a scan skips ``site-packages`` (installed code)."""
    with tempfile.TemporaryDirectory() as tmp:
        copies = []
        for index, folder in enumerate(folders):
            copy = Path(tmp) / f"{index}_{Path(folder).name}"
            shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("__pycache__"))
            copies.append(str(copy))
        return _measure(copies, version)


def _measure(folders: list[str], version: str) -> dict:
    files = [p for folder in folders for p in sorted(Path(folder).rglob("*.py"))]
    report = scan_paths(folders, ScanOptions(mindspore_version=version, use_cache=False, jobs=2))
    kb = get_knowledge_base(version)
    mindspore = kb.mindspore_inventory
    trees: dict[str, ast.Module] = {}
    for path in files:
        try:
            trees[str(path.resolve())] = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue
    classes = module_class_names(list(trees.values()))
    root = Path(report.root or ".")
    lines = sum(f.lines for f in report.files)
    severities: Counter[str] = Counter()
    positions: Counter[tuple[str, int, int]] = Counter()
    api = missing_with_counterpart = references = on_modules = 0
    examples: Counter[str] = Counter()
    for file in report.files:
        tree = trees.get(str((root / file.path).resolve()))
        receivers = module_receivers(tree, classes) if tree is not None else set()
        for finding in file.findings:
            severities[finding.severity.value] += 1
            positions[(file.path, finding.line, finding.column)] += 1
            name = finding.torch_api or ""
            if finding.rule.startswith(_API_RULE_PREFIXES):
                api += 1
                if finding.rule in _MISSING_RULES and name and counterpart(name, mindspore):
                    missing_with_counterpart += 1
                    examples[name] += 1
                    references += finding.usage is UsageKind.REFERENCE
            # columns are 1-based code points; the torch sources are ASCII, so they are byte columns + 1
            if name.startswith("torch.Tensor.") and (finding.line, finding.column - 1) in receivers:
                on_modules += 1
    per_k = 1000 / lines if lines else 0.0
    duplicates = sum(1 for count in positions.values() if count > 1)
    duplicate_rules: Counter[str] = Counter()
    for file in report.files:
        for finding in file.findings:
            if positions[(file.path, finding.line, finding.column)] > 1:
                duplicate_rules[finding.rule] += 1
    return {
        "files": len(report.files),
        "lines": lines,
        "findings": sum(severities.values()),
        "per_1000_lines": {s.value: round(severities[s.value] * per_k, 2) for s in Severity},
        "duplicate_positions": duplicates,
        "duplicate_rules": dict(sorted(duplicate_rules.items())),
        "tensor_findings_on_module_receivers": on_modules,
        "api_findings": api,
        "missing_with_counterpart": missing_with_counterpart,
        "missing_with_counterpart_pct": round(100 * missing_with_counterpart / api, 2) if api else 0.0,
        "of_which_type_references": references,
        "top_missing_with_counterpart": examples.most_common(10),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--mindspore-version", default="2.6")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.folders, args.mindspore_version)
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    print(f"{figures['files']} files, {figures['lines']} lines, {figures['findings']} findings "
          f"(MindSpore table {args.mindspore_version})")
    print("findings per 1,000 lines: " + ", ".join(f"{k} {v}" for k, v in figures["per_1000_lines"].items()))
    print(f"duplicate positions: {figures['duplicate_positions']} {figures['duplicate_rules'] or ''}")
    on_modules = figures["tensor_findings_on_module_receivers"]
    print(f"Tensor findings on receivers shown to be modules: {on_modules}")
    print(f"missing/unknown findings with a same-name MindSpore counterpart: "
          f"{figures['missing_with_counterpart']} of {figures['api_findings']} API findings "
          f"({figures['missing_with_counterpart_pct']}%), of which {figures['of_which_type_references']} are "
          "type references (annotations, isinstance: hints renamed by a quick-fix)")
    for name, count in figures["top_missing_with_counterpart"]:
        print(f"    {count:5d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
