"""Build and run the corpus models in one framework (a subprocess of the harness).

Usage: ``python corpus_runner.py torch|mindspore JOBS.json LOG.jsonl``. Each job names a project folder (the
original copy for torch, a fixed copy for MindSpore), the module, the constructor expression and the call
(the harness's own strings, never user code), the inputs file and the output folder. With ``mindspore``,
``torch`` cannot be imported (the conversion suite's meta-path blocker), so a fixed file that still needs
torch fails as it would for a user. Per job: import → build → (MindSpore) the torch state dict converted
by ``msmigrate convert-weights`` and loaded → forward in eval mode → (with a loss) one SGD step in training
mode. The stage each job reached and the error that stopped it are appended to the log as soon as it
finishes; a job that kills the interpreter leaves only its ``started`` line (the harness restarts after it).
"""

from __future__ import annotations

import importlib
import json
import signal
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.append(str(HERE.parent / "conversion"))

from run_programs import _NoTorch  # noqa: E402

TIMEOUT_S = 240
LR = 0.1  # the training step: plain SGD, w ← w − LR·∂loss/∂w


class StageError(Exception):
    def __init__(self, stage: str, exc: BaseException) -> None:
        super().__init__(stage)
        self.stage, self.exc = stage, exc


def _timeout(_signum, _frame):  # noqa: ANN001
    raise TimeoutError(f"the case ran longer than {TIMEOUT_S} s")


def leaves(value, fw: str) -> list:  # noqa: ANN001
    """The arrays of an output (tensors of nested tuples, lists and dicts in order; ``None`` left out)."""
    import numpy as np

    if value is None:
        return []
    if isinstance(value, dict):
        return [leaf for key in value for leaf in leaves(value[key], fw)]
    if isinstance(value, list | tuple):
        return [leaf for item in value for leaf in leaves(item, fw)]
    if fw == "torch":
        import torch

        if isinstance(value, torch.Tensor):
            return [value.detach().float().numpy() if value.is_floating_point() else value.detach().numpy()]
    else:
        import mindspore

        if isinstance(value, mindspore.Tensor):
            if value.dtype in (mindspore.float16, mindspore.bfloat16):
                value = value.astype(mindspore.float32)
            return [value.asnumpy()]
    if isinstance(value, bool | int | float | np.generic | np.ndarray):
        return [np.asarray(value)]
    raise TypeError(f"the output holds a {type(value).__name__}")


def _stage(stage: str, run):  # noqa: ANN001, ANN202
    try:
        return run()
    except BaseException as exc:  # noqa: BLE001 - every failure is an outcome
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise StageError(stage, exc) from exc


def _forget(project: str) -> None:
    """Drop the modules imported from ``project`` (the next job may hold the same package names)."""
    root = str(Path(project).resolve())
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None) or ""
        if file.startswith(root):
            del sys.modules[name]
    importlib.invalidate_caches()


def run_torch(job: dict) -> dict:
    import numpy as np
    import torch

    from msmigrate.compare.worker_torch import define_uninitialized

    out = Path(job["out"])
    data = np.load(job["inputs"])
    inputs = {k: torch.from_numpy(data[k]) for k in data.files}
    torch.manual_seed(0)
    module = _stage("import", lambda: importlib.import_module(job["module"]))
    model = _stage("build", lambda: eval(job["expr"], vars(module)))  # noqa: S307 - the harness's own text
    # weights left as uninitialized memory get seeded values (compare does the same without a checkpoint)
    define_uninitialized(torch, model, 0)
    state = {k: v.detach().clone() for k, v in model.state_dict().items()}
    torch.save(state, out / "state.pt")
    np.savez(
        out / "state.npz",
        **{k: v.float().numpy() if v.is_floating_point() else v.numpy() for k, v in state.items()},
    )
    model.eval()
    with torch.no_grad():
        result = _stage("forward", lambda: eval(job["call"], {"model": model, **inputs}))  # noqa: S307
    np.savez(out / "outputs.npz", *leaves(result, "torch"))
    if job.get("loss"):
        loss_module = importlib.import_module(job["loss"][0])
        model.train()
        output = eval(job["call"], {"model": model, **inputs})  # noqa: S307
        loss = eval(job["loss"][1], {**vars(loss_module), "out": output})  # noqa: S307
        loss.backward()
        updated = {}
        with torch.no_grad():
            for name, p in model.named_parameters():
                if p.grad is not None:
                    p -= LR * p.grad
                    updated[name] = p.detach().float().numpy()
        np.savez(out / "train.npz", loss=loss.detach().numpy(), **{f"p:{k}": v for k, v in updated.items()})
    return {"stage": "pass"}


def run_mindspore(job: dict) -> dict:
    import mindspore
    import numpy as np
    from corpus_weights import convert_weights

    out = Path(job["out"])
    data = np.load(job["inputs"])
    inputs = {k: mindspore.Tensor(data[k]) for k in data.files}
    module = _stage("import", lambda: importlib.import_module(job["module"]))
    mindspore.set_seed(0)
    model = _stage("build", lambda: eval(job["expr"], vars(module)))  # noqa: S307
    ckpt = out / "converted.ckpt"

    def load() -> dict:
        report = convert_weights(Path(job["state"]), Path(module.__file__), job["expr"], ckpt, job["deps"])
        if report["failures"]:
            raise ValueError("; ".join(report["failures"]))
        not_loaded, _unused = mindspore.load_param_into_net(model, mindspore.load_checkpoint(str(ckpt)))
        missing = sorted(set(not_loaded) - set(report["kept"]))
        if missing:
            raise ValueError(f"parameters not loaded: {', '.join(missing[:5])}")
        return report

    report = _stage("weight_load", load)

    def forward():  # noqa: ANN202
        model.set_train(False)
        value = eval(job["call"], {"model": model, **inputs})  # noqa: S307
        found = leaves(value, "mindspore")
        mindspore.runtime.synchronize()
        return found

    np.savez(out / "outputs.npz", *_stage("forward_error", forward))
    if job.get("loss"):
        _stage("train_error", lambda: _train_mindspore(job, model, inputs, report["mapped"], out))
    return {"stage": "ran", "kept": report["kept"]}


def _train_mindspore(job: dict, model, inputs: dict, mapped: dict[str, str], out: Path) -> None:  # noqa: ANN001
    import mindspore
    import numpy as np

    loss_module = importlib.import_module(job["loss"][0])
    model.set_train(True)
    params = model.trainable_params()

    def step():  # noqa: ANN202
        output = eval(job["call"], {"model": model, **inputs})  # noqa: S307
        return eval(job["loss"][1], {**vars(loss_module), "out": output})  # noqa: S307

    loss, grads = mindspore.value_and_grad(step, None, params)()
    updated = {}
    for p, g in zip(params, grads, strict=True):
        p.set_data(p - LR * g)
        updated[f"p:{mapped.get(p.name, p.name)}"] = p.asnumpy()
    mindspore.runtime.synchronize()
    np.savez(out / "train.npz", loss=np.asarray(loss.asnumpy()), **updated)


def _project_line(exc: BaseException, project: str) -> str:
    """``path:line`` of the last frame of the traceback inside the project (where the fixed code failed)."""
    found = ""
    root = str(Path(project).resolve()) + "/"
    for frame, line in traceback.walk_tb(exc.__traceback__):
        name = frame.f_code.co_filename
        if name.startswith(root):
            found = f"{name[len(root) :]}:{line}"
    return found


def main() -> int:
    fw, jobs_path, log_path = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    sys.path.insert(0, str(HERE))
    deps = json.loads(jobs_path.read_text(encoding="utf-8")).get("deps", [])
    sys.path.extend(deps)
    if fw == "mindspore":
        sys.meta_path.insert(0, _NoTorch())
        import mindspore
        import numpy as np

        mindspore.set_context(mode=mindspore.PYNATIVE_MODE, device_target="CPU")
        _ = mindspore.Tensor(np.ones(2, np.float32)) * mindspore.Tensor(np.ones(2, np.float32))
    else:
        import torch

        torch.set_num_threads(1)
    signal.signal(signal.SIGALRM, _timeout)
    jobs = json.loads(jobs_path.read_text(encoding="utf-8"))["jobs"]
    with log_path.open("a", encoding="utf-8") as log:
        for job in jobs:
            log.write(json.dumps({"id": job["id"], "started": True}) + "\n")
            log.flush()
            sys.path.insert(0, job["project"])
            job["deps"] = deps
            outcome: dict = {"id": job["id"]}
            signal.alarm(TIMEOUT_S)
            try:
                outcome.update(run_torch(job) if fw == "torch" else run_mindspore(job))
            except BaseException as exc:  # noqa: BLE001 - every failure is an outcome
                stage, exc = (exc.stage, exc.exc) if isinstance(exc, StageError) else ("harness", exc)
                outcome["stage"] = stage
                outcome["error"] = f"{type(exc).__name__}: {exc}"[:800]
                outcome["where"] = _project_line(exc, job["project"])
            finally:
                signal.alarm(0)
                sys.path.remove(job["project"])
                _forget(job["project"])
            log.write(json.dumps(outcome) + "\n")
            log.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
