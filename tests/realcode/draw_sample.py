"""How the positions of ``labels.json`` were drawn (run once; the labels were then written by hand).

Scans every package of ``realcode_packages`` once as a user would (``msmigrate scan`` defaults: the 2.6
table, no jedi, no cache), then draws positions at random with a fixed seed, stratified by rule: a rule with
at most ``RARE`` findings has all of them taken, every other rule gets ``max(FLOOR, its share of TOTAL)``.

Usage: ``python tests/realcode/draw_sample.py [--total 250] [--seed 23] > positions.json`` (prints the drawn
positions, each with what the analyzer said there, for the reviewer to check against the code).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))

from realcode_packages import PACKAGES, scan_roots, source_root  # noqa: E402

RARE = 5
FLOOR = 5
TABLE = "2.6"


def scan_package(package: str, jobs: int = 2) -> list[dict]:
    """Every finding of one package: package, file (relative to the source root), line, column and what
    the analyzer said (rule, torch API, MindSpore API, category, severity, message)."""
    from msmigrate.scan import scan_paths
    from msmigrate.scan.options import ScanOptions

    roots = scan_roots(package)
    options = ScanOptions(mindspore_version=TABLE, use_cache=False, jobs=jobs, respect_gitignore=False)
    report = scan_paths([str(r) for r in roots], options)
    base = source_root(package)
    rows = []
    for result in report.files:
        rel = (Path(report.root) / result.path).relative_to(base).as_posix()
        for f in result.findings:
            rows.append({"package": package, "file": rel, "line": f.line, "column": f.column, "rule": f.rule,
                         "torch_api": f.torch_api, "mindspore_api": f.mindspore_api,
                         "category": f.category.value, "severity": f.severity.value, "message": f.message()})
    return rows


def draw(rows: list[dict], total: int, seed: int) -> list[dict]:
    """Stratified by rule: rare rules all taken, the others ``max(FLOOR, share)``; sorted by position."""
    rng = random.Random(seed)
    by_rule: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_rule[row["rule"]].append(row)
    chosen: list[dict] = []
    for rule in sorted(by_rule):
        group = sorted(by_rule[rule], key=lambda r: (r["package"], r["file"], r["line"], r["column"]))
        share = len(group) if len(group) <= RARE else max(FLOOR, round(total * len(group) / len(rows)))
        chosen.extend(rng.sample(group, min(share, len(group))))
    return sorted(chosen, key=lambda r: (r["package"], r["file"], r["line"], r["column"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total", type=int, default=250)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rows: list[dict] = []
    for package in PACKAGES:
        found = scan_package(package, args.jobs)
        print(f"{package}: {len(found)} findings", file=sys.stderr)
        rows.extend(found)
    print("by rule:", dict(sorted(Counter(r["rule"] for r in rows).items())), file=sys.stderr)
    sample = draw(rows, args.total, args.seed)
    print("sampled by package:", dict(Counter(r["package"] for r in sample)), file=sys.stderr)
    json.dump(sample, sys.stdout, indent=1, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
