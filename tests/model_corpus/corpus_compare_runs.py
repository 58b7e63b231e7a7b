"""``msmigrate compare`` on the corpus: each case that passes with ``--unsafe-fixes`` compared with its torch
original by the command a user types, in PyNative and GRAPH_MODE; the outcomes pinned in
expected_compare.json (written by ``python benchmarks/corpus_compare.py --write-expected``).

A case's command: ``msmigrate compare --torch ORIGINAL/file.py:EXPR --mindspore FIXED/file.py:EXPR
--input ... --mode both --json``, its call (``model(points=(x0, x1), boxes=x2)``) written as inputs
(``--input 'points=(f32[1, 2, 2](0, 64), i64[1, 2](0, 2))'``), constants as ``--kwarg``; the weights
converted by the code of ``msmigrate convert-weights`` in the workers; the corpus dependencies (einops) on
the workers' PYTHONPATH.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import corpus_harness as harness
from corpus_cases import Case

EXPECTED_COMPARE = harness.HERE / "expected_compare.json"
REFRESH_COMPARE = "python benchmarks/corpus_compare.py --write-expected"
STATUSES = ("match", "diverge", "graph_error", "error", "not run")


def passing_cases() -> list[str]:
    """The cases pinned as passing with ``--unsafe-fixes`` (expected_outcomes.json)."""
    return sorted(c for c, m in harness.load_expected().items() if m.get("unsafe", {}).get("stage") == "pass")


def prepare(cases: list[Case], work: Path) -> Path:
    """``work/CASE/original`` and ``work/CASE/unsafe`` (fixed with --unsafe-fixes), as ``model_migration.py
    --keep`` leaves them; returns ``work``."""
    installed = harness.install()
    for case in cases:
        folder = work / case.id
        shutil.rmtree(folder, ignore_errors=True)
        original = harness.make_project(case, installed, folder / "original")
        shutil.copytree(original, folder / "unsafe")
        record = harness.fix_project(folder / "unsafe", unsafe=True)
        if record.error:
            raise RuntimeError(f"{case.id}: msmigrate fix failed: {record.error}")
    return work


def _leaf(case: Case, index: int) -> str:
    spec = case.inputs[index]
    integer = spec.dtype.startswith(("int", "uint"))
    low, high = (int(spec.low), int(spec.high)) if integer else (spec.low, spec.high)
    return f"{spec.dtype}[{', '.join(map(str, spec.shape))}]({low}, {high})"


def _text(node: ast.expr, case: Case, used: list[int]) -> str:
    """An argument of the case's call as input text; raises ValueError for what the text cannot hold."""
    if isinstance(node, ast.Name) and node.id.startswith("x") and node.id[1:].isdigit():
        used.append(int(node.id[1:]))
        return _leaf(case, int(node.id[1:]))
    if isinstance(node, ast.Tuple | ast.List):
        items = [_text(e, case, used) for e in node.elts]
        inner = ", ".join(items) + ("," if isinstance(node, ast.Tuple) and len(items) == 1 else "")
        return f"({inner})" if isinstance(node, ast.Tuple) else f"[{inner}]"
    if isinstance(node, ast.Constant) and node.value is None:
        return "None"
    raise ValueError(ast.unparse(node))


def command(case: Case, kept: Path) -> list[str] | str:
    """The ``msmigrate compare`` arguments for ``case``, or why its call cannot be written as inputs."""
    call = ast.parse(case.call, mode="eval").body
    if not isinstance(call, ast.Call) or any(isinstance(a, ast.Starred) for a in call.args):
        return "the call is not model(...)"
    used: list[int] = []
    args: list[str] = []
    try:
        for node in call.args:
            args += ["--input", _text(node, case, used)]
        for keyword in call.keywords:
            if isinstance(keyword.value, ast.Constant) and keyword.value.value is not None:
                args += ["--kwarg", f"{keyword.arg}={keyword.value.value!r}"]
            else:
                args += ["--input", f"{keyword.arg}={_text(keyword.value, case, used)}"]
    except ValueError as exc:
        return f"an argument is {exc} (inputs are tensors, tuples, lists, None)"
    if sorted(used) != list(range(len(case.inputs))):
        return "each input is not used exactly once"
    relative = Path(*case.module.split("."))
    files = [relative.with_suffix(".py"), relative / "__init__.py"]
    module = next((f for f in files if (kept / case.id / "original" / f).is_file()), files[0])
    return [
        str(Path(sys.executable).with_name("msmigrate")), "compare",
        "--torch", f"{kept / case.id / 'original' / module}:{case.expr}",
        "--mindspore", f"{kept / case.id / 'unsafe' / module}:{case.expr}",
        *args, "--mode", "both", "--json",
    ]


def _clean(text: str, kept: Path) -> str:
    return " ".join(text.replace(str(kept) + "/", "").replace("|", "\\|").split())


def compare(case: Case, kept: Path) -> dict[str, str]:
    """``{"pynative", "graph", "reason"}``: each mode's status (match, diverge, graph_error, error, not run)
    and, unless both match, why (the first layer that differs by its own error or the layers not checked
    alone, the graph error at its line with its rule)."""
    found = command(case, kept)
    if isinstance(found, str):
        return {"pynative": "not run", "graph": "not run", "reason": found}
    paths = [str(harness.install().deps), os.environ.get("PYTHONPATH")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p), "MSMIGRATE_LANG": "en"}
    done = subprocess.run(found, capture_output=True, text=True, env=env, timeout=1800)
    try:
        result = json.loads(done.stdout)["comparisons"][0]
    except (ValueError, KeyError, IndexError):
        reason = _clean((done.stderr or done.stdout)[-300:], kept)
        return {"pynative": "error", "graph": "error", "reason": reason}
    row = {m["mode"]: m["status"] for m in result.get("modes", [])}
    notes = [str(result["error"]["message"])] if result.get("error") else []
    for mode in result.get("modes", []):
        if mode["status"] == "match":
            continue
        graph, first = mode.get("graph_error") or {}, mode.get("first_divergence") or {}
        if mode.get("error"):
            notes.append(f"{mode['mode']}: {mode['error']['message']}")
        elif graph:
            where = f"{Path(graph.get('file') or '?').name}:{graph.get('line')}"
            notes.append(f"{mode['mode']}: {graph.get('message')} at {where} `{graph.get('source')}` "
                         f"(rule {graph.get('rule') or 'none'})")
        elif first:
            alone = (first.get("alone") or {}).get("max_abs")
            notes.append(f"{mode['mode']}: first layer that differs by its own error {first.get('name')} "
                         f"({first.get('torch_class')}, max abs {first.get('max_abs')}, alone {alone})")
        elif unchecked := [r for r in mode.get("layers", []) if r.get("status") == "unchecked"]:
            notes.append(f"{mode['mode']}: {len(unchecked)} layers differ and could not be checked alone "
                         f"(first {unchecked[0]['name']}: {json.dumps(unchecked[0].get('alone'))[:200]})")
        else:
            shown = {k: v for k, v in mode.items() if k != "layers"}
            notes.append(f"{mode['mode']}: {json.dumps(shown)[:300]}")
    return {
        "pynative": row.get("pynative", "error"),
        "graph": row.get("graph", "error"),
        "reason": _clean("; ".join(notes), kept)[:600],
    }


def load_expected_compare() -> dict[str, dict[str, str]]:
    """case → {"pynative", "graph", "reason"}."""
    if not EXPECTED_COMPARE.is_file():
        return {}
    return json.loads(EXPECTED_COMPARE.read_text(encoding="utf-8"))["cases"]


def render_expected_compare(rows: dict[str, dict[str, str]]) -> str:
    payload = {
        "about": "msmigrate compare on every corpus case that passes with --unsafe-fixes (expected_outcomes."
        f"json), PyNative and GRAPH_MODE, with the reason unless both match; written by `{REFRESH_COMPARE}`.",
        "cases": dict(sorted(rows.items())),
    }
    return json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def changes(got: dict[str, dict[str, str]], expected: dict[str, dict[str, str]]) -> list[str]:
    """The cases whose status in a mode differs from the pinned one."""
    return [
        f"{case} {mode}: pinned {expected.get(case, {}).get(mode, 'nothing')}, now {row[mode]}"
        f" ({row['reason']})"
        for case, row in sorted(got.items())
        for mode in ("pynative", "graph")
        if expected.get(case, {}).get(mode) != row[mode]
    ]
