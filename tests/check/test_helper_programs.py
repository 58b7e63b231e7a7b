"""The programs that check the helper module's containers and module walks (``check/worker_programs.py``,
``HELPER_PROGRAMS``, run by ``msmigrate check --compositions``): the helpers pass; MindSpore's own classes
and helpers written without what makes them exact fail, so a pass says something. Real frameworks."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("torch")
pytest.importorskip("mindspore")

PROGRAMS = textwrap.dedent('''
    import json
    import types

    import mindspore

    from msmigrate.check import worker_programs as programs
    from msmigrate.check.worker import Frameworks
    from msmigrate.check.worker_composition import helper
    from msmigrate.check.worker_shared import CheckFailure
    from msmigrate.knowledge.compositions.helper_module import module_text


    def without_prefix(name):  # the containers without the prefix their parent gave them
        module = types.ModuleType("ms_compat")
        exec(module_text([name]).replace("self.torch_prefix = prefix", "pass"), module.__dict__)
        return getattr(module, name)


    def native(name):
        return {"ModuleList": mindspore.nn.CellList, "ModuleDict": mindspore.nn.CellDict}[name]


    WRONG = {  # modules() without the cell itself; named_parameters() giving the parameters' full names
        "modules": lambda m: (c for _, c in list(m.cells_and_names())[1:]),
        "named_parameters": lambda m, prefix="", recurse=True: (
            (p.name, p) for _, p in m.parameters_and_names(prefix, recurse)),
    }
    runs = [("torch.nn.ModuleList", "ModuleList"), ("torch.nn.ModuleDict", "ModuleDict"),
            ("torch.nn.Module.modules", "modules"), ("torch.nn.Module.named_parameters", "named_parameters")]
    found = {}
    fw = Frameworks("CPU")
    for api, name in runs:
        kinds = {"helper": helper}
        if name in ("ModuleList", "ModuleDict"):
            kinds["native"] = native
            kinds["without_prefix"] = without_prefix
        else:
            kinds["wrong"] = WRONG.get
        for kind, get in kinds.items():
            def side(wanted, get=get, name=name):
                return get(wanted) if wanted == name else helper(wanted)
            try:
                result = programs.run_helper_program(fw, {"torch_api": api, "helper": name}, side)
                found[f"{name} {kind}"] = [result["status"], result.get("reason")]
            except CheckFailure as failure:
                found[f"{name} {kind}"] = [failure.status, failure.reason]
    print(json.dumps(found, sort_keys=True))
''')


@pytest.mark.slow
def test_the_helpers_pass_and_what_they_replace_fails() -> None:
    run = subprocess.run([sys.executable, "-c", PROGRAMS], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.strip().splitlines()[-1]) == {
        "ModuleList helper": ["pass", None],
        "ModuleList native": ["error", "mindspore_error"],  # CellList.extend refuses a CellList
        "ModuleList without_prefix": ["fail", "parameter_names"],  # 0.weight for grown.0.weight
        "ModuleDict helper": ["pass", None],
        "ModuleDict native": ["error", "mindspore_error"],  # CellDict refuses a SequentialCell value
        "ModuleDict without_prefix": ["fail", "parameter_names"],
        "modules helper": ["pass", None],
        "modules wrong": ["fail", "value_mismatch"],
        "named_parameters helper": ["pass", None],
        "named_parameters wrong": ["fail", "value_mismatch"],
    }
