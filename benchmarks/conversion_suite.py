"""Run the executable conversion suite and print the pass rate per namespace and table.

    python benchmarks/conversion_suite.py                      # tables 2.4 and 2.6
    python benchmarks/conversion_suite.py --table 2.6 --api torch.abs --show
    python benchmarks/conversion_suite.py --write-expected     # refresh the expected outcomes of the test
    python benchmarks/conversion_suite.py --no-forms           # each API's own program only

A program passes when fix-all turns it into code that imports no torch and gives the same result in
MindSpore (CPU) as the torch program (see tests/conversion/harness.py). Needs torch 2.13 and MindSpore 2.10.
Besides the table per namespace group (the table's rows by namespace, then the derived mappings), it prints
the issue's two targets over every mapped API, programs or not: ≥ 80% of all, ≥ 95% of the consistent ones;
then the programs of the other calling forms real code uses (sizes as separate arguments or one tuple,
arguments by keyword or by position, the method spelling: tests/conversion/form_programs.py), by form.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "conversion"))

import harness  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", action="append", choices=["1.10", "2.3", "2.4", "2.6"])
    parser.add_argument("--api", action="append", help="only these torch APIs")
    parser.add_argument("--show", action="store_true", help="print each program's outcome and fixed code")
    parser.add_argument("--write-expected", action="store_true")
    parser.add_argument("--no-derived", action="store_true", help="the official table's mappings only")
    parser.add_argument("--no-forms", action="store_true",
                        help="each API's own program only (not those of the other forms real code uses)")
    args = parser.parse_args()
    tables = args.table or ["2.4", "2.6"]
    results = []
    for table in tables:
        start = time.perf_counter()
        programs = harness.programs_for_table(table, derived=not args.no_derived, forms=not args.no_forms)
        if args.api:
            programs = [p for p in programs if p.torch_api in args.api]
        result = harness.run_suite(table, programs=programs)
        results.append(result)
        elapsed = time.perf_counter() - start
        own = sum(not p.form for p in programs)
        print(f"\n## table {table}: {own} mapped APIs, {len(programs) - own} programs of other forms, "
              f"{elapsed:.0f} s")
        print("| namespace | pass | of | rate | " + " | ".join(_STATUSES) + " |")
        print("|---|---|---|---|" + "---|" * len(_STATUSES))
        counts = result.counts()
        counts["all"] = sum(counts.values(), Counter())
        for ns, (passed, total) in result.rates().items():
            c = counts[ns]
            rate = f"{passed / total:.1%}" if total else "–"
            cells = " | ".join(str(c[s]) for s in _STATUSES)
            print(f"| {ns} | {passed} | {total} | {rate} | {cells} |")
        _print_targets(result)
        _print_forms(result)
        if args.show:
            for o in result.outcomes:
                print(f"\n### {o.api}: {o.status} {o.detail}\n{o.fixed_source}")
    if args.write_expected:
        if args.api or args.no_derived or args.no_forms:
            parser.error("--write-expected needs the whole suite (no --api, no --no-derived)")
        harness.EXPECTED.write_text(harness.render_expected(results), encoding="utf-8")
        print(f"\nwrote {harness.EXPECTED.relative_to(ROOT)}")
    return 0


_TARGETS = (("all mapped APIs", None, 0.80), ("consistent ones", "consistent", 0.95))


def _print_targets(result: harness.SuiteResult) -> None:
    """The issue's targets over every mapped API (programs or not), official rows and with derived ones."""
    official = tuple(ns for ns in harness.NAMESPACES if ns != harness.DERIVED)
    print()
    for label, namespaces in (("table rows", official), ("table rows + derived", harness.NAMESPACES)):
        for what, category, target in _TARGETS:
            passed, total = result.overall(namespaces, category)
            if total:
                rate = passed / total
                verdict = "meets" if rate >= target else "below"
                print(f"- {label}, {what}: {passed} of {total} ({rate:.1%}; target ≥ {target:.0%}: "
                      f"{verdict})")


def _print_forms(result: harness.SuiteResult) -> None:
    """The programs of the other calling forms real code uses, by form (tests/conversion/form_programs.py)."""
    per = result.forms()
    if not per:
        return
    print("\n| calling form | pass | of | " + " | ".join(_STATUSES) + " |")
    print("|---|---|---|" + "---|" * len(_STATUSES))
    for form, c in sorted(per.items()):
        total = sum(n for status, n in c.items() if status not in ("no_program", "torch_error"))
        print(f"| {form} | {c['pass']} | {total} | " + " | ".join(str(c[s]) for s in _STATUSES) + " |")


_STATUSES = ("pass_api", "not_fixed", "no_cpu_kernel", "ms_error", "mismatch", "torch_error", "no_program")

if __name__ == "__main__":
    sys.exit(main())
