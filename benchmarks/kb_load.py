"""Load time and memory of the knowledge base (mapping table + both inventories), as the language server
pays them: each run is a fresh interpreter that imports msmigrate, loads the knowledge base, resolves a few
spellings and analyses a small torch file.

    python benchmarks/kb_load.py [--repeat 5] [--mindspore-version 2.6]

Prints, per phase, the best wall time over the runs, the Python heap (tracemalloc, in a separate run, since
tracing slows loading down) and the process's peak RSS.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
trace = sys.argv[2] == "trace"
if trace:
    import tracemalloc
    tracemalloc.start()
t0 = time.perf_counter()
from msmigrate.analysis.analyzer import analyze_source
from msmigrate.knowledge.base import KnowledgeBase
t1 = time.perf_counter()
kb = KnowledgeBase(sys.argv[1])
kb.table, kb.torch_inventory, kb.mindspore_inventory, kb.tensor_members
t2 = time.perf_counter()
names = [kb.canonical(n) for n in ("torch.functional.split", "torch.nn.modules.loss.L1Loss",
                                    "torch.nn.modules.module.Module.to", "F.relu")]
source = "import torch\nimport torch.nn as nn\nx = torch.ones(2)\ny = nn.Linear(2, 2)(x).view(-1)\n" * 50
analyze_source(source, "m.py", kb)
t3 = time.perf_counter()
out = {"import_s": t1 - t0, "load_s": t2 - t1, "first_analysis_s": t3 - t2, "total_s": t3 - t0,
       "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
       "torch_names": len(kb.torch_inventory), "torch_aliases": len(kb.torch_inventory.aliases),
       "mindspore_names": len(kb.mindspore_inventory),
       "mindspore_aliases": len(kb.mindspore_inventory.aliases)}
if trace:
    out["heap_mb"] = tracemalloc.get_traced_memory()[0] / 1e6
    out["heap_peak_mb"] = tracemalloc.get_traced_memory()[1] / 1e6
print(json.dumps(out))
"""


def run(version: str, mode: str) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, version, mode], capture_output=True, text=True,
                          check=True, timeout=300)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--mindspore-version", default="2.6")
    args = parser.parse_args()
    runs = [run(args.mindspore_version, "plain") for _ in range(args.repeat)]
    traced = run(args.mindspore_version, "trace")
    best = {key: min(r[key] for r in runs) for key in ("import_s", "load_s", "first_analysis_s", "total_s")}
    first = runs[0]
    print(f"inventories: torch {first['torch_names']} names + {first['torch_aliases']} aliases, "
          f"MindSpore {first['mindspore_names']} names + {first['mindspore_aliases']} aliases")
    print(f"import msmigrate:        {best['import_s'] * 1000:7.0f} ms (best of {args.repeat})")
    print(f"load knowledge base:     {best['load_s'] * 1000:7.0f} ms")
    print(f"first analysis:          {best['first_analysis_s'] * 1000:7.0f} ms")
    print(f"total (cold start):      {best['total_s'] * 1000:7.0f} ms   target < 1000 ms")
    print(f"peak RSS:                {max(r['rss_mb'] for r in runs):7.1f} MB   target <= 150 MB")
    print(f"Python heap after load:  {traced['heap_mb']:7.1f} MB "
          f"(tracemalloc; peak {traced['heap_peak_mb']:.1f} MB)")


if __name__ == "__main__":
    main()
