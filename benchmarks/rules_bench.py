"""Cost of the rule checkers (missing-API refinement, dynamic shape, sparse, patterns) per file.

    python benchmarks/rules_bench.py tests/rules/fixtures/real_world_training.py --replicate 30

``--replicate N`` repeats the file's body N times (one long module). Prints the analysis time without
the checkers, with them, and their ratio. Target: the checkers about double the analysis time of a file
at most (measured on the 2-core CI machine: 9,745 lines, 0.19 s without, 0.41 s with, ratio 2.2).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.knowledge.base import get_knowledge_base


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--replicate", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    text = args.file.read_text(encoding="utf-8")
    lines = text.splitlines()
    body = "\n".join(lines[10:])
    source = text + ("\n" + body) * args.replicate
    kb = get_knowledge_base("2.6")
    analyze_source(text, "warmup.py", kb, AnalysisOptions(use_jedi=False))
    count = len(source.splitlines())
    timings = {}
    for checkers in (False, True):
        options = AnalysisOptions(use_jedi=False, run_checkers=checkers)
        best = min(_timed(source, kb, options) for _ in range(args.repeat))
        timings[checkers] = best
        label = "with checkers" if checkers else "without checkers"
        print(f"{label:>17}: {best:6.2f} s  {count / best:10.0f} lines/s")
    print(f"{'ratio':>17}: {timings[True] / timings[False]:6.2f}x  ({count} lines)")


def _timed(source: str, kb, options: AnalysisOptions) -> float:
    start = time.perf_counter()
    analyze_source(source, "bench.py", kb, options)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
