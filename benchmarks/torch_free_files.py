"""How many files are free of torch after ``msmigrate fix``, and which idiom findings are left.

For every ``.py`` file under the given folders that uses torch in any form: the file's text after the
fixes ``msmigrate fix`` applies (safe ones, or all with ``--unsafe-fixes``), nothing written; counted as
torch-free when nothing of torch is left in it (``msmigrate fix``'s own test, ``FileFix.torch_free``). The
findings left in the fixed text are counted for the idioms of docs/idioms.md. A file whose fixing raises
is counted as ``failed`` (with CPython 3.11, ``ast.parse`` may raise ``SystemError: AST constructor
recursion depth mismatch`` once the process has met a file nested deeper than the parser accepts).

Usage: ``python benchmarks/torch_free_files.py [--unsafe-fixes] [--mindspore-version 2.6] [--json] FOLDER...``
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import Counter
from pathlib import Path

from msmigrate.analysis.columns import ColumnMap
from msmigrate.analysis.leftovers import torch_leftovers
from msmigrate.fixes.project import FixOptions, fix_source
from msmigrate.knowledge.base import get_knowledge_base

IDIOMS = (  # a torch name of an idiom (docs/idioms.md) → its label
    ("torch.no_grad", "grad mode"), ("torch.enable_grad", "grad mode"), ("torch.inference_mode", "grad mode"),
    ("torch.set_grad_enabled", "grad mode"), ("torch.jit.is_scripting", "feature check"),
    ("torch.jit.is_tracing", "feature check"), ("torch.__version__", "feature check"),
    ("torch.cuda.is_available", "feature check"), ("torch.cuda.device_count", "feature check"),
    ("torch.jit.ignore", "TorchScript mark"), ("torch.jit.Final", "TorchScript mark"),
    ("torch.utils.checkpoint.checkpoint", "checkpoint"), ("torch.autograd.Function", "autograd.Function"),
    ("torch.nn.init.calculate_gain", "nn.init helper"), ("torch.nn.init._calculate_fan_in_and_fan_out",
                                                         "nn.init helper"),
    ("torch.nn.DataParallel", "DataParallel"), ("torch.nn.parallel.data_parallel", "DataParallel"),
)


def uses_torch(source: str) -> bool:
    """Whether the file has torch in any form (``analysis/leftovers.py``)."""
    return bool(torch_leftovers(ast.parse(source), ColumnMap(source.splitlines(), source.isascii())))


def measure(folders: list[str], version: str, unsafe: bool) -> dict:
    kb = get_knowledge_base(version)
    options = FixOptions(mindspore_version=version, unsafe=unsafe, write=False)
    counts: Counter = Counter()
    left: Counter = Counter()
    for path in sorted(p for folder in folders for p in Path(folder).rglob("*.py")):
        source = path.read_text(encoding="utf-8", errors="replace")
        try:
            if not uses_torch(source):
                continue
            counts["torch_files"] += 1
            _data, record = fix_source(source.encode(), str(path), kb, options)
            counts["torch_free"] += record.torch_free
        except (SyntaxError, ValueError, SystemError, RecursionError, MemoryError):
            counts["failed"] += 1
            continue
        for finding in record.remaining:
            label = dict(IDIOMS).get(finding.torch_api or "")
            if label:
                left[label] += 1
    return {"torch_files": counts["torch_files"], "torch_free": counts["torch_free"],
            "failed": counts["failed"], "idiom_findings_left": dict(sorted(left.items()))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--mindspore-version", default="2.6")
    parser.add_argument("--unsafe-fixes", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    found = measure(args.folders, args.mindspore_version, args.unsafe_fixes)
    if args.json:
        print(json.dumps(found, indent=1))
        return 0
    print(f"files using torch: {found['torch_files']}  torch-free after the fixes: "
          f"{found['torch_free']}  failed: {found['failed']}")
    for label, count in found["idiom_findings_left"].items():
        print(f"  idiom findings left, {label}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
