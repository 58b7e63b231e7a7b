"""Quick-fixes and fix-all on real analyzer findings and the generated mapping tables."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes import api as fixes_api
from msmigrate.fixes.api import fix_all, fixes_by_finding, fixes_for
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.fixes.text import apply_edits
from msmigrate.knowledge.base import get_knowledge_base

REPO = Path(__file__).resolve().parents[2]




def single_fix(source: str, kb, torch_api: str) -> Fix:
    findings = [f for f in analyze_source(source, "m.py", kb).findings if f.torch_api == torch_api]
    assert len(findings) == 1, findings
    fixes = fixes_for(source, "m.py", findings, kb)
    assert len(fixes) == 1, fixes
    return fixes[0]


def fixed(source: str, kb, torch_api: str) -> str:
    fix = single_fix(source, kb, torch_api)
    assert fix.edits, fix.title()
    result = apply_edits(source, fix.edits)
    ast.parse(result)
    return result


def test_linear_keyword_renames_with_2_4(kb24):
    source = "import torch.nn as nn\n\nlayer = nn.Linear(in_features=3, out_features=4, bias=False)\n"
    assert fixed(source, kb24, "torch.nn.Linear") == (
        "import torch.nn as nn\nimport mindspore\n\n"
        "layer = mindspore.nn.Dense(in_channels=3, out_channels=4, has_bias=False)\n"
    )
    fix = single_fix(source, kb24, "torch.nn.Linear")
    assert fix.title("en") == (
        "Replace torch.nn.Linear with mindspore.nn.Dense (arguments: in_features→in_channels, "
        "out_features→out_channels, bias→has_bias; then review the documented differences)"
    )
    assert fix.title("zh").startswith("将 torch.nn.Linear 替换为 mindspore.nn.Dense（参数：")


def test_consistent_api_2_6_uses_mint(kb26):
    source = '"""Doc."""\nimport torch\n\ny = torch.abs(x)\n'
    assert (
        fixed(source, kb26, "torch.abs")
        == '"""Doc."""\nimport torch\nimport mindspore\n\ny = mindspore.mint.abs(x)\n'
    )
    assert single_fix(source, kb26, "torch.abs").title("en") == "Replace torch.abs with mindspore.mint.abs"


def test_input_and_dim_renames(kb24):
    source = "import torch\nz = torch.cumsum(input=a, dim=1)\n"
    assert (
        fixed(source, kb24, "torch.cumsum")
        == "import torch\nimport mindspore\nz = mindspore.ops.cumsum(x=a, axis=1)\n"
    )


def test_existing_mindspore_imports_are_reused(kb24):
    source = "import torch\nimport mindspore as ms\ny = torch.abs(x)\n"
    assert fixed(source, kb24, "torch.abs") == "import torch\nimport mindspore as ms\ny = ms.ops.abs(x)\n"
    source = "import torch\nfrom mindspore import ops\ny = torch.abs(x)\n"
    assert fixed(source, kb24, "torch.abs") == "import torch\nfrom mindspore import ops\ny = ops.abs(x)\n"
    # a later torch import rebinding the name wins: ops is torch's again, so the full name is written
    source = "from mindspore import nn\nfrom torch import nn\nlayer = nn.ReLU()\n"
    assert fixed(source, kb24, "torch.nn.ReLU") == (
        "from mindspore import nn\nfrom torch import nn\nimport mindspore\nlayer = mindspore.nn.ReLU()\n"
    )


def test_general_difference_arguments_dropped_when_meaning_kept(kb24):
    source = 'import torch\ny = torch.zeros(2, 3, out=None, device="cpu")\n'
    assert (
        fixed(source, kb24, "torch.zeros")
        == "import torch\nimport mindspore\ny = mindspore.ops.zeros((2, 3))\n"  # one tuple: 3 is no dtype
    )
    source = "import torch\ny = torch.zeros(2, requires_grad=False, dtype=torch.float32)\n"
    assert fixed(source, kb24, "torch.zeros") == (
        "import torch\nimport mindspore\ny = mindspore.ops.zeros(2, dtype=torch.float32)\n"
    )


def test_dropping_a_multiline_argument_keeps_layout(kb24):
    source = 'import torch\ny = torch.zeros(\n    2,\n    device="cuda:0",  # on the GPU\n)\n'
    assert (
        fixed(source, kb24, "torch.zeros")
        == "import torch\nimport mindspore\ny = mindspore.ops.zeros(\n    2,\n)\n"
    )


def test_arguments_that_change_meaning_are_explained_not_edited(kb24):
    fix = single_fix("import torch\ny = torch.zeros(2, out=buf)\n", kb24, "torch.zeros")
    assert fix.edits == []
    assert fix.title("en") == (
        "No automatic fix for torch.zeros: mindspore.ops.zeros has no 'out' parameter and dropping "
        "out=buf would change the result; assign the return value instead."
    )
    assert fix.title("zh") == (
        "torch.zeros 无法自动修复：mindspore.ops.zeros 没有 'out' 参数，"
        "删除 out=buf 会改变结果；请改为接收返回值。"
    )
    fix = single_fix("import torch\ny = torch.zeros(2, requires_grad=True)\n", kb24, "torch.zeros")
    assert fix.edits == []
    assert "requires_grad=True" in fix.title("en")


def test_the_catalogue_rewrite_when_the_call_shape_changes(kb24):
    # torch.Tensor.size() is a method, mindspore.Tensor.shape an attribute: the 2.4 table's row is written
    # as the missing-API catalogue's exact rewrite, as a derived mapping's is
    source = "import torch\nx = torch.ones(2)\nn = x.size()\nk = x.size(0)\n"
    findings = [
        f for f in analyze_source(source, "m.py", kb24).findings if f.torch_api == "torch.Tensor.size"
    ]
    fixes = fixes_for(source, "m.py", findings, kb24)
    assert [f.title_key for f in fixes] == ["fix.pattern.shape", "fix.pattern.shape"]
    assert apply_edits(source, [e for f in fixes for e in f.edits]) == (
        "import torch\nx = torch.ones(2)\nn = x.shape\nk = x.shape[0]\n")


def test_tensor_method_rename(kb24):
    source = "import torch\nx = torch.ones(2)\na = x.numpy()\n"
    assert fixed(source, kb24, "torch.Tensor.numpy") == "import torch\nx = torch.ones(2)\na = x.asnumpy()\n"


def test_non_ascii_source_and_crlf(kb24):
    source = "import torch\r\n变量 = torch.abs(x)  # 注释 😀\r\n"
    assert (
        fixed(source, kb24, "torch.abs")
        == "import torch\r\nimport mindspore\r\n变量 = mindspore.ops.abs(x)  # 注释 😀\r\n"
    )


def test_import_goes_before_a_use_on_an_import_line(kb24):
    source = '"""Doc."""\nimport torch; y = torch.abs(x)'
    assert (
        fixed(source, kb24, "torch.abs")
        == '"""Doc."""\nimport mindspore\nimport torch; y = mindspore.ops.abs(x)'
    )


def test_import_after_future_and_imports_without_final_newline(kb24):
    source = "from __future__ import annotations\nimport torch\ny = torch.abs(x)"
    assert fixed(source, kb24, "torch.abs") == (
        "from __future__ import annotations\nimport torch\nimport mindspore\ny = mindspore.ops.abs(x)"
    )


def test_fix_all_applies_every_safe_fix_including_nested(kb24):
    source = (
        "import torch\n"
        "import torch.nn.functional as F\n"
        "\n"
        "w = F.relu(torch.neg(torch.abs(y)))\n"
        "b = torch.zeros(2, out=buf)\n"
        "c = torch.zeros(2, device=dev)\n"
    )
    new_source, applied = fix_all(source, "m.py", kb24)
    assert new_source == (  # F is no longer used, so its import goes; torch still is (torch.zeros)
        "import torch\n"
        "import mindspore\n"
        "\n"
        "w = mindspore.ops.relu(mindspore.ops.neg(mindspore.ops.abs(y)))\n"
        "b = torch.zeros(2, out=buf)\n"
        "c = mindspore.ops.zeros(2)\n"
    )
    assert [fix.rule for fix in applied] == ["MSM100", "MSM100", "MSM100", "MSM101", "imports"]
    ast.parse(new_source)
    assert fix_all(new_source, "m.py", kb24) == (new_source, [])


def test_broken_source_gets_no_fix(kb24):
    source = "import torch\ny = torch.abs(x\n"
    findings = analyze_source(source, "m.py", kb24).findings
    assert fixes_for(source, "m.py", findings, kb24) == []
    assert fix_all(source, "m.py", kb24) == (source, [])


def test_a_fix_that_breaks_the_syntax_is_never_offered(kb24, monkeypatch):
    source = "import torch\ny = torch.abs(x)\n"
    findings = analyze_source(source, "m.py", kb24).findings

    def bad_fixer(ctx, finding):
        return Fix(finding.rule, "fix.replace_api", [TextEdit(2, 5, 2, 14, "(")], {})

    monkeypatch.setattr(fixes_api, "fixers_for", lambda rule: (bad_fixer,))
    assert fixes_by_finding(source, "m.py", findings, kb24) == []
    assert fix_all(source, "m.py", kb24) == (source, [])


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_every_fixed_example_file_parses(version):
    kb = get_knowledge_base(version)
    files = sorted((REPO / "examples").rglob("*.py"))
    assert files, "examples/ has no Python files"
    total = 0
    for path in files:
        source = path.read_text(encoding="utf-8")
        findings = analyze_source(source, str(path), kb).findings
        for _finding, fix in fixes_by_finding(source, str(path), findings, kb):
            if fix.edits:
                ast.parse(apply_edits(source, fix.edits))
                total += 1
        new_source, applied = fix_all(source, str(path), kb)
        ast.parse(new_source)
        assert (new_source != source) == bool(applied)
    assert total > 20


def test_a_none_default_standing_for_another_argument_is_passed_explicitly(kb24):
    # torch pooling: stride=None means kernel_size; MindSpore's stride defaults to 1
    assert fixed("import torch\nm = torch.nn.MaxPool2d(2)\n", kb24, "torch.nn.MaxPool2d") == (
        "import torch\nimport mindspore\nm = mindspore.nn.MaxPool2d(2, stride=2)\n")
    source = "import torch\ny = torch.nn.functional.avg_pool1d(x, kernel_size=(3,))\n"
    assert fixed(source, kb24, "torch.avg_pool1d") == (
        "import torch\nimport mindspore\ny = mindspore.ops.avg_pool1d(x, kernel_size=(3,), stride=(3,))\n")
    # a stride the call passes, by position or keyword, stays as it is
    assert fixed("import torch\nm = torch.nn.MaxPool2d(2, 1)\n", kb24, "torch.nn.MaxPool2d") == (
        "import torch\nimport mindspore\nm = mindspore.nn.MaxPool2d(2, 1)\n")


def test_std_and_var_stay_unbiased(kb24):
    # torch's std/var divide by n - 1 by default, MindSpore's by n (ddof=0): ddof=1 is passed
    assert fixed("import torch\ny = torch.std(x, 1)\n", kb24, "torch.std") == (
        "import torch\nimport mindspore\ny = mindspore.ops.std(x, 1, ddof=1)\n")
    assert fixed("import torch\ny = torch.var_mean(x, dim=0)\n", kb24, "torch.var_mean") == (
        "import torch\nimport mindspore\ny = mindspore.ops.var_mean(x, axis=0, ddof=1)\n")


def test_a_parameter_of_the_same_meaning_takes_the_mindspore_name(kb26):
    # torch's size is MindSpore's shape, num_classes is depth (knowledge/param_facts.SAME_MEANING)
    assert fixed("import torch\ny = torch.broadcast_to(x, size=(2, 3))\n", kb26, "torch.broadcast_to") == (
        "import torch\nimport mindspore\ny = mindspore.mint.broadcast_to(x, shape=(2, 3))\n")
    assert fixed("import torch\ny = torch.broadcast_to(x, (2, 3))\n", kb26, "torch.broadcast_to") == (
        "import torch\nimport mindspore\ny = mindspore.mint.broadcast_to(x, (2, 3))\n")


def test_set_rng_state_state_argument_is_converted(kb24):
    # torch's new_state is MindSpore's state: by position it stays, by keyword it takes the MindSpore name
    assert fixed("import torch\ntorch.set_rng_state(s)\n", kb24, "torch.set_rng_state") == (
        "import torch\nimport mindspore\nmindspore.set_rng_state(s)\n")
    assert fixed("import torch\ntorch.set_rng_state(new_state=s)\n", kb24, "torch.set_rng_state") == (
        "import torch\nimport mindspore\nmindspore.set_rng_state(state=s)\n")


def test_dropout_train_flag_is_mindspore_training(kb24):
    # torch.dropout(input, p, train) → ops.dropout(input, p, training): by position it stays, by keyword it
    # takes the MindSpore name
    assert fixed("import torch\ny = torch.dropout(x, 0.5, False)\n", kb24, "torch.dropout") == (
        "import torch\nimport mindspore\ny = mindspore.ops.dropout(x, 0.5, False)\n")
    assert fixed("import torch\ny = torch.dropout(x, 0.5, train=False)\n", kb24, "torch.dropout") == (
        "import torch\nimport mindspore\ny = mindspore.ops.dropout(x, 0.5, training=False)\n")


def test_split_sections_and_division_operands_take_the_mindspore_names(kb26):
    # hsplit's sections / indices are MindSpore's indices_or_sections; true_divide's input and other are
    # dividend and divisor, lu_solve's input is b (tensor parameters at the same position)
    assert fixed("import torch\ny = torch.hsplit(x, sections=2)\n", kb26, "torch.hsplit") == (
        "import torch\nimport mindspore\ny = mindspore.ops.hsplit(x, indices_or_sections=2)\n")
    assert fixed("import torch\ny = torch.vsplit(x, [1, 2])\n", kb26, "torch.vsplit") == (
        "import torch\nimport mindspore\ny = mindspore.ops.vsplit(x, [1, 2])\n")
    assert fixed("import torch\ny = torch.true_divide(a, b)\n", kb26, "torch.true_divide") == (
        "import torch\nimport mindspore\ny = mindspore.ops.true_divide(a, b)\n")
    assert fixed("import torch\ny = torch.true_divide(a, other=b)\n", kb26, "torch.true_divide") == (
        "import torch\nimport mindspore\ny = mindspore.ops.true_divide(a, divisor=b)\n")
    assert fixed("import torch\ny = torch.lu_solve(b, lu, piv)\n", kb26, "torch.lu_solve") == (
        "import torch\nimport mindspore\ny = mindspore.ops.lu_solve(b, lu, piv)\n")


def test_scatter_add_passes_the_add_reduction(kb24):
    # tensor_scatter_elements is scatter_add only with reduction='add' (param_facts.PAIR_COMPANIONS); the
    # same function for Tensor.scatter in other tables keeps its default
    assert fixed("import torch\ny = torch.scatter_add(x, 1, i, s)\n", kb24, "torch.scatter_add") == (
        "import torch\nimport mindspore\n"
        "y = mindspore.ops.tensor_scatter_elements(x, axis=1, indices=i, updates=s, reduction='add')\n")
