"""Compare the corpus cases that pass with --unsafe-fixes by `msmigrate compare`, PyNative and GRAPH_MODE.

    python benchmarks/corpus_compare.py                      # every case pinned as passing (unsafe)
    python benchmarks/corpus_compare.py --write-expected     # and pin the outcomes (expected_compare.json)
    python benchmarks/corpus_compare.py --case sam_prompt_encoder [--write-expected]   # one case (re-pinned)
    python benchmarks/corpus_compare.py --kept /tmp/corpus   # reuse `model_migration.py --keep /tmp/corpus`

The cases are those expected_outcomes.json pins as passing with --unsafe-fixes (after merging fix-rule
work: `python benchmarks/model_migration.py --write-expected` first, then this with --write-expected).
Each case's original files are copied and fixed with --unsafe-fixes (unless --kept gives them), then
compared by what a user types: `msmigrate compare --torch ORIGINAL/file.py:EXPR --mindspore FIXED/file.py:EXPR
--input ... --mode both --json` (tests/model_corpus/corpus_compare_runs.py). The table gives each mode's
status and, unless both match, why; then the changes against the pinned outcomes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "model_corpus"))

import corpus_compare_runs as runs  # noqa: E402
from corpus_cases import CASES  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kept", type=Path,
                        help="the folder of `model_migration.py --keep` (else fixed here)")
    parser.add_argument("--case", action="append", help="only these cases (default: pinned as passing)")
    parser.add_argument("--write-expected", action="store_true", help="pin the outcomes")
    args = parser.parse_args()
    chosen = args.case or runs.passing_cases()
    cases = [c for c in CASES if c.id in chosen]
    started = time.monotonic()
    kept = args.kept or runs.prepare(cases, Path(tempfile.mkdtemp(prefix="msmigrate-compare-")))
    rows = {}
    print("| case | PyNative | GRAPH_MODE | reason |\n|---|---|---|---|")
    for case in cases:
        rows[case.id] = row = runs.compare(case, kept)
        print(f"| {case.id} | {row['pynative']} | {row['graph']} | {row['reason']} |", flush=True)
    both = sum(r["pynative"] == r["graph"] == "match" for r in rows.values())
    pynative = sum(r["pynative"] == "match" for r in rows.values())
    print(f"\n{len(rows)} cases: {both} match in both modes, {pynative} in PyNative "
          f"({time.monotonic() - started:.0f} s)")
    changed = runs.changes(rows, runs.load_expected_compare())
    print("\n".join(["changed against the pinned outcomes:", *changed]) if changed else "as pinned")
    if args.write_expected:  # with --case: those cases' rows replaced, the others kept
        pinned = {**runs.load_expected_compare(), **rows} if args.case else rows
        runs.EXPECTED_COMPARE.write_text(runs.render_expected_compare(pinned), encoding="utf-8")
        print(f"wrote {runs.EXPECTED_COMPARE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
