"""Which missing torch APIs real code uses most, and whether msmigrate answers each concretely.

Without reports, scans the pinned real-code corpus (``tests/realcode/realcode_packages.py``: nine model
packages installed ``--no-deps`` into ``~/.cache/msmigrate-corpus`` on first use, plus the installed torch's
``nn/``, ``optim/``, ``distributions/``) and counts every ``missing`` finding (MSM200–MSM204, any usage)
by torch API; ``--write`` stores the top 50 in ``tests/realcode/missing_top50.json``. The answer column is
``knowledge/missing_answers.answer_kind`` (mapping, composition, fix, recipe; ``-``: none)::

    .venv/bin/python benchmarks/missing_api_frequency.py [--top 50] [--write]

With ``msmigrate scan --format json`` reports, counts their missing findings of calls instead::

    python benchmarks/missing_api_frequency.py /tmp/corpus.json [--top 40]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

REALCODE = Path(__file__).resolve().parents[1] / "tests" / "realcode"
CALLED = {"call", "tensor_method", "module_method"}


def count(report: dict) -> tuple[Counter, dict[str, set[str]]]:
    """(findings per torch API, the top-level folders — packages — each appears in)."""
    found: Counter = Counter()
    packages: dict[str, set[str]] = defaultdict(set)
    for file in report["files"]:
        for finding in file["findings"]:
            if finding.get("category") == "missing" and finding.get("usage") in CALLED:
                found[finding["torch_api"]] += 1
                packages[finding["torch_api"]].add(file["path"].split("/")[0])
    return found, packages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="*", type=Path)
    parser.add_argument("--top", type=int, default=50)
    parser.add_argument("--write", action="store_true", help="store the top 50 of the pinned corpus")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    from msmigrate.knowledge.base import get_knowledge_base
    from msmigrate.knowledge.missing_answers import answer_kind

    sys.path.append(str(REALCODE))
    from missing_frequency import TABLE, TOP, TOP_FILE, count_missing, dumps, ranked, top_document

    total: Counter = Counter()
    packages: dict[str, set[str]] = defaultdict(set)
    if args.reports:
        for path in args.reports:
            found, where = count(json.loads(path.read_text(encoding="utf-8")))
            total.update(found)
            for api, names in where.items():
                packages[api] |= names
    else:
        total, packages = count_missing(args.jobs)
        if args.write:
            TOP_FILE.write_text(dumps(top_document(total, packages, TOP)), encoding="utf-8")
    kb = get_knowledge_base(TABLE)
    rows = ranked(total, args.top)
    answered = sum(1 for api, _ in rows if answer_kind(api, kb))
    print(f"{sum(total.values())} missing findings, {len(total)} torch APIs; "
          f"top {len(rows)}: {answered} answered concretely")
    print(f"{'rank':>4}  {'findings':>8}  {'packages':>8}  {'answer':<11}  torch API")
    for rank, (api, calls) in enumerate(rows, 1):
        print(f"{rank:>4}  {calls:>8}  {len(packages[api]):>8}  {answer_kind(api, kb) or '-':<11}  {api}")


if __name__ == "__main__":
    main()
