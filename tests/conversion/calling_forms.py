"""How real code calls each torch API: the calling forms of the pinned third-party packages.

The conversion suite writes each API's call as its input spec does (``torch.zeros((2, 3))``, ``dim=1``);
real code writes it in other forms too (``torch.zeros(n, 51)``, ``x.sum(1)``). This scan reads the pinned
packages of ``tests/realcode/realcode_packages.py`` (their model code and the installed torch's ``nn/``,
``optim/``, ``distributions/``) with msmigrate's own analysis and counts, per torch API called:

- ``calls``: its calls;
- ``position`` / ``keyword``: per torch parameter, the calls passing it by position or by keyword (bound to
  the torch signature; a call whose overloads disagree counts for none);
- ``sizes``: ``separate`` (values of torch's ``*size`` as separate arguments, ``torch.zeros(n, 51)``, or
  unpacked ``*shape``) and ``tuple`` (one tuple or list literal there, ``torch.zeros((n, 51))``);
- ``spelling``: ``method`` (``x.view(…)``) or ``function`` (``torch.view(x, …)``, a class built) calls.

``harness.py`` reads the written file (``calling_forms.json``) to give each API a program per form real
code uses. Refresh it when the pins change:

    python tests/conversion/calling_forms.py --write
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FORMS_FILE = HERE / "calling_forms.json"
METHOD_USAGES = frozenset({"tensor_method", "module_method", "optimizer_method"})


def call_form(call: ast.Call, signatures: list[list[dict[str, Any]]], method: bool) -> dict[str, Any]:
    """One call's form: the parameters it passes by position and by keyword (where every overload it fits
    binds them alike), how it passes torch's ``*size`` values, and its spelling."""
    from msmigrate.analysis.arguments import bind
    from msmigrate.analysis.packed_args import var_position

    bindings = bind(call, signatures) if signatures else []
    position: set[str] = set()
    named = {k.arg for k in call.keywords if k.arg}
    if bindings and len({b.positional for b in bindings}) == 1:
        position = set(bindings[0].positional)
    sizes = None
    places = {var_position(b.signature) for b in bindings} - {None}
    if len(places) == 1:
        start = places.pop()
        values = call.args[start:]
        if len(values) > 1 or any(isinstance(v, ast.Starred) for v in values):
            sizes = "separate"
        elif len(values) == 1 and isinstance(values[0], ast.Tuple | ast.List):
            sizes = "tuple"
    return {"position": sorted(position), "keyword": sorted(named), "sizes": sizes,
            "spelling": "method" if method else "function"}


def scan(paths: list[Path], version: str = "2.6") -> dict[str, dict[str, Any]]:
    """API → counts of the forms its calls take in the Python files under ``paths``."""
    from msmigrate.analysis.analyzer import analyze_source
    from msmigrate.fixes.context import FixContext
    from msmigrate.knowledge.base import get_knowledge_base

    kb = get_knowledge_base(version)
    counts: dict[str, dict[str, Any]] = defaultdict(lambda: {
        "calls": 0, "position": defaultdict(int), "keyword": defaultdict(int),
        "sizes": defaultdict(int), "spelling": defaultdict(int)})
    for root in paths:
        for path in sorted(root.rglob("*.py")):
            try:
                source = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            findings = analyze_source(source, str(path), kb).findings
            try:
                ctx = FixContext.build(source, str(path), kb, findings)
            except (RecursionError, SystemError, MemoryError):  # nested too deeply for ast.parse
                continue
            if ctx is None:
                continue
            for finding in findings:
                api = finding.torch_api
                call = ctx.call_of(finding) if api else None
                if call is None or not api:
                    continue
                method = finding.usage.value in METHOD_USAGES
                form = call_form(call, kb.torch_signatures(api), method)
                entry = counts[api]
                entry["calls"] += 1
                for name in form["position"]:
                    entry["position"][name] += 1
                for name in form["keyword"]:
                    entry["keyword"][name] += 1
                if form["sizes"]:
                    entry["sizes"][form["sizes"]] += 1
                entry["spelling"][form["spelling"]] += 1
    return {api: {key: (dict(sorted(value.items())) if isinstance(value, dict) else value)
                  for key, value in entry.items()} for api, entry in sorted(counts.items())}


def load_forms() -> dict[str, dict[str, Any]]:
    """The written counts (empty when the file is missing)."""
    if not FORMS_FILE.is_file():
        return {}
    return json.loads(FORMS_FILE.read_text(encoding="utf-8"))["apis"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {FORMS_FILE.name}")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE.parent / "realcode"))
    from realcode_packages import PACKAGES, PINS, TORCH_VERSION, scan_roots

    roots = [root for package in PACKAGES for root in scan_roots(package)]
    found = scan(roots)
    pins = {name: version for name, (version, _folders) in sorted(PINS.items())}
    payload = {"about": "calls of each torch API in the pinned real code, by form; written by "
                        "`python tests/conversion/calling_forms.py --write` (see its docstring)",
               "packages": {**pins, "torch": TORCH_VERSION}, "apis": found}
    text = json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if args.write:
        FORMS_FILE.write_text(text, encoding="utf-8")
        print(f"wrote {FORMS_FILE} ({len(found)} APIs)")
    else:
        separate = {api: e["sizes"] for api, e in found.items() if e["sizes"]}
        print(json.dumps(separate, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
