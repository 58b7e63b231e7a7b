"""The per-API input-spec table, read from ``knowledge/facts/check_specs.toml``;
``msmigrate check --write-specs`` turns it into ``mapping_data/input_specs.json``.

Keys are full torch names, or ``"<torch api> -> <mindspore api>"`` (:func:`spec.pair_key`) for a spec that
applies to one pair only (an entry's ``mindspore`` list). The file's header documents the fields and the
value encoding; every entry is validated (its file and line named when it is wrong).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from msmigrate.check.spec import ApiSpec, pair_key, render_specs_json, specs_path
from msmigrate.check.spec_values import MINDSPORE_FORMS, VALUE_FORMS, spec_value
from msmigrate.knowledge.check_result import Reason
from msmigrate.knowledge.fact_files import Entry, Field, fact_file, read_entries

SPECS_FILE = "check_specs.toml"
_COMPARE = frozenset({"values", "sorted", "shape_dtype"})
_VALUES = ("args", "kwargs", "init_args", "init_kwargs", "ms_args", "ms_kwargs", "ms_init_args",
           "ms_init_kwargs")
SCHEMA: dict[str, Field] = {
    "apis": Field("strings", required=True),
    "mindspore": Field("strings"),
    **{name: Field("table" if name.endswith("kwargs") else "list") for name in _VALUES},
    "rtol": Field("number"),
    "atol": Field("number"),
    "compare": Field("str", choices=_COMPARE),
    "train_compare": Field("str", choices=_COMPARE),
    "outputs": Field("list"),
    "ms_outputs": Field("list"),
    "ms_call": Field("str", choices=frozenset({"function", "subscript", "value"})),
    "loop": Field("str", choices=frozenset({"training_step", "lr_scheduler", "dtype", "per_argument",
                                           "program"})),
    "skip": Field("str", choices=frozenset(reason.value for reason in Reason)),
    "program": Field("strings"),
    "note": Field("str"),
}


def _value(value: Any, entry: Entry, key: str) -> Any:
    """One argument value of a spec (the MindSpore side may name the torch call's)."""
    return spec_value(value, entry, key, VALUE_FORMS | MINDSPORE_FORMS)


def _spec(entry: Entry) -> ApiSpec:
    data = {key: value for key, value in entry.data.items() if key not in ("apis", "mindspore")}
    for key in _VALUES:
        if key in data and key.endswith("kwargs"):
            data[key] = {name: _value(value, entry, key) for name, value in data[key].items()}
        elif key in data:
            data[key] = _value(data[key], entry, key)
    for key in ("outputs", "ms_outputs"):
        if key in data and not all(isinstance(i, int) and not isinstance(i, bool) for i in data[key]):
            raise entry.error(f"{key!r} must be a list of output indices", key)
    return ApiSpec.from_json(data)


def read_table(path: Path) -> dict[str, ApiSpec]:
    """The specs of the fact file ``path`` under their keys, every entry validated."""
    table: dict[str, ApiSpec] = {}
    where: dict[str, int] = {}
    for entry in read_entries(path, "spec", SCHEMA):
        spec = _spec(entry)
        pairs = entry.data.get("mindspore")
        for torch_api in entry.data["apis"]:
            for key in [pair_key(torch_api, ms) for ms in pairs] if pairs else [torch_api]:
                if key in table:
                    raise entry.error(f"{key!r} already has a spec (entry {where[key]})", "apis")
                table[key], where[key] = spec, entry.index
    return table


@cache
def build_table() -> dict[str, ApiSpec]:
    """The shipped spec table (read once)."""
    return read_table(fact_file(SPECS_FILE))


def write_specs_file(path: Path | None = None) -> Path:
    """Write ``input_specs.json`` (byte-identical for the same table)."""
    from msmigrate.check.spec import load_specs

    path = path or specs_path()
    path.write_text(render_specs_json(build_table()), encoding="utf-8")
    load_specs.cache_clear()
    return path

