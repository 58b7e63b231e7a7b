"""The executable conversion suite (tests/conversion/harness.py): generated torch programs, fixed by
fix-all, run in MindSpore without torch and compared. The whole suite runs here (slow: both tables);
every API that does not pass must be listed with its outcome in expected_outcomes.json, and an API
listed there that now passes (or fails differently) fails the test until the file is refreshed with
``python benchmarks/conversion_suite.py --write-expected``."""

from __future__ import annotations

import functools
import importlib.util
import subprocess
import sys
from pathlib import Path

import group_runner
import harness
import numpy as np
import pytest

from msmigrate.check.spec import ApiSpec, is_dtype_name

needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="the conversion suite needs torch and mindspore (pip install -e '.[check]')",
)


def test_program_for_a_function_has_literal_inputs_and_one_call() -> None:
    spec = ApiSpec(args=({"tensor": {"data": [1.5, -2.0], "dtype": "float32"}}, 1), kwargs={"keepdim": True})
    program = harness.make_program("torch.sum", "mindspore.mint.sum", spec, "function")
    assert program.source == (
        "import torch\n\n"
        "x0 = torch.tensor([1.5, -2.0], dtype=torch.float32)\n"
        "result = torch.sum(x0, 1, keepdim=True)\n"
    )
    assert program.namespace == "torch"


def test_program_for_a_method_and_a_class() -> None:
    spec = ApiSpec(args=({"tensor": {"data": [[1, 2]], "dtype": "int64"}}, {"tuple": [2, 1]}))
    method = harness.make_program("torch.Tensor.view", "mindspore.Tensor.view", spec, "tensor_method")
    assert method.source.splitlines()[-1] == "result = x0.view((2, 1))"
    relu = ApiSpec(args=({"tensor": {"data": [0.5], "dtype": "float32"}},))
    module = harness.make_program("torch.nn.ReLU", "mindspore.nn.ReLU", relu, "class")
    assert module.source.splitlines()[-2:] == ["m = torch.nn.ReLU()", "result = m(x0)"]
    assert module.namespace == "nn"
    skipped = harness.make_program("torch.rand", "mindspore.ops.rand", ApiSpec(skip="random"), "function")
    assert (skipped.skip, skipped.source) == ("random", "")


def test_an_optimizer_program_runs_two_training_steps_and_returns_the_weights() -> None:
    values = ([[1.0, 2.0]], [[0.5]], [[0.1], [0.2]], [0.0])
    data = [{"tensor": {"data": d, "dtype": "float32"}} for d in values]
    spec = ApiSpec(args=tuple(data), init_kwargs={"lr": 0.1}, loop="training_step")
    program = harness.make_program("torch.optim.Adam", "mindspore.experimental.optim.Adam", spec, "class")
    assert program.source == (
        "import torch\n\n"
        "x0 = torch.tensor([[1.0, 2.0]], dtype=torch.float32)\n"
        "x1 = torch.tensor([[0.5]], dtype=torch.float32)\n"
        "x2 = torch.tensor([[0.1], [0.2]], dtype=torch.float32)\n"
        "x3 = torch.tensor([0.0], dtype=torch.float32)\n"
        "w = torch.nn.Parameter(x2)\n"
        "b = torch.nn.Parameter(x3)\n"
        "opt = torch.optim.Adam([w, b], lr=0.1)\n"
        "for _ in range(2):\n"
        "    out = x0 @ w + b\n"
        "    loss = ((out - x1) ** 2).mean()\n"
        "    opt.zero_grad()\n"
        "    loss.backward()\n"
        "    opt.step()\n"
        "result = [w, b]\n"
    )
    assert program.namespace == "other"
    step = ApiSpec(args=tuple(data), init_kwargs={"gamma": 0.5}, loop="lr_scheduler")
    scheduled = harness.make_program("torch.optim.lr_scheduler.ExponentialLR",
                                     "mindspore.experimental.optim.lr_scheduler.ExponentialLR", step, "class")
    assert scheduled.source.splitlines()[8:] == [
        "opt = torch.optim.SGD([w, b], lr=0.1, momentum=0.9)",
        "sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)",
        "for _ in range(3):",
        "    out = x0 @ w + b",
        "    loss = ((out - x1) ** 2).mean()",
        "    opt.zero_grad()",
        "    loss.backward()",
        "    opt.step()",
        "    sched.step()",
        "result = [w, b]",
    ]


@needs_frameworks
def test_optimizer_programs_of_the_consistent_rows_pass_after_fix_all() -> None:
    """The 2.4 rows torch.optim.* → mindspore.experimental.optim.*: after fix-all (the training step
    rewritten with value_and_grad) the weights after two steps are torch's."""
    chosen = ("torch.optim.SGD", "torch.optim.Adam", "torch.optim.Rprop", "torch.optim.lr_scheduler.StepLR")
    programs = [p for p in harness.programs_for_table("2.4", derived=False) if p.torch_api in chosen]
    result = harness.run_suite("2.4", programs=programs)
    assert {o.api: (o.status, o.detail) for o in result.outcomes} == {api: ("pass", "") for api in chosen}
    step = "grad_fn = mindspore.value_and_grad(forward_fn, None, opt.parameters)"
    assert all(step in o.fixed_source for o in result.outcomes)


@needs_frameworks
def test_a_rewritten_step_with_parameters_and_auxiliary_outputs_computes_what_torch_does() -> None:
    """forward_fn(x) (x read before it is assigned) returning (loss, x, out) with has_aux=True: the weights,
    x and a value computed from out after the step are torch's."""
    source = (
        "import torch\n\n"
        "x0 = torch.tensor([[0.5, -1.0], [1.5, 2.0]], dtype=torch.float32)\n"
        "x1 = torch.tensor([[1.0], [0.0]], dtype=torch.float32)\n"
        "w = torch.nn.Parameter(torch.tensor([[0.1], [-0.2]]))\n"
        "opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)\n"
        "for _ in range(2):\n"
        "    opt.zero_grad()\n"
        "    x0 = x0 * 0.5\n"
        "    out = x0 @ w\n"
        "    loss = ((out - x1) ** 2).mean()\n"
        "    loss.backward()\n"
        "    opt.step()\n"
        "    last = out.sum()\n"
        "result = [w, x0, last, loss]\n"
    )
    program = harness.Program("train_aux", "torch.optim.SGD", "mindspore.experimental.optim.SGD", "other",
                              source, {})
    [outcome] = harness.run_suite("2.4", programs=[program]).outcomes
    assert (outcome.status, outcome.detail) == ("pass", "")
    assert "    (loss, x0, out), grads = grad_fn(x0)\n" in outcome.fixed_source


def test_derived_mappings_get_programs_of_their_own_group() -> None:
    from msmigrate.knowledge.base import get_knowledge_base

    kb = get_knowledge_base("2.6")
    programs = {p.torch_api: p for p in harness.programs_for_table("2.6")}
    offered = {api for api in kb.derived_table.entries if kb.derived(api) is not None}
    assert offered <= set(programs)  # every derived mapping the knowledge base offers has a program
    assert {programs[api].namespace for api in offered} == {"derived"}
    view = programs["torch.Tensor.view"]  # not in the 2.6 table; derived by name
    assert (view.namespace, view.mindspore_api, view.category) == (
        "derived", "mindspore.Tensor.view", "consistent")
    assert programs["torch.abs"].namespace == "torch"  # a table row stays in its namespace
    assert programs["torch.abs"].category == kb.row("torch.abs").category.value
    assert "torch.Tensor.view" not in {p.torch_api for p in harness.programs_for_table("2.6", derived=False)}


def test_a_dtype_program_makes_a_tensor_of_it() -> None:
    programs = {p.torch_api: p for p in harness.programs_for_table("2.6")}
    assert programs["torch.long"].source == (
        "import torch\n\nx0 = torch.tensor([[1, 0, 2], [1, 0, 1]], dtype=torch.long)\nresult = x0\n"
    )
    assert programs["torch.half"].source.splitlines()[-2].endswith("dtype=torch.half)")
    assert is_dtype_name("bfloat16") and is_dtype_name("cfloat")
    assert not is_dtype_name("floor") and not is_dtype_name("int_repr")


def test_a_predicate_program_calls_it_on_each_argument() -> None:
    program = {p.torch_api: p for p in harness.programs_for_table("2.6")}["torch.is_tensor"]
    assert program.source.splitlines()[-1] == "result = (torch.is_tensor(x0), torch.is_tensor([1.0, 2.0]), )"


def test_compare_checks_shape_dtype_class_values_and_nan_positions() -> None:
    a = [np.array([1.0, np.nan, 3.0], np.float32)]
    assert harness.compare(a, [np.array([1.00001, np.nan, 3.0], np.float64)], "values") is None
    assert harness.compare(a, [np.array([1.0, 2.0, np.nan], np.float32)], "values") == (
        "output 0: NaN/Inf positions differ")
    assert harness.compare(a, [np.array([1, 2, 3], np.int32)], "values") == "output 0: dtype float32 vs int32"
    assert harness.compare([np.array([1, 2], np.int64)], [np.array([1, 2], np.int32)], "values") is None
    assert harness.compare(a, [np.ones((1, 3), np.float32)], "values") == "output 0: shape [3] vs [1, 3]"
    assert harness.compare([np.array([2.0, 1.0])], [np.array([1.0, 2.0])], "sorted") is None
    assert harness.compare([np.array([1.0])], [np.array([1.01])], "values") == (
        "output 0: values differ (max abs 0.01)")


def test_uses_torch_and_converted_inputs() -> None:
    assert harness.uses_torch("import torch as t\n")
    assert harness.uses_torch("from torch import nn\n")
    assert not harness.uses_torch("import mindspore\nx = 'torch'\n")
    program = harness.make_program(
        "torch.abs", "mindspore.mint.abs", ApiSpec(args=({"tensor": {"data": [-1.0], "dtype": "float32"}},)),
        "function",
    )
    fixed = "import torch\nimport mindspore\n\nx0 = torch.tensor([-1.0], dtype=mindspore.float32)\n" \
            "result = mindspore.mint.abs(x0)\n"
    assert harness.with_converted_inputs(program, fixed) == (
        "import mindspore\nimport mindspore\n\nx0 = mindspore.tensor([-1.0], dtype=mindspore.float32)\n"
        "result = mindspore.mint.abs(x0)\n"
    )


def test_lines_left_with_torch_past_the_inputs() -> None:
    fixed = ("import torch\nimport mindspore\n\nx0 = torch.tensor([1.0], dtype=mindspore.float32)\n"
             "m = torch.nn.Embedding(5, 4)\nresult = m(x0)\n")
    assert harness.torch_lines(fixed) == ["m = torch.nn.Embedding(5, 4)"]
    converted = "import torch\nx0 = torch.tensor([1.0])\nresult = mindspore.ops.abs(x0)\n"
    assert harness.torch_lines(converted) == []


def test_random_apis_are_compared_by_shape_and_dtype() -> None:
    from msmigrate.check.spec import spec_for

    spec = spec_for("torch.randint", "function")
    assert (spec.skip, spec.compare, spec.note) == (None, "shape_dtype", "random_values")
    program = harness.make_program("torch.randint", "mindspore.mint.randint", spec, "function")
    assert (program.skip, program.compare) == (None, "shape_dtype")
    assert program.source.splitlines()[-1] == "result = torch.randint(0, 5, (2, 3))"


@needs_frameworks
def test_converted_programs_cannot_import_torch(tmp_path) -> None:
    results = harness.run_programs("mindspore", [("p", "import torch\nresult = 1\n")], tmp_path)
    assert results["p"]["ok"] is False
    assert "torch is blocked" in results["p"]["error"]


@needs_frameworks
def test_dtype_results_are_compared_by_name(tmp_path) -> None:
    torch_runs = harness.run_programs("torch", [("d", "import torch\nresult = torch.ones(1).dtype\n")],
                                      tmp_path / "t")
    ms_runs = harness.run_programs("mindspore", [("d", "import mindspore\nresult = mindspore.float32\n"),
                                                 ("i", "import mindspore\nresult = mindspore.int64\n")],
                                   tmp_path / "m")
    assert torch_runs["d"]["ok"] and ms_runs["d"]["ok"] and ms_runs["i"]["ok"], (torch_runs, ms_runs)
    expected = harness._load_leaves(tmp_path / "t", "d")
    assert [str(a) for a in expected] == ["float32"]
    assert harness.compare(expected, harness._load_leaves(tmp_path / "m", "d"), "values") is None
    assert harness.compare(expected, harness._load_leaves(tmp_path / "m", "i"), "values") == (
        "output 0: values differ")


@needs_frameworks
def test_a_crashing_program_costs_only_itself(tmp_path) -> None:
    programs = [("a", "result = 1\n"), ("b", "import os\nos._exit(3)\n"), ("c", "result = 2.5\n")]
    results = harness.run_programs("torch", programs, tmp_path)
    assert (results["a"]["ok"], results["b"]["ok"], results["c"]["ok"]) == (True, False, True)
    assert results["b"]["error"].startswith("crashed (exit 3)")


@needs_frameworks
@pytest.mark.slow
@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_every_mapped_api_converts_or_is_listed(version: str) -> None:
    result = harness.run_suite(version)
    got = harness.outcome_table([result])[version]
    expected = harness.load_expected().get(version, {})
    changed = {
        api: (expected.get(api, "pass"), got.get(api, "pass"))
        for api in sorted(set(got) | set(expected))
        if expected.get(api, "pass") != got.get(api, "pass")
    }
    assert not changed, (
        f"{len(changed)} outcomes differ from tests/conversion/expected_outcomes.json (expected, got): "
        f"{dict(list(changed.items())[:30])}; if the change is right, refresh the file with "
        "`python benchmarks/conversion_suite.py --write-expected`"
    )
    # a generated program that fails in torch itself (its spec's inputs do not fit) is listed too
    listed = harness.load_expected().get(version, {})
    assert all(listed.get(o.api) == "torch_error" for o in result.outcomes if o.status == "torch_error")


def test_benchmark_script_runs_a_single_api() -> None:
    """The command docs/verification.md gives works (one API, so the test stays quick)."""
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None:
        pytest.skip("needs torch and mindspore")
    done = subprocess.run(
        [sys.executable, str(harness.HERE.parents[1] / "benchmarks" / "conversion_suite.py"),
         "--table", "2.4", "--api", "torch.abs"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    passes = harness.load_expected().get("2.4", {}).get("torch.abs", "pass") == "pass"
    assert f"| torch | {int(passes)} | 1 |" in done.stdout


def test_a_mode_dependent_module_runs_in_training_then_eval_mode() -> None:
    # a torch module is created training, a MindSpore Cell is not: the program switches as real code does
    programs = {p.torch_api: p for p in harness.programs_for_table("2.4")}
    dropout = programs["torch.nn.Dropout"]
    assert dropout.source.splitlines()[-6:] == [
        "m = torch.nn.Dropout()", "m.train()", "result_train = m(x0)", "m.eval()", "result_eval = m(x0)",
        "result = (result_train, result_eval)"]
    assert (dropout.compare, dropout.train_compare) == ("values", "shape_dtype")
    assert programs["torch.nn.RReLU"].train_compare == "shape_dtype"
    assert programs["torch.nn.ReLU"].train_compare is None


def test_training_outputs_compare_by_shape_and_eval_outputs_by_value() -> None:
    program = harness.Program("p", "torch.nn.Dropout", "mindspore.nn.Dropout", "nn", "", {},
                              train_compare="shape_dtype")
    x = np.array([1.0, 2.0], np.float32)
    dropped = np.array([0.0, 4.0], np.float32)
    other_drop = np.array([2.0, 0.0], np.float32)
    assert harness.compare_program(program, [dropped, x], [other_drop, x], False) is None
    assert harness.compare_program(program, [dropped, x], [dropped, dropped], False) == (
        "eval mode: output 0: values differ (max abs 2)")
    assert harness.compare_program(program, [dropped, x], [x[:1], x], False) == (
        "training mode: output 0: shape [2] vs [1]")
    assert harness.compare_program(program, [dropped, x], [x], False) == (
        "2 torch outputs, 1 MindSpore outputs")
    # without a mode, parameters the program did not set make values incomparable
    plain = harness.Program("p", "torch.nn.Linear", "mindspore.nn.Dense", "nn", "", {})
    assert harness.compare_program(plain, [x], [dropped], True) is None
    assert harness.compare_program(plain, [x], [dropped], False) == "output 0: values differ (max abs 2)"


def test_state_apis_get_the_program_real_code_writes() -> None:
    programs = {p.torch_api: p for p in harness.programs_for_table("2.4")}
    assert programs["torch.manual_seed"].source == (
        "import torch\n\ntorch.manual_seed(7)\na = torch.rand(4)\ntorch.manual_seed(7)\nb = torch.rand(4)\n"
        "result = a == b\n")
    assert programs["torch.set_rng_state"].source.splitlines()[2:4] == [
        "state = torch.get_rng_state()", "a = torch.rand(4)"]
    assert programs["torch.Generator"].source.splitlines()[-1] == "result = g.initial_seed()"
    apply = programs["torch.nn.Module.apply"]
    assert (apply.skip, apply.written, apply.compare) == (None, True, "values")
    assert apply.source.splitlines()[-2:] == ["m.apply(init)", "result = m(x0)"]
    # the values a written program sets are compared, parameters or not
    x = np.array([1.0, 2.0], np.float32)
    assert harness.compare_program(apply, [x], [x + 1], True) == "output 0: values differ (max abs 1)"


def test_in_place_random_fills_are_compared_by_shape_and_dtype() -> None:
    programs = {p.torch_api: p for p in harness.programs_for_table("2.4")}
    assert programs["torch.Tensor.cauchy_"].compare == "shape_dtype"
    assert programs["torch.Tensor.cauchy_"].source.splitlines()[-1] == "result = x0.cauchy_()"


# --- process-group programs (group_programs.py) -------------------------------------------------------


def test_a_process_group_program_sets_up_its_group_and_uses_rank_only_where_needed() -> None:
    programs = {p.torch_api: p for p in harness.programs_for_table("2.6")}
    send = programs["torch.distributed.send"]
    assert send.world == 2 and send.skip is None
    assert send.source.splitlines()[:4] == [
        "import torch", "", 'torch.distributed.init_process_group("gloo")',
        "rank = torch.distributed.get_rank()"]
    assert send.source.splitlines()[6:] == ["if rank == 0:", "    torch.distributed.send(x0, 1)", "else:",
                                            "    torch.distributed.recv(x1, 0)", "result = x1"]
    reduce_all = programs["torch.distributed.all_reduce"].source.splitlines()
    assert reduce_all[2:4] == ['torch.distributed.init_process_group("gloo")', reduce_all[3]]
    assert reduce_all[3].startswith("x0 = torch.tensor(") and reduce_all[4:] == [
        "torch.distributed.all_reduce(x0)", "result = x0"]
    assert programs["torch.abs"].world == 0


def test_ranks_are_merged_and_compared_one_by_one() -> None:
    ok = {"ok": True, "folder": "/r"}
    failed = {"ok": False, "error": "E", "line": 4}
    merged = harness.merge_ranks([{"a": ok, "b": ok}, {"a": ok, "b": failed}])
    assert merged["a"]["ok"] is True and merged["a"]["ranks"] == [ok, ok]
    assert (merged["b"]["ok"], merged["b"]["error"], merged["b"]["line"]) == (False, "rank 1: E", 4)
    same = [np.array([1.0, 2.0], np.float32)]
    values = functools.partial(harness.compare, mode="values")
    assert harness.compare_ranks([same, same], [same, same], values) is None
    assert harness.compare_ranks([same, same], [same, [np.array([1.0, 3.0], np.float32)]], values) == (
        "rank 1: output 0: values differ (max abs 1)")
    assert harness.compare_ranks([same], [[np.array([1.0], np.float32)]], values) == (
        "output 0: shape [2] vs [1]")


def test_the_suite_setup_replaces_a_converted_group_setup_that_failed_in_it() -> None:
    fixed = ("import mindspore\n\nmindspore.mint.distributed.init_process_group('hccl')\n"
             "x0 = mindspore.tensor([1.0], dtype=mindspore.float32)\n"
             "mindspore.mint.distributed.all_reduce(x0)\n"
             "result = x0\n")
    assert harness.with_suite_setup(fixed).splitlines()[2] == "mindspore.communication.init()"
    assert harness.failed_in_setup({"line": 3}, fixed) and not harness.failed_in_setup({"line": 5}, fixed)
    assert not harness.failed_in_setup({}, fixed)


def test_error_line_skips_mindspores_empty_message_and_frame() -> None:
    frame = "-" * 52
    error = f"RuntimeError: \n{frame}\n- Kernel select failed:\n{frame}\nUnsupported op [Barrier] on CPU, …"
    assert harness.error_line(error) == "RuntimeError: Unsupported op [Barrier] on CPU, …"
    assert harness.error_line("ValueError: bad\nmore") == "ValueError: bad"
    assert harness.error_line("") == "?"


@needs_frameworks
def test_a_torch_process_group_runs_every_rank_and_stops_a_stalled_group(tmp_path) -> None:
    programs = {p.torch_api: p for p in harness.programs_for_table("2.6")}
    reduce_all = programs["torch.distributed.all_reduce"]
    # rank 1 waits for a message rank 0 never sends: the group is stopped, the next program still runs
    stuck = ("import torch\n\ntorch.distributed.init_process_group('gloo')\nx = torch.zeros(1)\n"
             "if torch.distributed.get_rank() == 1:\n    torch.distributed.recv(x, 0)\nresult = x\n")
    runs = group_runner.run_group_programs("torch", [("stuck", stuck), (reduce_all.id, reduce_all.source)],
                                           tmp_path)
    assert [r["stuck"]["ok"] for r in runs] == [True, False]
    assert runs[1]["stuck"]["error"] == (
        f"stopped: still waiting {group_runner.GRACE_S} s after another rank had finished the program")
    data, _dtype = reduce_all.inputs["x0"]
    for rank in runs:  # every rank holds the sum of both ranks' (equal) inputs
        (leaf,) = harness._load_leaves(Path(rank[reduce_all.id]["folder"]), reduce_all.id)
        np.testing.assert_allclose(leaf, 2 * np.asarray(data, np.float32), rtol=1e-6)


@needs_frameworks
def test_the_runner_records_the_program_line_an_error_came_through(tmp_path) -> None:
    runs = harness.run_programs("torch", [("bad", "def f():\n    raise ValueError('no')\n\nf()\n")], tmp_path)
    assert (runs["bad"]["ok"], runs["bad"]["error"], runs["bad"]["line"]) == (False, "ValueError: no", 2)
