"""The torch side of ``msmigrate compare`` (worker side): build the original model, give it its weights,
run it in eval mode on seeded inputs with hooks on every submodule, and save what MindSpore must reproduce:
inputs, outputs, each submodule's inputs and output per call (:mod:`msmigrate.compare.worker_layer_inputs`),
the state dict, and with a loss one SGD step (loss, gradients, updated parameters)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msmigrate.compare.worker_common import arrange, build_loss, flatten, hook_every, make_arrays, save_arrays
from msmigrate.compare.worker_layer_inputs import TensorFiles, hook_inputs
from msmigrate.weights.worker import WorkerError, exc_text, framework
from msmigrate.weights.worker_model import build, user_frame
from msmigrate.weights.worker_read import entries, load_torch, save, state_dict_of

NO_TENSOR = {"file": None, "shape": None, "dtype": None}


def _numpy(torch: Any) -> Any:
    def convert(value: Any) -> tuple[Any, str]:
        data = value.detach().cpu()
        dtype = str(data.dtype).removeprefix("torch.")
        return (data.float().numpy() if dtype == "bfloat16" else data.numpy()), dtype

    return convert


def _load_checkpoint(torch: Any, model: Any, path: str, key: str | None) -> None:
    state, _where, _ignored = state_dict_of(load_torch(Path(path)), key, torch)
    own = set(model.state_dict())
    if not set(state) & own:  # a prefix torch added (DataParallel's module.)
        for prefix in ("module.", "model."):
            if all(k.startswith(prefix) for k in state):
                state = {k[len(prefix) :]: v for k, v in state.items()}
                break
    try:
        model.load_state_dict(state, strict=True)
    except Exception as exc:  # noqa: BLE001
        raise WorkerError("compare.error.torch_checkpoint", path=path, detail=exc_text(exc, 800)) from None


def _randomize_norms(torch: Any, model: Any, seed: int) -> None:
    """Statistics and affine values of normalization layers other than their initial 0/1, so that a swapped
    or misnamed one shows."""
    gen = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        for module in model.modules():
            mean, var = getattr(module, "running_mean", None), getattr(module, "running_var", None)
            if isinstance(mean, torch.Tensor) and isinstance(var, torch.Tensor):
                mean.copy_(torch.rand(mean.shape, generator=gen) - 0.5)
                var.copy_(torch.rand(var.shape, generator=gen) + 0.5)
                for name, low in (("weight", 0.5), ("bias", -0.5)):
                    param = getattr(module, name, None)
                    if isinstance(param, torch.Tensor) and param.dim() == 1:
                        param.copy_(torch.rand(param.shape, generator=gen) + low)


def define_uninitialized(torch: Any, model: Any, generator_seed: int) -> list[str]:
    """Parameters left as uninitialized memory (``nn.Parameter(torch.empty(n, d))`` that a checkpoint would
    fill: whisper's ``positional_embedding``) hold whatever the memory held, NaN and huge values included,
    which makes torch's own outputs NaN by chance. Without a checkpoint, each such parameter (a non-finite
    value or one above 1e4) gets N(0, 0.02) values from ``generator_seed``; the converted weights carry them
    to the MindSpore side. Buffers are left alone: they may hold infinities on purpose (a causal mask of
    -inf). The corpus harness (tests/model_corpus/corpus_runner.py) calls it too; returns the names set."""
    gen = torch.Generator().manual_seed(generator_seed)
    defined = []
    with torch.no_grad():
        for name, param in model.named_parameters():
            if param.is_floating_point() and param.numel() and (
                    not torch.isfinite(param).all() or param.abs().max() > 1e4):
                param.copy_(torch.randn(param.shape, generator=gen) * 0.02)
                defined.append(name)
    return defined


def _hooks(
    model: Any, records: list[dict[str, Any]], files: TensorFiles, torch: Any
) -> list:
    """Every submodule call's output (a forward hook) and inputs (a pre-hook), by name path and call."""
    is_tensor = lambda v: isinstance(v, torch.Tensor)  # noqa: E731
    inputs, handles = hook_inputs(model.named_modules(), is_tensor, files)

    def record(name: str, call: int, module: Any, output: Any) -> None:
        leaves = [NO_TENSOR if v is None else files.save(v) for v in flatten(output, is_tensor, lambda v: v)]
        records.append({"name": name, "call": call, "class": type(module).__name__, "leaves": leaves,
                        "inputs": inputs.pop((name, call), None)})

    return handles + hook_every(model.named_modules(), record)


def _train_step(
    torch: Any,
    np: Any,
    model: Any,
    call: tuple[list[Any], dict[str, Any]],
    loss: dict[str, Any],
    folder: Path,
    seed: int,
    to_numpy: Any,
) -> dict[str, Any]:
    loss_fn = build_loss(loss["torch"], {"torch": torch, "nn": torch.nn, "F": torch.nn.functional})
    target_array = make_arrays(np, [loss["target"]], seed + 7)[0]
    np.save(folder / "target.npy", target_array, allow_pickle=False)
    target = torch.from_numpy(target_array)
    model.zero_grad(set_to_none=True)
    value = loss_fn(model(*call[0], **call[1]), target)
    value.backward()
    params = [(n, p) for n, p in model.named_parameters() if p.grad is not None]
    grads = save_arrays(np, folder / "grads", "", [to_numpy(p.grad) for _, p in params])
    torch.optim.SGD([p for _, p in params], lr=loss["lr"]).step()
    updated = save_arrays(np, folder / "updated", "", [to_numpy(p) for _, p in params])
    return {
        "loss": float(value.detach()),
        "target": str(folder / "target.npy"),
        "grads": {n: g["file"] for (n, _), g in zip(params, grads, strict=True)},
        "updated": {n: u["file"] for (n, _), u in zip(params, updated, strict=True)},
    }


def run(request: dict[str, Any]) -> dict[str, Any]:
    torch, np = framework("torch"), framework("numpy")
    out = Path(request["out_dir"])
    seed = int(request.get("seed", 0))
    torch.manual_seed(seed)
    model = build(request["model"])
    if not isinstance(model, torch.nn.Module):
        raise WorkerError(
            "weights.error.not_module", expr=request["model"]["expr"], kind=type(model).__name__
        )
    if request.get("checkpoint"):
        _load_checkpoint(torch, model, request["checkpoint"], request.get("key"))
    else:
        _randomize_norms(torch, model, seed)
        define_uninitialized(torch, model, seed + 2)
    model.eval()
    to_numpy = _numpy(torch)
    arrays = make_arrays(np, request["inputs"], seed)
    inputs = save_arrays(np, out / "inputs", "", [(a, str(a.dtype)) for a in arrays])
    tensors = [torch.from_numpy(a) for a in arrays]
    args, kwargs = arrange(request.get("arguments"), tensors, request.get("kwargs", {}))
    records: list[dict[str, Any]] = []
    files = TensorFiles(np, out / "layers", to_numpy)
    for index, tensor in enumerate(tensors):  # a layer fed the model's input gets MindSpore's own
        files.remember(tensor, {**inputs[index], "input": index})
    handles = _hooks(model, records, files, torch) if request.get("layers", True) else []
    try:
        with torch.no_grad():
            output = model(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the user's model
        root = Path(request["model"]["file"]).parent
        raise WorkerError(
            "compare.error.torch_run", where=user_frame(exc, root), detail=exc_text(exc)
        ) from None
    finally:
        for handle in handles:
            handle.remove()
    outputs = save_arrays(
        np, out / "outputs", "", flatten(output, lambda v: isinstance(v, torch.Tensor), to_numpy)
    )
    saved = save(entries(model.state_dict(keep_vars=False)), out / "tensors")
    training = None
    if request.get("loss"):
        training = _train_step(
            torch, np, model, (args, kwargs), request["loss"], out, seed, to_numpy
        )
    return {
        "inputs": inputs,
        "outputs": outputs,
        "layers": records,
        "tensors": saved,
        "training": training,
        "torch_version": torch.__version__.split("+")[0],
    }
