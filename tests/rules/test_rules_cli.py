"""``msmigrate rules``: the list (text and JSON, both languages) and one rule's explanation."""

from __future__ import annotations

import json

from click.testing import CliRunner

from msmigrate.cli import main
from msmigrate.fixes.fixers import fixable_rules
from msmigrate.rules.loader import all_rules


def run(*args: str):
    return CliRunner().invoke(main, ["rules", *args])


def test_json_lists_every_rule_in_both_languages():
    result = run("--json")
    assert result.exit_code == 0, result.output
    listed = json.loads(result.output)["rules"]
    assert [r["id"] for r in listed] == [r.id for r in all_rules()]
    for rule in listed:
        for lang in ("en", "zh"):
            assert rule["title"][lang].strip(), (rule["id"], lang)
            assert rule["explanation"][lang].strip(), (rule["id"], lang)
        assert rule["title"]["en"] != rule["title"]["zh"]
        assert rule["docs_url"].startswith("https://www.mindspore.cn/")
        assert rule["severity"] in {"error", "warning", "information", "hint"}
    by_id = {r["id"]: r for r in listed}
    assert by_id["MSM301"] == {
        "id": "MSM301",
        "category": "dynamic_shape",
        "severity": "warning",
        "fixable": False,
        "docs_url": "https://www.mindspore.cn/docs/en/r2.3.1/migration_guide/dynamic_shape.html",
        "title": {"en": "Operation whose output shape depends on the data", "zh": "输出形状取决于数据的操作"},
        "explanation": by_id["MSM301"]["explanation"],
    }
    # a rule is listed as fixable exactly when a fixer is registered for it
    assert [r["id"] for r in listed if r["fixable"]] == fixable_rules()
    assert {"MSM100", "MSM101", "MSM201", "MSM501", "MSM503", "MSM512"} <= set(fixable_rules())


def test_text_list_in_chinese():
    result = run("--lang", "zh")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == f"共 {len(all_rules())} 条规则"
    assert "MSM502 * information framework_pattern    nn.Sequential 容器" in lines


def test_explain_one_rule():
    result = run("msm301")
    assert result.exit_code == 0
    out = result.output
    assert out.startswith("MSM301: Operation whose output shape depends on the data\n")
    assert "Default severity: warning" in out
    assert "Quick-fix: no" in out
    assert "    return torch.masked_select(x, x > 0)" in out
    assert 'disabled-rules = ["MSM301"]' in out and "# msmigrate: ignore[MSM301]" in out


def test_explain_one_rule_as_json_in_chinese():
    result = run("MSM502", "--json", "--lang", "zh")
    data = json.loads(result.output)
    assert data["id"] == "MSM502" and data["fixable"] is True
    assert data["title"]["zh"] == "nn.Sequential 容器"
    assert data["example"] == "import torch.nn as nn\nbody = nn.Sequential(nn.ReLU(), nn.Dropout(0.1))\n"


def test_unknown_rule_is_a_clear_error():
    result = run("MSM999")
    assert result.exit_code == 1
    assert "Unknown rule MSM999. Run 'msmigrate rules' for the list." in result.output
    zh = run("MSM999", "--lang", "zh")
    assert "未知规则 MSM999" in zh.output


def test_fixable_rules_have_fixers_and_fixers_have_rules():
    from msmigrate.fixes.fixers import fixable_rules

    fixable = {rule.id for rule in all_rules() if rule.fixable}
    assert fixable == set(fixable_rules())


def test_explain_in_chinese_translates_labels_and_links_the_chinese_docs():
    out = run("MSM301", "--lang", "zh").output
    assert "类别: 动态 shape (dynamic_shape)\n默认级别: 警告\n快速修复: 无\n" in out
    assert "文档: https://www.mindspore.cn/docs/zh-CN/r2.3.1/migration_guide/dynamic_shape.html\n" in out
    en = run("MSM301").output
    assert "Category: Dynamic shape (dynamic_shape)\nDefault severity: warning\n" in en
    assert "Documentation: https://www.mindspore.cn/docs/en/r2.3.1/migration_guide/dynamic_shape.html\n" in en
