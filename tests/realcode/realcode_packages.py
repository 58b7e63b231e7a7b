"""Pinned third-party PyTorch code for real-code tests, installed at test time (never copied into the repo).

``ensure_installed()`` installs the pinned distributions once, ``pip install --no-deps --target``, into a
cache folder outside the repository keyed by the pins (``$MSMIGRATE_CORPUS_CACHE`` or
``~/.cache/msmigrate-corpus``, then ``realcode-<hash of the pins>``), under a file lock (pytest-xdist
workers share it). ``torch`` itself is the installed package of the environment, located without importing
it, and must be the pinned version. ``source_root(package)`` is the folder that file paths are relative to
(the folder holding the package's top-level import folders); ``scan_roots(package)`` the folders a scan of
the package covers. Run as a script, it prints the scan roots of every package, one per line.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

TORCH_VERSION = "2.13.0"

# distribution -> (version, the top-level folders that are scanned, relative to its source root)
PINS: dict[str, tuple[str, tuple[str, ...]]] = {
    "openai-whisper": ("20250625", ("whisper",)),
    "segment-anything": ("1.0", ("segment_anything",)),
    "efficientnet-pytorch": ("0.7.1", ("efficientnet_pytorch",)),
    "pretrainedmodels": ("0.7.4", ("pretrainedmodels",)),
    "open-clip-torch": ("3.3.0", ("open_clip", "open_clip_train")),
    "stable-baselines3": ("2.9.2", ("stable_baselines3",)),
    "vit-pytorch": ("1.26.11", ("vit_pytorch",)),
    "timm": ("1.0.31", ("timm",)),
    "torchvision": ("0.28.0", ("torchvision",)),  # --no-deps: its compiled ops are never loaded
}
# the installed torch's own sources: these folders of the package
TORCH_FOLDERS = ("torch/nn", "torch/optim", "torch/distributions")
PACKAGES = (*PINS, "torch")


class InstallError(RuntimeError):
    """The pinned packages could not be installed (no network, a pin gone from the index, …)."""


def cache_root() -> Path:
    return Path(os.environ.get("MSMIGRATE_CORPUS_CACHE") or Path.home() / ".cache" / "msmigrate-corpus")


def pins_key() -> str:
    text = json.dumps([sorted((name, version) for name, (version, _) in PINS.items()), sys.version_info[:2]])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def ensure_installed() -> Path:
    """The folder the pinned distributions are installed in (installed on first use, under a lock)."""
    target = cache_root() / f"realcode-{pins_key()}"
    target.mkdir(parents=True, exist_ok=True)
    done = target / ".done"
    with (target / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_file():
            site = target / "site"
            shutil.rmtree(site, ignore_errors=True)
            pins = [f"{name}=={version}" for name, (version, _) in PINS.items()]
            command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile",
                       "--disable-pip-version-check", "--target", str(site), *pins]
            try:
                run = subprocess.run(command, capture_output=True, text=True, timeout=900)
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise InstallError(f"installing {' '.join(pins)} failed: {exc}") from exc
            if run.returncode != 0:
                raise InstallError(f"installing {' '.join(pins)} failed: {run.stderr[-2000:]}")
            done.write_text("\n".join(pins) + "\n", encoding="utf-8")
    return target / "site"


def torch_root() -> Path:
    """The folder holding the installed ``torch`` package (found without importing it)."""
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        raise InstallError("torch is not installed in this environment")
    version = importlib.metadata.version("torch").split("+")[0]
    if version != TORCH_VERSION:
        raise InstallError(f"the real-code tests read torch {TORCH_VERSION}; torch {version} is installed")
    return Path(spec.origin).parent.parent


def source_root(package: str) -> Path:
    """The folder that the package's file paths are relative to (``timm/models/vgg.py``)."""
    if package == "torch":
        return torch_root()
    if package not in PINS:
        raise KeyError(package)
    return ensure_installed()


def scan_roots(package: str) -> list[Path]:
    """The folders a scan of ``package`` covers (their common folder is the scan's report root)."""
    folders = TORCH_FOLDERS if package == "torch" else PINS[package][1]
    root = source_root(package)
    return [root / folder for folder in folders]


if __name__ == "__main__":  # the scan roots of every package, one per line (installs the pins on first use)
    print("\n".join(str(root) for package in PACKAGES for root in scan_roots(package)))
