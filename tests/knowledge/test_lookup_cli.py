"""`msmigrate lookup` and `msmigrate data stats` through click's CliRunner, with exact values."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from msmigrate.cli import main
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.knowledge.lookup import lookup


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def lookup_json(name: str, version: str, lang: str = "en") -> dict:
    code, out = run("lookup", name, "--mindspore-version", version, "--lang", lang, "--json")
    assert code == 0, out
    return json.loads(out)


def test_linear_in_2_4_is_dense_with_renames() -> None:
    data = lookup_json("torch.nn.Linear", "2.4")
    assert data["status"] == "mapped"
    assert data["torch_api"] == "torch.nn.Linear"
    assert data["mindspore_api"] == "mindspore.nn.Dense"
    assert data["category"] == "diff_page"
    assert data["param_renames"] == {
        "in_features": "in_channels",
        "out_features": "out_channels",
        "bias": "has_bias",
    }
    assert data["param_renames_source"] == "diff_page"
    assert data["unsupported_params"] == []
    assert data["mindspore_only_params"] == ["weight_init", "bias_init", "activation"]
    assert (
        data["urls"]["mindspore"]
        == "https://www.mindspore.cn/docs/en/r2.4.10/api_python/nn/mindspore.nn.Dense.html"
    )
    assert data["urls"]["diff"] == (
        "https://www.mindspore.cn/docs/en/r2.4.10/note/api_mapping/pytorch_diff/Dense.html"
    )
    assert data["urls"]["torch"] == "https://pytorch.org/docs/1.8.1/generated/torch.nn.Linear.html"
    assert "Parameter in_features is called in_channels in MindSpore." in data["notes"]


def test_linear_in_2_6_is_the_mint_linear() -> None:
    data = lookup_json("torch.nn.Linear", "2.6")
    assert data["mindspore_api"] == "mindspore.mint.nn.Linear"
    assert data["category"] == "param_count_order"
    assert data["param_renames"] == {}
    assert data["mindspore_only_params"] == ["weight_init", "bias_init"]


def test_all_in_2_4() -> None:
    data = lookup_json("torch.all", "2.4")
    assert data["mindspore_api"] == "mindspore.ops.all"
    assert data["param_renames"] == {"input": "x", "dim": "axis", "keepdim": "keep_dims"}
    assert data["unsupported_params"] == ["out"]
    # the Tensor method shares the page; its own "input" is the tensor, so it is not a rename
    tensor = lookup_json("torch.Tensor.all", "2.4")
    assert tensor["mindspore_api"] == "mindspore.Tensor.all"
    assert tensor["param_renames"] == {"dim": "axis", "keepdim": "keep_dims"}


def test_two_tables_on_one_page_in_the_real_data() -> None:
    rows = {(r.torch_api, r.mindspore_api): r for r in KnowledgeBase("2.4").rows()}
    multi = rows[("torch.optim.lr_scheduler.MultiStepLR", "mindspore.nn.piecewise_constant_lr")]
    step = rows[("torch.optim.lr_scheduler.StepLR", "mindspore.nn.piecewise_constant_lr")]
    assert multi.param_renames == {"milestones": "milestone"}
    assert step.param_renames == {"step_size": "milestone"}
    assert multi.torch_only_params == ("optimizer", "gamma", "last_epoch", "verbose")
    # the table maps MultiStepLR twice; lookup shows the first and names the other
    data = lookup_json("torch.optim.lr_scheduler.MultiStepLR", "2.4")
    assert data["mindspore_api"] == "mindspore.experimental.optim.lr_scheduler.MultiStepLR"
    assert data["alternatives"] == ["mindspore.nn.piecewise_constant_lr"]


@pytest.mark.parametrize(
    ("alias", "full", "target"),
    [
        ("nn.Linear", "torch.nn.Linear", "mindspore.nn.Dense"),
        ("F.relu", "torch.nn.functional.relu", "mindspore.ops.relu"),
        ("Tensor.view", "torch.Tensor.view", "mindspore.Tensor.view"),
        ("torch.Tensor.view", "torch.Tensor.view", "mindspore.Tensor.view"),
        ("torch.abs()", "torch.abs", "mindspore.ops.abs"),
        (" `torch.abs` ", "torch.abs", "mindspore.ops.abs"),
    ],
)
def test_aliases(alias: str, full: str, target: str) -> None:
    data = lookup_json(alias, "2.4")
    assert (data["torch_api"], data["mindspore_api"]) == (full, target)


def test_alias_is_explained_in_the_notes() -> None:
    assert lookup_json("nn.Linear", "2.4")["notes"][0] == "nn.Linear was read as torch.nn.Linear."


def test_typo_suggests_near_names_and_fails() -> None:
    code, out = run("lookup", "torch.nn.Linaer", "--mindspore-version", "2.4", "--json")
    assert code == 1
    data = json.loads(out)
    assert data["status"] == "not_found"
    assert data["mindspore_api"] is None
    assert data["suggestions"][0] == "torch.nn.Linear"
    assert data["notes"][0] == "torch.nn.Linaer is not a known PyTorch API."


def test_not_found_text_and_exit_code() -> None:
    code, out = run("lookup", "numpy.abs", "--mindspore-version", "2.4")
    assert code == 1
    assert "numpy.abs is not a known PyTorch API." in out


def test_real_torch_api_without_mapping() -> None:
    # torch.allclose, used here before, is now a derived mapping (the 2.6 table's mint.allclose exists in
    # MindSpore 2.10); torch.aminmax's only candidate, mindspore.ops.aminmax, failed its CPU check
    data = lookup_json("torch.aminmax", "2.4")
    assert data["status"] == "missing"
    assert data["mindspore_api"] is None
    assert data["other_versions"] == {}
    assert data["notes"] == [
        "torch.aminmax is a PyTorch API, but the MindSpore 2.4 mapping table has no equivalent.",
        "Not offered: mindspore.ops.aminmax failed the numeric check on CPU.",
    ]
    assert "advice" in data


def test_api_mapped_by_another_table_is_derived() -> None:
    data = lookup_json("torch.allclose", "2.4")
    assert (data["status"], data["mindspore_api"], data["source"]) == (
        "mapped",
        "mindspore.mint.allclose",
        "derived",
    )
    assert data["derived"]["tables"] == ["2.6"]


def test_unsupported_row() -> None:
    data = lookup_json("torch.utils.data.DataLoader", "1.10")
    assert data["status"] == "unsupported"
    assert data["category"] == "unsupported"
    assert data["other_versions"]["2.4"] == "mindspore.dataset.GeneratorDataset"


def test_chinese_output() -> None:
    code, out = run("lookup", "torch.nn.Linear", "--mindspore-version", "2.4", "--lang", "zh")
    assert code == 0
    assert "参数差异" in out
    assert "改名" in out
    assert "参数 in_features 在 MindSpore 中名为 in_channels。" in out
    assert "https://www.mindspore.cn/docs/zh-CN/r2.4.10/api_python/nn/mindspore.nn.Dense.html" in out
    data = lookup_json("torch.nn.Linear", "2.4", lang="zh")
    assert data["urls"]["diff"].startswith("https://www.mindspore.cn/docs/zh-CN/r2.4.10/")
    assert "参数 bias 在 MindSpore 中名为 has_bias。" in data["notes"]


def test_english_text_table() -> None:
    code, out = run("lookup", "torch.all", "--mindspore-version", "2.4")
    assert code == 0
    assert out.splitlines()[0] == "torch.all → mindspore.ops.all (MindSpore 2.4)"
    assert any("keepdim" in line and "keep_dims" in line and "renamed" in line for line in out.splitlines())
    assert any("out" in line and "not supported by MindSpore" in line for line in out.splitlines())


def test_bad_version_is_a_usage_error() -> None:
    code, out = run("lookup", "torch.abs", "--mindspore-version", "banana")
    assert code == 2
    assert "Unknown MindSpore version banana" in out


def test_markdown_rendering_for_hover() -> None:
    md = lookup("torch.nn.Linear", KnowledgeBase("2.4")).render_markdown("en")
    assert md.startswith("**torch.nn.Linear → mindspore.nn.Dense (MindSpore 2.4)**")
    assert "| in_features | in_channels | renamed |" in md
    assert (
        "[Difference comparison](https://www.mindspore.cn/docs/en/r2.4.10/note/api_mapping/pytorch_diff/Dense.html)"
        in md
    )
    # generated notes escape Markdown emphasis in parameter names
    assert "Parameter in\\_features is called in\\_channels in MindSpore." in md


def test_data_stats_json() -> None:
    code, out = run("data", "stats", "--json")
    assert code == 0
    stats = json.loads(out)
    assert set(stats) == {"versions", "derived", "derived_checks", "torch_inventory", "mindspore_inventory"}
    assert set(stats["derived"]) == {"1.10", "2.3", "2.4", "2.6"}
    assert set(stats["derived_checks"]) == {"pass", "fail", "error", "skipped"}
    assert {v: s["rows"] for v, s in stats["versions"].items()} == {
        "1.10": 374,
        "2.3": 875,
        "2.4": 887,
        "2.6": 514,
    }
    v24 = stats["versions"]["2.4"]
    assert set(v24) == {"rows", "diff_pages", "param_renames", "unsupported_params"}
    assert v24["diff_pages"] == 231
    assert v24["param_renames"] >= 300
    assert v24["unsupported_params"] >= 200
    assert stats["torch_inventory"] > 2000 and stats["mindspore_inventory"] > 2000


def test_data_stats_text_in_chinese() -> None:
    code, out = run("data", "stats", "--lang", "zh")
    assert code == 0
    assert "参数改名" in out and "887" in out


def test_auto_version_picks_the_table_closest_to_the_installed_mindspore() -> None:
    # MindSpore 2.10 (the test dependency) and "not installed" both resolve to the newest table, 2.6
    code, out = run("lookup", "torch.nn.Linear", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["mindspore_version"], data["mindspore_api"]) == ("2.6", "mindspore.mint.nn.Linear")


def test_not_found_in_chinese() -> None:
    code, out = run("lookup", "torch.nn.Linaer", "--mindspore-version", "2.4", "--lang", "zh", "--json")
    assert code == 1
    data = json.loads(out)
    assert data["notes"][0] == "torch.nn.Linaer 不是已知的 PyTorch 接口。"
    assert data["notes"][1].startswith("您是否要找：torch.nn.Linear")


def test_mindspore_only_note_is_generated_not_copied() -> None:
    data = lookup_json("torch.nn.Linear", "2.4")
    assert (
        "MindSpore has extra parameter(s) weight_init, bias_init, activation that PyTorch does not have."
        in (data["notes"])
    )


def test_mindspore_name_points_back_to_torch() -> None:
    code, out = run("lookup", "mindspore.nn.Dense", "--mindspore-version", "2.4", "--json")
    assert code == 1
    data = json.loads(out)
    assert data["suggestions"] == ["torch.nn.Linear"]
    assert data["notes"] == [
        "mindspore.nn.Dense is a MindSpore API; the table maps these PyTorch APIs to it: torch.nn.Linear."
    ]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("DataLoader", "torch.utils.data.DataLoader"),
        ("x.view", "torch.Tensor.view"),
        ("MultiheadAttention", "torch.nn.MultiheadAttention"),
    ],
)
def test_name_without_its_module_suggests_the_full_name(query: str, expected: str) -> None:
    code, out = run("lookup", query, "--mindspore-version", "2.6", "--json")
    assert code == 1
    data = json.loads(out)
    assert data["status"] == "not_found"
    assert data["suggestions"][0] == expected


def test_trailing_dot_is_not_part_of_the_typo() -> None:
    code, out = run("lookup", "torch.nn.Linaer.", "--mindspore-version", "2.4", "--json")
    assert code == 1
    assert json.loads(out)["suggestions"][0] == "torch.nn.Linear"


@pytest.mark.parametrize("name", ["", "   ", "()"])
def test_empty_name_is_a_usage_error(name: str) -> None:
    code, out = run("lookup", name, "--lang", "zh")
    assert code == 2
    assert "请给出 PyTorch 接口名，例如 torch.nn.Linear 或 F.relu。" in out


def test_wrapped_note_lines_stay_under_the_note_text() -> None:
    code, out = run("lookup", "torch.Tensor.permute", "--mindspore-version", "2.6")
    assert code == 0
    lines = out.splitlines()
    # torch.Tensor.permute is a derived mapping under 2.6 (its provenance note is the long one now)
    start = lines.index(
        "  - Not in the MindSpore 2.6 mapping table; derived: in the official mapping of MindSpore 2.4, 2.3;"
    )
    assert lines[start + 1] == "    counterpart in MindSpore 2.10 with the same parameters; verified on CPU."


def test_a_target_without_a_cpu_kernel_names_what_the_fix_writes() -> None:
    data = lookup_json("torch.nn.BatchNorm2d", "2.6")
    assert data["mindspore_api"] == "mindspore.mint.nn.BatchNorm2d"
    assert data["device"] == "CPU"
    assert data["device_target"] == {"mindspore_api": "mindspore.nn.BatchNorm2d", "table": "2.4",
                                     "replaced": "mindspore.mint.nn.BatchNorm2d", "derived": False,
                                     "verified": True}
    assert ("MindSpore 2.10 has no CPU kernel for mindspore.mint.nn.BatchNorm2d: on CPU the quick-fix writes "
            "mindspore.nn.BatchNorm2d instead (the mapping of the MindSpore 2.4 table, verified on CPU)."
            ) in data["notes"]
    zh = lookup_json("torch.nn.BatchNorm2d", "2.6", "zh")
    prefix = "MindSpore 2.10 在 CPU 上没有 mindspore.mint.nn.BatchNorm2d 的算子实现"
    assert any(n.startswith(prefix) for n in zh["notes"])
    # nothing replaces mint.einsum on CPU: the note says the call fails there
    einsum = lookup_json("torch.einsum", "2.6")
    assert einsum["device_target"] is None and einsum["no_kernel"] == "mindspore.mint.einsum"
    # mint.roll: its CPU alternative mindspore.numpy.roll passed the derived check
    roll = lookup_json("torch.roll", "2.6")
    assert roll["device_target"] == {"mindspore_api": "mindspore.numpy.roll", "table": "2.6",
                                     "replaced": "mindspore.mint.roll", "derived": True, "verified": True}
    assert ("MindSpore 2.10 has no CPU kernel for mindspore.mint.roll: on CPU the quick-fix writes "
            "mindspore.numpy.roll instead (a derived mapping verified on CPU).") in roll["notes"]
    # the 2.4 table's target runs on CPU; without checks for a device nothing is claimed
    assert lookup_json("torch.nn.BatchNorm2d", "2.4")["device_target"] is None
    code, out = run("lookup", "torch.nn.BatchNorm2d", "--mindspore-version", "2.6", "--device", "Ascend",
                    "--json")
    assert code == 0 and json.loads(out)["device_target"] is None and json.loads(out)["no_kernel"] is None


def test_a_target_without_effect_on_cpu_says_so() -> None:
    adam = lookup_json("torch.optim.Adam", "2.6")
    assert (adam["device_failure"], adam["no_kernel"]) == ("no_effect", None)
    assert adam["device_target"] == {"mindspore_api": "mindspore.experimental.optim.Adam", "table": "2.4",
                                     "replaced": "mindspore.mint.optim.Adam", "derived": False,
                                     "verified": True}
    assert adam["notes"][-1] == (
        "MindSpore 2.10's mindspore.mint.optim.Adam runs on CPU but changes nothing (its optimizer step "
        "leaves the weights as they were, without an error): on CPU the quick-fix writes "
        "mindspore.experimental.optim.Adam instead (the mapping of the MindSpore 2.4 table, verified on "
        "CPU).")
    assert lookup_json("torch.optim.Adam", "2.6", "zh")["notes"][-1] == (
        "MindSpore 2.10 的 mindspore.mint.optim.Adam 在 CPU 上可以运行但没有任何效果（其优化器步骤不报错，"
        "权重却保持不变）：在 CPU 上快速修复改写为 mindspore.experimental.optim.Adam"
        "（MindSpore 2.4 映射表中的映射，已在 CPU 上验证）。")
    assert lookup_json("torch.optim.AdamW", "2.6")["device_failure"] == "unsupported_on_device"
    assert lookup_json("torch.optim.Adam", "2.4")["device_failure"] is None


def test_a_target_without_effect_and_without_replacement(monkeypatch) -> None:
    from dataclasses import replace

    import msmigrate.knowledge.lookup as lookup_module

    real = lookup_module.resolve_name  # as if no replacement were known: the table's target stands

    def unreplaced(api, kb, device="CPU"):  # noqa: ANN001, ANN202
        return replace(real(api, kb, device), replacement=None, target="mindspore.mint.optim.Adam")

    monkeypatch.setattr(lookup_module, "resolve_name", unreplaced)
    notes = lookup_json("torch.optim.Adam", "2.6")["notes"]
    assert notes[-1] == (
        "MindSpore 2.10's mindspore.mint.optim.Adam runs on CPU but changes nothing (its optimizer step "
        "leaves the weights as they were, without an error), and no replacement verified on CPU is known.")


def test_an_in_place_api_written_back_on_cpu_says_what_the_fix_writes() -> None:
    # the quick-fix writes x.assign_value(<out-of-place target>(x, ...)) (fixes/api_fixes.py): the hover says
    # that, not "no replacement verified" (relu_) nor a Primitive the fix does not write (zero_: ZerosLike)
    relu = lookup_json("torch.relu_", "2.6")
    assert relu["write_back"] == {"mindspore_api": "mindspore.ops.relu", "table": "2.6",
                                  "replaced": "mindspore.mint.nn.functional.relu_"}
    assert relu["notes"][-1] == (
        "MindSpore 2.10 has no CPU kernel for mindspore.mint.nn.functional.relu_: on CPU the quick-fix "
        "computes the result with mindspore.ops.relu (verified on CPU) and writes it back into the tensor "
        "with Tensor.assign_value, which returns it (not a safe fix: a view does not update the tensor it "
        "views, and assign_value runs in PyNative mode only).")
    assert lookup_json("torch.relu_", "2.6", "zh")["notes"][-1] == (
        "MindSpore 2.10 在 CPU 上没有 mindspore.mint.nn.functional.relu_ 的算子实现：在 CPU 上快速修复用 "
        "mindspore.ops.relu（已在 CPU 上验证）计算结果，再用 Tensor.assign_value 写回该张量并返回它"
        "（非安全修复：视图不会更新其所属的张量，且 assign_value 只能在 PyNative 模式下运行）。")
    zero = lookup_json("torch.Tensor.zero_", "2.6")["write_back"]
    assert zero["mindspore_api"] == "mindspore.ops.zeros_like"
    # the API's own target returns a new tensor: written back on every device it was verified on
    scatter = lookup_json("torch.Tensor.scatter_", "2.6")
    assert scatter["write_back"]["replaced"] == scatter["write_back"]["mindspore_api"] == (
        "mindspore.ops.tensor_scatter_elements")
    assert scatter["notes"][-1].startswith(
        "mindspore.ops.tensor_scatter_elements returns a new tensor where torch changes the tensor in place: "
        "the quick-fix writes its result (verified on CPU) back into the tensor with Tensor.assign_value")
    assert lookup_json("torch.abs", "2.6")["write_back"] is None
