"""Layers point one way: a module imports only from its own layer or from layers below it.

Every ``import`` of every module under ``server/msmigrate`` is read with ``ast`` (also the ones inside
functions and under ``TYPE_CHECKING``) and checked against the table below. The order, lowest first:

  base (i18n, messages, paths, safe_paths, data_files) ← model ← knowledge ← analysis ← fixes ← rules ← scan
  ← reports / check / fixes.project / contract / weights / compare ← lsp ← cli

``fixes`` sits below ``rules`` because a rule module holds its fixers, built from the edit primitives of
``fixes/`` (``FixContext``, ``TextEdit``, ``rewrites``). The stored results of equivalence checks
(``knowledge/verified.py`` and the result/render types it reads) are knowledge: device targets and the fix
safety policy read them. ``fixes/project.py`` fixes whole projects with the scan's discovery and reading.
``contract`` (the lists the server shares with the clients: settings, commands) reads the report formats.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "server" / "msmigrate"

# (layer, module prefixes), lowest first; a module belongs to the layer of its longest matching prefix
# (``msmigrate`` itself, the package's ``__init__``, matches only itself)
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("msmigrate", "msmigrate.i18n", "msmigrate.messages", "msmigrate.paths",
              "msmigrate.safe_paths", "msmigrate.data_files")),
    ("model", ("msmigrate.model",)),
    ("knowledge", ("msmigrate.knowledge", "msmigrate.knowledge.verified", "msmigrate.knowledge.check_result",
                   "msmigrate.knowledge.check_render")),
    ("analysis", ("msmigrate.analysis",)),
    ("fixes", ("msmigrate.fixes",)),
    ("rules", ("msmigrate.rules",)),
    ("scan", ("msmigrate.scan",)),
    ("tools", ("msmigrate.reports", "msmigrate.check", "msmigrate.fixes.project",
               "msmigrate.fixes.project_helper", "msmigrate.contract", "msmigrate.weights",
               "msmigrate.compare")),
    ("lsp", ("msmigrate.lsp",)),
    ("cli", ("msmigrate.cli", "msmigrate.__main__")),
]

# Upward imports that are run-time discovery of plugin modules by package name (the package's
# ``__path__`` is listed with pkgutil); nothing else may point up.
DISCOVERY: dict[tuple[str, str], str] = {
    ("msmigrate.analysis.analyzer", "msmigrate.rules"): "collects the CHECKERS of every rule module",
    ("msmigrate.fixes.registry", "msmigrate.rules"): "collects the FIXERS of every rule module",
}


def layer_of(module: str) -> int | None:
    best: tuple[int, int] | None = None  # (prefix length, layer index)
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            inside = module == prefix or (prefix != "msmigrate" and module.startswith(prefix + "."))
            if inside and (best is None or len(prefix) > best[0]):
                best = (len(prefix), index)
    return None if best is None else best[1]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(module: str, source: str, is_package: bool = False) -> list[tuple[str, int]]:
    """The project modules ``source`` imports: ``(module name, line)``; ``from msmigrate import x``
    names the module ``msmigrate.x`` when ``x`` is a module of the package."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                is_module = (PACKAGE.parent / Path(*candidate.split("."))).with_suffix(".py").exists() or (
                    PACKAGE.parent / Path(*candidate.split("."))).is_dir()
                found.append((candidate if is_module else base, node.lineno))
    return [(name, line) for name, line in found if name == "msmigrate" or name.startswith("msmigrate.")]


def violations_of(module: str, source: str, is_package: bool = False) -> list[str]:
    own = layer_of(module)
    if own is None:
        return [f"{module}: no layer in LAYERS"]
    problems = []
    for target, line in imported(module, source, is_package):
        theirs = layer_of(target)
        if theirs is None:
            problems.append(f"{module}:{line} imports {target}, which has no layer in LAYERS")
        elif theirs > own and (module, target) not in DISCOVERY:
            problems.append(f"{module}:{line} ({LAYERS[own][0]}) imports {target} ({LAYERS[theirs][0]})")
    return problems


def all_modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_import_points_down():
    problems = []
    for path in all_modules():
        source = path.read_text(encoding="utf-8")
        problems += violations_of(module_name(path), source, path.name == "__init__.py")
    assert problems == []


def test_discovery_exceptions_are_real():
    """Each listed upward import exists (a stale exception would hide a future one)."""
    used = set()
    for path in all_modules():
        name = module_name(path)
        for target, _ in imported(name, path.read_text(encoding="utf-8"), path.name == "__init__.py"):
            if (name, target) in DISCOVERY:
                used.add((name, target))
    assert used == set(DISCOVERY)


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("msmigrate.knowledge.lookup", "from msmigrate.rules.patterns import check\n",
         ["msmigrate.knowledge.lookup:1 (knowledge) imports msmigrate.rules.patterns (rules)"]),
        ("msmigrate.model.finding", "def f():\n    import msmigrate.analysis.parse\n",
         ["msmigrate.model.finding:2 (model) imports msmigrate.analysis.parse (analysis)"]),
        ("msmigrate.fixes.api", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
         "    from msmigrate.rules import patterns\n",
         ["msmigrate.fixes.api:3 (fixes) imports msmigrate.rules.patterns (rules)"]),
        ("msmigrate.analysis.usages", "from ..rules import support\n",
         ["msmigrate.analysis.usages:1 (analysis) imports msmigrate.rules.support (rules)"]),
        ("msmigrate.analysis.usages", "from msmigrate import rules\n",
         ["msmigrate.analysis.usages:1 (analysis) imports msmigrate.rules (rules)"]),
        ("msmigrate.rules.patterns",
         "from msmigrate.fixes.model import Fix\nfrom msmigrate.model import rule\n", []),
        ("msmigrate.knowledge.verified", "from msmigrate.check.runner import run\n",
         ["msmigrate.knowledge.verified:1 (knowledge) imports msmigrate.check.runner (tools)"]),
        ("msmigrate.newpackage.x", "import os\n", ["msmigrate.newpackage.x: no layer in LAYERS"]),
    ],
)
def test_an_import_against_the_direction_is_reported(module, source, expected):
    assert violations_of(module, source) == expected
