"""The name plan of ``convert-weights`` (no framework): torch state-dict names against the parameters of a
migrated model, as MindSpore 2.10 names them (read from ``parameters_and_names()`` of each class:
``nn.BatchNorm2d`` gamma/beta/moving_mean/moving_variance, ``nn.Embedding`` embedding_table, ``nn.PReLU``
w, ``nn.Conv1d`` weight (out, in, 1, k), ``nn.LSTM`` torch's names)."""

from __future__ import annotations

from msmigrate.weights.names import (
    MindSporeParameter,
    TorchTensor,
    fit_layout,
    plan_for_model,
    plan_from_names,
)


def ms(path: str, shape: tuple[int, ...], cls: str, dtype: str = "float32") -> MindSporeParameter:
    return MindSporeParameter(path, path, shape, dtype, path.rpartition(".")[0], cls)


def pt(name: str, shape: tuple[int, ...], tied_to: str | None = None) -> TorchTensor:
    return TorchTensor(name, shape, "float32", tied_to)


BN = "mindspore.nn.BatchNorm1d"
MODEL = [
    ms("emb.embedding_table", (10, 4), "mindspore.nn.Embedding"),
    ms("conv.weight", (8, 4, 1, 3), "mindspore.nn.Conv1d"),
    ms("conv.bias", (8,), "mindspore.nn.Conv1d"),
    ms("bn.moving_mean", (8,), BN),
    ms("bn.moving_variance", (8,), BN),
    ms("bn.gamma", (8,), BN),
    ms("bn.beta", (8,), BN),
    ms("act.w", (8,), "mindspore.nn.PReLU"),
    ms("rnn.weight_ih_l0", (32, 8), "mindspore.nn.LSTM"),
    ms("head.weight", (3, 8), "mindspore.mint.nn.Linear"),
    ms("head.bias", (3,), "mindspore.mint.nn.Linear"),
]
TORCH = [
    pt("emb.weight", (10, 4)),
    pt("conv.weight", (8, 4, 3)),
    pt("conv.bias", (8,)),
    pt("bn.weight", (8,)),
    pt("bn.bias", (8,)),
    pt("bn.running_mean", (8,)),
    pt("bn.running_var", (8,)),
    pt("bn.num_batches_tracked", ()),
    pt("act.weight", (8,)),
    pt("rnn.weight_ih_l0", (32, 8)),
    pt("head.weight", (3, 8)),
    pt("head.bias", (3,)),
]


def pairs(plan) -> dict[str, tuple[str, str]]:
    return {a.torch: (a.mindspore, a.layout) for a in plan.assignments}


def test_every_parameter_gets_its_torch_value_under_the_mindspore_name() -> None:
    plan = plan_for_model(TORCH, MODEL)
    assert pairs(plan) == {
        "emb.weight": ("emb.embedding_table", "same"),
        "conv.weight": ("conv.weight", "insert_axis:2"),
        "conv.bias": ("conv.bias", "same"),
        "bn.weight": ("bn.gamma", "same"),
        "bn.bias": ("bn.beta", "same"),
        "bn.running_mean": ("bn.moving_mean", "same"),
        "bn.running_var": ("bn.moving_variance", "same"),
        "act.weight": ("act.w", "same"),
        "rnn.weight_ih_l0": ("rnn.weight_ih_l0", "same"),
        "head.weight": ("head.weight", "same"),
        "head.bias": ("head.bias", "same"),
    }
    assert plan.dropped == [("bn.num_batches_tracked", "weights.dropped.step_counter")]
    assert (plan.unused, plan.missing, plan.mismatched) == ([], [], [])
    assert plan.complete and plan.loadable
    renamed = {a.torch: a.cell_class for a in plan.assignments if a.cell_class}
    assert renamed == {
        "emb.weight": "mindspore.nn.Embedding",
        "bn.weight": BN,
        "bn.bias": BN,
        "bn.running_mean": BN,
        "bn.running_var": BN,
        "act.weight": "mindspore.nn.PReLU",
    }


def test_data_parallel_prefix_is_removed_and_a_wrapper_prefix_added() -> None:
    torch = [pt("module." + t.name, t.shape) for t in TORCH]
    plan = plan_for_model(torch, MODEL)
    assert (plan.torch_prefix, plan.mindspore_prefix) == ("module.", "")
    assert pairs(plan)["module.bn.weight"] == ("bn.gamma", "same")
    wrapped = [ms("net." + p.path, p.shape, p.cell_class) for p in MODEL]
    plan = plan_for_model(TORCH, wrapped)
    assert (plan.torch_prefix, plan.mindspore_prefix) == ("", "net.")
    assert pairs(plan)["emb.weight"] == ("net.emb.embedding_table", "same")
    assert plan.complete


def test_unused_missing_and_mismatched_names_are_reported_not_guessed() -> None:
    torch = [t for t in TORCH if t.name != "head.bias"] + [pt("aux.weight", (5, 8))]
    torch = [pt("head.weight", (8, 3)) if t.name == "head.weight" else t for t in torch]
    plan = plan_for_model(torch, MODEL)
    assert [t.name for t in plan.unused] == ["aux.weight"]
    assert [p.name for p in plan.missing] == ["head.bias"]
    assert [(m.torch, m.torch_shape, m.shape, m.transposed) for m in plan.mismatched] == [
        ("head.weight", (8, 3), (3, 8), True)
    ]
    assert not plan.loadable and not plan.complete


def test_tied_weights_are_written_once() -> None:
    model = [ms("emb.embedding_table", (10, 4), "mindspore.nn.Embedding")]
    torch = [pt("emb.weight", (10, 4)), pt("out.weight", (10, 4), tied_to="emb.weight")]
    plan = plan_for_model(torch, model)
    assert pairs(plan) == {"emb.weight": ("emb.embedding_table", "same")}
    assert plan.dropped == [("out.weight", "weights.dropped.tied")]
    assert plan.complete


def test_instance_norm_statistics_keep_their_initial_value() -> None:
    cls = "mindspore.nn.InstanceNorm2d"
    model = [
        ms("n.gamma", (4,), cls),
        ms("n.beta", (4,), cls),
        ms("n.moving_mean", (4,), cls),
        ms("n.moving_variance", (4,), cls),
    ]
    plan = plan_for_model([pt("n.weight", (4,)), pt("n.bias", (4,))], model)
    assert pairs(plan) == {"n.weight": ("n.gamma", "same"), "n.bias": ("n.beta", "same")}
    assert [p.name for p in plan.kept_initial] == ["n.moving_mean", "n.moving_variance"]
    assert plan.missing == [] and plan.complete


def test_mint_batch_norm_keeps_torch_names_and_its_step_counter() -> None:
    cls = "mindspore.mint.nn.BatchNorm2d"
    names = ["weight", "bias", "running_mean", "running_var"]
    model = [ms(f"bn.{n}", (4,), cls) for n in names] + [ms("bn.num_batches_tracked", (), cls, "int64")]
    torch = [pt(f"bn.{n}", (4,)) for n in names] + [pt("bn.num_batches_tracked", ())]
    plan = plan_for_model(torch, model)
    assert pairs(plan) == {f"bn.{n}": (f"bn.{n}", "same") for n in [*names, "num_batches_tracked"]}
    assert plan.dropped == [] and plan.complete


def test_layouts() -> None:
    assert fit_layout((8, 4, 3), (8, 4, 1, 3), ("insert_axis", 2)) == "insert_axis:2"
    assert fit_layout((8, 4, 3), (8, 4, 3), None) == "same"
    assert fit_layout((8,), (1, 8, 1), None) == "reshape"  # only axes of size 1 differ
    assert fit_layout((3, 8), (8, 3), None) is None  # a transposition is never guessed
    assert fit_layout((8, 4, 3), (8, 12), None) is None


def test_without_a_model_only_batch_norms_are_renamed() -> None:
    plan = plan_from_names([pt("module." + t.name, t.shape) for t in TORCH])
    assert plan.torch_prefix == "module."
    assert pairs(plan) == {
        "module.emb.weight": ("emb.weight", "same"),
        "module.conv.weight": ("conv.weight", "same"),
        "module.conv.bias": ("conv.bias", "same"),
        "module.bn.weight": ("bn.gamma", "same"),
        "module.bn.bias": ("bn.beta", "same"),
        "module.bn.running_mean": ("bn.moving_mean", "same"),
        "module.bn.running_var": ("bn.moving_variance", "same"),
        "module.act.weight": ("act.weight", "same"),
        "module.rnn.weight_ih_l0": ("rnn.weight_ih_l0", "same"),
        "module.head.weight": ("head.weight", "same"),
        "module.head.bias": ("head.bias", "same"),
    }
    assert plan.dropped == [("module.bn.num_batches_tracked", "weights.dropped.step_counter")]


def test_the_cores_of_convert_weights_and_compare_import_no_framework() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import msmigrate.weights.convert, msmigrate.weights.report, msmigrate.cli.convert_weights_cmd\n"
        "import msmigrate.compare.service, msmigrate.compare.graph_errors, msmigrate.cli.compare_cmd\n"
        "bad = [m for m in ('torch', 'mindspore', 'numpy') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
