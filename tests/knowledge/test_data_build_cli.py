"""`msmigrate data build` on small hand-made sources (no ../shared needed)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from msmigrate.cli import main

EN_TABLE = """# PyTorch and MindSpore API Mapping Table

## General Difference Parameter Table

| Parameter Names | Functions | Descriptions |
| :-: | :-: | :-: |
| out | output | - |

## torch

| PyTorch 1.8.1 APIs | MindSpore APIs | Descriptions |
| --- | --- | --- |
| [torch.all](https://pytorch.org/docs/1.8.1/generated/torch.all.html) | [mindspore.ops.all](https://mindspore.cn/docs/en/r2.4.10/api_python/ops/mindspore.ops.all.html) | [diff](https://www.mindspore.cn/docs/en/r2.4.10/note/api_mapping/pytorch_diff/all.html) |
| [torch.abs](https://pytorch.org/docs/1.8.1/generated/torch.abs.html) | [mindspore.ops.abs](https://mindspore.cn/docs/en/r2.4.10/api_python/ops/mindspore.ops.abs.html) | Consistent |
"""  # noqa: E501

PAGE = """# Differences with torch.all

| Categories | Subcategories | PyTorch | MindSpore | Differences |
| --- | --- | --- | --- | --- |
| Parameters | Parameter 1 | input | x | renamed |
| | Parameter 2 | out | - | not in MindSpore |
"""


def make_sources(root: Path) -> Path:
    folder = root / "r2.4.10" / "en"
    (folder / "pytorch_diff").mkdir(parents=True)
    (folder / "pytorch_api_mapping.md").write_text(EN_TABLE, encoding="utf-8")
    (folder / "pytorch_diff" / "all.md").write_text(PAGE, encoding="utf-8")
    return root


def test_build_writes_the_table(tmp_path: Path) -> None:
    sources = make_sources(tmp_path / "src")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["data", "build", "--sources", str(sources), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"Wrote {out / 'mapping-2.4.json'}"
    data = json.loads((out / "mapping-2.4.json").read_text(encoding="utf-8"))
    assert (data["mindspore_version"], data["release"], data["pytorch_doc_version"]) == (
        "2.4",
        "r2.4.10",
        "1.8.1",
    )
    assert data["general_difference_params"] == ["out"]
    rows = {r["torch_api"]: r for r in data["rows"]}
    assert list(rows) == ["torch.abs", "torch.all"]
    assert rows["torch.abs"]["category"] == "consistent"
    assert rows["torch.all"]["param_renames"] == {"input": "x"}
    assert rows["torch.all"]["torch_only_params"] == ["out"]
    # no Chinese table: the Chinese links follow the site's /docs/zh-CN/ pattern
    assert rows["torch.all"]["urls"]["diff_zh"] == (
        "https://www.mindspore.cn/docs/zh-CN/r2.4.10/note/api_mapping/pytorch_diff/all.html"
    )


def test_build_without_sources_is_a_clear_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(
        main, ["data", "build", "--sources", str(empty), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 1
    assert "No mapping sources found in" in result.output
    assert "Traceback" not in result.output


def test_build_with_an_undecodable_table_is_a_clear_error(tmp_path: Path) -> None:
    sources = make_sources(tmp_path / "src")
    (sources / "r2.4.10" / "en" / "pytorch_api_mapping.md").write_bytes(b"\xff\xfe\x00 not utf-8 \x80\x81")
    result = CliRunner().invoke(
        main, ["data", "build", "--sources", str(sources), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 1
    assert "Could not build the mapping data" in result.output
