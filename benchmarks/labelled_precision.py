"""Precision of msmigrate's findings on labelled real code (``tests/realcode/labels.json``).

Analyses the sampled files of the pinned third-party packages and of the installed torch (installed on first
use, see ``tests/realcode/realcode_packages.py``), compares the finding at each labelled position with its
label and prints: identification (the torch API), claims (rule, MindSpore target, category, decisive
words), claims also right on CPU, severity class; then every wrong claim grouped by topic (what decides the
right claim), with the expected and the found claim.

Usage: ``python benchmarks/labelled_precision.py [--json] [--examples N]``
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent / "tests" / "realcode"))

from realcode_labels import Verdict, figures, verdicts  # noqa: E402


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def grouped(results: list[Verdict], cpu: bool = True) -> dict[str, list[Verdict]]:
    """Wrong claims (on CPU when ``cpu``) and wrong identifications by topic, largest group first."""
    groups: dict[str, list[Verdict]] = defaultdict(list)
    for v in results:
        if not (v.claim_cpu if cpu else v.claim) or not v.identified:
            groups[v.label["topic"]].append(v)
    return dict(sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures and the wrong claims as JSON")
    parser.add_argument("--examples", type=int, default=3, help="examples printed per topic (default 3)")
    args = parser.parse_args()
    results = verdicts()
    numbers = figures(results)
    groups = grouped(results)
    if args.json:
        print(json.dumps({"figures": numbers, "wrong": {
            topic: [{"where": v.where, "why": v.why, "identified": v.identified, "expected": v.expected(),
                     "got": v.got()} for v in items] for topic, items in groups.items()}}, indent=1,
            ensure_ascii=False))
        return
    total = numbers["labels"]
    print(f"labels                {total}")
    print(f"identification right  {numbers['identified']} ({_percent(numbers['identified'], total)})")
    print(f"claims right          {numbers['claims_right']} ({_percent(numbers['claims_right'], total)})")
    cpu = numbers["claims_right_cpu"]
    print(f"claims right on CPU   {cpu} ({_percent(cpu, total)})")
    print(f"severity class right  {numbers['severity_right']} of {numbers['severity_judged']} judged "
          f"({_percent(numbers['severity_right'], numbers['severity_judged'])})")
    print()
    print("wrong claims (on CPU) and identifications, by topic:")
    for topic, items in groups.items():
        print(f"\n[{len(items)}] {topic}")
        for v in items[:args.examples]:
            mark = "" if v.identified else " (identification wrong)"
            print(f"  {v.where}{mark}: {'; '.join(v.why)}")
            print(f"    expected: {v.expected()}")
            print(f"    got:      {v.got()[:240]}")


if __name__ == "__main__":
    main()
