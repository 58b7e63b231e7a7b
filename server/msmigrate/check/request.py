"""Build the JSON request the worker runs, from a mapping row and an input spec.

Only names from the mapping table are put in a request; call-site argument values are taken
only when they are literals (``ast.literal_eval``), never evaluated otherwise.
"""

from __future__ import annotations

import ast
import json
import os
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from msmigrate.check.spec import ApiSpec, api_kind, load_specs, not_called_spec, spec_for
from msmigrate.knowledge.check_result import CheckResult, Reason
from msmigrate.knowledge.model import MappingCategory, MappingRow
from msmigrate.knowledge.value_forms import CHECKED_FORMS, result_form

REQUEST_VERSION = 1
OVERRIDE_ENV = "MSMIGRATE_CHECK_MAPPING_OVERRIDE"  # tests only: JSON file {torch_api: mindspore_api}

# torch namespaces without a single-op numerical comparison.
NOT_OP_PREFIXES: tuple[str, ...] = (
    "torch.distributed.",
    "torch.optim.",
    "torch.utils.",
    "torch.cuda.",
    "torch.backends.",
    "torch.autograd.",
    "torch.jit.",
    "torch.onnx.",
    "torch.hub.",
    "torch.multiprocessing.",
    "torch.nn.init.",
    "torch.nn.parallel.",
    "torch.nn.utils.",
    "torch.amp.",
    "torch.profiler.",
    "torch.testing.",
    "torch.random.",
    "torch.distributions.",
    "torchvision.datasets.",
    "torchvision.transforms.",
    "torchvision.io.",
    "torchaudio.",
    "torchtext.",
)
NOT_OP_NAMES = frozenset(
    {
        "torch.nn.Module",
        "torch.nn.Sequential",
        "torch.nn.ModuleList",
        "torch.nn.ModuleDict",
        "torch.nn.ParameterList",
        "torch.nn.ParameterDict",
        "torch.no_grad",
        "torch.enable_grad",
        "torch.set_grad_enabled",
        "torch.save",
        "torch.load",
        "torch.manual_seed",
        "torch.seed",
        "torch.initial_seed",
        "torch.get_rng_state",
        "torch.set_rng_state",
        "torch.is_tensor",
        "torch.is_storage",
        "torch.set_default_dtype",
        "torch.get_default_dtype",
        "torch.set_printoptions",
        "torch.Tensor.device",
        "torch.Tensor.to",
        "torch.Tensor.cuda",
        "torch.Tensor.cpu",
        "torch.Tensor.register_hook",
        "torch.Tensor.backward",
        "torch.Tensor.requires_grad_",
        "torch.Tensor.detach",
        "torch.Tensor.data_ptr",
        "torch.Tensor.storage_offset",
        "torch.Tensor.stride",
        "torch.Tensor.grad",
        "torch.Tensor.requires_grad",
        "torch.Tensor.is_leaf",
        "torch.Tensor.new_tensor",
        "torch.Tensor.get_device",
        "torch.Generator",
        "torch.nn.Module.apply",
    }
)
RANDOM_NAMES = frozenset(
    {
        "bernoulli",
        "multinomial",
        "normal",
        "rand",
        "rand_like",
        "randint",
        "randint_like",
        "randn",
        "randn_like",
        "randperm",
        "poisson",
        "rrelu",
        "RReLU",
        "gumbel_softmax",
        "uniform_",
        "normal_",
        "random_",
        "exponential_",
        "geometric_",
        "log_normal_",
        "cauchy_",
        "bernoulli_",
        "dropout",
        "dropout1d",
        "dropout2d",
        "dropout3d",
        "alpha_dropout",
        "feature_alpha_dropout",
        "Dropout",
        "Dropout1d",
        "Dropout2d",
        "Dropout3d",
        "AlphaDropout",
        "FeatureAlphaDropout",
        "fractional_max_pool2d",
        "fractional_max_pool3d",
        "FractionalMaxPool2d",
        "FractionalMaxPool3d",
        "random_split",
        "shuffle",
    }
)


# spec loops the worker runs (an optimizer's training steps, a cast to a dtype, a predicate called on a tensor
# and on a non-tensor, a program of check/worker_programs.py): compared although the name is not op-like
COMPARED_LOOPS = frozenset({"training_step", "dtype", "per_argument", "program"})


def is_op_like(torch_api: str) -> bool:
    """Functions, Tensor methods and nn layers of torch (what the verified tables compare)."""
    return (
        torch_api.startswith("torch.")
        and not torch_api.startswith(NOT_OP_PREFIXES)
        and torch_api not in NOT_OP_NAMES
    )


@dataclass(frozen=True, slots=True)
class CheckTarget:
    """What to check: a torch API, its MindSpore counterpart and how to call both."""

    torch_api: str
    mindspore_api: str | None
    kind: str  # function | tensor_method | class
    spec: ApiSpec
    row: MappingRow | None = None
    signatures: tuple[tuple[str, ...], ...] = ()  # torch parameter names per overload (no ``self``)


@cache
def _overrides(path: str) -> dict[str, str]:
    with Path(path).open(encoding="utf-8") as fh:
        data = json.load(fh)
    return {k: (v["mindspore_api"] if isinstance(v, dict) else v) for k, v in data.items()}


def mapping_overrides() -> dict[str, str]:
    """Test-only replacement pairs from ``$MSMIGRATE_CHECK_MAPPING_OVERRIDE`` (empty when unset)."""
    path = os.environ.get(OVERRIDE_ENV)
    return _overrides(path) if path else {}


def target_for(torch_api: str, kb: Any, specs: dict[str, ApiSpec] | None = None) -> CheckTarget:
    """Resolve a torch API against a knowledge base (``KnowledgeBase``) into a check target."""
    row = kb.mapping(torch_api)  # a derived mapping where the table has none
    mindspore_api = row.mindspore_api if row else None
    override = mapping_overrides().get(torch_api)
    if override:
        mindspore_api = override
        row = (
            replace(row, mindspore_api=override)
            if row
            else MappingRow(torch_api, override, MappingCategory.CONSISTENT, section="override")
        )
    kind = api_kind(torch_api, kb.torch_kind(torch_api))
    table = load_specs() if specs is None else specs
    spec = spec_for(torch_api, kind, kb.torch_signatures(torch_api), table, mindspore_api)
    spec = not_called_spec(torch_api, kb.torch_kind(torch_api), spec)
    signatures = tuple(tuple(p["name"] for p in sig) for sig in kb.torch_signatures(torch_api))
    return CheckTarget(torch_api, mindspore_api, kind, spec, row, signatures)


def precheck(target: CheckTarget, device: str = "CPU") -> CheckResult | None:
    """A ``skipped`` result when the target cannot be compared, else ``None``."""
    api, ms_api = target.torch_api, target.mindspore_api

    def skip(reason: Reason, detail: str | None = None) -> CheckResult:
        return CheckResult.skipped(api, ms_api, reason, detail, device=device)

    if not ms_api:
        return skip(Reason.NO_MAPPING)
    if not is_op_like(api) and target.spec.loop not in COMPARED_LOOPS:
        return skip(Reason.NOT_OP)
    if target.spec.skip:
        return skip(Reason(target.spec.skip), target.spec.note)
    if target.spec.source == "generic" and api.rsplit(".", 1)[-1] in RANDOM_NAMES:
        return skip(Reason.RANDOM)
    return None


def literal_value(source: str) -> tuple[bool, Any]:
    """``(True, value)`` when ``source`` is a Python literal, else ``(False, None)``."""
    try:
        return True, ast.literal_eval(source)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


# Constructor arguments that fix the shapes of the generated inputs: never taken from a call site.
SHAPE_PARAMS = frozenset(
    {
        "in_features",
        "out_features",
        "in_channels",
        "out_channels",
        "num_features",
        "normalized_shape",
        "num_embeddings",
        "embedding_dim",
        "num_channels",
        "num_groups",
        "num_parameters",
        "input_size",
        "hidden_size",
        "in1_features",
        "in2_features",
        "embed_dim",
        "d_model",
    }
)


def _is_tensor(value: Any) -> bool:
    return isinstance(value, dict) and "tensor" in value


def _position(name: str, signatures: tuple[tuple[str, ...], ...], offset: int) -> int | None:
    """Position of parameter ``name`` in the call's arguments (first overload naming it)."""
    for names in signatures:
        if name in names:
            return names.index(name) + offset
    return None


def _apply_literals(
    spec: ApiSpec,
    kind: str,
    call_args: list[str] | None,
    call_kwargs: dict[str, str] | None,
    signatures: tuple[tuple[str, ...], ...] = (),
) -> tuple[ApiSpec, list[str]]:
    """Use literal call-site arguments in place of the spec's non-tensor values.

    A keyword given at the call site replaces the spec's positional value for the same parameter.
    """
    used: list[str] = []
    is_class = kind == "class"
    args = list(spec.init_args if is_class else spec.args)
    kwargs = dict(spec.init_kwargs if is_class else spec.kwargs)
    offset = 1 if kind == "tensor_method" else 0  # args[0] is the receiver
    if not is_class:  # a class's positional arguments are mostly shapes: keep the spec's
        for index, text in enumerate(call_args or []):
            position = index + offset
            if position >= len(args) or _is_tensor(args[position]):
                continue
            ok, value = literal_value(text)
            if ok:
                args[position] = _encode_literal(value)
                used.append(f"#{index}")
    for name, text in (call_kwargs or {}).items():
        if is_class and name in SHAPE_PARAMS:
            continue
        ok, value = literal_value(text)
        if not ok:
            continue
        position = _position(name, signatures, offset)
        if position is not None and position < len(args):
            if _is_tensor(args[position]) or (is_class and name in SHAPE_PARAMS):
                continue
            args[position] = _encode_literal(value)
        elif _is_tensor(kwargs.get(name)):
            continue
        else:
            kwargs[name] = _encode_literal(value)
        used.append(name)
    if is_class:
        return replace(spec, init_args=tuple(args), init_kwargs=kwargs), used
    return replace(spec, args=tuple(args), kwargs=kwargs), used


def _encode_literal(value: Any) -> Any:
    if isinstance(value, tuple):
        return {"tuple": [_encode_literal(v) for v in value]}
    if isinstance(value, list):
        return [_encode_literal(v) for v in value]
    if isinstance(value, dict):  # a dict literal is no spec encoding: pass it as a plain mapping
        return {"mapping": {str(k): _encode_literal(v) for k, v in value.items()}}
    if isinstance(value, (bytes, complex, set, frozenset)):
        return repr(value)
    return value


class _Tensors:
    """Collects the tensor specs of a request and replaces them by references."""

    def __init__(self) -> None:
        self.specs: dict[str, dict[str, Any]] = {}

    def extract(self, value: Any) -> Any:
        if isinstance(value, dict):
            if "tensor" in value:
                name = f"t{len(self.specs)}"
                self.specs[name] = value["tensor"]
                return {"ref": name}
            return {k: self.extract(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.extract(v) for v in value]
        return value


def _link(value: Any, args: list[Any], kwargs: dict[str, Any], tensors: _Tensors) -> Any:
    """Resolve ``{"arg": i}``/``{"kwarg": name}`` of a MindSpore value to the torch call's values."""
    if isinstance(value, dict):
        if set(value) == {"arg"}:
            return args[value["arg"]]
        if set(value) == {"kwarg"}:
            return kwargs[value["kwarg"]]
        if "tensor" in value:
            return tensors.extract(value)
        return {k: _link(v, args, kwargs, tensors) for k, v in value.items()}
    if isinstance(value, list):
        return [_link(v, args, kwargs, tensors) for v in value]
    return value


def _ms_kwargs(torch_kwargs: dict[str, Any], row: MappingRow | None) -> tuple[dict[str, Any], list[str]]:
    """Rename torch keyword arguments for MindSpore; drop torch-only ones."""
    if row is None:
        return dict(torch_kwargs), []
    renames = {**row.input_renames, **row.param_renames}
    out: dict[str, Any] = {}
    dropped: list[str] = []
    for name, value in torch_kwargs.items():
        if name in row.torch_only_params and name not in renames:
            dropped.append(name)
            continue
        out[renames.get(name, name)] = value
    return out, dropped


def build_request(
    target: CheckTarget,
    *,
    device: str = "CPU",
    seed: int = 0,
    rtol: float | None = None,
    atol: float | None = None,
    call_args: list[str] | None = None,
    call_kwargs: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The worker request (JSON-ready dict) for ``target``."""
    spec, literals = _apply_literals(target.spec, target.kind, call_args, call_kwargs, target.signatures)
    tensors = _Tensors()
    t_args = tensors.extract(list(spec.args))
    t_kwargs = tensors.extract(dict(spec.kwargs))
    t_init_args = tensors.extract(list(spec.init_args))
    t_init_kwargs = tensors.extract(dict(spec.init_kwargs))

    if spec.ms_args is not None:
        m_args = _link(list(spec.ms_args), t_args, t_kwargs, tensors)
    else:
        m_args = list(t_args)
    dropped: list[str] = []
    if spec.ms_kwargs is not None:
        m_kwargs = _link(dict(spec.ms_kwargs), t_args, t_kwargs, tensors)
    else:
        m_kwargs, dropped = _ms_kwargs(t_kwargs, target.row)
    if spec.ms_init_args is not None:
        m_init_args = _link(list(spec.ms_init_args), t_init_args, t_init_kwargs, tensors)
    else:
        m_init_args = list(t_init_args)
    if spec.ms_init_kwargs is not None:
        m_init_kwargs = _link(dict(spec.ms_init_kwargs), t_init_args, t_init_kwargs, tensors)
    else:
        m_init_kwargs, dropped_init = _ms_kwargs(t_init_kwargs, target.row)
        dropped += dropped_init
    form = _checked_form(target, len(t_args), {*t_kwargs, *m_kwargs})
    return {
        "version": REQUEST_VERSION,
        "kind": "function" if spec.ms_call == "value" else target.kind,  # spec_values: a class's instance
        "torch_api": target.torch_api,
        "mindspore_api": target.mindspore_api,
        "device": device,
        "seed": seed,
        "tensors": tensors.specs,
        "torch": {"args": t_args, "kwargs": t_kwargs, "init_args": t_init_args, "init_kwargs": t_init_kwargs},
        "mindspore": {
            "args": m_args,
            "kwargs": m_kwargs,
            "init_args": m_init_args,
            "init_kwargs": m_init_kwargs,
        },
        "rtol": rtol if rtol is not None else spec.rtol,
        "atol": atol if atol is not None else spec.atol,
        "compare": spec.compare,
        "train_compare": spec.train_compare,
        "outputs": list(spec.outputs) if spec.outputs is not None else None,
        "ms_outputs": list(spec.ms_outputs) if spec.ms_outputs is not None else None,
        "ms_call": spec.ms_call,
        "loop": spec.loop if spec.loop in COMPARED_LOOPS else None,
        "literals": literals,
        "dropped": dropped,
        "result_form": form,
    }


def _checked_form(target: CheckTarget, positional: int, keywords: set[str]) -> str | None:
    """The result form the fix writes for this call of the MindSpore API and the worker applies before
    comparing (``value_forms.CHECKED_FORMS``); ``positional`` arguments count as the torch parameters of
    the first overload (a Tensor method's ``args[0]`` is the tensor)."""
    offset = 1 if target.kind == "tensor_method" else 0
    names = target.signatures[0] if target.signatures else ()
    form = result_form(target.mindspore_api or "", keywords | set(names[: max(positional - offset, 0)]))
    return form if form in CHECKED_FORMS else None
