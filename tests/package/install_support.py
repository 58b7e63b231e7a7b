"""Build the sdist and the wheel from a copy of the checkout, and install them into fresh virtual
environments outside it. The package's own dependencies (and the build backend pip needs for the sdist)
come from the configured index once, into a wheelhouse kept in the user cache folder; installs then use
``--no-index --find-links`` on it."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# what a clean clone would not have
_NOT_IN_A_CLONE = shutil.ignore_patterns(".git", ".venv", "node_modules", "build", "dist", "*.egg-info",
                                         "__pycache__", "*.pyc", "test-output", ".msmigrate", "bundled")


def checkout_copy(dest: Path) -> Path:
    """The files of the working tree a clone would have (tracked and new files, not ignored ones)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=REPO, capture_output=True, check=False)
    if listed.returncode != 0:  # not a git checkout: the tree without build products
        shutil.copytree(REPO, dest, ignore=_NOT_IN_A_CLONE)
        return dest
    for name in filter(None, listed.stdout.decode("utf-8").split("\0")):
        source = REPO / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def _backend(hook: str, source: Path, out: Path) -> Path:
    """Run setuptools' PEP 517 ``hook`` (build_sdist, build_wheel) in ``source``; the file it made."""
    code = f"from setuptools import build_meta as b; print(b.{hook}({str(out)!r}))"
    done = subprocess.run([sys.executable, "-c", code], cwd=source, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return out / done.stdout.strip().splitlines()[-1]


def build_sdist(tmp: Path) -> Path:
    return _backend("build_sdist", checkout_copy(tmp / "checkout"), tmp / "dist")


def build_wheel_from(sdist: Path, tmp: Path) -> Path:
    """The wheel built from the unpacked sdist, as ``python -m build`` does."""
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp / "unpacked", filter="data")
    (source,) = (tmp / "unpacked").iterdir()
    return _backend("build_wheel", source, tmp / "dist")


def fresh_venv(path: Path) -> Path:
    """A virtual environment without pip (this interpreter's pip installs into it); its ``bin``."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    return path / ("Scripts" if os.name == "nt" else "bin")


def _requirements() -> list[str]:
    """The runtime dependencies (no extra: never torch or MindSpore) and the build backend."""
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return [*pyproject["project"]["dependencies"], *pyproject["build-system"]["requires"]]


def wheelhouse() -> Path:
    """Wheels of :func:`_requirements` for this Python, fetched once (under a lock: test workers share it)."""
    requirements = _requirements()
    key = hashlib.sha256("\n".join([sys.version.split()[0], *requirements]).encode()).hexdigest()[:16]
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "msmigrate-test-wheelhouse"
    house = base / key
    base.mkdir(parents=True, exist_ok=True)
    with open(base / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (house / ".complete").is_file():
            shutil.rmtree(house, ignore_errors=True)
            command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
                       "--wheel-dir", str(house), *requirements]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            assert done.returncode == 0, done.stderr[-3000:]
            (house / ".complete").write_text("\n".join(requirements), encoding="utf-8")
    return house


def pip_install(bin_dir: Path, target: Path) -> None:
    """Install ``target`` (a wheel or an sdist) with its dependencies from :func:`wheelhouse`."""
    python = bin_dir / ("python.exe" if os.name == "nt" else "python")
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                           "--disable-pip-version-check", "--no-index", "--find-links", str(wheelhouse()),
                           str(target)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]


def clean_env(home: Path) -> dict[str, str]:
    """This environment without what would point msmigrate at the checkout, with its own cache."""
    dropped = ("MSMIGRATE_DATA_DIR", "PYTHONPATH", "VIRTUAL_ENV")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env["MSMIGRATE_CACHE_DIR"] = str(home / "cache")
    env["PYTHONIOENCODING"] = "utf-8"
    return env
