"""Generate derived mappings (``msmigrate data derive`` → ``mapping_data/derived-<v>.json``).

For every torch API of the torch inventory that table ``<v>`` does not map (no row, or a row whose
MindSpore target the MindSpore inventory no longer has), the candidates are, in this order:

1. rows of the other official tables whose MindSpore target still exists (newest table first);
2. MindSpore APIs of the same name in the counterpart namespaces (``NAMESPACES``) with a compatible kind,
   their parameters compared with the torch signature (``derive_signature.compare_signatures``).

The same target found both ways is one candidate with both pieces of evidence. ``cpu_alternatives``
(``knowledge/derive_device.py``) holds the same kind of candidates for table rows whose target has no CPU
kernel, as recorded by ``verified-<v>-CPU.json`` (which the output therefore also depends on). Pairs listed in
``derive_exceptions.EXCEPTIONS`` (reviewed, with a reason each) are left out and recorded as excluded.
The numeric check (``msmigrate check --derived --all``) is applied when the file is read, not here, so
the output depends on the tables, the inventories, the exceptions (and the table checks) only, and is
byte-reproducible.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from msmigrate.knowledge.base import VERSIONS, KnowledgeBase, get_knowledge_base
from msmigrate.knowledge.derive_exceptions import EXCEPTIONS
from msmigrate.knowledge.derive_signature import (
    DIFFERS,
    NO_PARAMETERS,
    SAME,
    SignatureFacts,
    compare_signatures,
)
from msmigrate.knowledge.derived import SCHEMA_VERSION, SECTION, derived_path
from msmigrate.knowledge.model import MappingCategory, MappingRow
from msmigrate.knowledge.param_facts import class_as_partial, method_as_function, pair_renames
from msmigrate.knowledge.value_forms import output_shape_primitive

# torch namespace → MindSpore namespaces tried in order; the longest matching torch namespace wins and
# the rest of the name must be a single public name.
NAMESPACES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("torch.Tensor.", ("mindspore.Tensor.",)),
    ("torch.nn.Module.", ("mindspore.nn.Cell.",)),
    ("torch.nn.Parameter.", ("mindspore.Parameter.",)),
    ("torch.nn.functional.", ("mindspore.mint.nn.functional.", "mindspore.ops.")),
    ("torch.nn.", ("mindspore.mint.nn.", "mindspore.nn.")),
    ("torch.linalg.", ("mindspore.mint.linalg.", "mindspore.ops.")),
    ("torch.special.", ("mindspore.mint.special.", "mindspore.ops.")),
    ("torch.fft.", ("mindspore.mint.fft.", "mindspore.ops.")),
    ("torch.optim.lr_scheduler.", ("mindspore.experimental.optim.lr_scheduler.",)),
    ("torch.optim.", ("mindspore.mint.optim.", "mindspore.experimental.optim.")),
    ("torch.distributed.", ("mindspore.mint.distributed.",)),
    ("torch.", ("mindspore.mint.", "mindspore.ops.", "mindspore.")),
)
# classes whose counterpart has another name (their members follow NAMESPACES)
CLASSES: dict[str, str] = {
    "torch.Tensor": "mindspore.Tensor",
    "torch.nn.Module": "mindspore.nn.Cell",
    "torch.nn.Parameter": "mindspore.Parameter",
}
# inventory kinds that can stand for each other
KIND_GROUPS: dict[str, str] = {
    "function": "callable",
    "method": "callable",
    "tensor_method": "callable",
    "class": "class",
    "attribute": "value",
    "tensor_attribute": "value",
}


@dataclass(slots=True)
class Candidate:
    row: MappingRow
    tables: list[str] = field(default_factory=list)
    by_name: bool = False
    signature: str = "unknown"

    @property
    def rank(self) -> int:
        """Evidence strength, strongest first: a table and the name agree; a 2.x table; the same name and
        parameters; the 1.10 table; the same name with other or unknown parameters."""
        modern = any(not v.startswith("1.") for v in self.tables)
        if self.tables and self.by_name:
            return 0
        if modern:
            return 1
        if self.by_name and self.signature in (SAME, NO_PARAMETERS):
            return 2
        if self.tables:
            return 3
        return 4 if self.signature == DIFFERS else 5

    def to_json(self) -> dict[str, Any]:
        row = {k: v for k, v in self.row.to_json().items() if v or k in _ROW_KEYS_KEPT}
        return {"row": row, "tables": list(self.tables), "by_name": self.by_name, "signature": self.signature}


_ROW_KEYS_KEPT = frozenset({"torch_api", "mindspore_api", "category"})


def counterpart_names(torch_api: str) -> list[str]:
    """MindSpore names of the same name in the counterpart namespaces, best first."""
    if torch_api in CLASSES:
        return [CLASSES[torch_api]]
    for prefix, targets in sorted(NAMESPACES, key=lambda item: -len(item[0])):
        if torch_api.startswith(prefix):
            rest = torch_api[len(prefix) :]
            if not rest or "." in rest or rest.startswith("_"):
                return []
            return [target + rest for target in targets]
    return []


def _kind_group(kind: str | None) -> str | None:
    return KIND_GROUPS.get(kind or "")


def _is_member(name: str) -> bool:
    owner = name.rpartition(".")[0]
    return owner.rpartition(".")[2][:1].isupper()


def _signature(kb: KnowledgeBase, torch_api: str, mindspore_api: str) -> SignatureFacts:
    torch_entry = {"kind": kb.torch_kind(torch_api), "signatures": kb.torch_signatures(torch_api)}
    ms_entry = {
        "kind": kb.mindspore_kind(mindspore_api),
        "signatures": kb.mindspore_signatures(mindspore_api),
    }
    member = _is_member(torch_api) and _is_member(mindspore_api)
    # the function's first parameter takes the method's tensor, or the class instance's input
    receiver = (method_as_function(kb.torch_kind(torch_api), kb.mindspore_kind(mindspore_api))
                or class_as_partial(torch_api, mindspore_api))
    return compare_signatures(torch_entry, ms_entry, member=member, receiver=receiver)


def _name_row(torch_api: str, mindspore_api: str, facts: SignatureFacts, torch_url: str | None) -> MappingRow:
    # reviewed renames of the pair (``param_facts.PAIR_RENAMES``) over the ones matched by position
    renames = pair_renames(torch_api, mindspore_api) or dict(facts.param_renames)
    return MappingRow(
        torch_api=torch_api,
        mindspore_api=mindspore_api,
        category=facts.category,
        section=SECTION,
        urls={"torch": torch_url} if torch_url else {},
        param_renames=renames,
        param_renames_source="derived" if renames else None,
        torch_only_params=facts.torch_only_params,
        mindspore_only_params=facts.mindspore_only_params,
        default_differences=facts.default_differences,
    )


def candidates_for(
    torch_api: str, kb: KnowledgeBase, others: list[KnowledgeBase], more_names: Iterable[str] = ()
) -> list[Candidate]:
    """Every candidate of ``torch_api`` (see the module docstring), best first, exceptions left in;
    ``more_names``: further MindSpore names taken as same-name counterparts (``derive_device.py``)."""
    found: dict[str, Candidate] = {}
    for other in others:  # newest first
        row = other.row(torch_api)
        if row is None or not row.mindspore_api or not kb.mindspore_has(row.mindspore_api):
            continue
        target = row.mindspore_api
        if target in found:
            found[target].tables.append(other.version)
            continue
        facts = _signature(kb, torch_api, target)
        # the other table may cite another spelling of ``torch_api``: the candidate is keyed on this one
        found[target] = Candidate(
            replace(row, torch_api=torch_api, section=SECTION), [other.version], False, facts.signature
        )
    group = _kind_group(kb.torch_kind(torch_api))
    for target in dict.fromkeys([*counterpart_names(torch_api), *more_names]):
        # used another way by a reviewed form: a module written as functools.partial of a function, a
        # function written as a Primitive called with the output shape
        other_way = ((class_as_partial(torch_api, target) and kb.mindspore_kind(target) == "function")
                     or output_shape_primitive(torch_api, target) is not None)
        if group is None or (_kind_group(kb.mindspore_kind(target)) != group and not other_way):
            continue
        if target in found:
            found[target].by_name = True
            continue
        facts = _signature(kb, torch_api, target)
        torch_url = next((o.row(torch_api).urls.get("torch") for o in others if o.row(torch_api)), None)
        found[target] = Candidate(_name_row(torch_api, target, facts, torch_url), [], True, facts.signature)
    return sorted(found.values(), key=lambda c: c.rank)  # stable: newest table, then namespace order


def _wanted(torch_api: str, kb: KnowledgeBase) -> bool:
    kind = kb.torch_kind(torch_api)
    return (
        kind is not None
        and kind != "module"
        and not any(part.startswith("_") for part in torch_api.split("."))
        and not kb.is_data_processing(torch_api)
    )


def derive_table(kb: KnowledgeBase, others: Iterable[KnowledgeBase]) -> dict[str, Any]:
    """The derived document of ``kb``'s table (``others``: the other tables, any order)."""
    newest_first = sorted(others, key=lambda o: tuple(int(p) for p in o.version.split(".")), reverse=True)
    newest_first = [o for o in newest_first if o.version != kb.version]
    mappings: dict[str, Any] = {}
    excluded: dict[str, list[dict[str, str]]] = {}
    for torch_api in sorted(kb.torch_inventory):
        if not _wanted(torch_api, kb):
            continue
        row = kb.row(torch_api)
        replaces = None
        if row is not None:
            if not row.mindspore_api or kb.mindspore_has(row.mindspore_api):
                continue  # mapped by the table under any spelling (or stated unsupported by it)
            replaces = row.mindspore_api
        kept = []
        for candidate in candidates_for(torch_api, kb, newest_first):
            target = candidate.row.mindspore_api or ""
            reason = EXCEPTIONS.get((torch_api, target)) or EXCEPTIONS.get((torch_api, "*"))
            if reason:
                excluded.setdefault(torch_api, []).append({"mindspore_api": target, "reason": reason})
            else:
                kept.append(candidate.to_json())
        if kept or replaces:
            mappings[torch_api] = {"replaces": replaces, "candidates": kept}
    from msmigrate.knowledge.derive_device import device_alternatives

    return {
        "schema_version": SCHEMA_VERSION,
        "mapping_table": kb.version,
        "cpu_alternatives": device_alternatives(kb, newest_first, mappings),
        "torch_version": _inventory_version("torch"),
        "mindspore_version": _inventory_version("mindspore"),
        "counts": _counts(mappings, excluded),
        "mappings": mappings,
        "excluded": excluded,
    }


def _counts(mappings: dict[str, Any], excluded: dict[str, list[dict[str, str]]]) -> dict[str, int]:
    candidates = [c for item in mappings.values() for c in item["candidates"]]
    return {
        "torch_apis": sum(1 for item in mappings.values() if item["candidates"]),
        "candidates": len(candidates),
        "from_other_tables": sum(1 for c in candidates if c["tables"]),
        "by_name": sum(1 for c in candidates if c["by_name"]),
        "same_signature": sum(1 for c in candidates if c["signature"] in (SAME, NO_PARAMETERS)),
        "consistent": sum(1 for c in candidates if c["row"]["category"] == MappingCategory.CONSISTENT.value),
        "gone_targets": sum(1 for item in mappings.values() if item["replaces"]),
        "gone_targets_replaced": sum(
            1 for item in mappings.values() if item["replaces"] and item["candidates"]
        ),
        "excluded": sum(len(v) for v in excluded.values()),
    }


def _inventory_version(package: str) -> str | None:
    from msmigrate.knowledge.inventory.writer import read_header
    from msmigrate.paths import data_dir

    return read_header(data_dir() / f"{package}_inventory.json").get("version")


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def derive_all(out: Path, versions: Iterable[str] = VERSIONS) -> list[Path]:
    """Write ``derived-<v>.json`` for ``versions`` into ``out``; return the files written."""
    tables = [get_knowledge_base(v) for v in VERSIONS]
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for version in versions:
        kb = get_knowledge_base(version)
        path = derived_path(kb.version, out)
        path.write_text(dumps(derive_table(kb, tables)), encoding="utf-8")
        written.append(path)
    return written
