"""``net.parameters()`` → ``net.get_parameters()`` (``recurse=`` → ``expand=``): verified by a program
(``check/worker_programs.py``), so the safe fixes write it. A Cell has no ``parameters`` (AttributeError), so
before this a safe fix run left ``self.parameters()`` on the Cell it made (open_clip's ``lock``, whisper's
``device``, stable_baselines3's policies: docs/cell-leftovers.md).

MindSpore 2.10's ``Cell.get_parameters(expand=True)`` (read in its source) yields the parameters of
``parameters_and_names``: those of each cell of ``cells_and_names`` in order, each once, as torch's
``parameters(recurse=True)`` does; ``expand=False`` keeps to the cell's own ones, as ``recurse=False``.
Real frameworks."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_checks import checked, mutated_status

pytest.importorskip("torch")
pytest.importorskip("mindspore")


def test_the_check_of_parameters_passes_with_get_parameters() -> None:
    result = checked("torch.nn.Module.parameters")
    assert (result["mindspore_api"], result["status"]) == ("mindspore.nn.Cell.get_parameters", "pass")
    assert result["torch_shapes"] == [[2, 4], [1]]


@pytest.mark.slow
def test_the_program_fails_a_walk_that_ignores_expand() -> None:
    """All the parameters where expand=False asks for the cell's own ones."""
    wrap = "lambda net, **kw: found(net)"
    assert mutated_status("torch.nn.Module.parameters", "mindspore.nn.Cell.get_parameters", wrap) == "fail"


# open_clip 3.x modified_resnet.py, ModifiedResNet.lock (the loop), with recurse= as well
LOCK = """\
import torch.nn as nn


class ModifiedResNet(nn.Module):
    def lock(self, unlocked_groups=0):
        for param in self.parameters():
            param.requires_grad = False
        return list(self.parameters(recurse=False))
"""


def test_the_safe_fixes_write_get_parameters(tmp_path: Path) -> None:
    from msmigrate.fixes.project import FixOptions, fix_paths

    (tmp_path / "modified_resnet.py").write_text(LOCK, encoding="utf-8")
    result = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6"))
    fixed = (tmp_path / "modified_resnet.py").read_text(encoding="utf-8")
    assert fixed.splitlines()[5:8] == [
        "        for param in self.get_parameters():",
        "            param.requires_grad = False",
        "        return list(self.get_parameters(expand=False))",
    ]
    assert (result.files[0].unsafe_skipped, result.files[0].torch_free) == (0, True)
