"""Which missing torch APIs real code calls most: counts of the ``missing`` findings (MSM2xx) of calls, by
torch API, in ``msmigrate scan --format json`` reports, with whether a verified composition covers each.

Usage::

    pip install --no-deps --target /tmp/corpus openai-whisper==20250625 segment-anything==1.0 \\
        efficientnet-pytorch==0.7.1 pretrainedmodels==0.7.4 open-clip-torch==3.3.0 stable-baselines3==2.9.2 \\
        vit-pytorch==1.26.11 timm==1.0.31 transformers==5.23.0
    msmigrate scan /tmp/corpus --format json --mindspore-version 2.6 -o /tmp/corpus.json
    python benchmarks/missing_api_frequency.py /tmp/corpus.json [--top 40]

(scan a copy of the installed torch package the same way for torch's own sources: a scan skips folders of
installed packages such as ``site-packages``.)
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

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
    parser.add_argument("reports", nargs="+", type=Path)
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    from msmigrate.knowledge.compositions.verified import offered_composition

    total: Counter = Counter()
    packages: dict[str, set[str]] = defaultdict(set)
    for path in args.reports:
        found, where = count(json.loads(path.read_text(encoding="utf-8")))
        total.update(found)
        for api, names in where.items():
            packages[api] |= names
    print(f"{sum(total.values())} missing-API calls, {len(total)} torch APIs")
    print(f"{'calls':>6}  {'packages':>8}  torch API (→ its verified composition)")
    for api, calls in total.most_common(args.top):
        composed = offered_composition(api)
        mark = f" → {composed.helper}" if composed is not None else ""
        print(f"{calls:>6}  {len(packages[api]):>8}  {api}{mark}")


if __name__ == "__main__":
    main()
