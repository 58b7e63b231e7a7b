"""What a parameter takes, by its name, read from ``knowledge/facts/param_names.toml``: the name sets
:mod:`param_facts` offers (``INTEGER_PARAMS``, ``TENSOR_PARAMS``, ``SHAPE_PARAMS``, ``PRIMARY_INPUTS``,
``SAME_MEANING``), in the shapes that module always had. The file's header documents each key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from msmigrate.knowledge.fact_files import Field, fact_file, read_entries

NAMES_FILE = "param_names.toml"
TAKES = frozenset({"int", "tensor", "shape"})
SCHEMA: dict[str, Field] = {
    "name": Field("str", required=True),
    "takes": Field("str", choices=TAKES),
    "first_input": Field("bool"),
    "same_meaning": Field("strings"),
}


@dataclass(frozen=True, slots=True)
class ParamNames:
    """The names of the file, by what they take."""

    takes: dict[str, frozenset[str]] = field(default_factory=dict)  # int / tensor / shape → names
    first_inputs: frozenset[str] = frozenset()
    same_meaning: dict[str, frozenset[str]] = field(default_factory=dict)


def read_param_names(path: Path) -> ParamNames:
    """The names of the fact file ``path``, every entry validated (a name written twice, an entry that says
    nothing, ``first_input = false`` are errors)."""
    takes: dict[str, set[str]] = {kind: set() for kind in sorted(TAKES)}
    first_inputs: set[str] = set()
    same_meaning: dict[str, frozenset[str]] = {}
    where: dict[str, int] = {}
    for entry in read_entries(path, "param", SCHEMA):
        data = entry.data
        name = data["name"]
        if name in where:
            raise entry.error(f"{name!r} is already written (entry {where[name]})", "name")
        where[name] = entry.index
        if not {"takes", "first_input", "same_meaning"} & set(data):
            raise entry.error(f"{name!r} says nothing: give takes, first_input or same_meaning")
        if data.get("first_input") is False:
            raise entry.error("'first_input' is written only as true", "first_input")
        if "takes" in data:
            takes[data["takes"]].add(name)
        if data.get("first_input"):
            first_inputs.add(name)
        if "same_meaning" in data:
            same_meaning[name] = frozenset(data["same_meaning"])
    return ParamNames({kind: frozenset(names) for kind, names in takes.items()}, frozenset(first_inputs),
                      same_meaning)


@cache
def param_names() -> ParamNames:
    """The shipped names (read once)."""
    return read_param_names(fact_file(NAMES_FILE))
