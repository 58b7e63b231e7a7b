"""Load time of the curated facts (the missing-API catalogue, the parameter and value facts of MindSpore
calls, the check's input-spec table), each in a fresh interpreter with the modules it depends on already
imported, so that only the facts are timed.

    python benchmarks/fact_load.py [--repeat 15]

Prints the best and the median wall time over the runs. It uses only names that both the code-written facts
and the data files offer (``missing_advice.CATALOGUE``, ``param_facts``/``value_forms``,
``spec_table.build_table``), so the same command measures a checkout before and after the move to data
(``PYTHONPATH=<other checkout>/server``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CHILD = r"""
import json, time
import msmigrate.i18n, msmigrate.knowledge.base, msmigrate.knowledge.model, msmigrate.knowledge.snippets
import msmigrate.check.spec, msmigrate.knowledge.check_result
t0 = time.perf_counter()
from msmigrate.knowledge.missing_advice import CATALOGUE
t1 = time.perf_counter()
from msmigrate.knowledge import param_facts, value_forms
t2 = time.perf_counter()
from msmigrate.check.spec_table import build_table
table = build_table()
t3 = time.perf_counter()
print(json.dumps({"advice": (t1 - t0) * 1000, "calls": (t2 - t1) * 1000, "specs": (t3 - t2) * 1000,
                  "sizes": [len(CATALOGUE), len(param_facts.COMPANIONS), len(table)]}))
"""
LABELS = {"advice": "missing-API catalogue", "calls": "parameter and value facts",
          "specs": "input-spec table"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    command = [sys.executable, "-c", CHILD]
    runs = [json.loads(subprocess.run(command, capture_output=True, text=True, check=True,
                                      timeout=300).stdout) for _ in range(args.repeat)]
    print(f"sizes (catalogue APIs, companion APIs, spec keys): {runs[0]['sizes']}")
    for key, label in LABELS.items():
        times = [run[key] for run in runs]
        print(f"{label + ':':28} best {min(times):6.1f} ms, median {statistics.median(times):6.1f} ms")


if __name__ == "__main__":
    main()
