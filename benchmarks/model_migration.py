"""Migrate real model definitions end to end and print how far each gets (the real-model corpus).

    python benchmarks/model_migration.py                    # every case (about 2-4 min)
    python benchmarks/model_migration.py --case vit_vit --show
    python benchmarks/model_migration.py --write-expected   # refresh the test's pinned outcomes

Each case (tests/model_corpus/corpus_cases.py) copies a model's files from a pinned third-party package
(installed once, --no-deps, into ~/.cache/msmigrate-corpus or $MSMIGRATE_CORPUS_CACHE), fixes them with
`msmigrate fix` (safe fixes only, then --unsafe-fixes; --device CPU, the 2.6 table), and runs the fixed model
in MindSpore without torch against the torch original: import, build, converted weights, forward in eval
mode at rtol=atol=1e-4, and one training step where the package has a loss. The table gives the stage each
case reached per mode and the first cause of failure; then the summary figures and the causes grouped.
Needs torch 2.13 and MindSpore 2.10.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "model_corpus"))

import corpus_harness as harness  # noqa: E402
from corpus_cases import CASES  # noqa: E402

# how far a stage got: built = past the build, loaded = past the weight load
_NOT_BUILT = {"fix", "import_torch_left", "import_error", "build", "torch_error", "crash"}
_NOT_LOADED = _NOT_BUILT | {"weight_load"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", help="only these cases")
    parser.add_argument("--sample", action="store_true", help="only the test suite's sample")
    parser.add_argument("--show", action="store_true", help="print each case's fix summary")
    parser.add_argument("--keep", type=Path, help="keep the projects and runs in this folder")
    parser.add_argument("--write-expected", action="store_true")
    args = parser.parse_args()
    cases = [c for c in CASES if (not args.case or c.id in args.case) and (not args.sample or c.ci)]
    if args.write_expected and (args.case or args.sample):
        parser.error("--write-expected needs every case (no --case, no --sample)")
    start = time.perf_counter()
    result = harness.run_corpus(cases, args.keep)
    elapsed = time.perf_counter() - start
    packages = len({c.package for c in cases})
    print(f"## Model corpus: {len(cases)} cases, {packages} packages, {elapsed:.0f} s\n")
    print("| case | package | safe-only | unsafe | first cause (unsafe; safe-only when it differs) |")
    print("|---|---|---|---|---|")
    for case in cases:
        safe, unsafe = result.outcome(case.id, "safe"), result.outcome(case.id, "unsafe")
        cause = _cell(unsafe.detail)
        if safe.stage != unsafe.stage and safe.stage != "pass":
            cause = "<br>".join(filter(None, [cause, f"safe-only: {_cell(safe.detail)}"]))
        print(f"| {case.id} | {case.package} | {safe.stage} | {unsafe.stage} | {cause} |")
    print()
    for mode in harness.MODES:
        outcomes = [o for o in result.outcomes if o.mode == mode]
        built = sum(o.stage not in _NOT_BUILT for o in outcomes)
        loaded = sum(o.stage not in _NOT_LOADED for o in outcomes)
        passed = sum(o.stage == "pass" for o in outcomes)
        entries = [f for c in cases for f in result.fixes[(c.id, mode)].summary.get("files", [])]
        free = sum(f["torch_free"] for f in entries)
        files = len(entries)
        counts = ", ".join(f"{stage} {n}" for stage, n in result.counts(mode).items() if n)
        label = "safe-only" if mode == "safe" else "--unsafe-fixes"
        print(f"- {label}: {passed} of {len(outcomes)} cases match torch at 1e-4 ({_pct(passed, outcomes)}); "
              f"{built} build, {loaded} load the converted weights; fixed files free of torch: {free} of "
              f"{files}. Stages: {counts}")
    print("\n## First causes, grouped (--unsafe-fixes)\n")
    for cause, ids in sorted(_grouped(result, "unsafe").items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"- {len(ids)} × {cause}: {', '.join(ids)}")
    print("\n## Torch left after --unsafe-fixes, by rule and name (distinct files)\n")
    for (rule, name), files in sorted(_left(result).items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"- {len(files)} × {rule or 'no rule'} {name}: {', '.join(sorted(files))}")
    if args.show:
        for case in cases:
            for mode in harness.MODES:
                print(f"\n### {case.id} ({mode})\n" + "\n".join(result.fixes[(case.id, mode)].text))
    if args.write_expected:
        harness.EXPECTED.write_text(harness.render_expected(result), encoding="utf-8")
        print(f"\nwrote {harness.EXPECTED.relative_to(ROOT)}")
    return 0


def _left(result: harness.CorpusResult) -> dict[tuple[str, str], set[str]]:
    """(rule, name) → the fixed files (by package path, each counted once) where that torch use is left."""
    found: dict[tuple[str, str], set[str]] = defaultdict(set)
    for (_case, mode), record in result.fixes.items():
        if mode != "unsafe":
            continue
        for entry in record.summary.get("files", []):
            for x in entry["leftovers"]:
                if x["kind"] != "import" or x["rule"]:
                    name = _cell(x["text"], 70) if x["kind"] != "string" else f'"{_cell(x["text"], 60)}"'
                    found[(x["rule"] or "", name)].add(entry["path"])
    return found


def _pct(n: int, outcomes: list) -> str:
    return f"{n / len(outcomes):.0%}" if outcomes else "–"


def _cell(text: str, limit: int = 220) -> str:
    text = " ".join(text.replace("|", "\\|").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _grouped(result: harness.CorpusResult, mode: str) -> dict[str, list[str]]:
    """Cause → cases: the stage with the rule or error that stopped the case (numbers and names dropped)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for o in result.outcomes:
        if o.mode != mode or o.stage == "pass":
            continue
        groups[f"{o.stage}: {_cause(o)}"].append(o.case)
    return groups


def _cause(outcome: harness.Outcome) -> str:
    detail = outcome.detail
    if outcome.stage == "import_torch_left":
        first = detail.split("first use left: ", 1)[-1]
        first = re.sub(r"^line \d+ ", "", first)
        return _cell(first, 140)
    detail = re.sub(r"\[[^\]]*\]$", "", detail)  # the file:line the error came from
    return _cell(re.sub(r"\d+", "N", detail), 140)


if __name__ == "__main__":
    sys.exit(main())
