"""The committed mapping-<v>.json files: schema, order, facts-only content (runs without the sources)."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import pytest

from msmigrate.datagen.importer.build import dumps
from msmigrate.knowledge.model import MappingCategory, MappingRow, MappingTable
from msmigrate.paths import data_dir

VERSIONS = {"1.10": "r1.10", "2.3": "r2.3.1", "2.4": "r2.4.10", "2.6": "r2.6.0"}
ROW_KEYS = {f.name for f in dataclasses.fields(MappingRow)}
NAME = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*$")
URL = re.compile(r"^https?://\S+$")


def load(version: str) -> dict[str, Any]:
    return json.loads((data_dir() / f"mapping-{version}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_header_and_row_schema(version: str) -> None:
    data = load(version)
    assert set(data) == {
        "schema_version",
        "mindspore_version",
        "release",
        "pytorch_doc_version",
        "general_difference_params",
        "rows",
    }
    assert (data["schema_version"], data["mindspore_version"], data["release"]) == (
        1,
        version,
        VERSIONS[version],
    )
    categories = {c.value for c in MappingCategory}
    for row in data["rows"]:
        # torch_api_written only where the table misspells the torch name in letter case
        assert set(row) | {"torch_api_written"} == ROW_KEYS, row["torch_api"]
        written = row.get("torch_api_written")
        assert written is None or written != row["torch_api"] and written.lower() == row["torch_api"].lower()
        assert row["category"] in categories
        assert (row["mindspore_api"] is None) == (row["category"] == "unsupported"), row["torch_api"]
        assert row["param_renames_source"] in (None, "diff_page", "derived", "table")
        assert (row["param_renames_source"] is None) == (not row["param_renames"]), row["torch_api"]
        assert set(row["urls"]) <= {"torch", "mindspore_en", "mindspore_zh", "diff_en", "diff_zh"}
        assert ("diff_en" in row["urls"] or "diff_zh" in row["urls"]) == (row["diff_page"] is not None)
    table = MappingTable.from_json(data)
    assert len(table.rows) == len(data["rows"])


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_rows_sorted_and_file_canonical(version: str) -> None:
    text = (data_dir() / f"mapping-{version}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    keys = [(r["torch_api"], r["mindspore_api"] or "") for r in data["rows"]]
    assert keys == sorted(keys)
    assert dumps(data) == text  # sort_keys, indent=1, ensure_ascii=False, final newline


def _strings(value: Any, path: str = ""):
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{path}.{key}")
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, f"{path}[]")


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_facts_only_no_prose(version: str) -> None:
    data = load(version)
    for row in data["rows"]:
        for path, text in _strings(row):
            if path.startswith(".urls."):
                assert URL.match(text), (row["torch_api"], path, text)
            elif path.startswith(".default_differences[]") and not path.endswith(".param"):
                assert len(text) <= 40, (row["torch_api"], path, text)  # a default value as code
            elif path == ".diff_page":
                assert re.match(r"^[\w.&-]+$", text), (row["torch_api"], text)  # a page's file name
            elif path == ".category":
                assert text in {c.value for c in MappingCategory}
            else:
                # API names, parameter names, section headings: dotted identifiers, never sentences
                assert NAME.match(text), (row["torch_api"], path, text)
    blob = json.dumps(data, ensure_ascii=False)
    for phrase in (
        "The functions are consistent",
        "功能一致",
        "parameter names are",
        "does not have",
        "参数名不同",
    ):
        assert phrase not in blob


def test_general_difference_parameters() -> None:
    assert load("2.4")["general_difference_params"] == [
        "out",
        "layout",
        "device",
        "requires_grad",
        "pin_memory",
        "memory_format",
        "stable",
        "inplace",
        "sparse_grad",
        "size_average",
        "reduce",
    ]
    assert "inplace" not in load("2.6")["general_difference_params"]
    assert load("1.10")["general_difference_params"] == []
    assert [load(v)["pytorch_doc_version"] for v in ("1.10", "2.3", "2.4", "2.6")] == [
        "1.5.0",
        "1.8.1",
        "1.8.1",
        "2.1",
    ]


def rows_of(version: str) -> dict[tuple[str, str | None], dict[str, Any]]:
    return {(r["torch_api"], r["mindspore_api"]): r for r in load(version)["rows"]}


def test_categories_from_descriptions() -> None:
    v24 = rows_of("2.4")
    assert v24[("torch.abs", "mindspore.ops.abs")]["category"] == "consistent"
    assert v24[("torch.addr", "mindspore.ops.addr")]["category"] == "param_names"
    assert v24[("torch.all", "mindspore.ops.all")]["category"] == "diff_page"
    verbose = v24[("torch.optim.lr_scheduler.CyclicLR", "mindspore.experimental.optim.lr_scheduler.CyclicLR")]
    assert verbose["category"] == "no_verbose"
    # "No verbose and momentum related input params": the momentum ones come from the torch signature
    assert verbose["torch_only_params"] == ["verbose", "base_momentum", "cycle_momentum", "max_momentum"]
    split = v24[("torch.Tensor.split", "mindspore.Tensor.split")]
    assert (split["param_renames"], split["param_renames_source"]) == (
        {"split_size": "split_size_or_sections"},
        "table",
    )
    v26 = rows_of("2.6")
    median = v26[("torch.median", "mindspore.mint.median")]
    assert median["category"] == "default_values"
    assert median["default_differences"] == [
        {"param": "dim", "torch_default": None, "mindspore_default": None}
    ]
    adam = v26[
        ("torch.optim.Adam", "mindspore.mint.optim.Adam")
    ]  # "PyTorch has some optimization parameters"
    assert (adam["category"], adam["torch_only_params"][:2]) == (
        "param_count_order",
        ["foreach", "capturable"],
    )
    inplace = [r for r in v26.values() if r["category"] == "no_inplace"]
    assert len(inplace) == 10 and all(r["torch_only_params"] == ["inplace"] for r in inplace)
    v110 = rows_of("1.10")
    assert v110[("torch.abs", "mindspore.ops.Abs")]["category"] == "consistent"
    assert v110[("torch.utils.data.DataLoader", None)]["category"] == "unsupported"


def test_derived_renames_from_inventories() -> None:
    addr = rows_of("2.4")[("torch.addr", "mindspore.ops.addr")]
    assert addr["param_renames_source"] == "derived"
    assert addr["param_renames"] == {"input": "x"}
    assert addr["torch_only_params"] == ["out"]


def test_default_values_from_page_signatures() -> None:
    layer_norm = rows_of("2.4")[("torch.nn.LayerNorm", "mindspore.nn.LayerNorm")]
    assert {"param": "eps", "torch_default": "1e-05", "mindspore_default": "1e-7"} in layer_norm[
        "default_differences"
    ]
