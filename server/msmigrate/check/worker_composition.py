"""Worker side of a composition's check (request kind ``composition``, built by ``check/compositions.py``).

The helper runs from the helper module text the fix writes (``knowledge/compositions/helper_module``: this
package's own templates, never user code), executed once per helper in a fresh module. torch's API runs on
the same inputs; a class is built in both frameworks, its torch parameters given random values (seeded)
and copied into the Cell. ``read`` compares attributes of the results (``finfo``); the rest is compared as
a mapping check is (``worker_shared.compared_result``).
"""

from __future__ import annotations

import types
from typing import Any

from msmigrate.check.worker_shared import (
    CheckFailure,
    classify_ms_error,
    compared_result,
    copy_parameters,
    decode,
    exc_text,
    resolve,
)

_HELPERS: dict[str, Any] = {}


def helper(name: str) -> Any:
    """The helper ``name`` from a module holding it (and the helpers it calls), as the fix writes it."""
    if name not in _HELPERS:
        from msmigrate.knowledge.compositions.helper_module import module_text

        module = types.ModuleType("ms_compat")
        exec(compile(module_text([name]), "ms_compat.py", "exec"), module.__dict__)  # noqa: S102 - our template
        _HELPERS[name] = getattr(module, name)
    return _HELPERS[name]


def _values(request: dict[str, Any], key: str, tensors: dict[str, Any], dtype_of: Any) -> Any:
    value = request.get(key)
    if isinstance(value, dict):
        return {k: decode(v, tensors, dtype_of) for k, v in value.items()}
    return [decode(v, tensors, dtype_of) for v in value or []]


def _run(fw: Any, request: dict[str, Any], side: str, tensors: dict[str, Any],
         module: Any = None) -> tuple[Any, Any]:
    """One side's result (and, for a class, the module built)."""
    framework = fw.torch if side == "torch" else fw.ms

    def dtype_of(name: str) -> Any:
        return getattr(framework, name)

    args, kwargs = _values(request, "args", tensors, dtype_of), _values(request, "kwargs", tensors, dtype_of)
    if side == "torch":
        target = resolve(request["torch_api"], "torch")
        if request.get("method"):
            target, args = getattr(args[0], request["torch_api"].rsplit(".", 1)[1]), args[1:]
    else:
        target = helper(request["helper"])
    if not request.get("is_class"):
        return target(*args, **kwargs), None
    built = target(*_values(request, "init_args", tensors, dtype_of),
                   **_values(request, "init_kwargs", tensors, dtype_of))
    if side == "torch":
        built.eval()
        generator = fw.torch.Generator().manual_seed(int(request.get("seed", 0)) + 1)
        for parameter in built.parameters():
            parameter.copy_(fw.torch.rand(parameter.shape, generator=generator) + 0.5)
    else:
        built.set_train(False)
        copy_parameters(fw, module, built)
    return built(*args, **kwargs), built


def _leaves(fw: Any, value: Any, side: str) -> list[Any]:
    """The compared arrays of a result; a ``None`` in it (``multi_head_attention_forward``'s weights when
    ``need_weights=False``) is a leaf of its own kind, equal only to another ``None``."""
    from msmigrate.check.worker_compare import Leaf

    if value is None:
        return [Leaf(fw.np.asarray(0), "none")]
    if isinstance(value, tuple | list) and any(item is None for item in value):
        return [leaf for item in value for leaf in _leaves(fw, item, side)]
    return fw.leaves(value, side)


def _read(value: Any, names: list[str]) -> Any:
    return tuple(getattr(value, name) for name in names) if names else value


def run_composition(fw: Any, request: dict[str, Any]) -> dict[str, Any]:
    """Compare torch's API with the helper on one case (a container's: its program)."""
    if request.get("compare") == "program":
        from msmigrate.check.worker_programs import run_helper_program

        return {**run_helper_program(fw, request, helper), "mindspore_api": f"ms_compat.{request['helper']}"}
    seed = int(request.get("seed", 0))
    specs = request.get("tensors", {})
    arrays = fw.make_arrays(specs, seed)
    dtypes = {n: s.get("dtype", "float32") for n, s in specs.items()}
    fw.seed(seed)
    try:
        with fw.torch.no_grad():
            t_tensors = {n: fw.torch_tensor(a, dtypes[n]) for n, a in arrays.items()}
            t_out, module = _run(fw, request, "torch", t_tensors)
            t_leaves = _leaves(fw, _read(t_out, request.get("read") or []), "torch")
    except (CheckFailure, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - any torch exception is a result
        raise CheckFailure("error", "torch_error", exc_text(exc)) from exc
    try:
        m_tensors = {n: fw.ms_tensor(a, dtypes[n]) for n, a in arrays.items()}
        m_out, _ = _run(fw, request, "mindspore", m_tensors, module)
        m_leaves = _leaves(fw, _read(m_out, request.get("read") or []), "mindspore")
    except (CheckFailure, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001
        raise CheckFailure("error", classify_ms_error(exc), exc_text(exc)) from exc
    return {**compared_result(request, t_leaves, m_leaves), "mindspore_api": f"ms_compat.{request['helper']}"}
