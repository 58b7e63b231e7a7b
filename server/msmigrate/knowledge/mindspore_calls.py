"""How a call to a MindSpore API is written so that it computes what the torch call does, read from
``knowledge/facts/mindspore_calls.toml``: the reviewed parameter facts (companions, defaults taken from
another parameter, values in another meaning, torch parameters whose absence means the same, pair renames,
manual rewrites, classes written as ``functools.partial``) that :mod:`param_facts` offers, and the value forms
(argument, call and result forms, fixed dtypes, output-shape Primitives) that :mod:`value_forms` offers, in
the shapes those modules always had. The file's header documents each key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from msmigrate.knowledge.fact_files import Entry, Field, fact_file, read_entries

CALLS_FILE = "mindspore_calls.toml"
ARGUMENT_FORMS = frozenset({"int32", "tensor", "tensor_pair", "list", "tuple"})
CALL_FORMS = frozenset({"class_indices"})
RESULT_FORMS = frozenset({"first_output", "int64", "python_bool", "sorted_first_output"})
PAIR_ONLY = ("renames", "manual_rewrite", "output_shape_primitive", "class_as_partial")
API_ONLY = ("default_from", "value_meanings", "absent_means", "argument_forms", "call_forms", "result_form",
            "dtype_from")
SCHEMA: dict[str, Field] = {
    "mindspore": Field("strings", required=True),
    "torch": Field("strings"),
    "companions": Field("list"),
    **{name: Field("table") for name in ("default_from", "value_meanings", "argument_forms", "call_forms",
                                          "result_form", "dtype_from", "renames")},
    "absent_means": Field("string_lists"),
    "manual_rewrite": Field("str"),
    "output_shape_primitive": Field("str"),
    "class_as_partial": Field("bool"),
}

Companion = tuple[str, str, tuple[str, ...]]
Pair = tuple[str, str]


@dataclass(slots=True)
class MindSporeCalls:
    """The facts of the file, keyed as ``param_facts`` and ``value_forms`` read them."""

    companions: dict[str, tuple[Companion, ...]] = field(default_factory=dict)
    pair_companions: dict[Pair, tuple[Companion, ...]] = field(default_factory=dict)
    pair_renames: dict[Pair, dict[str, str]] = field(default_factory=dict)
    default_from: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    value_meanings: dict[str, dict[str, str | dict[str, str]]] = field(default_factory=dict)
    manual_rewrites: dict[Pair, str] = field(default_factory=dict)
    absent_means: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    class_as_partial: set[Pair] = field(default_factory=set)
    argument_forms: dict[str, dict[str, str]] = field(default_factory=dict)
    call_forms: dict[str, dict[str, str]] = field(default_factory=dict)
    result_forms: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    output_shape_primitives: dict[Pair, str] = field(default_factory=dict)
    dtype_from: dict[str, tuple[str, str, str]] = field(default_factory=dict)


def _strings(entry: Entry, key: str, value: Any, choices: frozenset[str] | None = None) -> dict[str, str]:
    """A table of strings (each one of ``choices`` when given)."""
    for name, item in value.items():
        if not isinstance(item, str) or (choices is not None and item not in choices):
            allowed = f"one of {', '.join(sorted(choices))}" if choices else "a string"
            raise entry.error(f"{key!r}: {name!r} is {item!r}, not {allowed}", key)
    return dict(value)


def _fields(entry: Entry, key: str, value: Any, required: tuple[str, ...], optional: tuple[str, ...] = ()
            ) -> dict[str, Any]:
    if not isinstance(value, dict) or not set(required) <= set(value) <= {*required, *optional}:
        others = ", ".join(optional) or "no other"
        raise entry.error(f"{key!r} has the keys {', '.join(required)} (and {others})", key)
    return value


def _companions(entry: Entry, value: list[Any]) -> tuple[Companion, ...]:
    found = []
    for item in value:
        item = _fields(entry, "companions", item, ("param", "value"), ("with",))
        needed = item.get("with", [])
        if not all(isinstance(part, str) for part in (item["param"], item["value"], *needed)):
            raise entry.error("'companions': param, value and with are strings", "companions")
        found.append((item["param"], item["value"], tuple(needed)))
    return tuple(found)


def _value_meanings(entry: Entry, value: dict[str, Any]) -> dict[str, str | dict[str, str]]:
    found: dict[str, str | dict[str, str]] = {}
    for name, item in value.items():
        if not isinstance(item, (str, dict)):
            raise entry.error(f"'value_meanings': {name!r} is a conversion or a table of values",
                              "value_meanings")
        found[name] = item if isinstance(item, str) else _strings(entry, "value_meanings", item)
    return found


def _put(entry: Entry, table: dict[Any, Any], key: Any, value: Any, kind: str) -> None:
    if key in table:
        raise entry.error(f"{kind!r} of {key!r} is given twice", kind)
    table[key] = value


def _add(facts: MindSporeCalls, entry: Entry) -> None:
    data = entry.data
    torch_apis = data.get("torch")
    wrong = [key for key in (API_ONLY if torch_apis else PAIR_ONLY) if key in data]
    if wrong:
        where = "a pair (an entry with torch)" if torch_apis else "an API (an entry without torch)"
        raise entry.error(f"{wrong[0]!r} is no fact of {where}", wrong[0])
    if data.get("class_as_partial") is False:
        raise entry.error("'class_as_partial' is written only as true", "class_as_partial")
    for ms in data["mindspore"]:
        if torch_apis:
            for torch_api in torch_apis:
                _add_pair(facts, entry, (torch_api, ms))
            continue
        if "companions" in data:
            _put(entry, facts.companions, ms, _companions(entry, data["companions"]), "companions")
        if "default_from" in data:
            pairs = tuple(_strings(entry, "default_from", data["default_from"]).items())
            _put(entry, facts.default_from, ms, pairs, "default_from")
        if "value_meanings" in data:
            meanings = _value_meanings(entry, data["value_meanings"])
            _put(entry, facts.value_meanings, ms, meanings, "value_meanings")
        if "absent_means" in data:
            means = {name: tuple(values) for name, values in data["absent_means"].items()}
            _put(entry, facts.absent_means, ms, means, "absent_means")
        if "argument_forms" in data:
            forms = _strings(entry, "argument_forms", data["argument_forms"], ARGUMENT_FORMS)
            _put(entry, facts.argument_forms, ms, forms, "argument_forms")
        if "call_forms" in data:
            _put(entry, facts.call_forms, ms, _strings(entry, "call_forms", data["call_forms"], CALL_FORMS),
                 "call_forms")
        if "result_form" in data:
            form = _fields(entry, "result_form", data["result_form"], ("form",), ("unless",))
            if form["form"] not in RESULT_FORMS:
                allowed = ", ".join(sorted(RESULT_FORMS))
                raise entry.error(f"'result_form': {form['form']!r} is not one of {allowed}", "result_form")
            _put(entry, facts.result_forms, ms, (form["form"], tuple(form.get("unless", ()))), "result_form")
        if "dtype_from" in data:
            dtype = _fields(entry, "dtype_from", data["dtype_from"], ("param", "from", "default"))
            _put(entry, facts.dtype_from, ms, (dtype["param"], dtype["from"], dtype["default"]), "dtype_from")


def _add_pair(facts: MindSporeCalls, entry: Entry, pair: Pair) -> None:
    data = entry.data
    if "companions" in data:
        _put(entry, facts.pair_companions, pair, _companions(entry, data["companions"]), "companions")
    if "renames" in data:
        _put(entry, facts.pair_renames, pair, _strings(entry, "renames", data["renames"]), "renames")
    if "manual_rewrite" in data:
        _put(entry, facts.manual_rewrites, pair, data["manual_rewrite"], "manual_rewrite")
    if "output_shape_primitive" in data:
        writer = data["output_shape_primitive"]
        _put(entry, facts.output_shape_primitives, pair, writer, "output_shape_primitive")
    if data.get("class_as_partial"):
        if pair in facts.class_as_partial:
            raise entry.error(f"'class_as_partial' of {pair!r} is given twice", "class_as_partial")
        facts.class_as_partial.add(pair)


def read_mindspore_calls(path: Path) -> MindSporeCalls:
    """The facts of the fact file ``path``, every entry validated."""
    facts = MindSporeCalls()
    for entry in read_entries(path, "api", SCHEMA):
        _add(facts, entry)
    return facts


@cache
def mindspore_calls() -> MindSporeCalls:
    """The shipped facts (read once)."""
    return read_mindspore_calls(fact_file(CALLS_FILE))
