"""A program per calling form real code uses (issue 24, item 5).

An API's own program writes its call as the input spec does (``harness.make_program``); real code writes
many calls otherwise (``calling_forms.json``, counted in the pinned packages by ``calling_forms.py``). For
each API with a program, :func:`form_programs` adds one program per other form that real code uses for that
API, the spec's values written in that form:

- ``sizes_separate``: the spec's one tuple for torch's ``*size`` as separate arguments
  (``torch.zeros((2, 3))`` → ``torch.zeros(2, 3)``), ``sizes_tuple`` the other way;
- ``keyword``: from the first argument the spec passes by position that real code passes by keyword, every
  argument by keyword (``torch.sum(x, 1)`` → ``torch.sum(x, dim=1)``); ``positional`` the other way: the
  next parameters by position, the spec's keywords or torch's literal defaults, up to the last one real code
  passes by position (``F.interpolate(x, size=s)`` → ``F.interpolate(x, s)``, ``nn.Dropout()`` →
  ``nn.Dropout(0.5)``);
- ``method``: a function called as the method of its first tensor (``torch.relu(x)`` → ``x.relu()``) where
  real code does and that method has no program of its own.

A class's form is its constructor's call, a Tensor method's the call after its tensor. Programs a spec
writes as statements (``program``), training loops and dtypes keep their one form.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import replace
from typing import Any

FORMS = ("sizes_separate", "sizes_tuple", "keyword", "positional", "method")
# parameters real code passes a tensor or None by position (``F.conv2d(x, w, None, 1, 1)``)
OPTIONAL_TENSORS = frozenset({"bias", "weight"})
POSITIONAL = ("positional_only", "positional_or_keyword")


def form_id(api_id: str, form: str) -> str:
    return f"{api_id}__{form}"


def form_key(api: str, form: str) -> str:
    """How an API's program of another form is named in outcomes and the expected-outcomes file."""
    return f"{api} [{form}]" if form else api


def with_forms(programs: list[Any], kb: Any) -> list[Any]:
    """``programs``, each followed by its programs of the other calling forms real code uses."""
    from calling_forms import load_forms
    from harness import make_program, spec_and_kind

    observed, own = load_forms(), {p.torch_api for p in programs}
    found = []
    for program in programs:
        found.append(program)
        spec, kind = spec_and_kind(program.torch_api, program.mindspore_api, kb)
        found += form_programs(program, spec, kind, kb, observed, own, make_program)
    return found


def form_programs(base: Any, spec: Any, kind: str, kb: Any, observed: dict[str, dict[str, Any]],
                  own_programs: set[str], make: Callable[..., Any]) -> list[Any]:
    """The programs of the other forms of ``base`` (the API's own program) that real code uses
    (``observed``: ``calling_forms.load_forms()``); ``make``: ``harness.make_program``."""
    if base.skip or base.world or spec.program or spec.loop or kind not in ("function", "tensor_method",
                                                                            "class"):
        return []
    api = base.torch_api
    seen = observed.get(api) or observed.get(kb.canonical(api) or "", {})
    found = []
    signatures = kb.torch_signatures(api)
    for form, changed in _respelled(spec, kind, signatures, seen):
        found.append((form, make(api, base.mindspore_api, changed, kind)))
    method = "torch.Tensor." + api[len("torch."):]
    if kind == "function" and api.count(".") == 1 and method not in own_programs and observed.get(
            method, {}).get("calls") and spec.args and _is_tensor(spec.args[0]):
        found.append(("method", make(api, base.mindspore_api, spec, "tensor_method")))
    programs = []
    for form, program in found:
        if program.skip:
            continue
        program.id, program.form = form_id(base.id, form), form
        program.namespace, program.category = base.namespace, base.category
        programs.append(program)
    return programs


def _respelled(spec: Any, kind: str, signatures: list[list[dict]],
               seen: dict[str, Any]) -> list[tuple[str, Any]]:
    """(form, spec) of each form of the spec's call that real code uses (``seen``)."""
    first = 1 if kind == "tensor_method" else 0  # a method's tensor is args[0]
    init = kind == "class"
    args = list(spec.init_args if init else spec.args[first:])
    kwargs = dict(spec.init_kwargs if init else spec.kwargs)

    def spelled(new_args: list, new_kwargs: dict) -> Any:
        if init:
            return replace(spec, init_args=tuple(new_args), init_kwargs=new_kwargs)
        return replace(spec, args=tuple(spec.args[:first]) + tuple(new_args), kwargs=new_kwargs)

    found = []
    sizes = seen.get("sizes", {})
    place = _var_place(signatures)
    if place is not None:
        position, single = place
        if len(args) == position + 1 and _is_tuple(args[position]) and sizes.get("separate") \
                and len(args[position]["tuple"]) > 1:
            found.append(("sizes_separate", spelled(args[:position] + list(args[position]["tuple"]), kwargs)))
        if len(args) > position + 1 and single and sizes.get("tuple"):
            found.append(("sizes_tuple", spelled(args[:position] + [{"tuple": args[position:]}], kwargs)))
    names = _positional_names(args, kwargs, signatures)
    if names is None:
        return found
    keyword, position = seen.get("keyword", {}), seen.get("position", {})
    start = next((i for i, name in enumerate(names) if keyword.get(name)), None)
    if start is not None:
        moved = _by_keyword(names, start, signatures)
        if moved is not None:
            found.append(("keyword", spelled(args[:start], {**{n: args[i] for i, n in moved}, **kwargs})))
    following = _next_positional(len(args), kwargs, names, signatures, position)
    if following:
        moved = {name for name, _value in following}
        found.append(("positional", spelled(args + [value for _name, value in following],
                                            {k: v for k, v in kwargs.items() if k not in moved})))
    return found


def _by_keyword(names: list[str], start: int, signatures: list[list[dict]]) -> list[tuple[int, str]] | None:
    """(index, name) of the positional arguments from ``start`` on, when each may be passed by keyword."""
    kinds = {p["name"]: p.get("kind") for signature in signatures for p in signature}
    moved = [(i, name) for i, name in enumerate(names) if i >= start]
    return moved if all(kinds.get(name) == "positional_or_keyword" for _i, name in moved) else None


def _next_positional(count: int, kwargs: dict, names: list[str], signatures: list[list[dict]],
                     position: dict[str, int]) -> list[tuple[str, Any]]:
    """(parameter, value) to pass by position after the ``count`` positional arguments: the next
    parameters in order, each the spec's keyword or else torch's literal default, up to the last one real
    code passes by position (``nn.Dropout()`` → ``nn.Dropout(0.5)``: real code writes ``nn.Dropout(0.1)``)."""
    for signature in signatures:
        params = [p for p in signature if p.get("kind") in POSITIONAL]
        if [p["name"] for p in params[:count]] != names:
            continue
        following: list[tuple[str, Any]] = []
        for param in params[count:]:
            name = param["name"]
            if name in kwargs:
                following.append((name, kwargs[name]))
                continue
            found, value = _literal(param.get("default"))
            if not found or (value is None and name not in OPTIONAL_TENSORS):
                break  # real code passes a value there (None means another parameter's: a pool's stride)
            following.append((name, value))
        while following and (not position.get(following[-1][0]) or following[-1][1] is None):
            following.pop()  # up to the last one real code passes by position, not a None
        return following
    return []


def _literal(text: str | None) -> tuple[bool, Any]:
    """(True, value) for a default written as a number, a bool, a string or None."""
    try:
        value = ast.literal_eval(text) if text is not None else None
    except (ValueError, SyntaxError):
        return False, None
    return (text is not None and (value is None or type(value) in (int, float, bool, str))), value


def _positional_names(args: list, kwargs: dict, signatures: list[list[dict]]) -> list[str] | None:
    """The torch parameter of each positional argument, where every overload the call fits agrees."""
    from msmigrate.analysis.arguments import bind

    source = "f(" + ", ".join([*(f"a{i}" for i in range(len(args))), *(f"{k}=0" for k in kwargs)]) + ")"
    call = ast.parse(source, mode="eval").body
    assert isinstance(call, ast.Call)
    values = {f"a{i}": value for i, value in enumerate(args)}

    def kind_of(node: ast.expr) -> str | None:
        value = values.get(node.id) if isinstance(node, ast.Name) else None
        if _is_tensor(value):
            return "tensor"
        if _is_tuple(value) and all(type(v) is int for v in value["tuple"]):
            return "int"
        return {bool: "bool", int: "int", float: "float", str: "str"}.get(type(value))

    bindings = bind(call, signatures, kind_of)
    found = {b.positional for b in bindings}
    if len(found) != 1:
        return None
    names = list(found.pop())
    return names if len(names) == len(args) else None


def _var_place(signatures: list[list[dict]]) -> tuple[int, bool] | None:
    """(position of torch's ``*name``, whether an overload also takes it as one parameter ``name``)."""
    from msmigrate.analysis.packed_args import var_position

    places = {(var_position(s), next(p["name"] for p in s if p.get("kind") == "var_positional"))
              for s in signatures if var_position(s) is not None}
    if len(places) != 1:
        return None
    position, name = places.pop()
    single = any([p["name"] for p in s if p.get("kind") in POSITIONAL][position:position + 1] == [name]
                 for s in signatures)
    return position, single


def _is_tuple(value: Any) -> bool:
    return isinstance(value, dict) and "tuple" in value


def _is_tensor(value: Any) -> bool:
    return isinstance(value, dict) and "tensor" in value
