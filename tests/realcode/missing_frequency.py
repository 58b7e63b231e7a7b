"""The torch APIs that pinned real code reports "missing" most often, and how msmigrate answers each.

Every package of ``realcode_packages`` (the pinned third-party model code and the installed torch's own
``nn/``, ``optim/``, ``distributions/``) is scanned as a user would (``msmigrate scan`` defaults: the 2.6
table, no cache); every finding of category ``missing`` (MSM200–MSM204, any usage: call, attribute, type
reference, base class, decorator) counts for its torch API. The list is ranked by findings, then by name.
``missing_top50.json`` holds the top 50 with the command that wrote it::

    .venv/bin/python benchmarks/missing_api_frequency.py --write

and ``test_missing_top50.py`` checks that each has a concrete answer (``knowledge/missing_answers.py``) and
(slow) that a new scan still gives the same list.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))

from realcode_packages import PACKAGES, PINS, TORCH_FOLDERS, TORCH_VERSION, scan_roots  # noqa: E402

TOP_FILE = HERE / "missing_top50.json"
TABLE = "2.6"
TOP = 50
COMMAND = ".venv/bin/python benchmarks/missing_api_frequency.py --write"


def count_missing(jobs: int = 1) -> tuple[Counter, dict[str, set[str]]]:
    """(missing findings per torch API, the packages each appears in) over every pinned package."""
    from msmigrate.scan import scan_paths
    from msmigrate.scan.options import ScanOptions

    found: Counter = Counter()
    packages: dict[str, set[str]] = defaultdict(set)
    for package in PACKAGES:
        options = ScanOptions(mindspore_version=TABLE, use_cache=False, jobs=jobs, respect_gitignore=False)
        report = scan_paths([str(root) for root in scan_roots(package)], options)
        for result in report.files:
            for finding in result.findings:
                if finding.category.value == "missing" and finding.torch_api:
                    found[finding.torch_api] += 1
                    packages[finding.torch_api].add(package)
    return found, packages


def ranked(found: Counter, top: int = TOP) -> list[tuple[str, int]]:
    """The ``top`` most frequent APIs, by findings then by name."""
    return sorted(found.items(), key=lambda item: (-item[1], item[0]))[:top]


def top_document(found: Counter, packages: dict[str, set[str]], top: int = TOP) -> dict:
    return {
        "command": COMMAND,
        "table": TABLE,
        "torch": TORCH_VERSION,
        "packages": {**{name: version for name, (version, _) in PINS.items()},
                     "torch": f"{TORCH_VERSION} ({', '.join(TORCH_FOLDERS)})"},
        "missing_findings": sum(found.values()),
        "missing_apis": len(found),
        "top": [{"torch_api": api, "findings": calls, "packages": sorted(packages[api])}
                for api, calls in ranked(found, top)],
    }


def dumps(document: dict) -> str:
    """The document as JSON, one line per API of the list."""
    head = {key: value for key, value in document.items() if key != "top"}
    text = json.dumps(head, indent=1, ensure_ascii=False)[:-2]
    rows = ",\n  ".join(json.dumps(row, ensure_ascii=False) for row in document["top"])
    return f'{text},\n "top": [\n  {rows}\n ]\n}}\n'


def load_top() -> dict:
    return json.loads(TOP_FILE.read_text(encoding="utf-8"))
