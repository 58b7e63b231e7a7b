"""What both sides of ``msmigrate compare`` do the same way (worker side): inputs from their specs, outputs
flattened to arrays and saved as ``.npy``, a loss built from its expression."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from msmigrate.weights.worker import WorkerError, exc_text


def make_arrays(np: Any, specs: list[dict[str, Any]], seed: int) -> list[Any]:
    """Seeded arrays: integers uniform in [low, high), floats uniform in [low, high)."""
    rng = np.random.default_rng(seed)
    arrays = []
    for spec in specs:
        shape, dtype = tuple(spec["shape"]), spec["dtype"]
        low, high = spec["low"], spec["high"]
        if dtype == "bool":
            arrays.append(rng.integers(0, 2, shape).astype(bool))
        elif dtype.startswith(("int", "uint")):
            arrays.append(rng.integers(int(low), int(high), shape).astype(dtype))
        else:
            arrays.append(rng.uniform(low, high, shape).astype("float32" if dtype == "bfloat16" else dtype))
    return arrays


def arrange(
    arguments: list[dict[str, Any]] | None, tensors: list[Any], kwargs: dict[str, Any]
) -> tuple[list[Any], dict[str, Any]]:
    """The positional and keyword arguments of the call: ``arguments`` (compare.inputs.layout) with each
    ``{"tensor": i}`` replaced by ``tensors[i]``, then the constant ``kwargs``; without ``arguments``, the
    tensors in order."""
    if arguments is None:
        return list(tensors), dict(kwargs)

    def build(node: dict[str, Any]) -> Any:
        if "tensor" in node:
            return tensors[node["tensor"]]
        if "tuple" in node:
            return tuple(build(n) for n in node["tuple"])
        if "list" in node:
            return [build(n) for n in node["list"]]
        if "dict" in node:
            return {key: build(n) for key, n in node["dict"]}
        return None if "none" in node else node["value"]

    args = [build(a["value"]) for a in arguments if a["name"] is None]
    named = {a["name"]: build(a["value"]) for a in arguments if a["name"] is not None}
    return args, {**named, **kwargs}


def flatten(value: Any, is_tensor: Any, to_numpy: Any) -> list[tuple[Any, str] | None]:
    """``(array, dtype name)`` of every tensor in an output: tuples, lists, dicts (in order), nested; a
    ``None`` in it stays a ``None`` leaf, so that positions agree between the two sides (whisper's attention
    returns ``(out, None)`` in torch's SDPA path, ``(out, qk)`` in the other)."""
    if value is None:
        return [None]
    if is_tensor(value):
        return [to_numpy(value)]
    found: list[tuple[Any, str] | None] = []
    if isinstance(value, dict):
        for item in value.values():
            found += flatten(item, is_tensor, to_numpy)
    elif isinstance(value, list | tuple):
        for item in value:
            found += flatten(item, is_tensor, to_numpy)
    return found


def save_arrays(
    np: Any, folder: Path, prefix: str, leaves: list[tuple[Any, str] | None]
) -> list[dict[str, Any]]:
    """Each leaf as ``PREFIXi.npy`` with its shape and dtype; a ``None`` leaf as ``{"file": None}``."""
    folder.mkdir(parents=True, exist_ok=True)
    saved: list[dict[str, Any]] = []
    for index, leaf in enumerate(leaves):
        if leaf is None:
            saved.append({"file": None, "shape": None, "dtype": None})
            continue
        array, dtype = leaf
        file = folder / f"{prefix}{index}.npy"
        np.save(file, np.ascontiguousarray(array), allow_pickle=False)
        saved.append({"file": str(file), "shape": list(array.shape), "dtype": dtype})
    return saved


def hook_every(
    named: Iterable[tuple[str, Any]], on_output: Callable[[str, int, Any, Any], None], before: bool = False
) -> list[Any]:
    """A forward hook on every submodule (torch) or cell (MindSpore; both call ``hook(module, args,
    output)``) reporting ``on_output(name path, call number, module, output)``; with ``before``, a torch
    forward pre-hook with keyword arguments reporting ``(args, kwargs)`` in place of the output. Returns
    the handles."""
    calls: dict[str, int] = {}
    handles = []
    for name, module in named:

        def hook(mod: Any, args: Any, third: Any, name: str = name) -> None:
            call = calls.get(name, 0)
            calls[name] = call + 1
            on_output(name, call, mod, (args, third) if before else third)

        if before:
            handles.append(module.register_forward_pre_hook(hook, with_kwargs=True))
        else:
            handles.append(module.register_forward_hook(hook))
    return handles


def build_loss(text: str, namespace: dict[str, Any]) -> Any:
    """A loss from an expression (``torch.nn.CrossEntropyLoss()``) evaluated with the framework's names in
    scope, or from ``path/file.py:expression`` (the user's own code, named in their configuration)."""
    if ".py:" in text:
        from msmigrate.weights.worker_model import build

        file, _, expr = text.partition(".py:")
        return build({"file": file + ".py", "expr": expr})
    try:
        return eval(text, dict(namespace))  # noqa: S307 - the user's configuration, run by the user
    except Exception as exc:  # noqa: BLE001
        raise WorkerError("compare.error.loss", expr=text, detail=exc_text(exc)) from None
