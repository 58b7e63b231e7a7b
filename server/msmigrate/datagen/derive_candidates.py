"""The candidates of a torch API that a table does not map (``derive.py``, ``derive_device.py``): the other
tables' targets that still exist (newest table first), then MindSpore APIs of the same name in the
counterpart namespaces (:data:`NAMESPACES`) with a compatible kind, their parameters compared with the torch
signature (``derive_signature.compare_signatures``). The same target found both ways is one candidate with
both pieces of evidence."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from msmigrate.datagen.derive_signature import (
    DIFFERS,
    NO_PARAMETERS,
    SAME,
    SignatureFacts,
    compare_signatures,
)
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.knowledge.derived import SECTION
from msmigrate.knowledge.model import MappingRow
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
