"""The committed mapping JSON against the official sources: row counts and byte-for-byte rebuild."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from msmigrate.datagen.importer import build_all
from msmigrate.paths import data_dir

RELEASES = {"r1.10": "1.10", "r2.3.1": "2.3", "r2.4.10": "2.4", "r2.6.0": "2.6"}

# Written separately from the importer on purpose: a table line whose first cell is a link to (or the
# plain name of) a torch / torchvision / torchaudio / torchtext API.
_FIRST_CELL = re.compile(r"^\|([^|]*)\|")
_LINKED = re.compile(r"\[\s*`?(torch(?:vision|audio|text)?\.[A-Za-z0-9_.]+)`?\s*(?:\(\))?\s*\]\(")
_PLAIN = re.compile(r"^\s*`?(torch(?:vision|audio|text)?\.[A-Za-z0-9_.]+)`?\s*$")


def count_torch_rows(markdown: str) -> Counter[str]:
    names: Counter[str] = Counter()
    for line in markdown.splitlines():
        m = _FIRST_CELL.match(line.strip())
        if not m:
            continue
        cell = m.group(1)
        linked = _LINKED.findall(cell)
        if linked:
            names.update(linked)
        elif plain := _PLAIN.match(cell):
            names[plain.group(1)] += 1
    return names


@pytest.mark.parametrize(("release", "version"), sorted(RELEASES.items()))
def test_every_table_row_is_imported(sources: Path, release: str, version: str) -> None:
    expected = count_torch_rows((sources / release / "en" / "pytorch_api_mapping.md").read_text("utf-8"))
    table = json.loads((data_dir() / f"mapping-{version}.json").read_text("utf-8"))
    imported = Counter(row.get("torch_api_written", row["torch_api"]) for row in table["rows"])
    assert sum(imported.values()) == sum(expected.values())
    assert imported == expected


def test_independent_counts_are_the_known_sizes(sources: Path) -> None:
    sizes = {}
    for rel, version in RELEASES.items():
        text = (sources / rel / "en" / "pytorch_api_mapping.md").read_text("utf-8")
        sizes[version] = sum(count_torch_rows(text).values())
    assert sizes == {"1.10": 374, "2.3": 875, "2.4": 887, "2.6": 514}


def test_rebuild_is_byte_identical(sources: Path, tmp_path: Path) -> None:
    written = build_all(sources, tmp_path, inventory_dir=data_dir())
    assert sorted(p.name for p in written) == [f"mapping-{v}.json" for v in ("1.10", "2.3", "2.4", "2.6")]
    for path in written:
        committed = data_dir() / path.name
        assert path.read_bytes() == committed.read_bytes(), f"{path.name} differs: run msmigrate data build"


def test_chinese_links_come_from_the_chinese_table(sources: Path) -> None:
    table = json.loads((data_dir() / "mapping-2.4.json").read_text("utf-8"))
    rows = {(r["torch_api"], r["mindspore_api"]): r for r in table["rows"]}
    urls = rows[("torch.all", "mindspore.ops.all")]["urls"]
    site = "https://www.mindspore.cn/docs/zh-CN/r2.4.10"
    assert urls["diff_zh"] == f"{site}/note/api_mapping/pytorch_diff/all.html"
    assert urls["mindspore_zh"] == "https://mindspore.cn/docs/zh-CN/r2.4.10/api_python/ops/mindspore.ops.all.html"
    # torch.nn.Softmax → mindspore.nn.Softmax exists only in the English table: the Chinese link is
    # built from the English one
    softmax = rows[("torch.nn.Softmax", "mindspore.nn.Softmax")]["urls"]
    assert softmax["mindspore_zh"] == softmax["mindspore_en"].replace("/docs/en/", "/docs/zh-CN/")


def test_letter_case_typos_of_the_tables_name_the_torch_api(sources: Path) -> None:
    # the official tables write torch.nn.SeLU, LogSoftMax, CeLU and torch.optim.AdaMax, RMSProp; torch has
    # one API of each name in another letter case (torch.Tensor.log_normal is no case typo: it stays)
    found = {}
    for version in RELEASES.values():
        table = json.loads((data_dir() / f"mapping-{version}.json").read_text("utf-8"))
        found[version] = sorted((r["torch_api_written"], r["torch_api"]) for r in table["rows"]
                                if "torch_api_written" in r)
    nn = [("torch.nn.CeLU", "torch.nn.CELU"), ("torch.nn.LogSoftMax", "torch.nn.LogSoftmax"),
          ("torch.nn.SeLU", "torch.nn.SELU")]
    optim = [("torch.optim.AdaMax", "torch.optim.Adamax"), ("torch.optim.RMSProp", "torch.optim.RMSprop")]
    assert found == {"1.10": [], "2.3": nn + optim, "2.4": nn + optim, "2.6": nn[1:]}
    table = json.loads((data_dir() / "mapping-2.4.json").read_text("utf-8"))
    assert "torch.Tensor.log_normal" in {r["torch_api"] for r in table["rows"]}
