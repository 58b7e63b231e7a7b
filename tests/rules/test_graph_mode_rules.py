"""MSM701–MSM703: what does not compile in GRAPH_MODE, flagged in ``forward``/``construct`` and in what they
call. The kinds come from running migrated models in GRAPH_MODE (``msmigrate compare``); the last test
compiles every flagged form under MindSpore 2.10 and expects MindSpore's own message, and every form the
rules leave alone compiles."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.rules.graph._family import graph_findings

TORCH_HEAD = (
    "import contextlib\nimport warnings\nimport torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n"
)
MS_HEAD = (
    "import contextlib\nimport warnings\nimport mindspore as ms\nimport mindspore.nn as nn\n\n\n"
    "class Net(nn.Cell):\n"
)

# construct body -> (rule, the finding's message arguments) or None: not flagged
BODIES: dict[str, tuple[str, dict[str, str]] | None] = {
    "try:\n    y = self.a(x)\nexcept Exception:\n    y = x\nreturn y": (
        "MSM701",
        {"what": "try statement", "kind": "statement", "node": "Try"},
    ),
    "y = self.a(x)\ndel x\nreturn y": (
        "MSM701",
        {"what": "del statement", "kind": "statement", "node": "Delete"},
    ),
    "import math\nreturn self.a(x) * math.sqrt(2.0)": (
        "MSM701",
        {"what": "import statement", "kind": "statement", "node": "Import"},
    ),
    "if (n := x.shape[0]) > 0:\n    x = x + n\nreturn self.a(x)": (
        "MSM701",
        {"what": ":= expression", "kind": "expression", "node": "NamedExpr"},
    ),
    "s = {1, 2}\nreturn self.a(x)": ("MSM701", {"what": "set literal", "kind": "expression", "node": "Set"}),
    "def g():\n    yield x\nreturn self.a(next(g()))": (
        "MSM701",
        {"what": "yield", "kind": "expression", "node": "Yield"},
    ),
    "match self.mode:\n    case 'ab':\n        x = x + 1\n    case _:\n        pass\nreturn self.a(x)": (
        "MSM701",
        {"what": "match statement", "kind": "statement", "node": "Match"},
    ),
    "with warnings.catch_warnings():\n    y = self.a(x)\nreturn y": (
        "MSM702",
        {"manager": "warnings.catch_warnings()"},
    ),
    "with contextlib.nullcontext():\n    y = self.a(x)\nreturn y": (
        "MSM702",
        {"manager": "contextlib.nullcontext()"},
    ),
    "for c in self.cells():\n    pass\nreturn self.a(x)": ("MSM703", {"method": "cells"}),
    "for n, c in self.cells_and_names():\n    pass\nreturn self.a(x)": (
        "MSM703",
        {"method": "cells_and_names"},
    ),
    "a, b = x.chunk(2, dim=1)\nreturn a": (
        "MSM704",
        {
            "method": "chunk",
            "error": "Kernel select failed",
            "alternative": "x.chunk(chunks, dim) with dim positional",
        },
    ),
    "return x.cumsum(dim=1)": (
        "MSM704",
        {
            "method": "cumsum",
            "error": "Kernel select failed",
            "alternative": "x.cumsum(dim) with dim positional",
        },
    ),
    "return x.sort(dim=1)[0]": (
        "MSM704",
        {"method": "sort", "error": "Kernel select failed", "alternative": "x.sort(dim) with dim positional"},
    ),
    "return x.std(dim=1)": ("MSM704", {"method": "std", "error": "Kernel select failed"}),
    "return x.reshape(1, 2, 3).transpose(1, 2)": (
        "MSM704",
        {
            "method": "transpose",
            "error": "the number of axes must be equal to the dimension of Tensor",
            "alternative": "x.swapaxes(dim0, dim1)",
        },
    ),
    "return x.reshape(1, 2, 3).expand(2, -1, -1)": (
        "MSM704",
        {
            "method": "expand",
            "error": "The parameters number of the function is 2",
            "alternative": "x.broadcast_to((size, …))",
        },
    ),
    # what compiles: left alone
    "a, b = x.chunk(2, 1)\nreturn a": None,
    "return x.reshape(1, 2, 3).broadcast_to((2, -1, -1))": None,
    "return x.reshape(1, 2, 3).swapaxes(1, 2)": None,
    "for c in self.ls:\n    x = c(x)\nreturn x": None,
    "assert x.ndim == 2, 'bad'\nreturn self.a(x)": None,
    "if x.shape[0] < 0:\n    raise ValueError(f'bad {x.shape}')\nreturn self.a(x)": None,
    "d = {k: v for k, v in zip(['a'], [x])}\nreturn self.a(d['a'])": None,
    "a, *b = (x, x, x)\nreturn self.a(a)": None,
}


def _ms_source(body: str) -> str:
    return (
        MS_HEAD
        + (
            "    def __init__(self):\n        super().__init__()\n        self.a = nn.Dense(3, 3)\n"
            "        self.ls = nn.CellList([nn.Dense(3, 3)])\n        self.mode = 'ab'\n\n"
            "    def construct(self, x):\n"
        )
        + textwrap.indent(body, " " * 8)
        + "\n"
    )


def _torch_source(body: str) -> str:
    return TORCH_HEAD + "    def forward(self, x):\n" + textwrap.indent(body, " " * 8) + "\n"


@pytest.mark.parametrize("body", list(BODIES))
def test_forward_of_a_torch_module(analyze, body: str) -> None:
    expected = BODIES[body]
    found = [
        (f.rule, f.message_args) for f in analyze(_torch_source(body)).findings if f.rule.startswith("MSM70")
    ]
    assert found == ([] if expected is None else [(expected[0], {**expected[1], "function": "Net.forward"})])


@pytest.mark.parametrize("body", list(BODIES))
def test_construct_of_a_mindspore_cell(body: str) -> None:
    expected = BODIES[body]
    found = [
        (f.rule, f.message_args) for f in graph_findings(_ms_source(body), "m.py", get_knowledge_base("2.6"))
    ]
    assert found == (
        [] if expected is None else [(expected[0], {**expected[1], "function": "Net.construct"})]
    )


def test_what_construct_calls_is_checked_and_nothing_else(analyze) -> None:
    source = TORCH_HEAD + textwrap.dedent("""\
            def forward(self, x):
                with self.quiet():
                    x = helper(x)
                return self._head(x)

            def _head(self, x):
                del self.cache
                return x

            @contextlib.contextmanager
            def quiet(self):
                yield

            def train_step(self, x):
                try:
                    return self(x)
                finally:
                    pass


        def helper(x):
            for m in x.children():
                pass
            import math
            return x


        class Plain:
            def forward(self, x):
                del x
        """).replace("\n    ", "\n    ")
    found = [
        (f.rule, f.line, f.message_args["function"])
        for f in analyze(source).findings
        if f.rule.startswith("MSM70")
    ]
    assert found == [
        ("MSM702", 9, "Net.forward"),
        ("MSM701", 14, "Net._head"),
        ("MSM701", 19, "Net.quiet"),
        ("MSM701", 31, "helper"),
    ]


def test_a_jit_class_manager_is_not_flagged() -> None:
    source = (
        MS_HEAD.replace(
            "class Net",
            "@ms.jit_class\nclass Scope:\n    def __enter__(self):\n"
            "        return self\n\n    def __exit__(self, *a):\n        return False\n\n\n"
            "class Net",
        )
        + "    def construct(self, x):\n        with Scope():\n            return x\n"
    )
    assert graph_findings(source, "m.py", get_knowledge_base("2.6")) == []


def test_messages_in_both_languages(analyze) -> None:
    finding = next(
        f for f in analyze(_torch_source("y = self.a(x)\ndel x\nreturn y")).findings if f.rule == "MSM701"
    )
    assert finding.message("en") == (
        "del statement in Net.forward: GRAPH_MODE does not compile it "
        "(\"Unsupported statement 'Delete'\"); the model runs in PyNative mode only"
    )
    assert finding.message("zh") == (
        'Net.forward 中的 del statement：GRAPH_MODE 无法编译（"Unsupported statement '
        "'Delete'\"）；模型只能在 PyNative 模式下运行"
    )


PROBE = """
import importlib.util, json, sys
import numpy as np
import mindspore as ms
ms.set_context(mode=ms.GRAPH_MODE)
out = {}
for i, path in enumerate(sys.argv[1:]):
    spec = importlib.util.spec_from_file_location(f"case{i}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        module.Net()(ms.Tensor(np.ones((2, 3), np.float32)))
        out[path] = None
    except Exception as exc:
        out[path] = str(exc).strip().splitlines()[0]
print("RESULT " + json.dumps(out))
"""

# MSM703's message depends on the sub-cells ("Unsupported element type[unknown] …", "Cannot join the return
# values of different branches …"), MSM704's first line is a separator ("Kernel select failed" follows):
# only the failure is expected
EXPECTED_MESSAGE = {
    "MSM701": "Unsupported {kind} '{node}'",
    "MSM702": "Only support jit_class instance",
    "MSM703": "",
    "MSM704": "",
}


# MSM704's forms: each runs in PyNative; the alternative the message names gives that result in GRAPH_MODE
ALTERNATIVES = {
    "a, b = x.chunk(2, dim=1)\nreturn a": "a, b = x.chunk(2, 1)\nreturn a",
    "return x.cumsum(dim=1)": "return x.cumsum(1)",
    "return x.sort(dim=1)[0]": "return x.sort(1)[0]",
    "return x.reshape(1, 2, 3).transpose(1, 2)": "return x.reshape(1, 2, 3).swapaxes(1, 2)",
    "return x.std(dim=1)": None,
    "return x.reshape(1, 2, 3).expand(2, -1, -1)": "return x.reshape(1, 2, 3).broadcast_to((2, -1, -1))",
}

PYNATIVE_PROBE = """
import importlib.util, json, sys
import numpy as np
import mindspore as ms
ms.set_context(mode=ms.GRAPH_MODE if sys.argv[1] == "graph" else ms.PYNATIVE_MODE)
ms.runtime.launch_blocking()
out = {}
x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32))
for i, path in enumerate(sys.argv[2:]):
    spec = importlib.util.spec_from_file_location(f"alt{i}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[f"alt{i}"] = module
    spec.loader.exec_module(module)
    out[path] = module.Net()(x).asnumpy().tolist()
print("RESULT " + json.dumps(out))
"""


def _results(tmp_path, mode: str, bodies: dict[str, str]) -> dict[str, list]:
    files = {}
    for index, body in enumerate(bodies):
        path = tmp_path / f"{mode}{index}.py"
        path.write_text(_ms_source(body), encoding="utf-8")
        files[str(path)] = body
    run = subprocess.run(
        [sys.executable, "-c", PYNATIVE_PROBE, mode, *files],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tmp_path,
    )
    line = next((line for line in run.stdout.splitlines() if line.startswith("RESULT ")), None)
    assert line is not None, run.stderr[-2000:]
    return {files[path]: value for path, value in json.loads(line.removeprefix("RESULT ")).items()}


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mindspore") is None, reason="needs mindspore")
def test_msm704_forms_run_in_pynative_and_their_alternatives_give_that_in_graph_mode(tmp_path) -> None:
    pynative = _results(tmp_path, "pynative", ALTERNATIVES)
    assert set(pynative) == set(ALTERNATIVES)  # every flagged form runs in PyNative mode
    alternatives = {alt: body for body, alt in ALTERNATIVES.items() if alt}
    graph = _results(tmp_path, "graph", alternatives)
    for alt, body in alternatives.items():
        np.testing.assert_allclose(graph[alt], pynative[body], rtol=1e-6, atol=1e-6, err_msg=body)


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mindspore") is None, reason="needs mindspore")
def test_every_flagged_form_fails_to_compile_and_every_other_compiles(tmp_path) -> None:
    files = {}
    for index, body in enumerate(BODIES):
        path = tmp_path / f"case{index}.py"
        path.write_text(_ms_source(body), encoding="utf-8")
        files[str(path)] = body
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *files], capture_output=True, text=True, timeout=900, cwd=tmp_path
    )
    line = next(line for line in run.stdout.splitlines() if line.startswith("RESULT "))
    results = json.loads(line.removeprefix("RESULT "))
    for path, body in files.items():
        expected = BODIES[body]
        if expected is None:
            assert results[path] is None, (body, results[path])
        else:
            rule, args = expected
            assert results[path] is not None, body
            assert EXPECTED_MESSAGE[rule].format(**args) in results[path], (body, results[path])
