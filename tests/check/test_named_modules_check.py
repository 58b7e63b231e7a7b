"""``net.named_modules()`` → ``net.cells_and_names()``: verified by a program (``check/worker_programs.py``),
so the safe fixes write it. pytorchcv 0.0.74 initialises every model by walking ``self.named_modules()``
(``resnet.py`` ResNet._init_params and 160 others); a Cell has no ``named_modules`` (AttributeError at build).

MindSpore 2.10's ``Cell.cells_and_names()`` (read in its source) yields ``("", self)`` first, then each child
of ``_cells`` depth first under its dotted path, each cell once: what torch's ``named_modules()`` yields
with its default arguments. Real frameworks."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_checks import checked, mutated_status

pytest.importorskip("torch")
pytest.importorskip("mindspore")


def test_the_check_of_named_modules_passes_with_cells_and_names() -> None:
    result = checked("torch.nn.Module.named_modules")
    assert (result["mindspore_api"], result["status"]) == ("mindspore.nn.Cell.cells_and_names", "pass")
    assert result["torch_shapes"] == [[2, 4], [1]]


# the program tells a walk that leaves the network itself out (names and weights shift), or that drops the
# prefix keyword (the names differ), from the one the fix writes
@pytest.mark.slow
@pytest.mark.parametrize("wrap", ["lambda net, **kw: list(found(net, **kw))[1:]",
                                  "lambda net, **kw: found(net)"])
def test_the_program_fails_a_walk_that_differs(wrap: str) -> None:
    status = mutated_status("torch.nn.Module.named_modules", "mindspore.nn.Cell.cells_and_names", wrap)
    assert status == "fail"


# pytorchcv 0.0.74 resnet.py, ResNet._init_params
INIT = """\
import torch.nn as nn


class ResNet(nn.Module):
    def _init_params(self):
        for name, module in self.named_modules():
            if isinstance(module, nn.Conv2d):
                nn.init.kaiming_uniform_(module.weight)
"""


def test_the_safe_fixes_write_cells_and_names(tmp_path: Path) -> None:
    from msmigrate.fixes.project import FixOptions, fix_paths

    (tmp_path / "resnet.py").write_text(INIT, encoding="utf-8")
    result = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6"))
    fixed = (tmp_path / "resnet.py").read_text(encoding="utf-8")
    assert "        for name, module in self.cells_and_names():\n" in fixed
    assert result.files[0].unsafe_skipped == 0

