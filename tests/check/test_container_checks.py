"""The container check (``loop="program"``, ``check/worker_programs.py``): the same statements run with the
torch container and its MindSpore counterpart; outputs and parameter names compared. Real frameworks."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("torch")
pytest.importorskip("mindspore")


def test_module_list_and_sequential_pass_and_module_dict_errs() -> None:
    apis = ["torch.nn.ModuleList", "torch.nn.Sequential", "torch.nn.ModuleDict"]
    command = [sys.executable, "-m", "msmigrate", "check", *apis, "--json", "--mindspore-version", "2.4"]
    run = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", timeout=300)
    results = {r["api"]: r for r in json.loads(run.stdout)["results"]}
    assert {api: (r["mindspore_api"], r["status"], r["reason"]) for api, r in results.items()} == {
        "torch.nn.ModuleList": ("mindspore.nn.CellList", "pass", None),
        "torch.nn.Sequential": ("mindspore.nn.SequentialCell", "pass", None),
        "torch.nn.ModuleDict": ("mindspore.nn.CellDict", "error", "mindspore_error"),
    }
    assert results["torch.nn.ModuleList"]["max_abs_error"] == 0.0
    assert results["torch.nn.Sequential"]["max_abs_error"] < 1e-6
    assert results["torch.nn.ModuleList"]["torch_shapes"] == [[2, 4]]
    assert results["torch.nn.ModuleDict"]["detail"] == (
        "TypeError: For 'CellDict', the type of cell can not be CellDict, CellList or SequentialCell, "
        "but got SequentialCell.")


# a list appended to after it is assigned, in the outermost network: MindSpore names the appended cell's
# parameters from the (empty) list's own, "0.weight", where torch says "blocks.0.weight"
CHANGED_LIST = textwrap.dedent('''
    from msmigrate.check import worker_programs as programs
    from msmigrate.check.worker import Frameworks


    def build(net, side):
        net.blocks = side.container([])
        net.blocks.append(side.linear())


    def run(net, x, side):
        return net.blocks[0](x)


    programs.CONTAINERS["torch.nn.ModuleList"] = (build, run)
    result = programs.run_program(Frameworks("CPU"), {"torch_api": "torch.nn.ModuleList",
                                                      "mindspore_api": "mindspore.nn.CellList"})
    print(repr((result["status"], result["reason"], result["detail"])))
''')


@pytest.mark.slow
def test_a_list_changed_after_it_is_assigned_names_its_cells_otherwise() -> None:
    run = subprocess.run([sys.executable, "-c", CHANGED_LIST], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    names = "torch ['blocks.0.weight', 'blocks.0.bias']; MindSpore ['0.bias', '0.weight']"
    assert run.stdout.strip().splitlines()[-1] == repr(("fail", "parameter_names", names))
