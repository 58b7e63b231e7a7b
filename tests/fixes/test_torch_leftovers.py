"""File-level truth: a file counts as converted only when nothing of torch is left in it; every leftover is
found (analysis/leftovers.py), reported as MSM104 where no other finding speaks for it, and listed with its
line and reason by ``msmigrate fix`` (summary and ``--json``)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from click.testing import CliRunner

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.analysis.columns import ColumnMap
from msmigrate.analysis.leftovers import is_torch_module, torch_leftovers
from msmigrate.cli import main
from msmigrate.fixes.project import FixOptions, fix_paths
from msmigrate.reports.fix_summary import rate_text, summary_lines

FORMS = '''\
import torch
import torch.nn as nn
from einops.layers.torch import Rearrange
import importlib
def f(x: "torch.Tensor", name) -> "Optional[nn.Module]":
    if hasattr(torch.nn.functional, "scaled_dot_product_attention"):
        pass
    m = getattr(nn, name)()
    v = torch.__version__
    importlib.import_module("torch.nn")
    return Rearrange("a b -> b a")
'''


def _leftovers(source: str) -> list[tuple[int, int, str, str]]:
    found = torch_leftovers(ast.parse(source), ColumnMap(source.splitlines(), source.isascii()))
    return [(x.line, x.column, x.kind.value, x.text) for x in found]


def test_every_form_of_torch_left_is_found() -> None:
    assert _leftovers(FORMS) == [
        (1, 1, "import", "torch"),
        (2, 1, "import", "torch.nn"),
        (3, 1, "import", "einops.layers.torch"),
        (5, 10, "string", "torch.Tensor"),
        (5, 35, "string", "Optional[nn.Module]"),
        (6, 8, "dynamic", "hasattr(torch.nn.functional, 'scaled_dot_product_attention')"),
        (8, 9, "dynamic", "getattr(nn, name)"),
        (9, 9, "version", "torch.__version__"),
        (10, 5, "dynamic", "importlib.import_module('torch.nn')"),
        (11, 12, "name", "Rearrange"),
    ]


def test_uses_in_every_kind_of_block_are_found() -> None:
    """Only the statements whose text names torch are walked: decorators, case patterns, handlers and
    the headers of long functions count."""
    body = "".join(f"    x{i} = x{i - 1} + 1\n" for i in range(1, 15))
    source = ("import torch\nmatch x:\n    case torch.Tensor():\n        y = torch.abs(x)\n    case _:\n"
              "        pass\ntry:\n    pass\nexcept torch.cuda.OutOfMemoryError:\n    z = 1\n"
              f"@torch.no_grad()\ndef f(x0) -> 'torch.Tensor':\n{body}    return torch.relu(x14)\n")
    assert [(line, text) for line, _col, _kind, text in _leftovers(source)] == [
        (1, "torch"), (3, "torch.Tensor"), (4, "torch.abs"), (9, "torch.cuda.OutOfMemoryError"),
        (11, "torch.no_grad"), (12, "torch.Tensor"), (27, "torch.relu")]


def test_names_prose_and_other_packages_are_not_torch() -> None:
    source = ('"""Uses torch.nn."""\nimport numpy as np\nfrom mindspore import nn\n'
              'x = np.zeros(3)  # torch.zeros\ny = nn.Dense(2, 2)\nz = "torch"\n')
    assert _leftovers(source) == []
    modules = ("torch", "torchvision.ops", "horovod.torch", "torchmetrics", None)
    assert [is_torch_module(m) for m in modules] == [True, True, True, False, False]


def test_the_places_no_other_finding_covers_are_msm104(kb26) -> None:
    result = analyze_source(FORMS, "forms.py", kb26, AnalysisOptions(use_jedi=False))
    assert [(f.line, f.column, f.message()) for f in result.findings if f.rule == "MSM104"] == [
        (5, 10, "the string annotation torch.Tensor names torch: write the MindSpore type"),
        (5, 35, "the string annotation Optional[nn.Module] names torch: write the MindSpore type"),
        (10, 5, "a torch module is reached by a name computed at run time (importlib.import_module("
                "'torch.nn')): rewrite it with the MindSpore names it can take"),
    ]
    # the feature check (6, 8), getattr (8, 9), torch.__version__ (9, 9) and einops' torch layer (its import
    # 3, 1 and its use 11, 12: MSM530) have rules of their own
    assert [(f.line, f.column, f.rule) for f in result.findings if (f.line, f.column) in (
        (3, 1), (6, 8), (8, 9), (9, 9), (11, 12))] == [
        (3, 1, "MSM530"), (6, 8, "MSM513"), (8, 9, "MSM520"), (9, 9, "MSM513"), (11, 12, "MSM530")]


MODEL = '''\
import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.w = nn.Parameter(torch.ones(n))

    @torch.no_grad()
    def forward(self, x):
        return x * self.w


def act(name):
    return getattr(nn, name)()


def typed(x: "torch.Tensor"):
    return x
'''
DONE = "import torch\n\ny = torch.abs(torch.tensor([1.0, -2.0]))\n"
GETATTR = ("MSM520: getattr on torch.nn with a name the code does not tell: list the names it takes (a "
           "literal, a list or dict of literals, a default) so that they can be checked")


def _project(tmp_path: Path) -> Path:
    (tmp_path / "model.py").write_text(MODEL, encoding="utf-8")
    (tmp_path / "done.py").write_text(DONE, encoding="utf-8")
    return tmp_path


def test_the_fix_summary_lists_every_leftover_with_its_line_and_why(tmp_path: Path) -> None:
    result = fix_paths([str(_project(tmp_path))], FixOptions(mindspore_version="2.6"))
    data = result.to_json("en")
    files = {f["path"]: f for f in data["files"]}
    assert (files["done.py"]["torch_free"], files["done.py"]["leftovers"]) == (True, [])
    assert files["model.py"]["torch_free"] is False
    assert [(x["line"], x["column"], x["kind"], x["text"], x["rule"], x["reason"])
            for x in files["model.py"]["leftovers"]] == [
        (1, 1, "import", "torch.nn", None, "kept: torch is still used on line 15"),
        (15, 12, "dynamic", "getattr(nn, name)", "MSM520", GETATTR),
    ]
    # done.py: torch.abs, torch.tensor converted; model.py: the nn.Module base (under MSM501), torch.ones and
    # the no_grad decorator (MSM507) converted, nn.Parameter too (checked as the fix writes it: safe), and
    # the string annotation (a type named: safe, docs/safe-containers.md); getattr(nn, name) left
    fixed = (tmp_path / "model.py").read_text(encoding="utf-8")
    assert fixed.endswith('def typed(x: "mindspore.Tensor"):\n    return x\n')
    assert (data["usages_before"], data["usages_after"], data["converted"]) == (8, 1, 7)
    assert (data["files_torch_free"], data["files_with_torch_left"]) == (1, 1)
    lines = summary_lines(result, "en")
    assert "Nothing left to migrate." not in lines
    assert lines[4:10] == [
        "PyTorch API usages converted: 7 of 8 (87.5%)",
        "Left, by category: framework_pattern 1",
        "Files free of torch: 1 of 2",
        "Torch is still used in these files (2 places), with why each was not rewritten:",
        "  model.py:1:1 torch.nn: kept: torch is still used on line 15",
        f"  model.py:15:12 getattr(nn, name): {GETATTR}",
    ]
    zh = summary_lines(result, "zh")
    assert "已不再依赖 torch 的文件：1 / 2" in zh


def test_a_file_left_without_torch_is_converted_and_nothing_is_claimed_otherwise(tmp_path: Path) -> None:
    (tmp_path / "done.py").write_text(DONE, encoding="utf-8")
    runner = CliRunner()
    done = runner.invoke(main, ["fix", "--mindspore-version", "2.6", "--json", str(tmp_path)])
    data = json.loads(done.stdout)
    assert (data["files"][0]["torch_free"], data["converted"], data["usages_before"]) == (True, 2, 2)
    assert (tmp_path / "done.py").read_text(encoding="utf-8") == (
        "import mindspore\n\ny = mindspore.mint.abs(mindspore.tensor([1.0, -2.0]))\n")
    again = runner.invoke(main, ["fix", "--mindspore-version", "2.6", str(tmp_path)])
    assert again.stderr.splitlines()[-2:] == ["Nothing left to migrate.", "Files free of torch: 1 of 1"]


def test_the_rate_is_never_rounded_up_to_100_percent() -> None:
    assert [rate_text(9999, 10000), rate_text(3, 3), rate_text(1, 3), rate_text(0, 5)] == [
        "99.9%", "100.0%", "33.3%", "0.0%"]
