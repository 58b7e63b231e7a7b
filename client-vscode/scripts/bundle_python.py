"""Fill ``bundled/libs`` for the VSIX: msmigrate, its mapping data and its runtime dependencies.

Works offline: the dependencies are copied from the distributions installed in the interpreter that
runs this script (the project's virtualenv), following ``[project].dependencies`` of pyproject.toml
and their own requirements (extras are never followed, so torch and MindSpore are never bundled).
msmigrate itself is copied from ``server/msmigrate``, and ``mapping_data/`` goes to ``msmigrate/_data``
(where ``msmigrate.paths.data_dir()`` looks in an installed copy) by the step that builds the wheel:
``msmigrate.data_files.copy_into_package``, called by setup.py too.

Usage: python bundle_python.py REPO_ROOT OUT_DIR
"""

from __future__ import annotations

import importlib.metadata as metadata
import json
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path
from typing import Any

# Declared requirements that are not used at run time (and would pull in setuptools).
NOT_AT_RUNTIME = {"pbr": "sarif-om only uses it to build its wheel"}
COMPILED_SUFFIXES = (".so", ".pyd", ".dylib")
# Compiled extensions in the closure that have a pure-Python fallback, so one VSIX serves every platform.
PURE_FALLBACK = {"markupsafe", "rapidfuzz"}
# Left out of the copy: stub packages jedi ships for other libraries (requests, django, …; 27 MB, 5000
# files). msmigrate asks jedi only about torch code, whose types torch itself provides; jedi skips
# missing stub folders.
PRUNED = ("jedi/third_party/typeshed/stubs", "jedi/third_party/django-stubs")
# Imported after bundling, in an interpreter that sees only the bundle, to prove it is complete.
SMOKE_IMPORTS = (
    "msmigrate.cli",
    "msmigrate.cli.serve_cmd",
    "msmigrate.lsp.server",
    "msmigrate.scan",
    "msmigrate.reports",
    "pygls.lsp.server",
    "jedi",
    "rich.console",
    "jinja2",
    "sarif_om",
    "rapidfuzz.process",
)


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_requirement(text: str) -> tuple[str, str | None]:
    """``name`` and its marker (or None) from a requirement string."""
    try:
        from packaging.requirements import Requirement
    except ImportError:  # packaging is not installed: a plain parse is enough for our requirements
        name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", text)
        marker = text.split(";", 1)[1].strip() if ";" in text else None
        return (name.group(1) if name else text.strip()), marker
    req = Requirement(text)
    return req.name, str(req.marker) if req.marker else None


def marker_applies(marker: str | None) -> bool:
    if marker is None:
        return True
    if "extra" in marker:
        return False
    try:
        from packaging.markers import Marker
    except ImportError:
        return True
    return Marker(marker).evaluate()


def dependency_closure(requirements: list[str]) -> list[metadata.Distribution]:
    """Installed distributions needed by ``requirements`` (a clear error names any that is missing)."""
    seen: dict[str, metadata.Distribution] = {}
    queue = list(requirements)
    while queue:
        name, marker = parse_requirement(queue.pop())
        key = canonical(name)
        if key in seen or key in NOT_AT_RUNTIME or not marker_applies(marker):
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            sys.exit(
                f"bundle: {name} is not installed in {sys.executable}; run `make setup` "
                "(or pip install -e .) first, or set MSMIGRATE_PYTHON to an interpreter that has it"
            )
        seen[key] = dist
        queue.extend(dist.requires or [])
    return sorted(seen.values(), key=lambda d: canonical(d.metadata["Name"]))


def copy_distribution(dist: metadata.Distribution, libs: Path) -> list[str]:
    """Copy the files a distribution installed under site-packages; returns the compiled ones."""
    compiled: list[str] = []
    base = Path(dist.locate_file(""))
    for entry in dist.files or []:
        rel = Path(str(entry))
        if rel.parts and rel.parts[0] == "..":  # console scripts outside site-packages
            continue
        if "__pycache__" in rel.parts or rel.suffix == ".pyc":
            continue
        if any(rel.as_posix().startswith(prefix + "/") for prefix in PRUNED):
            continue
        source = base / rel
        if not source.is_file():
            continue
        target = libs / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
        if rel.suffix in COMPILED_SUFFIXES:
            compiled.append(rel.as_posix())
    return compiled


def copy_tree(source: Path, target: Path) -> None:
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"), dirs_exist_ok=True)


def smoke_test(libs: Path) -> None:
    """Import the server from the bundle alone (-I -S: no site-packages, no user paths)."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import importlib\n"
        f"for m in {SMOKE_IMPORTS!r}: importlib.import_module(m)\n"
        "import msmigrate, msmigrate.paths as p\n"
        "assert msmigrate.__file__.startswith(sys.argv[1]), msmigrate.__file__\n"
        "assert (p.data_dir() / 'mapping-2.6.json').is_file(), p.data_dir()\n"
        "from msmigrate.lsp.features import create_server; create_server()\n"
        "print('bundle ok:', msmigrate.__version__, p.data_dir())\n"
    )
    subprocess.run([sys.executable, "-I", "-S", "-c", code, str(libs)], check=True)


def package_step(repo: Path) -> tuple[str, Any]:
    """msmigrate's version and the knowledge-base copy step, from the checkout at ``repo``."""
    sys.path.insert(0, str(repo / "server"))
    try:
        from msmigrate import __version__
        from msmigrate.data_files import copy_into_package
    finally:
        sys.path.pop(0)
    return __version__, copy_into_package


def main(repo: Path, out: Path) -> None:
    project = tomllib.loads((repo / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    version, copy_into_package = package_step(repo)
    libs = out / "libs"
    if out.exists():
        shutil.rmtree(out)
    libs.mkdir(parents=True)
    manifest: dict[str, object] = {
        "built_with": f"Python {sys.version.split()[0]} ({sysconfig.get_platform()})",
        "msmigrate": version,
        "packages": [],
    }
    for dist in dependency_closure(list(project["dependencies"])):
        name = dist.metadata["Name"]
        if canonical(name) == "msmigrate":
            continue
        compiled = copy_distribution(dist, libs)
        if compiled and canonical(name) not in PURE_FALLBACK:
            sys.exit(f"bundle: {name} has compiled code without a pure-Python fallback: {compiled}")
        manifest["packages"].append({"name": name, "version": dist.version, "compiled": compiled})
    copy_tree(repo / "server" / "msmigrate", libs / "msmigrate")
    copy_into_package(repo / "mapping_data", libs / "msmigrate")
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    smoke_test(libs)
    names = ", ".join(f"{p['name']} {p['version']}" for p in manifest["packages"])  # type: ignore[index]
    print(f"bundled msmigrate {version} with {names}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve())
