"""The equivalence worker: the only module that imports torch and mindspore.

Run as ``python -m msmigrate.check.worker``. It reads one JSON request per line on stdin and
writes one JSON result per line on its original stdout (library output is sent to stderr).
It resolves only ``torch.*`` / ``mindspore.*`` names given by the request (the mapping table)
and calls them on generated inputs; it never runs user code.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import time
import traceback
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

TEST_KINDS_ENV = "MSMIGRATE_CHECK_TEST_KINDS"  # enables the test-only request kinds sleep / crash
CHECK_KINDS = ("function", "tensor_method", "class", "composition")  # composition: worker_composition.py


# --- frameworks and device -----------------------------------------------------------------------


class Frameworks:
    """torch, mindspore and numpy loaded for one device (a worker serves one device)."""

    def __init__(self, device: str) -> None:
        try:
            import numpy as np
        except Exception as exc:  # noqa: BLE001 - any import failure is reported the same way
            raise CheckFailure("error", "missing_framework", f"numpy: {exc_text(exc)}") from exc
        try:
            import torch
        except Exception as exc:  # noqa: BLE001
            raise CheckFailure("error", "missing_framework", f"torch: {exc_text(exc)}") from exc
        try:
            import mindspore
        except Exception as exc:  # noqa: BLE001
            raise CheckFailure("error", "missing_framework", f"mindspore: {exc_text(exc)}") from exc
        self.np, self.torch, self.ms = np, torch, mindspore
        self.device = device
        self.available = self._available_devices()
        if device not in self.available:
            raise CheckFailure(
                "error", "device_unavailable", f"{device}; available: {', '.join(self.available)}"
            )
        self.torch_device = {"CPU": "cpu", "GPU": "cuda", "Ascend": "npu"}[device]
        if hasattr(mindspore, "set_device"):
            mindspore.set_device(device)
        else:  # older MindSpore
            mindspore.set_context(device_target=device)
        try:  # report kernel errors at the failing call, not at a later one
            mindspore.runtime.launch_blocking()
        except AttributeError:
            mindspore.set_context(pynative_synchronize=True)
        self.versions = {
            "torch_version": torch.__version__.split("+")[0],
            "mindspore_version": mindspore.__version__,
            # the caller warns when MindSpore cannot use it (check/numpy_support.py)
            "numpy_version": str(getattr(np, "__version__", "")) or None,
        }

    def _available_devices(self) -> list[str]:
        devices = ["CPU"]
        try:
            if self.torch.cuda.is_available() and self.ms.hal.is_available("GPU"):
                devices.append("GPU")
        except Exception:  # noqa: BLE001 - a broken backend counts as unavailable
            pass
        try:
            if self.ms.hal.is_available("Ascend"):
                importlib.import_module("torch_npu")
                devices.append("Ascend")
        except Exception:  # noqa: BLE001
            pass
        return devices

    def seed(self, seed: int) -> None:
        self.np.random.seed(seed)
        self.torch.manual_seed(seed)
        self.ms.set_seed(seed)

    # --- inputs -----------------------------------------------------------------------------------
    def make_arrays(self, specs: dict[str, dict[str, Any]], seed: int) -> dict[str, Any]:
        np = self.np
        rng = np.random.default_rng(seed)
        arrays: dict[str, Any] = {}
        for name, spec in specs.items():
            dtype = spec.get("dtype", "float32")
            np_dtype = "float32" if dtype == "bfloat16" else dtype
            if "data" in spec:
                arrays[name] = np.asarray(spec["data"], dtype=np_dtype)
                continue
            shape = tuple(spec.get("shape", (2, 3, 4)))
            low, high = spec.get("low", -1.0), spec.get("high", 1.0)
            if dtype == "bool":
                arrays[name] = rng.integers(0, 2, shape).astype(bool)
            elif dtype.startswith(("int", "uint")):
                arrays[name] = rng.integers(int(low), int(high), shape).astype(dtype)
            elif dtype.startswith("complex"):
                arrays[name] = (rng.uniform(low, high, shape) + 1j * rng.uniform(low, high, shape)).astype(
                    dtype
                )
            else:
                arrays[name] = rng.uniform(low, high, shape).astype(np_dtype)
        return arrays

    def torch_tensor(self, array: Any, dtype: str) -> Any:
        t = self.torch.from_numpy(array.copy())
        if dtype == "bfloat16":
            t = t.to(self.torch.bfloat16)
        return t.to(self.torch_device)

    def ms_tensor(self, array: Any, dtype: str) -> Any:
        if dtype == "bfloat16":
            return self.ms.Tensor(array.copy(), self.ms.bfloat16)
        return self.ms.Tensor(array.copy())

    # --- outputs ----------------------------------------------------------------------------------
    def leaves(self, value: Any, side: str) -> list[Any]:
        from msmigrate.check.worker_compare import Leaf

        torch, ms, np = self.torch, self.ms, self.np
        if isinstance(value, torch.Tensor):
            v = value.detach().cpu()
            dtype = dtype_name(v.dtype)
            if v.dtype == torch.bfloat16:
                v = v.float()
            return [Leaf(v.resolve_conj().numpy(), dtype)]
        if isinstance(value, ms.Tensor):
            dtype = dtype_name(value.dtype)
            if value.dtype == ms.bfloat16:
                value = value.astype(ms.float32)
            return [Leaf(value.asnumpy(), dtype)]
        if isinstance(value, (tuple, list)):
            return [leaf for item in value for leaf in self.leaves(item, side)]
        if isinstance(value, (bool, int, float, complex)):
            return [Leaf(np.asarray(value), f"python_{type(value).__name__}")]
        if isinstance(value, np.ndarray):
            return [Leaf(value, str(value.dtype))]
        if isinstance(value, (torch.dtype, ms.dtype.Type)):  # a dtype read from a tensor: compared by name
            return [Leaf(np.asarray(0), "dtype:" + dtype_name(value))]
        raise CheckFailure("skipped", "non_tensor_output", f"{side} returned {type(value).__name__}")


def dtype_name(dtype: Any) -> str:
    """``float32`` for ``torch.float32`` and ``mindspore.float32`` (``Float32``)."""
    return str(dtype).removeprefix("torch.").lower()


# --- calling ---------------------------------------------------------------------------------------


def _call(fw: Frameworks, side: str, request: dict[str, Any], tensors: dict[str, Any]) -> Any:
    """Run one side of the check and return its raw output."""
    root = "torch" if side == "torch" else "mindspore"
    name = request["torch_api"] if side == "torch" else request["mindspore_api"]
    call = request[side]
    framework = fw.torch if side == "torch" else fw.ms

    def dtype_of(n: str) -> Any:
        return getattr(framework, n)

    args = decode(call.get("args", []), tensors, dtype_of)
    kwargs = {k: decode(v, tensors, dtype_of) for k, v in call.get("kwargs", {}).items()}
    target = resolve(name, root)
    kind = request["kind"]
    if side == "mindspore" and request.get("ms_call") == "function":
        kind = "function"  # the table maps a torch class to a MindSpore function
    if kind == "class":
        init_args = decode(call.get("init_args", []), tensors, dtype_of)
        init_kwargs = {k: decode(v, tensors, dtype_of) for k, v in call.get("init_kwargs", {}).items()}
        module = target(*init_args, **init_kwargs)
        return module, args, kwargs
    method_prefix = f"{root}.Tensor."
    if name.startswith(method_prefix) and args:
        member = getattr(args[0], name[len(method_prefix) :])
        if not callable(member):  # a property (T, mT, real …): its value is the output (spec_values: or
            # subscripted by the call's argument, x.size(1) read as x.shape[1])
            return None, Property(member, request.get("ms_call") == "subscript"), (args[1:], kwargs)
        return None, member, (args[1:], kwargs)
    if side == "mindspore" and isinstance(target, type) and request.get("ms_call") != "value":
        # a Primitive class (older tables): build, then call (not a class whose instance is the value)
        init_args = decode(call.get("init_args", []), tensors, dtype_of)
        init_kwargs = {k: decode(v, tensors, dtype_of) for k, v in call.get("init_kwargs", {}).items()}
        return None, target(*init_args, **init_kwargs), (args, kwargs)
    return None, target, (args, kwargs)


def _formed(form: str | None, output: Any) -> Any:
    """MindSpore's ``output`` in torch's form, computed as the fix writes it (``value_forms.wrapping``):
    ``sorted_first_output``: ``mindspore.ops.sort(output[0])[0]``."""
    if form is None:
        return output
    if form == "sorted_first_output":
        return resolve("mindspore.ops.sort", "mindspore")(output[0])[0]
    raise CheckFailure("error", "bad_request", f"unknown result form {form!r}")


class Property:
    """A tensor property read as the check's call: its value is the output."""

    def __init__(self, value: Any, subscript: bool = False) -> None:
        self.value, self.subscript = value, subscript

    def __call__(self, *args: Any, **_kwargs: Any) -> Any:
        return self.value[args[0]] if self.subscript and args else self.value


def _cast(fw: Frameworks, request: dict[str, Any], t_tensors: dict[str, Any], m_tensors: dict[str, Any]
          ) -> tuple[Any, Any]:
    """A dtype's check: the first input cast to it in each framework, with the cast tensor's itemsize."""
    ref = request["torch"]["args"][0]["ref"]
    t_dtype, m_dtype = resolve(request["torch_api"], "torch"), resolve(request["mindspore_api"], "mindspore")
    if not isinstance(t_dtype, fw.torch.dtype):
        raise CheckFailure("error", "bad_request", f"{request['torch_api']} is not a dtype")
    try:
        t_out = t_tensors[ref].to(t_dtype)
        t_result = (t_out, t_out.element_size())
    except Exception as exc:  # noqa: BLE001
        raise CheckFailure("error", "torch_error", exc_text(exc)) from exc
    try:
        m_out = m_tensors[ref].astype(m_dtype)
        m_result = (m_out, m_out.itemsize)
    except Exception as exc:  # noqa: BLE001
        raise CheckFailure("error", classify_ms_error(exc), exc_text(exc)) from exc
    return t_result, m_result


def _per_argument(fw: Frameworks, side: str, request: dict[str, Any], tensors: dict[str, Any]) -> Any:
    """The API called once with each argument (a predicate on a tensor and on a non-tensor)."""
    _module, fn, (args, kwargs) = _call(fw, side, request, tensors)
    return tuple(fn(arg, **kwargs) for arg in args)


def _randomize_buffers(fw: Frameworks, module: Any) -> None:
    """Give running statistics non-trivial values (seeded) before they are copied."""
    gen = fw.torch.Generator().manual_seed(1234)
    for name, buf in module.named_buffers():
        if not buf.is_floating_point():
            continue
        if "var" in name:
            buf.copy_(fw.torch.rand(buf.shape, generator=gen) + 0.5)
        elif "mean" in name:
            buf.copy_(fw.torch.rand(buf.shape, generator=gen) - 0.5)


def _training_mode(fw: Frameworks, request: dict[str, Any], module: Any, fn: Any, call: Any, cell: Any,
                   m_fn: Any, m_call: Any) -> dict[str, Any] | None:
    """A module whose forward depends on the training mode (dropout) also runs training, as real code
    does: a MindSpore error there (no kernel on the device) or outputs of other shapes or dtypes fail
    the check (values are random there); ``None`` when training mode agrees."""
    from msmigrate.check.worker_compare import compare_outputs

    try:
        with fw.torch.no_grad():
            module.train()
            t_leaves = fw.leaves(module(*fn, **call), "torch")
    except Exception as exc:  # noqa: BLE001
        raise CheckFailure("error", "torch_error", "training mode: " + exc_text(exc)) from exc
    try:
        cell.set_train(True)
        m_leaves = fw.leaves(cell(*m_fn, **m_call), "mindspore")
    except (CheckFailure, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001
        raise CheckFailure("error", classify_ms_error(exc), "training mode: " + exc_text(exc)) from exc
    cmp = compare_outputs(t_leaves, m_leaves, shapes_only=request["train_compare"] == "shape_dtype")
    if cmp.status == "pass":
        return None
    return {"status": cmp.status, "reason": cmp.reason, "detail": "training mode: " + "; ".join(cmp.details)}


def run_check(fw: Frameworks, request: dict[str, Any]) -> dict[str, Any]:
    seed = int(request.get("seed", 0))
    arrays = fw.make_arrays(request.get("tensors", {}), seed)
    dtypes = {n: s.get("dtype", "float32") for n, s in request.get("tensors", {}).items()}
    t_tensors = {n: fw.torch_tensor(a, dtypes[n]) for n, a in arrays.items()}
    m_tensors = {n: fw.ms_tensor(a, dtypes[n]) for n, a in arrays.items()}
    fw.seed(seed)
    if request.get("loop") == "training_step":  # an optimizer: training steps, the weights compared
        from msmigrate.check.worker_training import run_training_step

        return run_training_step(fw, request, t_tensors, m_tensors)
    if request.get("loop") == "program":  # containers, from_numpy: the same statements on both sides
        from msmigrate.check.worker_programs import run_program

        return run_program(fw, request)
    if request.get("loop") in ("dtype", "per_argument"):
        return _compare_plain(fw, request, t_tensors, m_tensors)
    torch = fw.torch
    kind = request["kind"]
    try:
        with torch.no_grad():
            module, fn, call = _call(fw, "torch", request, t_tensors)
            if kind == "class":
                module.to(fw.torch_device).eval()
                _randomize_buffers(fw, module)
                t_out = module(*fn, **call)
            else:
                t_out = fn(*call[0], **call[1])
            t_leaves = fw.leaves(t_out, "torch")
    except (CheckFailure, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - any torch exception is a result
        raise CheckFailure("error", "torch_error", exc_text(exc)) from exc
    try:
        cell, m_fn, m_call = _call(fw, "mindspore", request, m_tensors)
        if cell is not None:
            cell.set_train(False)
            copy_parameters(fw, module, cell)
            m_out = cell(*m_fn, **m_call)
        else:
            m_out = m_fn(*m_call[0], **m_call[1])
        m_leaves = fw.leaves(_formed(request.get("result_form"), m_out), "mindspore")
    except (CheckFailure, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001
        raise CheckFailure("error", classify_ms_error(exc), exc_text(exc)) from exc
    if isinstance(m_fn, Property) and not isinstance(fn, Property) and kind != "class" and not m_fn.subscript:
        # ``x.size()`` is no ``x.shape``: no rewrite makes one the other (the fixes call a MindSpore method
        # that stands for a torch property, ``x.real`` → ``x.real()``, as this check does)
        return {"status": "fail", "reason": "member_kind",
                "detail": "a method in torch, a property in MindSpore"}
    if kind == "class" and cell is not None and request.get("train_compare"):
        training = _training_mode(fw, request, module, fn, call, cell, m_fn, m_call)
        if training is not None:
            return training
    return compared_result(request, t_leaves, m_leaves)


def _compare_plain(fw: Frameworks, request: dict[str, Any], t_tensors: dict[str, Any],
                   m_tensors: dict[str, Any]) -> dict[str, Any]:
    """A dtype cast or a predicate called per argument: both outputs compared as a call's."""
    if request["loop"] == "dtype":
        t_out, m_out = _cast(fw, request, t_tensors, m_tensors)
    else:
        try:
            t_out = _per_argument(fw, "torch", request, t_tensors)
        except (CheckFailure, MemoryError):
            raise
        except Exception as exc:  # noqa: BLE001
            raise CheckFailure("error", "torch_error", exc_text(exc)) from exc
        try:
            m_out = _per_argument(fw, "mindspore", request, m_tensors)
        except (CheckFailure, MemoryError):
            raise
        except Exception as exc:  # noqa: BLE001
            raise CheckFailure("error", classify_ms_error(exc), exc_text(exc)) from exc
    return compared_result(request, fw.leaves(t_out, "torch"), fw.leaves(m_out, "mindspore"))


# --- request loop ----------------------------------------------------------------------------------

_frameworks: Frameworks | None = None


def _load(device: str) -> Frameworks:
    global _frameworks
    if _frameworks is None:
        _frameworks = Frameworks(device)
    elif _frameworks.device != device:
        raise CheckFailure("error", "bad_request", f"worker runs on {_frameworks.device}, not {device}")
    return _frameworks


def handle(request: dict[str, Any]) -> dict[str, Any]:
    """Answer one request with a result dict (never raises)."""
    started = time.monotonic()
    kind = request.get("kind")
    base = {
        "api": request.get("torch_api", ""),
        "mindspore_api": request.get("mindspore_api"),
        "device": request.get("device", "CPU"),
    }
    try:
        if kind in ("sleep", "crash") and os.environ.get(TEST_KINDS_ENV) == "1":
            if kind == "sleep":
                time.sleep(float(request.get("seconds", 3600)))
            elif request.get("how") == "segv":
                os.kill(os.getpid(), signal.SIGSEGV)
            else:
                os._exit(int(request.get("code", 3)))
            return {**base, "status": "skipped", "reason": "spec_skip"}
        fw = _load(base["device"])
        base.update(fw.versions)
        if kind == "load":
            return {**base, "status": "pass", "available_devices": fw.available}
        if kind not in CHECK_KINDS:
            raise CheckFailure("error", "bad_request", f"unknown request kind {kind!r}")
        run = importlib.import_module("msmigrate.check.worker_composition").run_composition \
            if kind == "composition" else run_check
        result = {**base, **run(fw, request)}
    except CheckFailure as failure:
        result = {**base, "status": failure.status, "reason": failure.reason, "detail": failure.detail}
    except MemoryError as exc:  # the address-space cap of the runner
        result = {**base, "status": "error", "reason": "memory_limit", "detail": exc_text(exc)}
    except Exception as exc:  # noqa: BLE001 - the loop must answer every request
        result = {
            **base,
            "status": "error",
            "reason": "bad_request",
            "detail": exc_text(exc) + " | " + traceback.format_exc(limit=3)[-600:],
        }
    result["duration"] = round(time.monotonic() - started, 4)
    return result


def main() -> int:
    from msmigrate.check.worker_protocol import serve

    return serve(handle)


if __name__ == "__main__":
    sys.exit(main())
