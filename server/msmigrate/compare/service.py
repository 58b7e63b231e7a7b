"""``compare_models``: the torch original and the migrated MindSpore model side by side (the core of
``msmigrate compare``; the editor command calls the same function and shows its JSON).

1. torch worker: build the original, load the checkpoint (weights-only) or keep its seeded initial weights
   (normalization statistics randomized), run it in eval mode with a hook on every submodule; one SGD step
   with a loss;
2. MindSpore worker: build the migrated model, convert the torch state dict to its parameters
   (:mod:`msmigrate.weights`, the same code as ``convert-weights``), write and load the checkpoint;
3. per mode (PyNative in that worker, GRAPH_MODE in a fresh one): run on the same inputs, compare outputs,
   per layer (PyNative) and the training step; a graph failure is placed in the source
   (:mod:`msmigrate.compare.graph_errors`).
Nothing raises to the caller: every failure is in the report.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msmigrate.compare.cancel import CompareCancel
from msmigrate.compare.config import CompareSpec
from msmigrate.compare.graph_errors import place
from msmigrate.compare.inputs import layout, render
from msmigrate.compare.report import CompareReport, ModeResult
from msmigrate.weights.convert import ReadResult, model_parameters, write_request
from msmigrate.weights.model_spec import ModelSpec
from msmigrate.weights.names import Plan, TorchTensor, plan_for_model
from msmigrate.weights.session import DEFAULT_TIMEOUT, SideWorker, WeightsError

OnStep = Callable[[str], None]  # a message key: compare.step.*


@dataclass(slots=True)
class CompareOptions:
    python: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    memory_mb: int | None = None  # per worker; None: the runner's default
    layers: bool = True
    worker_env: dict[str, str] = field(default_factory=dict)
    cancel: CompareCancel | None = None  # the editor's cancel: kills the workers, the report says cancelled


def _worker(side: str, options: CompareOptions) -> SideWorker:
    kwargs: dict[str, Any] = {} if options.memory_mb is None else {"memory_mb": options.memory_mb or None}
    cancel = options.cancel
    worker = SideWorker(side, python=options.python, timeout=options.timeout, env=options.worker_env,
                        stop=cancel.event if cancel else None, **kwargs)
    return cancel.watch(worker) if cancel else worker


def _raise_if_cancelled(options: CompareOptions) -> None:
    if options.cancel is not None and options.cancel.cancelled:
        raise WeightsError("compare.error.cancelled")


def _inputs(spec: CompareSpec) -> dict[str, Any]:
    """The request's ``inputs`` (tensor specs, flattened) and ``arguments`` (the call, see compare.inputs)."""
    flat, arguments = layout(spec.inputs)
    return {"inputs": flat, "arguments": arguments}


def _run_torch(
    spec: CompareSpec, torch_model: ModelSpec, folder: Path, worker: SideWorker, layers: bool
) -> dict[str, Any]:
    loss = spec.loss
    return worker.ask(
        {
            "kind": "torch_run",
            "model": torch_model.to_request(),
            "out_dir": str(folder),
            "seed": spec.seed,
            "checkpoint": str(spec.checkpoint) if spec.checkpoint else None,
            "key": spec.key,
            "layers": layers,
            **_inputs(spec),
            "kwargs": spec.kwargs,
            "loss": None
            if loss is None
            else {"torch": loss.torch, "lr": loss.lr, "target": loss.target.to_json()},
        }
    )


def _convert(
    reply: dict[str, Any], folder: Path, ms_model: ModelSpec, worker: SideWorker, checkpoint: Path
) -> Plan:
    tensors = [
        TorchTensor(t["name"], tuple(t["shape"]), t["dtype"], t.get("tied_to")) for t in reply["tensors"]
    ]
    read = ReadResult(
        tensors, {t["name"]: t["file"] for t in reply["tensors"]}, folder / "tensors", "torch", "", []
    )
    plan = plan_for_model(tensors, model_parameters(ms_model, worker))
    if plan.loadable and not plan.unused:
        worker.ask(write_request(plan, read, checkpoint, "ckpt", ms_model))
    return plan


def _run_mode(
    mode: str,
    spec: CompareSpec,
    ms_model: ModelSpec,
    plan: Plan,
    torch_reply: dict[str, Any],
    checkpoint: Path,
    worker: SideWorker,
    layers: bool,
) -> ModeResult:
    loss = spec.loss
    request = {
        "kind": "mindspore_run",
        "mode": mode,
        "model": ms_model.to_request(),
        "checkpoint": str(checkpoint),
        "torch": torch_reply,
        **_inputs(spec),
        "kwargs": spec.kwargs,
        "rtol": spec.rtol,
        "atol": spec.atol,
        "layers": layers,
        "prefixes": {"torch": plan.torch_prefix, "mindspore": plan.mindspore_prefix},
        "assignments": [
            {"torch": a.torch, "mindspore": a.mindspore, "layout": a.layout, "shape": list(a.shape)}
            for a in plan.assignments
        ],
        "loss": None
        if loss is None
        else {"mindspore": loss.mindspore, "lr": loss.lr, "target": loss.target.to_json()},
    }
    try:
        reply = worker.ask(request)
    except WeightsError as error:
        return ModeResult(mode, error=(error.key, error.fields))
    result = ModeResult(mode, reply.get("outputs"), reply.get("layers", []), reply.get("training"))
    if reply.get("graph_error"):
        result.graph_error = place(reply["graph_error"], ms_model.file)
    return result


def compare_models(
    spec: CompareSpec, options: CompareOptions | None = None, on_step: OnStep | None = None
) -> CompareReport:
    """Compare ``spec``'s two models; the report holds every result and every failure."""
    options = options or CompareOptions()
    step = on_step or (lambda _key: None)
    report = CompareReport(
        spec.name,
        spec.torch,
        spec.mindspore,
        [render(i) for i in spec.inputs],
        str(spec.checkpoint) if spec.checkpoint else None,
        spec.rtol,
        spec.atol,
    )
    scratch = Path(tempfile.mkdtemp(prefix="msmigrate-compare-"))
    workers = [_worker("torch", options), _worker("mindspore", options)]
    try:
        torch_model, ms_model = ModelSpec.parse(spec.torch), ModelSpec.parse(spec.mindspore)
        if spec.checkpoint is not None and not spec.checkpoint.is_file():
            raise WeightsError("weights.error.source_missing", path=str(spec.checkpoint))
        _raise_if_cancelled(options)
        step("compare.step.torch")
        torch_reply = _run_torch(spec, torch_model, scratch / "torch", workers[0], options.layers)
        workers[0].close()
        report.versions["torch"] = str(torch_reply.get("torch_version", ""))
        _raise_if_cancelled(options)
        step("compare.step.convert")
        checkpoint = scratch / "converted.ckpt"
        plan = report.conversion = _convert(torch_reply, scratch / "torch", ms_model, workers[1], checkpoint)
        if not plan.loadable or plan.unused:
            raise WeightsError(
                "compare.error.conversion",
                missing=len(plan.missing),
                unused=len(plan.unused),
                mismatched=len(plan.mismatched),
            )
        for mode in spec.modes:
            _raise_if_cancelled(options)
            step(f"compare.step.{mode}")
            if mode == "graph":  # a fresh process: the mode is set before the model is built
                workers[1].close()
                workers[1] = _worker("mindspore", options)
            result = _run_mode(
                mode, spec, ms_model, plan, torch_reply, checkpoint, workers[1], options.layers
            )
            report.modes.append(result)
        _raise_if_cancelled(options)
    except WeightsError as error:
        report.error = (error.key, error.fields)
    finally:
        for worker in workers:
            worker.close()
        shutil.rmtree(scratch, ignore_errors=True)
    if options.cancel is not None and options.cancel.cancelled:  # whatever a killed worker's step said
        report.error = ("compare.error.cancelled", {})
        report.modes = [m for m in report.modes if m.error is None]
    return report
