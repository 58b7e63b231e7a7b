"""Unit tests of the server's settings model and position conversion."""

from __future__ import annotations

from lsprotocol import types
from pygls.workspace import PositionCodec

from msmigrate.fixes.model import TextEdit
from msmigrate.lsp.config import DEFAULT_SEVERITY, Settings, initialization_section
from msmigrate.lsp.positions import LineIndex, line_edits


def test_settings_defaults():
    settings = Settings()
    assert (settings.mindspore_version, settings.language, settings.code_lens, settings.device) == (
        "auto",
        "en",
        True,
        "CPU",
    )
    assert settings.severity == DEFAULT_SEVERITY
    # every category keeps each finding's own severity unless the user picks a level for it
    assert set(DEFAULT_SEVERITY.values()) == {"default"} and len(DEFAULT_SEVERITY) == 9


def test_settings_from_nested_and_dotted_keys():
    settings = Settings.from_dict(
        {
            "mindsporeVersion": "2.4",
            "language": "zh-CN",
            "severity": {"missing": "error"},
            "severity.consistent": "off",
            "msmigrate.codeLens": False,
            "device": "ascend",
            "pythonPath": " /opt/py/bin/python ",
            "disabledRules": ["msm103"],
            "exclude": "build/**",
        }
    )
    assert settings.mindspore_version == "2.4" and settings.language == "zh" and settings.device == "Ascend"
    assert settings.severity["missing"] == "error" and settings.severity["consistent"] == "off"
    assert settings.severity["differences"] == "default"  # each finding keeps its own severity
    assert settings.code_lens is False and settings.python_path == "/opt/py/bin/python"
    assert settings.disabled_rules == ("MSM103",) and settings.exclude == ("build/**",)
    assert settings.problems == ()


def test_bad_values_keep_defaults_and_are_reported():
    settings = Settings.from_dict(
        {
            "mindsporeVersion": "3.0",
            "severity": {"missing": "loud", "nope": "hint"},
            "codeLens": "yes",
            "include": 3,
        }
    )
    assert settings.mindspore_version == "auto" and settings.code_lens is True and settings.include == ()
    assert settings.severity == DEFAULT_SEVERITY
    assert settings.problems == (
        "mindsporeVersion: '3.0' not in auto, 1.10, 2.3, 2.4, 2.6",
        "severity.missing: 'loud'",
        "severity.nope: 'hint'",
        "include: 3",
        "codeLens: 'yes'",
    )
    assert Settings.from_dict(None) == Settings()


def test_initialization_options_forms():
    inner = {"language": "zh"}
    assert initialization_section(inner) == inner
    assert initialization_section({"settings": inner}) == inner
    assert initialization_section({"settings": {"msmigrate": inner}}) == inner
    assert initialization_section({"msmigrate": inner}) == inner
    assert initialization_section(None) == {} and initialization_section([1]) == {}
    assert Settings.from_initialization_options({"settings": inner}).language == "zh"


def test_utf16_positions_both_ways():
    index = LineIndex('s = "😀"; y = torch.neg(s)\n变量 = 1\n')
    # code points 13..22 (1-based 14..23) are UTF-16 units 14..23 after the emoji
    assert index.range_to_lsp(1, 14, 1, 23) == types.Range(types.Position(0, 14), types.Position(0, 23))
    assert index.from_lsp(types.Position(0, 14)) == (1, 14)
    assert index.from_lsp(types.Position(1, 2)) == (2, 3)
    assert index.to_lsp(2, 3) == types.Position(1, 2)
    assert index.from_lsp(types.Position(1, 99)) == (2, 7)  # clamped to the line end
    assert index.from_lsp(types.Position(9, 0)) == (3, 1)  # past the last line


def test_utf8_and_utf32_encodings():
    source = "变量 = torch.abs(x)\n"
    utf8 = LineIndex(source, PositionCodec(types.PositionEncodingKind.Utf8))
    utf32 = LineIndex(source, PositionCodec(types.PositionEncodingKind.Utf32))
    assert utf8.to_lsp(1, 6) == types.Position(0, 9)  # two 3-byte characters, then " = "
    assert utf32.to_lsp(1, 6) == types.Position(0, 5)
    assert utf8.from_lsp(types.Position(0, 9)) == (1, 6)


def test_lines_split_like_lsp_not_like_splitlines():
    index = LineIndex("a\x0cb\u2028c\r\nd\re")
    assert list(index.lines) == ["a\x0cb\u2028c", "d", "e"]


def test_line_edits_cover_only_changed_lines():
    old = "import torch\ny = torch.abs(x)\nz = 1\n"
    new = "import torch\nimport mindspore\ny = mindspore.ops.abs(x)\nz = 1\n"
    assert line_edits(old, new) == [TextEdit(2, 1, 3, 1, "import mindspore\ny = mindspore.ops.abs(x)\n")]
    assert line_edits("a\nb", "a\nc") == [TextEdit(2, 1, 2, 2, "c")]


def test_server_code_paths_never_import_torch_or_mindspore():
    import subprocess
    import sys

    script = """
import sys
from msmigrate.model.finding import FindingCategory
from msmigrate.fixes.api import fix_all, fixes_for
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.lsp.analysis import analyze_text
from msmigrate.lsp.config import Settings
from msmigrate.lsp.hover import hover_markdown
from msmigrate.lsp.features import create_server

create_server()
kb = get_knowledge_base("2.4")
source = "import torch\\nimport torch.nn as nn\\ny = torch.abs(x)\\nclass N(nn.Module):\\n    pass\\n"
result = analyze_text(source, "m.py", kb, Settings())
assert result.findings
for finding in result.findings:
    hover_markdown(finding, kb, "en")
fixes_for(source, "m.py", result.findings, kb)
fix_all(source, "m.py", kb)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "mindspore"))
print(",".join(loaded) or "none")
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "none"


def test_rule_docs_link_follows_the_configured_language():
    from types import SimpleNamespace

    from msmigrate.knowledge.base import get_knowledge_base
    from msmigrate.lsp.diagnostics import doc_url
    from msmigrate.model.finding import Finding, FindingCategory, Severity

    mask = Finding(3, 5, 3, 12, None, None, FindingCategory.DYNAMIC_SHAPE, "MSM302", Severity.WARNING,
                   "rule.MSM302.title")
    kb = get_knowledge_base("2.6")
    page = "r2.3.1/migration_guide/dynamic_shape.html"
    assert doc_url(SimpleNamespace(lang="zh", kb=kb), mask) == f"https://www.mindspore.cn/docs/zh-CN/{page}"
    assert doc_url(SimpleNamespace(lang="en", kb=kb), mask) == f"https://www.mindspore.cn/docs/en/{page}"
