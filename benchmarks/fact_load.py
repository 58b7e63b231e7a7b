"""Load time of the curated facts (the missing-API catalogue and the check's input-spec table), each in a
fresh interpreter with the modules it depends on already imported, so that only the facts are timed.

    python benchmarks/fact_load.py [--repeat 15]

Prints the best and the median wall time over the runs. It uses only names that both the code-written facts
and the data files offer (``missing_advice.CATALOGUE``, ``spec_table.build_table``), so the same command
measures a checkout before and after the move to data (``PYTHONPATH=<other checkout>/server``).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

CHILD = r"""
import json, sys, time
import msmigrate.i18n, msmigrate.knowledge.base, msmigrate.knowledge.model, msmigrate.knowledge.snippets
import msmigrate.check.spec, msmigrate.knowledge.check_result
t0 = time.perf_counter()
from msmigrate.knowledge.missing_advice import CATALOGUE
t1 = time.perf_counter()
from msmigrate.check.spec_table import build_table
table = build_table()
t2 = time.perf_counter()
print(json.dumps({"advice_ms": (t1 - t0) * 1000, "specs_ms": (t2 - t1) * 1000,
                  "advice": len(CATALOGUE), "specs": len(table)}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    runs = [__import__("json").loads(subprocess.run([sys.executable, "-c", CHILD], capture_output=True,
                                                    text=True, check=True, timeout=300).stdout)
            for _ in range(args.repeat)]
    print(f"missing-API catalogue ({runs[0]['advice']} APIs): best {min(r['advice_ms'] for r in runs):6.1f} ms, "
          f"median {statistics.median(r['advice_ms'] for r in runs):6.1f} ms")
    print(f"input-spec table ({runs[0]['specs']} keys):     best {min(r['specs_ms'] for r in runs):6.1f} ms, "
          f"median {statistics.median(r['specs_ms'] for r in runs):6.1f} ms")


if __name__ == "__main__":
    main()
