"""Layers point one way and modules import in no circle.

Every ``import`` of every module under ``server/msmigrate`` is read with ``ast`` (also the ones inside
functions and under ``TYPE_CHECKING``), with the modules a few modules import by name (:data:`BY_NAME`), and
checked against the table below. The order, lowest first:

  base (i18n, messages, paths, safe_paths, data_files, registry) ← model ← knowledge ← analysis ← fixes
  ← rules ← scan ← reports / check / fixes.project / contract / weights / compare ← lsp ← datagen ← cli

``fixes`` sits below ``rules`` because a rule module holds its fixers, built from the edit primitives of
``fixes/`` (``FixContext``, ``TextEdit``, ``rewrites``). The stored results of equivalence checks
(``knowledge/verified.py``, ``check_result.py``, ``check_render.py``) are knowledge: device targets and the
fix safety policy read them. ``fixes/project.py`` fixes whole projects with the scan's discovery and
reading. ``contract`` (the lists the server shares with the clients: settings, commands) reads the report
formats. ``datagen`` (the build-time generators of ``mapping_data/``) sits just below ``cli``: only the
``msmigrate data`` commands import it, and nothing the language server, ``scan``, ``fix`` or ``check`` loads
reaches it (:func:`test_the_server_never_imports_the_generators`). The same graph has no cycle
(:func:`cycles`), counting lazy and ``TYPE_CHECKING`` imports, between modules and between packages.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from msmigrate.cli import COMMANDS
from msmigrate.lsp.features import OPTIONAL_FEATURES
from msmigrate.registry import FIX_MODULES, fix_module, rule_module, rule_module_names
from msmigrate.reports import RENDERERS

PACKAGE = Path(__file__).resolve().parents[2] / "server" / "msmigrate"

# (layer, module prefixes), lowest first; a module belongs to the layer of its longest matching prefix
# (``msmigrate`` itself, the package's ``__init__``, matches only itself)
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("msmigrate", "msmigrate.i18n", "msmigrate.messages", "msmigrate.paths",
              "msmigrate.safe_paths", "msmigrate.data_files", "msmigrate.registry")),
    ("model", ("msmigrate.model",)),
    ("knowledge", ("msmigrate.knowledge",)),
    ("analysis", ("msmigrate.analysis",)),
    ("fixes", ("msmigrate.fixes",)),
    ("rules", ("msmigrate.rules",)),
    ("scan", ("msmigrate.scan",)),
    ("tools", ("msmigrate.reports", "msmigrate.check", "msmigrate.fixes.project",
               "msmigrate.fixes.project_helper", "msmigrate.contract", "msmigrate.weights",
               "msmigrate.compare")),
    ("lsp", ("msmigrate.lsp",)),
    ("datagen", ("msmigrate.datagen",)),
    ("cli", ("msmigrate.cli", "msmigrate.__main__")),
]

# Modules that import project modules by name (``importlib``), with those modules, read from the tables
# that name them: these edges count as written imports, for the layers and for the cycles.
BY_NAME: dict[str, tuple[str, ...]] = {
    "msmigrate.analysis.analyzer": ("msmigrate.rules.loader",),
    "msmigrate.rules.loader": tuple(map(rule_module, rule_module_names())),
    "msmigrate.fixes.fixers": (*map(fix_module, FIX_MODULES), "msmigrate.rules.loader"),
    "msmigrate.i18n": tuple(f"msmigrate.messages.{path.stem}" for path in (PACKAGE / "messages").glob("*.py")
                            if path.stem != "__init__"),
    "msmigrate.lsp.features": tuple(f"msmigrate.lsp.{name}" for name in OPTIONAL_FEATURES),
    "msmigrate.cli": tuple(target.partition(":")[0] for target in COMMANDS.values()),
    "msmigrate.reports": tuple(target.partition(":")[0] for target in RENDERERS.values()),
    "msmigrate.check.worker": ("msmigrate.check.worker_composition",),
}
# Modules that import other packages by name (torch, MindSpore, a model's modules): no project module.
FOREIGN_BY_NAME = {"msmigrate.check.worker_shared", "msmigrate.weights.worker",
                   "msmigrate.weights.worker_model", "msmigrate.datagen.inventory.discover",
                   "msmigrate.datagen.inventory.introspect"}
# Upward edges allowed, all by name: the rule modules' detectors and fixers, read from ``rules/loader.py``.
UPWARD_BY_NAME: set[tuple[str, str]] = {("msmigrate.analysis.analyzer", "rules"),
                                       ("msmigrate.fixes.fixers", "rules")}


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
    by_name = [(target, 0) for target in BY_NAME.get(module, ())]
    for target, line in [*imported(module, source, is_package), *by_name]:
        theirs = layer_of(target)
        if theirs is None:
            problems.append(f"{module}:{line} imports {target}, which has no layer in LAYERS")
        elif theirs > own and not (line == 0 and (module, LAYERS[theirs][0]) in UPWARD_BY_NAME):
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


def test_the_upward_exceptions_are_real():
    """Each allowed upward import by name exists (a stale exception would hide a future one)."""
    for module, layer in UPWARD_BY_NAME:
        assert any(LAYERS[layer_of(target)][0] == layer for target in BY_NAME[module]), (module, layer)


def import_graph() -> dict[str, set[str]]:
    """Module → the project modules it imports (written anywhere in it, or by name)."""
    graph: dict[str, set[str]] = {}
    for path in all_modules():
        name = module_name(path)
        written = imported(name, path.read_text(encoding="utf-8"), path.name == "__init__.py")
        graph[name] = ({target for target, _ in written} | set(BY_NAME.get(name, ()))) - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each as one circle of imports
    through all of its modules where there is one, else its modules sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:  # iterative: no recursion limit on a long chain
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next((t for t in targets if t in graph), None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(circle(sorted(component), graph))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def circle(members: list[str], graph: dict[str, set[str]]) -> list[str]:
    """A path of imports from the first module back to it inside ``members`` (shortest, breadth first)."""
    inside = set(members)
    start = members[0]
    paths = {target: [start, target] for target in sorted(graph[start] & inside)}
    queue = list(paths)
    while queue:
        node = queue.pop(0)
        if node == start:
            return paths[node]
        for target in sorted(graph[node] & inside):
            if target not in paths:
                paths[target] = [*paths[node], target]
                queue.append(target)
    return members


def test_no_module_imports_itself_in_a_circle():
    assert [" → ".join(found) for found in cycles(import_graph())] == []


def package_of(module: str) -> str:
    """The unit of :data:`LAYERS` a module belongs to: its longest matching prefix
    (``msmigrate.knowledge.compositions.catalogue`` → ``msmigrate.knowledge``, ``msmigrate.fixes.project`` →
    itself, ``msmigrate.i18n`` → itself)."""
    prefixes = [p for _, group in LAYERS for p in group
                if module == p or (p != "msmigrate" and module.startswith(p + "."))]
    return max(prefixes, key=len) if prefixes else module


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Package → the packages its modules import, without the declared upward imports by name
    (:data:`UPWARD_BY_NAME`: the analyzer and the fixer registry collect the rule modules)."""
    packages: dict[str, set[str]] = {}
    for module, targets in graph.items():
        kept = {t for t in targets if not (module in BY_NAME and t in BY_NAME[module]
                                           and (module, LAYERS[layer_of(t) or 0][0]) in UPWARD_BY_NAME)}
        packages.setdefault(package_of(module), set()).update(map(package_of, kept))
    return {package: targets - {package} for package, targets in packages.items()}


def test_no_package_imports_itself_in_a_circle():
    """Between the packages of :data:`LAYERS` too: the layers keep different layers apart, this keeps the
    packages of one layer (``reports``, ``check``, ``contract``, ``weights``, ``compare``, ``fixes.project``)
    from leaning on each other both ways."""
    assert [" → ".join(found) for found in cycles(package_graph(import_graph()))] == []


def test_the_package_graph_is_read_from_the_modules():
    graph = {"msmigrate.reports.html": {"msmigrate.check.x", "msmigrate.reports.text"},
             "msmigrate.reports.text": set(), "msmigrate.check.x": {"msmigrate.reports"},
             "msmigrate.reports": set(), "msmigrate.fixes.project": {"msmigrate.fixes.api"},
             "msmigrate.fixes.api": set()}
    assert package_graph(graph) == {"msmigrate.reports": {"msmigrate.check"},
                                    "msmigrate.check": {"msmigrate.reports"},
                                    "msmigrate.fixes.project": {"msmigrate.fixes"}, "msmigrate.fixes": set()}
    assert cycles(package_graph(graph)) == [["msmigrate.check", "msmigrate.reports", "msmigrate.check"]]


# what the language server and the analysing commands load: ``msmigrate serve`` (all of ``lsp/``), ``scan``,
# ``fix``, ``check`` and ``lookup``; ``msmigrate.cli`` itself imports a command only when it runs
RUN_TIME_ENTRIES = ("msmigrate.lsp", *(COMMANDS[name].partition(":")[0]
                                       for name in ("serve", "scan", "fix", "check", "lookup")))


def reachable(graph: dict[str, set[str]], starts: list[str]) -> dict[str, str]:
    """Every module reachable from ``starts`` → the module that imports it first (breadth first)."""
    seen = {start: start for start in starts}
    queue = list(starts)
    while queue:
        node = queue.pop(0)
        targets = set() if node == "msmigrate.cli" else graph.get(node, set())
        for target in sorted(targets):
            if target not in seen:
                seen[target] = node
                queue.append(target)
    return seen


# build-time generators: of mapping_data/ (``msmigrate data …``) and of the clients' copies of the contract
# (``msmigrate dev generate``, beside the tables it writes out)
GENERATORS = ("msmigrate.datagen", "msmigrate.contract.generate")


def test_the_server_never_imports_the_generators():
    """No import (at module level, inside a function, under ``TYPE_CHECKING`` or by name) leads from the
    language server or ``scan``/``fix``/``check``/``lookup`` to a build-time generator."""
    graph = import_graph()
    starts = sorted(m for m in graph if any(m == e or m.startswith(e + ".") for e in RUN_TIME_ENTRIES))
    assert "msmigrate.lsp.features" in starts and "msmigrate.cli.serve_cmd" in starts
    seen = reachable(graph, starts)
    generators = sorted(m for m in seen if any(m == g or m.startswith(g + ".") for g in GENERATORS))
    assert [(module, seen[module]) for module in generators] == []
    # the generators are real modules the graph holds, and their commands do reach them
    assert "msmigrate.datagen.derive" in reachable(graph, ["msmigrate.cli.data_cmd"])
    assert "msmigrate.contract.generate" in reachable(graph, ["msmigrate.cli.dev_cmd"])


def test_an_import_of_the_generators_is_found():
    graph = {"msmigrate.lsp.hover": {"msmigrate.knowledge.lookup"},
             "msmigrate.knowledge.lookup": {"msmigrate.datagen.derive"}, "msmigrate.datagen.derive": set(),
             "msmigrate.cli": {"msmigrate.datagen.derive"}}
    first = reachable(graph, ["msmigrate.lsp.hover"])
    assert first["msmigrate.datagen.derive"] == "msmigrate.knowledge.lookup"
    assert "msmigrate.datagen.derive" not in reachable({**graph, "msmigrate.knowledge.lookup": set()},
                                                       ["msmigrate.lsp.hover", "msmigrate.cli"])


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}}, [["a", "b", "a"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"d2"}, "d2": {"d"}},
         [["a", "b", "c", "a"], ["d", "d2", "d"]]),
        ({"x": {"y", "outside"}, "y": {"z"}, "z": {"x", "y"}}, [["x", "y", "z", "x"]]),
    ],
)
def test_a_circle_of_imports_is_found_and_shown(graph, expected):
    assert cycles(graph) == expected


def test_every_import_by_name_is_listed():
    """A module that imports by name is in :data:`BY_NAME` (project modules) or :data:`FOREIGN_BY_NAME`:
    otherwise its edges would escape both checks."""
    calls = set()
    for path in all_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name) and (
                    getattr(node.func, "attr", None) or getattr(node.func, "id", None)) in (
                    "import_module", "__import__", "iter_modules"):
                calls.add(module_name(path))
    assert calls == set(BY_NAME) | FOREIGN_BY_NAME


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("msmigrate.knowledge.lookup", "from msmigrate.rules.support import report\n",
         ["msmigrate.knowledge.lookup:1 (knowledge) imports msmigrate.rules.support (rules)"]),
        ("msmigrate.model.finding", "def f():\n    import msmigrate.analysis.parse\n",
         ["msmigrate.model.finding:2 (model) imports msmigrate.analysis.parse (analysis)"]),
        ("msmigrate.fixes.api", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
         "    from msmigrate.rules import examples\n",
         ["msmigrate.fixes.api:3 (fixes) imports msmigrate.rules.examples (rules)"]),
        ("msmigrate.analysis.usages", "from ..rules import support\n",
         ["msmigrate.analysis.usages:1 (analysis) imports msmigrate.rules.support (rules)"]),
        ("msmigrate.analysis.usages", "from msmigrate import rules\n",
         ["msmigrate.analysis.usages:1 (analysis) imports msmigrate.rules (rules)"]),
        ("msmigrate.rules.framework.msm501_module_forward",
         "from msmigrate.fixes.model import Fix\nfrom msmigrate.model import rule\n", []),
        ("msmigrate.knowledge.verified", "from msmigrate.check.runner import run\n",
         ["msmigrate.knowledge.verified:1 (knowledge) imports msmigrate.check.runner (tools)"]),
        ("msmigrate.newpackage.x", "import os\n", ["msmigrate.newpackage.x: no layer in LAYERS"]),
        ("msmigrate.knowledge.lookup", "def f():\n    from msmigrate.datagen import derive\n",
         ["msmigrate.knowledge.lookup:2 (knowledge) imports msmigrate.datagen.derive (datagen)"]),
    ],
)
def test_an_import_against_the_direction_is_reported(module, source, expected):
    assert violations_of(module, source) == expected
