"""Possible Tensor APIs: exclusions, argument fit, and jedi settling receivers from other modules."""

from __future__ import annotations

import ast
import time

import pytest
from analysis_support import brief

from msmigrate.analysis import possible
from msmigrate.analysis.possible import COMMON_NON_TENSOR_METHODS, arguments_fit, excluded


def _call(code: str) -> ast.Call:
    return ast.parse(code).body[0].value


def test_argument_fit_against_overloads(kb):
    view = kb.torch_signatures("torch.Tensor.view")
    assert arguments_fit(_call("x.view(2, 3)"), view)
    assert arguments_fit(_call("x.view(dtype=d)"), view)
    assert arguments_fit(_call("x.view(*shape)"), view)
    assert not arguments_fit(_call("x.view(sizes=3)"), view)
    add = kb.torch_signatures("torch.Tensor.add")
    assert arguments_fit(_call("x.add(y, alpha=2)"), add)
    assert not arguments_fit(_call("x.add()"), add)
    assert not arguments_fit(_call("x.add(y, z)"), add)
    assert not arguments_fit(_call("x.add(y, other=z)"), add)
    assert arguments_fit(_call("x.add(**kw)"), add)
    assert arguments_fit(_call("x.anything(1, 2)"), [])


def test_exclusions_are_data():
    for name in ("append", "items", "copy", "sum", "split", "keys", "values", "get", "update", "add"):
        assert name in COMMON_NON_TENSOR_METHODS
        assert excluded(name)
    assert excluded("__len__")
    for name in ("view", "permute", "unsqueeze", "contiguous", "detach", "masked_fill"):
        assert not excluded(name)


JEDI_PROJECT = {
    "torch/__init__.py": "from torch._tensor import Tensor\n",
    "torch/_tensor.py": "class Tensor:\n    def unsqueeze(self, dim):\n        return self\n",
    "helpers.py": (
        "import torch\n\n"
        "class Batch:\n    def unsqueeze(self, dim):\n        return self\n\n"
        "def make_tensor():\n    return torch.Tensor()\n\n"
        "def make_batch():\n    return Batch()\n"
    ),
}
MAIN = (
    "import torch\n"
    "from helpers import make_tensor, make_batch\n"
    "a = make_tensor()\n"
    "a.unsqueeze(0)\n"
    "b = make_batch()\n"
    "b.unsqueeze(0)\n"
)


@pytest.fixture
def project(tmp_path):
    for name, text in JEDI_PROJECT.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    main = tmp_path / "main.py"
    main.write_text(MAIN)
    return main


def test_without_jedi_both_receivers_are_possible(analyze, project):
    result = analyze(MAIN, str(project))
    assert brief(result) == [
        (4, 3, "torch.Tensor.unsqueeze", "possible_tensor_api"),
        (6, 3, "torch.Tensor.unsqueeze", "possible_tensor_api"),
    ]


def test_jedi_settles_receivers_imported_from_the_project(analyze, project):
    result = analyze(MAIN, str(project), use_jedi=True, jedi_budget_ms=60_000)
    assert brief(result) == [(4, 3, "torch.Tensor.unsqueeze", "consistent")]
    assert result.findings[0].usage.value == "tensor_method"


def test_a_late_jedi_answer_is_used_by_the_next_analysis(analyze, project):
    source = MAIN + "# another version\n"
    first = analyze(source, str(project), use_jedi=True, jedi_budget_ms=0.001)
    assert [f.category.value for f in first.findings] == ["possible_tensor_api"] * 2
    deadline = time.monotonic() + 60
    while possible._JEDI_PENDING and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.05)
    second = analyze(source, str(project), use_jedi=True, jedi_budget_ms=0.001)
    assert brief(second) == [(4, 3, "torch.Tensor.unsqueeze", "consistent")]


def test_an_answer_that_is_ready_at_once_does_not_deadlock(monkeypatch):
    import threading
    from concurrent.futures import Future

    class Immediate:
        def submit(self, fn, *args):
            future: Future = Future()
            future.set_result("torch.Tensor")  # done before the analyzer registers its callback
            return future

    monkeypatch.setattr(possible, "_executor", lambda: Immediate())
    answers = []
    oracle = possible.JediOracle("x = 1\n", "immediate.py", budget_s=1.0)
    worker = threading.Thread(target=lambda: answers.append(oracle.receiver_type(1, 0)), daemon=True)
    worker.start()
    worker.join(5)
    assert not worker.is_alive()
    assert answers == ["torch.Tensor"]
    assert oracle.receiver_type(1, 0) == "torch.Tensor"  # now from the cache
