"""Torch and MindSpore API inventories (``mapping_data/{torch,mindspore}_inventory.json``).

The generators import torch / MindSpore lazily, only when :func:`generate` runs.
"""

from __future__ import annotations

from pathlib import Path

from msmigrate.datagen.inventory.writer import document, write

PACKAGES: tuple[str, ...] = ("torch", "mindspore")


def inventory_path(package: str, out_dir: Path) -> Path:
    return out_dir / f"{package}_inventory.json"


def generate(package: str, out_dir: Path, sources: Path | None = None, data: Path | None = None) -> Path:
    """Regenerate one inventory file in ``out_dir`` from the installed package; returns its path."""
    if package == "torch":
        from msmigrate.datagen.inventory import torch_gen

        result = torch_gen.build(sources=sources, data=data)
        version = torch_gen.torch_version()
    elif package == "mindspore":
        from msmigrate.datagen.inventory import mindspore_gen

        result = mindspore_gen.build(sources=sources, data=data)
        version = mindspore_gen.mindspore_version()
    else:
        raise ValueError(f"unknown package {package!r}; choose one of {', '.join(PACKAGES)}")
    doc = document(package, version, result.apis, result.aliases, result.skipped)
    return write(doc, inventory_path(package, out_dir))
