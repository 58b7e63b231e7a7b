"""What the worker's modules share (``worker.py``, ``worker_training.py``, ``worker_composition.py``): the
failure a check ends with and its one-line text, MindSpore's "no kernel on this device" errors, the import
of a requested ``torch.*``/``mindspore.*`` name, the decoding of a request's values, the copy of a torch
module's weights into a MindSpore cell and the result of the compared outputs. Imports neither torch nor
MindSpore itself (the frameworks come in as ``fw``, ``worker.Frameworks``)."""

from __future__ import annotations

import importlib
from typing import Any


class CheckFailure(Exception):
    """A check ended early with a reason (error or skip)."""

    def __init__(self, status: str, reason: str, detail: str = "") -> None:
        super().__init__(detail)
        self.status, self.reason, self.detail = status, reason, detail


def exc_text(exc: BaseException, limit: int = 1200) -> str:
    """``Type: message`` on one line, without MindSpore's C++ call-stack section and separators."""
    kept: list[str] = []
    for line in str(exc).strip().splitlines():
        stripped = line.strip()
        if stripped.startswith("- C++ Call Stack"):
            break
        if stripped and set(stripped) != {"-"}:
            kept.append(stripped)
    return f"{type(exc).__name__}: {' '.join(kept)}"[:limit]


def resolve(name: str, root: str) -> Any:
    """Import the object a dotted ``torch.*``/``mindspore.*`` name refers to."""
    if not name or not (name == root or name.startswith(root + ".")):
        raise CheckFailure("error", "bad_request", f"{name!r} is not a {root} API")
    parts = name.split(".")
    module = None
    for cut in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:cut]))
            break
        except ImportError:
            continue
    if module is None:
        raise CheckFailure("error", "api_not_found", name)
    obj: Any = module
    for part in parts[cut:]:
        try:
            obj = getattr(obj, part)
        except AttributeError as exc:
            raise CheckFailure("error", "api_not_found", name) from exc
    return obj


def decode(value: Any, tensors: dict[str, Any], dtype_of: Any) -> Any:
    if isinstance(value, dict):
        if "ref" in value:
            return tensors[value["ref"]]
        if "tuple" in value:
            return tuple(decode(v, tensors, dtype_of) for v in value["tuple"])
        if "dtype" in value:
            return dtype_of(value["dtype"])
        if "mapping" in value:
            return {k: decode(v, tensors, dtype_of) for k, v in value["mapping"].items()}
        raise CheckFailure("error", "bad_request", f"unknown value encoding {sorted(value)}")
    if isinstance(value, list):
        return [decode(v, tensors, dtype_of) for v in value]
    return value


UNSUPPORTED_MARKERS = (
    "unregistered",
    "unsupported op",
    "only supports ascend",
    "support ascend only",  # Tensor.new_full: "new_full method support Ascend only"
    "not found op",
    "create kernelmod for op",
    "not implement exception",  # an operator without an implementation for the device (mint's dropout2d)
)


def classify_ms_error(exc: BaseException) -> str:
    """``unsupported_on_device`` when MindSpore has no kernel for the op on this device."""
    text = str(exc).lower()
    if any(marker in text for marker in UNSUPPORTED_MARKERS):
        return "unsupported_on_device"
    if "not support" in text and ("cpu" in text or "device" in text):
        return "unsupported_on_device"
    return "mindspore_error"


PARAM_ALIASES: dict[str, tuple[str, ...]] = {
    "weight": ("weight", "gamma", "embedding_table", "w"),
    "bias": ("bias", "beta", "b"),
    "running_mean": ("running_mean", "moving_mean", "mean"),
    "running_var": ("running_var", "moving_variance", "variance"),
}


# MindSpore parameters that may keep their initial values: step counters, and running statistics
# of layers whose torch counterpart keeps none by default (InstanceNorm).
UNCOPIED_PARAMS = frozenset({"num_batches_tracked", "moving_mean", "moving_variance"})


def copy_parameters(fw: Any, module: Any, cell: Any) -> None:
    """Copy the torch module's parameters and float buffers into the MindSpore cell."""
    np = fw.np
    t_items = [
        (n, v.detach().cpu().float().numpy() if v.dtype == fw.torch.bfloat16 else v.detach().cpu().numpy())
        for n, v in module.state_dict().items()
        if v.is_floating_point()
    ]
    m_items = list(cell.parameters_and_names())
    used: set[int] = set()
    for t_name, value in t_items:
        short = t_name.rsplit(".", 1)[-1]
        aliases = PARAM_ALIASES.get(short, (short,))
        choice = None
        for i, (m_name, param) in enumerate(m_items):
            if i in used:
                continue
            m_short = m_name.rsplit(".", 1)[-1]
            if m_short in aliases and param.shape and int(np.prod(param.shape)) == value.size:
                choice = i
                break
        if choice is None:
            for i, (_m_name, param) in enumerate(m_items):
                if i not in used and tuple(param.shape) == value.shape:
                    choice = i
                    break
        if choice is None:
            raise CheckFailure(
                "error", "param_copy", f"no MindSpore parameter for torch {t_name} {list(value.shape)}"
            )
        used.add(choice)
        param = m_items[choice][1]
        data = (
            value
            if tuple(param.shape) == value.shape
            else (
                value.T
                if value.ndim == 2 and value.T.shape == tuple(param.shape)
                else value.reshape(param.shape)
            )
        )
        param.set_data(fw.ms.Tensor(np.ascontiguousarray(data), param.dtype))
    left = [
        m_items[i][0]
        for i in range(len(m_items))
        if i not in used and m_items[i][0].rsplit(".", 1)[-1] not in UNCOPIED_PARAMS
    ]
    if left:
        raise CheckFailure(
            "error", "param_copy", f"MindSpore parameters without torch value: {', '.join(left)}"
        )


def compared_result(request: dict[str, Any], t_leaves: list[Any], m_leaves: list[Any]) -> dict[str, Any]:
    """The compared outputs (those the request selects) as a result."""
    from msmigrate.check.worker_compare import compare_outputs, result_fields, sorted_leaf

    outputs = request.get("outputs")
    ms_outputs = request.get("ms_outputs") or outputs
    if outputs is not None or ms_outputs is not None:
        try:
            t_leaves = [t_leaves[i] for i in outputs] if outputs is not None else t_leaves
            m_leaves = [m_leaves[i] for i in ms_outputs] if ms_outputs is not None else m_leaves
        except IndexError as exc:
            raise CheckFailure(
                "fail", "output_structure", f"{len(t_leaves)} torch / {len(m_leaves)} MindSpore outputs"
            ) from exc
    if request.get("compare") == "sorted":  # the API defines no order of its values (eigenvalues …)
        t_leaves = [sorted_leaf(leaf) for leaf in t_leaves]
        m_leaves = [sorted_leaf(leaf) for leaf in m_leaves]
    cmp = compare_outputs(
        t_leaves,
        m_leaves,
        request.get("rtol"),
        request.get("atol"),
        shapes_only=request.get("compare") == "shape_dtype",
    )
    return {**result_fields(cmp, t_leaves, m_leaves), "result_form": request.get("result_form")}
