"""How many "missing" findings derived mappings remove, on code this project did not write.

    python benchmarks/derived_coverage.py [PATH ...] [--mindspore-version 2.6]

Default paths: the installed torch package's own ``nn/``, ``optim/``, ``distributions/`` sources and
``examples/resnet_torch``. Every ``.py`` file is analysed twice in this process, with the official table
alone and with derived mappings, and the script prints per run: API findings, missing findings
(MSM200–MSM204), and the missing findings whose API has a MindSpore counterpart (a same-named API in a
counterpart namespace, or another table's row whose target MindSpore still has).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.datagen.derive_candidates import counterpart_names
from msmigrate.datagen.derive_exceptions import EXCEPTIONS
from msmigrate.knowledge.base import VERSIONS, KnowledgeBase, get_knowledge_base

API_RULE_PREFIXES = ("MSM1", "MSM2", "MSM6")
MISSING_RULES = frozenset({"MSM200", "MSM201", "MSM202", "MSM203", "MSM204"})


def default_paths() -> list[Path]:
    import importlib.util

    spec = importlib.util.find_spec("torch")
    paths = []
    if spec is not None and spec.origin:
        root = Path(spec.origin).parent
        paths += [root / name for name in ("nn", "optim", "distributions")]
    paths.append(Path(__file__).resolve().parents[1] / "examples" / "resnet_torch")
    return [p for p in paths if p.is_dir()]


def has_counterpart(torch_api: str, kb: KnowledgeBase) -> bool:
    """MindSpore has an API of the same name in a counterpart namespace, or another table maps it to an
    API MindSpore still has (pairs the reviewed exceptions reject do not count)."""
    inventory = kb.mindspore_inventory
    names = set(counterpart_names(torch_api))
    for version in VERSIONS:
        row = get_knowledge_base(version, derived=False).row(torch_api)
        if row is not None and row.mindspore_api:
            names.add(row.mindspore_api)
    return any(name in inventory and (torch_api, name) not in EXCEPTIONS for name in names)


def measure(files: list[Path], kb: KnowledgeBase) -> dict[str, object]:
    rules: Counter[str] = Counter()
    with_counterpart: Counter[str] = Counter()
    lines = 0
    for path in files:
        source = path.read_bytes()
        lines += source.count(b"\n")
        result = analyze_source(source, str(path), kb, AnalysisOptions(use_jedi=False))
        for finding in result.findings:
            if not finding.rule.startswith(API_RULE_PREFIXES):
                continue
            rules[finding.rule] += 1
            if finding.rule in MISSING_RULES and finding.torch_api and has_counterpart(finding.torch_api, kb):
                with_counterpart[finding.torch_api] += 1
    api = sum(rules.values())
    missing = sum(n for rule, n in rules.items() if rule in MISSING_RULES)
    return {
        "lines": lines,
        "api_findings": api,
        "missing": missing,
        "missing_with_counterpart": sum(with_counterpart.values()),
        "share": sum(with_counterpart.values()) / api if api else 0.0,
        "top": with_counterpart.most_common(8),
        "rules": dict(sorted(rules.items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--mindspore-version", default="2.6")
    args = parser.parse_args(argv)
    roots = args.paths or default_paths()
    files = sorted(p for root in roots for p in ([root] if root.is_file() else root.rglob("*.py")))
    print(f"{len(files)} files under {', '.join(str(r) for r in roots)}")
    for label, derived in (("official table only", False), ("with derived mappings", True)):
        kb = get_knowledge_base(args.mindspore_version, derived=derived)
        found = measure(files, kb)
        print(
            f"{label:>22} ({kb.version}): {found['lines']} lines, {found['api_findings']} API findings, "
            f"{found['missing']} missing (MSM200-204), {found['missing_with_counterpart']} of them with a "
            f"MindSpore counterpart = {found['share']:.1%} of API findings"
        )
        print(f"{'':>24}rules: {found['rules']}")
        if found["top"]:
            print(f"{'':>24}most frequent with a counterpart: {found['top']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
