"""Compare the corpus cases that pass with --unsafe-fixes by `msmigrate compare`, PyNative and GRAPH_MODE.

    python benchmarks/model_migration.py --keep /tmp/corpus    # the fixed projects, kept
    python benchmarks/corpus_compare.py /tmp/corpus            # every case pinned as passing (unsafe)
    python benchmarks/corpus_compare.py /tmp/corpus --case tv_squeezenet

For each case the command is what a user types: `msmigrate compare --torch ORIGINAL/file.py:EXPR
--mindspore FIXED/file.py:EXPR --input SHAPE[:DTYPE:LOW:HIGH] ... --mode both --json` (weights converted by
the code of `msmigrate convert-weights`, in worker processes; einops on PYTHONPATH for the workers). The
table gives each mode's status and, for a GRAPH_MODE failure, the error with its source line and the rule
that flags it.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "model_corpus"))

import corpus_harness as harness  # noqa: E402
from corpus_cases import CASES, Case  # noqa: E402


def command(case: Case, kept: Path) -> list[str] | str:
    """The `msmigrate compare` arguments for ``case``, or why the command line cannot express its call."""
    call = ast.parse(case.call, mode="eval").body
    if not isinstance(call, ast.Call):
        return "the call is not model(...)"
    order: list[str] = []
    kwargs: list[str] = []
    for node in [*call.args, *(k.value for k in call.keywords)]:
        if isinstance(node, ast.Name) and node.id.startswith("x"):
            order.append(node.id)
    for keyword in call.keywords:
        if isinstance(keyword.value, ast.Constant):
            kwargs += ["--kwarg", f"{keyword.arg}={keyword.value.value!r}"]
        elif not isinstance(keyword.value, ast.Name):
            return f"{keyword.arg}= takes {ast.unparse(keyword.value)} (inputs are passed one by one)"
    if order != [f"x{i}" for i in range(len(case.inputs))]:
        return "the inputs are not passed in their order"
    relative = Path(*case.module.split("."))
    files = [relative.with_suffix(".py"), relative / "__init__.py"]
    module = next((f for f in files if (kept / case.id / "original" / f).is_file()), files[0])
    inputs = []
    for spec in case.inputs:
        shape = "x".join(str(n) for n in spec.shape)
        low, high = (int(spec.low), int(spec.high)) if spec.dtype.startswith("int") else (spec.low, spec.high)
        inputs += ["--input", f"{shape}:{spec.dtype}:{low}:{high}"]
    return [
        str(Path(sys.executable).with_name("msmigrate")), "compare",
        "--torch", f"{kept / case.id / 'original' / module}:{case.expr}",
        "--mindspore", f"{kept / case.id / 'unsafe' / module}:{case.expr}",
        *inputs, *kwargs, "--mode", "both", "--json",
    ]


def compare(case: Case, kept: Path, deps: Path) -> dict[str, str]:
    found = command(case, kept)
    if isinstance(found, str):
        return {"pynative": "not run", "graph": "not run", "note": found}
    paths = [str(deps), os.environ.get("PYTHONPATH")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    done = subprocess.run(found, capture_output=True, text=True, env=env, timeout=1800)
    try:
        result = json.loads(done.stdout)["comparisons"][0]
    except (ValueError, KeyError, IndexError):
        return {"pynative": "error", "graph": "error", "note": (done.stderr or done.stdout)[-300:]}
    row = {m["mode"]: m["status"] for m in result.get("modes", [])}
    notes = [str(result["error"])] if result.get("error") else []
    for mode in result.get("modes", []):
        if mode["status"] == "match":
            continue
        graph, first = mode.get("graph_error") or {}, mode.get("first_divergence") or {}
        if graph:
            where = f"{Path(graph.get('file') or '?').name}:{graph.get('line')}"
            notes.append(f"{mode['mode']}: {graph.get('message')} at {where} `{graph.get('source')}` "
                         f"(rule {graph.get('rule') or 'none'})")
        elif first:
            notes.append(f"{mode['mode']}: first layer that differs {first.get('name')} "
                         f"({first.get('torch_class')})")
        else:
            shown = {k: v for k, v in mode.items() if k != "layers"}
            notes.append(f"{mode['mode']}: {json.dumps(shown)[:300]}")
    return {"pynative": row.get("pynative", "–"), "graph": row.get("graph", "–"), "note": "; ".join(notes)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kept", type=Path, help="the folder of `model_migration.py --keep`")
    parser.add_argument("--case", action="append", help="only these cases (default: pinned as passing)")
    args = parser.parse_args()
    expected = harness.load_expected()
    chosen = args.case or [c for c, m in expected.items() if m.get("unsafe", {}).get("stage") == "pass"]
    deps = harness.install().deps
    print("| case | PyNative | GRAPH_MODE | note |\n|---|---|---|---|")
    for case in [c for c in CASES if c.id in chosen]:
        row = compare(case, args.kept, deps)
        note = " ".join(row["note"].replace("|", "\\|").split())
        print(f"| {case.id} | {row['pynative']} | {row['graph']} | {note} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
