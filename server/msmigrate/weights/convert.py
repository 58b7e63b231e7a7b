"""``convert_weights``: a torch checkpoint → a MindSpore checkpoint (``msmigrate convert-weights``).

Steps, each in a worker: read the file (a torch pickle in the torch worker with weights-only loading; a
``.safetensors`` file in the MindSpore worker), build the migrated model when one is named and list its
parameters, plan the names (:mod:`msmigrate.weights.names`, no framework), write the checkpoint to a
temporary file next to the output, read it back (and load it into the model), and only then rename it
onto the output. Nothing raises to the caller: every failure is in the report.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msmigrate.check.runner import DEFAULT_MEMORY_MB
from msmigrate.safe_paths import UnsafePath, move_into
from msmigrate.weights.model_spec import ModelSpec
from msmigrate.weights.names import MindSporeParameter, Plan, TorchTensor, plan_for_model, plan_from_names
from msmigrate.weights.report import ConversionReport
from msmigrate.weights.session import DEFAULT_TIMEOUT, SideWorker, WeightsError
from msmigrate.weights.sniff import is_safetensors

FORMATS = ("ckpt", "safetensors")
OnStep = Callable[[str], None]  # a message key: weights.step.*


@dataclass(slots=True)
class ConvertOptions:
    source: Path
    output: Path
    model: str | None = None  # "path/file.py:expression" of the migrated model
    format: str | None = None  # ckpt | safetensors; default from the output's suffix
    key: str | None = None  # where the state dict is in the file ("state_dict", "model/ema")
    allow_unused: bool = False  # write although some torch tensors have no parameter
    python: str | None = None  # interpreter of the workers
    timeout: float = DEFAULT_TIMEOUT  # per worker request
    memory_mb: int | None = None  # address-space cap of a worker (None: 8 GB + 3× the file)
    base: Path | None = None  # folder a relative --model file is taken from
    worker_env: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class ReadResult:
    tensors: list[TorchTensor]
    files: dict[str, str]  # torch name -> .npy file in the read folder
    folder: Path
    format: str  # torch | safetensors
    source_key: str
    ignored: list[str]


def output_format(options: ConvertOptions) -> str:
    if options.format:
        return options.format
    return "safetensors" if options.output.suffix.lower() == ".safetensors" else "ckpt"


def memory_for(path: Path, memory_mb: int | None) -> int | None:
    if memory_mb is not None:
        return memory_mb or None
    try:
        size_mb = path.stat().st_size // (1024 * 1024)
    except OSError:
        size_mb = 0
    return DEFAULT_MEMORY_MB + 3 * int(size_mb)


def read_tensors(
    source: Path, folder: Path, workers: dict[str, SideWorker], key: str | None = None
) -> ReadResult:
    """Read ``source`` into ``folder`` (one ``.npy`` per tensor) in the worker its format needs."""
    side = "mindspore" if is_safetensors(source) else "torch"
    reply = workers[side].ask({"kind": "read", "path": str(source), "out_dir": str(folder), "key": key})
    tensors = [
        TorchTensor(t["name"], tuple(t["shape"]), t["dtype"], t.get("tied_to")) for t in reply["tensors"]
    ]
    return ReadResult(
        tensors,
        {t["name"]: t["file"] for t in reply["tensors"]},
        folder,
        reply["format"],
        reply.get("source_key", ""),
        list(reply.get("ignored", [])),
    )


def model_parameters(spec: ModelSpec, worker: SideWorker) -> list[MindSporeParameter]:
    reply = worker.ask({"kind": "model", "model": spec.to_request()})
    return [
        MindSporeParameter(p["path"], p["name"], tuple(p["shape"]), p["dtype"], p["cell"], p["cell_class"])
        for p in reply["parameters"]
    ]


def write_request(
    plan: Plan, read: ReadResult, path: Path, fmt: str, spec: ModelSpec | None
) -> dict[str, Any]:
    return {
        "kind": "write",
        "path": str(path),
        "format": fmt,
        "source_dir": str(read.folder),
        "assignments": [
            {
                "file": read.files[a.torch],
                "mindspore": a.mindspore,
                "layout": a.layout,
                "shape": list(a.shape),
                "dtype": a.dtype,
            }
            for a in plan.assignments
        ],
        "model": spec.to_request() if spec else None,
        "kept_initial": [p.name for p in plan.kept_initial],
    }


def _validate_paths(options: ConvertOptions) -> None:
    source, output = options.source, options.output
    if not source.exists():
        raise WeightsError("weights.error.source_missing", path=str(source))
    if not source.is_file():
        raise WeightsError("weights.error.source_not_file", path=str(source))
    if not output.parent.is_dir():
        raise WeightsError("weights.error.output_folder", path=str(output.parent))
    if output.is_symlink() or (output.exists() and not output.is_file()):
        raise WeightsError("weights.error.output_not_file", path=str(output))
    if output.exists() and output.resolve() == source.resolve():
        raise WeightsError("weights.error.output_is_source", path=str(output))
    if options.format is not None and options.format not in FORMATS:
        raise WeightsError("weights.error.format", format=options.format)
    fmt = output_format(options)
    if output.suffix != f".{fmt}":  # mindspore.load_checkpoint refuses any other name
        raise WeightsError("weights.error.suffix", path=str(output), format=fmt,
                           suggest=str(output.with_name(output.stem + f".{fmt}")))


def convert_weights(options: ConvertOptions, on_step: OnStep | None = None) -> ConversionReport:
    """Convert ``options.source`` into ``options.output``; the report says what was done and why not."""
    step = on_step or (lambda _key: None)
    fmt = output_format(options)
    report = ConversionReport(str(options.source), str(options.output), fmt, options.model)
    options.source = Path(os.path.abspath(options.source.expanduser()))  # the workers start elsewhere
    options.output = Path(os.path.abspath(options.output.expanduser()))
    scratch: Path | None = None
    memory = memory_for(options.source, options.memory_mb)
    workers = {
        side: SideWorker(
            side, python=options.python, timeout=options.timeout, memory_mb=memory, env=options.worker_env
        )
        for side in ("torch", "mindspore")
    }
    try:
        _validate_paths(options)
        spec = ModelSpec.parse(options.model, options.base) if options.model else None
        scratch = Path(tempfile.mkdtemp(prefix="msmigrate-weights-"))
        step("weights.step.read")
        read = read_tensors(options.source, scratch / "tensors", workers, options.key)
        workers["torch"].close()
        report.read_format, report.source_key, report.ignored = read.format, read.source_key, read.ignored
        report.tensors = len(read.tensors)
        if spec is not None:
            step("weights.step.model")
            plan = plan_for_model(read.tensors, model_parameters(spec, workers["mindspore"]))
        else:
            plan = plan_from_names(read.tensors)
        report.plan = plan
        if not plan.loadable or (plan.unused and not options.allow_unused):
            return report
        step("weights.step.write")
        _write(options, plan, read, fmt, spec, workers["mindspore"], report)
    except WeightsError as error:
        report.error = (error.key, error.fields)
    finally:
        for worker in workers.values():
            worker.close()
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    return report


def _write(
    options: ConvertOptions,
    plan: Plan,
    read: ReadResult,
    fmt: str,
    spec: ModelSpec | None,
    worker: SideWorker,
    report: ConversionReport,
) -> None:
    """Write next to the output under a temporary name, verify, rename into place; nothing is left
    behind on failure."""
    folder = Path(tempfile.mkdtemp(prefix=".msmigrate-", dir=options.output.parent))
    try:
        produced = folder / f"weights.{fmt}"
        worker.ask(write_request(plan, read, produced, fmt, spec))
        if not produced.is_file():
            raise WeightsError("weights.error.write", path=str(options.output), detail="no file produced")
        try:
            move_into(produced, options.output)
        except (UnsafePath, OSError) as exc:
            raise WeightsError("weights.error.write", path=str(options.output), detail=str(exc)) from None
        report.written = True
    finally:
        shutil.rmtree(folder, ignore_errors=True)
