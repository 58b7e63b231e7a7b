"""The cases each composition is checked on, read from ``knowledge/facts/composition_cases.toml``: several
calls per torch API (masks, options, shapes), each run by torch's API and by the helper the fix writes, on
the same inputs (``check/compositions.py``).

Values are in the input-spec encoding of ``check/spec.py`` (the file's header documents the keys and the
encoding). For a ``method`` composition ``args[0]`` is the tensor; for a class, ``init_*`` build the module
and ``args`` are the forward inputs. ``read``: attributes of the result compared (``finfo``); ``compare``:
``values``, ``shape_dtype`` (random results: dropout) or ``program`` (a container: the program of
``check/worker_programs.HELPER_PROGRAMS``, outputs and parameter names).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from msmigrate.check.spec_values import spec_value
from msmigrate.knowledge.fact_files import Entry, Field, fact_file, read_entries

CASES_FILE = "composition_cases.toml"
COMPARE = frozenset({"values", "shape_dtype", "program"})
SCHEMA: dict[str, Field] = {
    "apis": Field("strings", required=True),
    "name": Field("str", required=True),
    "args": Field("list"),
    "kwargs": Field("table"),
    "init_args": Field("list"),
    "init_kwargs": Field("table"),
    "compare": Field("str", choices=COMPARE),
    "read": Field("strings"),
    "rtol": Field("number"),
    "atol": Field("number"),
}

Value = Any


@dataclass(frozen=True, slots=True)
class Case:
    name: str
    args: tuple[Value, ...] = ()
    kwargs: dict[str, Value] = field(default_factory=dict)
    init_args: tuple[Value, ...] = ()
    init_kwargs: dict[str, Value] = field(default_factory=dict)
    compare: str = "values"
    read: tuple[str, ...] = ()
    rtol: float = 1e-5
    atol: float = 1e-6


def _tuple(values: list[Any], entry: Entry, key: str) -> tuple[Value, ...]:
    """Positional arguments: a ``{tuple = [...]}`` value is kept as a Python tuple (``case_request``
    sends tuples as such)."""
    return tuple(_python(spec_value(value, entry, key)) for value in values)


def _python(value: Value) -> Value:
    """A spec value with its ``{"tuple": [...]}`` forms as Python tuples, as the cases were written."""
    if isinstance(value, list):
        return [_python(item) for item in value]
    if isinstance(value, dict) and set(value) == {"tuple"}:
        return tuple(_python(item) for item in value["tuple"])
    return value


def _case(entry: Entry) -> Case:
    data = entry.data
    kwargs = {key: {name: _python(spec_value(value, entry, key)) for name, value in data.get(key, {}).items()}
              for key in ("kwargs", "init_kwargs")}
    return Case(data["name"], _tuple(data.get("args", []), entry, "args"), kwargs["kwargs"],
                _tuple(data.get("init_args", []), entry, "init_args"), kwargs["init_kwargs"],
                data.get("compare", "values"), tuple(data.get("read", ())), data.get("rtol", 1e-5),
                data.get("atol", 1e-6))


def read_cases(path: Path) -> dict[str, tuple[Case, ...]]:
    """The cases of the fact file ``path`` by torch API, in the file's order, every entry validated (a case
    name given twice for one API is an error)."""
    cases: dict[str, list[Case]] = {}
    for entry in read_entries(path, "case", SCHEMA):
        case = _case(entry)
        for api in entry.data["apis"]:
            if any(c.name == case.name for c in cases.get(api, ())):
                raise entry.error(f"{api!r} already has a case {case.name!r}", "name")
            cases.setdefault(api, []).append(case)
    return {api: tuple(found) for api, found in cases.items()}


@cache
def composition_cases() -> dict[str, tuple[Case, ...]]:
    """The shipped cases (read once)."""
    return read_cases(fact_file(CASES_FILE))

