"""Full scan results of some folders, saved and compared: the check that a change loses or alters no finding.

    # once, with the code before the change (any checkout: PYTHONPATH picks the msmigrate that runs)
    python benchmarks/compare_reports.py snippets tests /tmp/corpus/snippets
    PYTHONPATH=<old>/server python benchmarks/compare_reports.py report before.json examples tests ...
    # with the changed code, then the comparison
    python benchmarks/compare_reports.py report after.json examples tests ...
    python benchmarks/compare_reports.py compare before.json after.json

``snippets`` writes each string literal of the test files that parses as Python and mentions ``torch``
(the test cases' sources) as a file of its own, so the rules' test cases are scanned as files too.
``report`` scans every folder (no cache, one process unless ``--jobs``) and saves, per folder and file,
every field of every finding (message arguments included), the file's error, line count and syntax note,
and the JSON report in English and in Chinese. ``compare`` prints every difference and exits with 1 when
there is one.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import enum
import json
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any


def write_snippets(tests: Path, out: Path) -> int:
    """The test files' Python string literals that mention torch, one file each; returns their count."""
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for path in sorted(tests.rglob("*.py")):
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue
        seen: set[str] = set()
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and "torch" in node.value):
                continue
            text = textwrap.dedent(node.value).lstrip("\n")
            if text in seen or "\n" not in text.strip():
                continue
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    ast.parse(text)
            except (SyntaxError, ValueError):
                continue
            seen.add(text)
            name = "_".join(path.relative_to(tests).with_suffix("").parts)
            (out / f"{name}_{len(seen):03d}.py").write_text(text, encoding="utf-8")
            count += 1
    return count


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def report(folders: list[Path], jobs: int = 1) -> dict[str, Any]:
    from msmigrate.reports import render
    from msmigrate.scan import ScanOptions, scan_paths

    out: dict[str, Any] = {}
    for folder in folders:
        scanned = scan_paths([folder], ScanOptions(jobs=jobs, use_cache=False))
        files = {}
        for result in scanned.files:
            files[result.path] = {
                "error": [result.error_key, _plain(result.error_args)],
                "lines": result.lines,
                "syntax_error": [result.syntax_error_line, result.syntax_error_detail],
                "findings": [{**_plain(dataclasses.asdict(f)), "message_en": _message(f, "en"),
                              "message_zh": _message(f, "zh")} for f in result.findings],
            }
        out[str(folder)] = {"files": files, "json_en": _json(render, scanned, "en"),
                            "json_zh": _json(render, scanned, "zh")}
    return out


def _message(finding: Any, lang: str) -> str:
    try:
        return finding.message(lang)
    except Exception as exc:  # a message that does not render is a result too (and compared)
        return f"<{type(exc).__name__}: {exc}>"


def _json(render: Any, scanned: Any, lang: str) -> Any:
    try:
        return json.loads(render(scanned, "json", lang))
    except Exception as exc:
        return f"<{type(exc).__name__}: {exc}>"


def compare(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Every difference, one line each."""
    problems: list[str] = []
    for folder in sorted(before.keys() | after.keys()):
        if folder not in before or folder not in after:
            problems.append(f"{folder}: only in {'after' if folder in after else 'before'}")
            continue
        old, new = before[folder], after[folder]
        for path in sorted(old["files"].keys() | new["files"].keys()):
            a, b = old["files"].get(path), new["files"].get(path)
            if a is None or b is None:
                problems.append(f"{folder}/{path}: only in {'after' if b is not None else 'before'}")
                continue
            for field in ("error", "lines", "syntax_error"):
                if a[field] != b[field]:
                    problems.append(f"{folder}/{path}: {field} {a[field]!r} -> {b[field]!r}")
            lost = [f for f in a["findings"] if f not in b["findings"]]
            added = [f for f in b["findings"] if f not in a["findings"]]
            problems += [f"{folder}/{path}: lost {json.dumps(f, ensure_ascii=False)}" for f in lost]
            problems += [f"{folder}/{path}: new {json.dumps(f, ensure_ascii=False)}" for f in added]
            if not lost and not added and a["findings"] != b["findings"]:
                problems.append(f"{folder}/{path}: same findings in another order")
        for key in ("json_en", "json_zh"):
            if old[key] != new[key]:
                problems.append(f"{folder}: {key} report differs")
    return problems


def _summary(data: dict[str, Any]) -> str:
    files = sum(len(v["files"]) for v in data.values())
    findings = sum(len(f["findings"]) for v in data.values() for f in v["files"].values())
    return f"{len(data)} folders, {files} files, {findings} findings"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    snip = sub.add_parser("snippets", help="write the test files' torch snippets as files")
    snip.add_argument("tests", type=Path)
    snip.add_argument("out", type=Path)
    rep = sub.add_parser("report", help="scan folders and save every result")
    rep.add_argument("--jobs", type=int, default=1, help="worker processes of the scans (default 1)")
    rep.add_argument("out", type=Path)
    rep.add_argument("folders", type=Path, nargs="+")
    cmp_ = sub.add_parser("compare", help="compare two saved results")
    cmp_.add_argument("before", type=Path)
    cmp_.add_argument("after", type=Path)
    args = parser.parse_args(argv)

    if args.command == "snippets":
        print(f"{write_snippets(args.tests, args.out)} snippets written to {args.out}")
        return 0
    if args.command == "report":
        data = report([folder.resolve() for folder in args.folders], args.jobs)
        args.out.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True, indent=0) + "\n", "utf-8")
        print(f"{args.out}: {_summary(data)}")
        return 0
    before = json.loads(args.before.read_text("utf-8"))
    after = json.loads(args.after.read_text("utf-8"))
    problems = compare(before, after)
    for line in problems:
        print(line)
    print(f"before: {_summary(before)}; after: {_summary(after)}; differences: {len(problems)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
