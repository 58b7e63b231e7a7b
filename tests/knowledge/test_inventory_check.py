"""`msmigrate data validate` (formerly `data check`): table rows whose APIs the inventories do not know."""

import json

import pytest
from click.testing import CliRunner

from msmigrate.cli import main
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.knowledge.consistency import table_consistency
from msmigrate.knowledge.inventory_index import InventoryIndex
from msmigrate.knowledge.model import MappingCategory, MappingRow, MappingTable


def _row(torch_api, mindspore_api, category=MappingCategory.CONSISTENT):
    return MappingRow(torch_api=torch_api, mindspore_api=mindspore_api, category=category, section="torch")


def test_check_table_on_a_small_table():
    kb = KnowledgeBase("2.6")
    rows = (
        _row("torch.abs", "mindspore.mint.abs"),
        _row("torch.abs", "mindspore.mint.abs"),  # a repeated row is listed once
        _row("torch.nn.SeLU", "mindspore.nn.SeLU"),
        _row("torch.flip", "mindspore.ops.no_such_op"),
        _row("torchvision.ops.nms", "mindspore.ops.NMSWithMask"),
        _row("torch.Tensor.foo", None, MappingCategory.UNSUPPORTED),
    )
    kb.__dict__["table"] = MappingTable("2.6", "r2.6.0", "2.1", (), rows)
    kb.__dict__["torch_inventory"] = InventoryIndex.from_apis({
        "torch.abs": {"kind": "function", "signatures": []},
        "torch.flip": {"kind": "function", "signatures": []},
        "torchvision.ops.nms": {"kind": "function", "signatures": [], "source": "mapping_table"},
    })
    kb.__dict__["mindspore_inventory"] = InventoryIndex.from_apis({
        "mindspore.mint.abs": {"kind": "function"},
        "mindspore.nn.SeLU": {"kind": "class"},
        "mindspore.ops.NMSWithMask": {"kind": "class"},
    })
    check = table_consistency(kb)
    assert check.counts() == {"rows": 6, "missing_mindspore": 1, "missing_torch": 2, "unverified_torch": 1}
    assert check.missing_mindspore == (("torch.flip", "mindspore.ops.no_such_op"),)
    assert check.missing_torch == ("torch.Tensor.foo", "torch.nn.SeLU")
    assert check.unverified_torch == ("torchvision.ops.nms",)


def test_data_validate_on_the_committed_2_6_table():
    result = CliRunner().invoke(main, ["data", "validate", "--mindspore-version", "2.6", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["torch_inventory_version"] == "2.13.0"
    assert report["mindspore_inventory_version"] == "2.10.0"
    assert list(report["versions"]) == ["2.6"]
    table = report["versions"]["2.6"]
    assert (table["rows"], table["missing_mindspore"], table["missing_torch"], table["unverified_torch"]) == (
        514,
        0,
        0,
        89,
    )
    # names the official table misspells in letter case are read as the torch API they name
    assert table["missing_torch_apis"] == []
    assert table["corrected_torch_apis"] == [
        {"written": "torch.nn.LogSoftMax", "torch_api": "torch.nn.LogSoftmax"},
        {"written": "torch.nn.SeLU", "torch_api": "torch.nn.SELU"},
    ]
    assert all(
        name.startswith(("torchvision.", "torchaudio.", "torchtext."))
        for name in table["unverified_torch_apis"]
    )


def test_data_validate_all_versions_counts():
    result = CliRunner().invoke(main, ["data", "validate", "--json"])
    assert result.exit_code == 0, result.output
    versions = json.loads(result.output)["versions"]
    counts = {v: (t["rows"], t["missing_mindspore"], t["missing_torch"]) for v, t in versions.items()}
    assert counts == {"1.10": (374, 9, 0), "2.3": (875, 4, 1), "2.4": (887, 4, 1), "2.6": (514, 0, 0)}
    # 1.10 targets MindSpore 1.x names that MindSpore 2.10 no longer has
    assert {
        "torch_api": "torch.nn.Upsample",
        "mindspore_api": "mindspore.nn.ResizeBilinear",
        "derived_replacement": "mindspore.mint.nn.Upsample",
    } in versions["1.10"]["missing_mindspore_apis"]
    # a gone target points to its derived replacement when there is one
    assert versions["2.4"]["missing_mindspore_apis"] == [
        {"torch_api": "torch.nn.Hardsigmoid", "mindspore_api": "mindspore.nn.Hsigmoid",
         "derived_replacement": "mindspore.mint.nn.Hardsigmoid"},
        {"torch_api": "torch.nn.Hardswish", "mindspore_api": "mindspore.nn.Hswish",
         "derived_replacement": "mindspore.mint.nn.Hardswish"},
        {"torch_api": "torch.nn.LogSoftmax", "mindspore_api": "mindspore.nn.LogSoftMax",
         "derived_replacement": "mindspore.mint.nn.LogSoftmax"},
        {"torch_api": "torch.nn.MultiLabelMarginLoss", "mindspore_api": "mindspore.nn.MultiLabelMarginLoss",
         "derived_replacement": None},
    ]
    # torch has log_normal_ only (no letter-case typo: the row keeps the table's name)
    assert versions["2.4"]["missing_torch_apis"] == ["torch.Tensor.log_normal"]
    assert [c["written"] for c in versions["2.4"]["corrected_torch_apis"]] == [
        "torch.nn.CeLU", "torch.nn.LogSoftMax", "torch.nn.SeLU", "torch.optim.AdaMax", "torch.optim.RMSProp"]


def test_data_validate_text_in_both_languages():
    en = CliRunner().invoke(main, ["data", "validate", "--mindspore-version", "2.6"])
    zh = CliRunner().invoke(main, ["data", "validate", "--mindspore-version", "2.6", "--lang", "zh"])
    assert en.exit_code == 0 and zh.exit_code == 0
    assert "MindSpore 2.6 table: 514 rows; 0 MindSpore targets not found, 0 torch APIs not found" in en.output
    assert "  torch.nn.SeLU -> torch.nn.SELU\n" in en.output
    assert "映射表中大小写拼错的 torch 接口名" in zh.output
    assert "MindSpore 2.6 映射表：共 514 行" in zh.output


def test_data_validate_rejects_unknown_version():
    result = CliRunner().invoke(main, ["data", "validate", "--mindspore-version", "banana"])
    assert result.exit_code == 2
    assert "unknown MindSpore version" in result.output


@pytest.mark.parametrize(("lang", "notice"), [
    ("en", "`msmigrate data check` is now `msmigrate data validate` (\"check\" names the equivalence "
           "checker, `msmigrate check`); the old name still works for now.\n"),
    ("zh", "`msmigrate data check` 已更名为 `msmigrate data validate`"
           "（“check”专指等价性检查 `msmigrate check`）；旧名称暂时仍可使用。\n"),
])
def test_data_check_is_a_hidden_alias_that_says_it_was_renamed(lang, notice):
    old = CliRunner().invoke(main, ["data", "check", "--mindspore-version", "2.6", "--json", "--lang", lang])
    new = CliRunner().invoke(main, ["data", "validate", "--mindspore-version", "2.6", "--json",
                                    "--lang", lang])
    assert (old.exit_code, new.exit_code) == (0, 0)
    assert old.stderr == notice and new.stderr == ""
    assert old.stdout == new.stdout and json.loads(old.stdout)["versions"]["2.6"]["rows"] == 514
    listed = CliRunner().invoke(main, ["data", "--help"]).output
    assert "  validate " in listed and "  check " not in listed
    wrong = CliRunner().invoke(main, ["data", "check", "--mindspore-version", "banana"])
    assert wrong.exit_code == 2 and "unknown MindSpore version" in wrong.output
