"""A file whose class became a MindSpore Cell is not converted while a torch.nn.Module member the Cell lacks
is still used on it (analysis/cell_leftovers.py): ``msmigrate fix`` says so with the line and the member, and
``named_modules(prefix=…)`` is rewritten as ``cells_and_names(name_prefix=…)`` (the same walk: MindSpore
2.10's source and the check program of named_modules, tests/check/test_named_modules_check.py)."""

from __future__ import annotations

from pathlib import Path

from msmigrate.fixes.project import FixOptions, fix_paths
from msmigrate.reports.fix_summary import summary_lines

SOURCE = '''\
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        for name, m in self.named_modules(prefix="p"):
            pass
        self.zero_grad()
        return self.fc(x)
'''

FIXED = '''\
import mindspore


class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = mindspore.mint.nn.Linear(4, 2)

    def construct(self, x):
        for name, m in self.cells_and_names(name_prefix="p"):
            pass
        self.zero_grad()
        return self.fc(x)
'''

REASON_EN = ("MSM104: self.zero_grad: mindspore.nn.Cell has no zero_grad; it is torch.nn.Module's, left "
             "after Net became a Cell (an AttributeError when it runs): write it with the Cell's own API or "
             "drop it")
REASON_ZH = ("MSM104：self.zero_grad：mindspore.nn.Cell 没有 zero_grad；这是 Net 改为 Cell 后遗留的 "
             "torch.nn.Module 成员（运行时会抛出 AttributeError）：请改用 Cell 自己的接口，或删除该调用")


def test_a_member_left_on_the_cell_keeps_the_file_from_being_torch_free(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(SOURCE, encoding="utf-8")
    result = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6", unsafe=True))
    assert (tmp_path / "m.py").read_text(encoding="utf-8") == FIXED
    [record] = result.files
    assert record.torch_free is False
    for lang, reason in (("en", REASON_EN), ("zh", REASON_ZH)):
        [left] = result.to_json(lang)["files"][0]["leftovers"]
        assert (left["line"], left["column"], left["kind"], left["text"], left["rule"], left["reason"]) == (
            12, 9, "cell", "self.zero_grad", "MSM104", reason)
    data = result.to_json("en")
    assert (data["usages_before"], data["usages_after"], data["files_torch_free"]) == (4, 1, 0)
    lines = summary_lines(result, "en")
    assert "Nothing left to migrate." not in lines
    assert lines[lines.index("Files free of torch: 0 of 1") + 1:][:2] == [
        "Torch is still used in these files (1 places), with why each was not rewritten:",
        f"  m.py:12:9 self.zero_grad: {REASON_EN}",
    ]
    assert f"  m.py:12:9 self.zero_grad：{REASON_ZH}" in summary_lines(result, "zh")


def test_the_safe_fixes_rename_the_prefix_keyword(tmp_path: Path) -> None:
    source = SOURCE.replace("        self.zero_grad()\n", "")
    (tmp_path / "m.py").write_text(source, encoding="utf-8")
    result = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6"))
    assert (tmp_path / "m.py").read_text(encoding="utf-8") == FIXED.replace("        self.zero_grad()\n", "")
    record = result.files[0]
    assert (record.torch_free, record.unsafe_skipped, result.nothing_left) == (True, 0, True)
