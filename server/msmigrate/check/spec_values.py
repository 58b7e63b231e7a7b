"""Argument values of the fact files (``check_specs.toml``, ``composition_cases.toml``), read into the
input-spec encoding of :mod:`msmigrate.check.spec` and validated.

``{tensor = {shape = [...]}}`` gets its defaults (``float32`` in [-1, 1)); the tensor's keys come out in the
order the authoring helpers :func:`~msmigrate.check.spec.T` / :func:`~msmigrate.check.spec.D` write them
(``shape, dtype, low, high`` / ``data, dtype``); ``{none = true}`` is ``None``. A bad value raises the
entry's :class:`~msmigrate.knowledge.fact_files.FactFileError` at the key's line.
"""

from __future__ import annotations

from typing import Any

from msmigrate.knowledge.fact_files import Entry

VALUE_FORMS = frozenset({"tensor", "tuple", "dtype", "none"})
MINDSPORE_FORMS = frozenset({"arg", "kwarg"})  # the same value as the torch call's (MindSpore side only)
_TENSOR_KEYS = frozenset({"shape", "data", "dtype", "low", "high"})


def spec_value(value: Any, entry: Entry, key: str, forms: frozenset[str] = VALUE_FORMS) -> Any:
    """One argument value (a TOML value of ``key`` in ``entry``) in the spec encoding; ``forms``: the
    one-key tables allowed."""
    if isinstance(value, list):
        return [spec_value(item, entry, key, forms) for item in value]
    if not isinstance(value, dict):
        return value
    if len(value) != 1 or not set(value) <= forms:
        raise entry.error(f"{key!r}: {value!r} is none of the forms {', '.join(sorted(forms))}", key)
    form, inner = next(iter(value.items()))
    if form == "none":
        if inner is not True:
            raise entry.error(f"{key!r}: write None as {{none = true}}", key)
        return None
    if form == "tuple":
        if not isinstance(inner, list):
            raise entry.error(f"{key!r}: a tuple holds a list, not {inner!r}", key)
        return {"tuple": spec_value(inner, entry, key, forms)}
    if form == "tensor":
        return {"tensor": _tensor(inner, entry, key)}
    if form == "arg" and not (isinstance(inner, int) and not isinstance(inner, bool)):
        raise entry.error(f"{key!r}: 'arg' is the index of a torch argument, not {inner!r}", key)
    if form in ("kwarg", "dtype") and not isinstance(inner, str):
        raise entry.error(f"{key!r}: {form!r} is a name, not {inner!r}", key)
    return {form: inner}


def _tensor(tensor: Any, entry: Entry, key: str) -> dict[str, Any]:
    if (not isinstance(tensor, dict) or not set(tensor) <= _TENSOR_KEYS
            or ("shape" in tensor) == ("data" in tensor)):
        raise entry.error(f"{key!r}: a tensor has 'shape' or 'data' (and dtype, low, high), not {tensor!r}",
                          key)
    dtype = tensor.get("dtype", "float32")
    if "data" in tensor:
        if {"low", "high"} & set(tensor):
            raise entry.error(f"{key!r}: a tensor of given 'data' has no 'low' or 'high'", key)
        return {"data": tensor["data"], "dtype": dtype}
    found = {"shape": tensor["shape"], "dtype": dtype,
             **({"low": -1.0, "high": 1.0} if dtype == "float32" else {}), **tensor}
    if not {"low", "high"} <= set(found):
        raise entry.error(f"{key!r}: a random {dtype} tensor needs 'low' and 'high'", key)
    return {name: found[name] for name in ("shape", "dtype", "low", "high")}
