"""Input specs: how to build the arguments of one API check.

A spec is plain JSON data (``mapping_data/input_specs.json``, generated from
:mod:`msmigrate.check.spec_table`). Argument values use a small encoding:

* JSON scalars, ``null`` and lists stand for themselves;
* ``{"tensor": {"shape": [2, 3], "dtype": "float32", "low": -1, "high": 1}}`` a random tensor
  (``"data": [...]`` instead of shape/low/high gives fixed values);
* ``{"tuple": [...]}`` a tuple, ``{"dtype": "float32"}`` a framework dtype;
* ``{"arg": 0}`` / ``{"kwarg": "dim"}`` (MindSpore side only) the same value as the torch call's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from msmigrate.paths import data_dir

SPECS_FILE = "input_specs.json"
SCHEMA_VERSION = 1

Value = Any  # JSON value in the encoding above

DEFAULT_SHAPE: tuple[int, ...] = (2, 3, 4)

# --- authoring helpers (used by spec_table.py) ------------------------------------------------


def T(*shape: int, dtype: str = "float32", low: float = -1.0, high: float = 1.0) -> dict[str, Any]:
    """A random tensor (uniform in [low, high); integers in [low, high))."""
    return {"tensor": {"shape": list(shape or DEFAULT_SHAPE), "dtype": dtype, "low": low, "high": high}}


def P(*shape: int, low: float = 0.1, high: float = 2.0, dtype: str = "float32") -> dict[str, Any]:
    """A random tensor of positive values."""
    return T(*shape, dtype=dtype, low=low, high=high)


def I(*shape: int, low: int = 0, high: int = 3, dtype: str = "int64") -> dict[str, Any]:  # noqa: E743
    """A random integer tensor (indices)."""
    return T(*shape, dtype=dtype, low=low, high=high)


def B(*shape: int) -> dict[str, Any]:
    """A random boolean tensor (masks)."""
    return T(*shape, dtype="bool", low=0, high=2)


def D(data: Any, dtype: str = "float32") -> dict[str, Any]:
    """A tensor with fixed values."""
    return {"tensor": {"data": data, "dtype": dtype}}


def TUP(*items: Value) -> dict[str, Any]:
    return {"tuple": list(items)}


def DT(name: str) -> dict[str, Any]:
    return {"dtype": name}


def ARG(index: int) -> dict[str, Any]:
    return {"arg": index}


def KW(name: str) -> dict[str, Any]:
    return {"kwarg": name}


# --- the spec model ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ApiSpec:
    """How to call one torch API (and its MindSpore counterpart) for a check.

    For functions ``args``/``kwargs`` are the call's arguments; for Tensor methods ``args[0]`` is the
    tensor the method is called on; for classes ``init_*`` build the module and ``args``/``kwargs``
    are the forward inputs. ``ms_*`` replace the derived MindSpore arguments when the official
    mapping changes more than parameter names.
    """

    args: tuple[Value, ...] = ()
    kwargs: dict[str, Value] = field(default_factory=dict)
    init_args: tuple[Value, ...] = ()
    init_kwargs: dict[str, Value] = field(default_factory=dict)
    ms_args: tuple[Value, ...] | None = None
    ms_kwargs: dict[str, Value] | None = None
    ms_init_args: tuple[Value, ...] | None = None
    ms_init_kwargs: dict[str, Value] | None = None
    rtol: float | None = None
    atol: float | None = None
    compare: str = "values"  # values | sorted (the API defines no order) | shape_dtype (values meaningless)
    # a module whose forward depends on its training mode (dropout): how its output in training mode
    # compares (shape_dtype: random there); ``compare`` is then its output in inference mode (``.eval()``)
    train_compare: str | None = None
    outputs: tuple[int, ...] | None = None  # which outputs of a tuple result to compare
    ms_outputs: tuple[int, ...] | None = None  # the MindSpore outputs to compare (default: ``outputs``)
    ms_call: str | None = None  # "function": the MindSpore API of a class row is a function
    # "training_step": an optimizer; ``args`` are (inputs, targets, weight, bias) of a linear model,
    # ``init_kwargs`` its hyperparameters, and the check (``worker_training.py``) and the conversion suite
    # compare the weights after two steps;
    # "lr_scheduler": a learning-rate scheduler of an SGD optimizer (``init_kwargs`` its arguments), with
    # three steps;
    # "dtype": a dtype: ``args[0]`` is cast to it in both frameworks, the cast tensor and its itemsize
    # compared;
    # "per_argument": the API is called once with each argument of ``args`` (a predicate given a tensor and a
    # non-tensor), the results compared
    loop: str | None = None
    skip: str | None = None  # a result.Reason value: the API is not compared
    # an API used through state rather than one call (seeds, RNG state, ``Module.apply``): the torch
    # statements real code writes with it, after the inputs built from ``args`` (``x0``…), setting
    # ``result``; run by the conversion suite as written (their compared values are set by the program)
    program: tuple[str, ...] | None = None
    note: str | None = None  # project-written note (why the spec looks like this, known findings)
    source: str = "table"  # table | generic

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for name in ApiSpec.__slots__:
            value = getattr(self, name)
            if name == "source" or value in (None, (), {}) or (name == "compare" and value == "values"):
                continue
            data[name] = list(value) if isinstance(value, tuple) else value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], source: str = "table") -> ApiSpec:
        def tup(key: str) -> tuple[Value, ...] | None:
            return tuple(data[key]) if key in data else None

        return cls(
            args=tup("args") or (),
            kwargs=dict(data.get("kwargs", {})),
            init_args=tup("init_args") or (),
            init_kwargs=dict(data.get("init_kwargs", {})),
            ms_args=tup("ms_args"),
            ms_kwargs=data.get("ms_kwargs"),
            ms_init_args=tup("ms_init_args"),
            ms_init_kwargs=data.get("ms_init_kwargs"),
            rtol=data.get("rtol"),
            atol=data.get("atol"),
            compare=data.get("compare", "values"),
            outputs=tup("outputs"),
            ms_outputs=tup("ms_outputs"),
            ms_call=data.get("ms_call"),
            loop=data.get("loop"),
            skip=data.get("skip"),
            program=tup("program"),
            note=data.get("note"),
            train_compare=data.get("train_compare"),
            source=source,
        )


def specs_path() -> Path:
    return data_dir() / SPECS_FILE


@cache
def load_specs(path: Path | None = None) -> dict[str, ApiSpec]:
    """The spec table of ``mapping_data/input_specs.json`` (empty when the file is missing)."""
    path = path or specs_path()
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    return {api: ApiSpec.from_json(entry) for api, entry in data.get("specs", {}).items()}


def render_specs_json(table: dict[str, ApiSpec]) -> str:
    """The deterministic text of ``input_specs.json`` for a spec table."""
    payload = {
        "schema_version": SCHEMA_VERSION,
        "generator": "msmigrate.check.spec_table",
        "specs": {api: table[api].to_json() for api in sorted(table)},
    }
    return json.dumps(payload, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


# --- generic rules -----------------------------------------------------------------------------

# Short API names whose inputs must lie in a domain (value range of the generated tensor).
POSITIVE = frozenset(
    {
        "log",
        "log2",
        "log10",
        "sqrt",
        "rsqrt",
        "reciprocal",
        "lgamma",
        "digamma",
        "polygamma",
        "mvlgamma",
        "rsqrt_",
        "sqrt_",
        "log_",
        "logit",
    }
)
UNIT_OPEN = frozenset({"asin", "acos", "atanh", "arcsin", "arccos", "arctanh", "erfinv"})
GREATER_ONE = frozenset({"acosh", "arccosh"})
ABOVE_MINUS_ONE = frozenset({"log1p"})

TENSOR_PARAMS = frozenset(
    {
        "input",
        "self",
        "x",
        "other",
        "tensor",
        "a",
        "b",
        "x1",
        "x2",
        "y",
        "target",
        "end",
        "exponent",
        "grad_output",
        "value",
    }
)
INDEX_PARAMS = frozenset({"index", "indices"})
MASK_PARAMS = frozenset({"mask"})
INT_PARAMS = {
    "dim": 1,
    "axis": 1,
    "k": 1,
    "n": 2,
    "diagonal": 0,
    "repeats": 2,
    "chunks": 2,
    "sections": 2,
    "split_size_or_sections": 2,
    "split_size": 2,
}


def value_range(short_name: str) -> tuple[float, float]:
    name = short_name.rstrip("_")
    if name in POSITIVE:
        return 0.1, 2.0
    if name in UNIT_OPEN:
        return -0.9, 0.9
    if name in GREATER_ONE:
        return 1.1, 3.0
    if name in ABOVE_MINUS_ONE:
        return -0.5, 1.0
    return -1.0, 1.0


def api_kind(torch_api: str, inventory_kind: str | None = None) -> str:
    """``function`` | ``tensor_method`` | ``class`` for a torch API name."""
    if inventory_kind in ("class", "tensor_method", "function"):
        return inventory_kind
    if torch_api.startswith("torch.Tensor."):
        return "tensor_method"
    short = torch_api.rsplit(".", 1)[-1]
    return "class" if short[:1].isupper() else "function"


def generic_spec(torch_api: str, kind: str, signatures: list[list[dict[str, Any]]] | None = None) -> ApiSpec:
    """Build a spec from the torch signature and the generic rules, or a spec that skips the API."""
    short = torch_api.rsplit(".", 1)[-1]
    low, high = value_range(short)

    def tensor() -> dict[str, Any]:
        return T(*DEFAULT_SHAPE, low=low, high=high)

    params = _best_params(signatures) if signatures else None
    if kind == "class":
        if params:  # a constructor with required arguments needs a table entry
            return ApiSpec(skip="no_input_rule", note="constructor_arguments", source="generic")
        return ApiSpec(args=(tensor(),), source="generic")
    if params is None:
        return ApiSpec(args=(tensor(),), source="generic")
    args: list[Value] = []
    for name in params:
        if kind == "tensor_method" and not args and name not in ("self", "input"):
            args.append(tensor())  # the tensor the method is called on
        if name in TENSOR_PARAMS:
            args.append(tensor())
        elif name in INDEX_PARAMS:
            args.append(I(*DEFAULT_SHAPE))
        elif name in MASK_PARAMS:
            args.append(B(*DEFAULT_SHAPE))
        elif name in INT_PARAMS:
            args.append(INT_PARAMS[name])
        else:
            return ApiSpec(skip="no_input_rule", note=f"required_parameter:{name}", source="generic")
    if kind == "tensor_method" and not args:
        args.append(tensor())
    return ApiSpec(args=tuple(args), source="generic")


def _best_params(signatures: list[list[dict[str, Any]]]) -> list[str]:
    """Required parameters of the overload the generic rules can fill best (fewest unknown names)."""
    known = TENSOR_PARAMS | INDEX_PARAMS | MASK_PARAMS | set(INT_PARAMS)

    def cost(params: list[str]) -> tuple[int, int]:
        return (sum(1 for p in params if p not in known), len(params))

    return min((_required_params(sig) for sig in signatures), key=cost)


def _required_params(signature: list[dict[str, Any]]) -> list[str]:
    return [
        p["name"]
        for p in signature
        if "default" not in p and p["kind"] in ("positional_only", "positional_or_keyword")
    ]


def pair_key(torch_api: str, mindspore_api: str) -> str:
    """Key of a spec that applies to one torch → MindSpore pair only."""
    return f"{torch_api} -> {mindspore_api}"


def spec_for(
    torch_api: str,
    kind: str,
    signatures: list[list[dict[str, Any]]] | None = None,
    table: dict[str, ApiSpec] | None = None,
    mindspore_api: str | None = None,
) -> ApiSpec:
    """The table's spec of the pair, else of ``torch_api``, else the generic one."""
    table = load_specs() if table is None else table
    found = table.get(pair_key(torch_api, mindspore_api)) if mindspore_api else None
    found = found if found is not None else table.get(torch_api)
    return found if found is not None else generic_spec(torch_api, kind, signatures)


# --- names that are not called: dtypes and tensor attributes -------------------------------------

# torch's dtype aliases → the dtype whose values they hold (``torch.long`` is ``torch.int64``)
DTYPE_ALIASES = {"long": "int64", "int": "int32", "short": "int16", "half": "float16", "float": "float32",
                 "double": "float64", "cfloat": "complex64", "cdouble": "complex128", "chalf": "complex32"}
_DTYPE_NAME = re.compile(r"(b?float|u?int|complex)\d+\w*")
# the values cast to a dtype by its check: exact in every dtype, a fraction truncated by integer casts
DTYPE_VALUES = [[0.0, 1.0, 2.5], [7.0, 0.25, 100.0]]
# tensor attributes whose values the two frameworks do not express alike (a device object, a memory address,
# autograd state): no comparison
UNCOMPARED_TENSOR_ATTRIBUTES = frozenset(
    {"device", "grad", "grad_fn", "is_leaf", "requires_grad", "layout", "is_cuda", "names", "data_ptr",
     "untyped_storage", "storage"}
)
NOT_CALLED_KINDS = frozenset({"attribute", "tensor_attribute", "module"})


def is_dtype_name(name: str) -> bool:
    """Whether ``name`` (the last part of a torch name) names a dtype: ``float32``, ``long``, ``bool``."""
    return name in DTYPE_ALIASES or name == "bool" or bool(_DTYPE_NAME.fullmatch(name))


def is_dtype_api(torch_api: str, inventory_kind: str | None) -> bool:
    """Whether the torch name is a dtype (``torch.int32``, ``torch.long``)."""
    return inventory_kind == "attribute" and torch_api.count(".") == 1 and is_dtype_name(torch_api[6:])


def not_called_spec(torch_api: str, inventory_kind: str | None, spec: ApiSpec) -> ApiSpec:
    """The spec of a name that is not called: a dtype is cast to, a tensor attribute is read on the spec's
    tensor; other attributes, modules and uncompared tensor attributes are skipped (``not_op``)."""
    if inventory_kind not in NOT_CALLED_KINDS:
        return spec
    if is_dtype_api(torch_api, inventory_kind):
        return ApiSpec(args=(D(DTYPE_VALUES),), loop="dtype", source=spec.source)
    member = torch_api.rpartition(".")[2]
    if inventory_kind == "tensor_attribute" and member not in UNCOMPARED_TENSOR_ATTRIBUTES and spec.args:
        return spec
    return replace(spec, skip="not_op")
