"""A method of a torch object whose class the file maps: the MindSpore class it becomes has the method.

``sched = StepLR(opt, 10)`` … ``sched.step()``: torch's ``LRScheduler.step`` has no row of its own, but the
file's ``StepLR`` becomes ``mindspore.experimental.optim.lr_scheduler.StepLR``, whose base
``LRScheduler`` has ``step(epoch=None)``: the call stays as written. Read by the resolution for a usage the
mapping tables leave unmapped (MSM200, MSM201) whose receiver is an instance of a mapped torch class.
"""

from __future__ import annotations

from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.knowledge.resolution import same_parameters
from msmigrate.model.finding import Finding, FindingCategory

UNMAPPED_RULES = frozenset({"MSM200", "MSM201"})


def mapped_member(kb: KnowledgeBase, torch_class: str, member: str) -> tuple[str, str] | None:
    """(the class's MindSpore target, its member ``member`` as the inventory lists it, on the class or a
    base) when ``torch_class`` is mapped to a MindSpore class that has it."""
    row = kb.mapping(torch_class)
    target = row.mindspore_api if row is not None else None
    if not target or kb.mindspore_kind(target) != "class":
        return None
    seen: set[str] = set()
    queue = [target]
    while queue:
        owner = queue.pop(0)
        if owner in seen:
            continue
        seen.add(owner)
        name = f"{owner}.{member}"
        if kb.mindspore_has(name) and kb.mindspore_kind(name) in ("method", "tensor_method", "attribute"):
            return target, name
        entry = kb.mindspore_entry(owner) or {}
        queue.extend(base for base in entry.get("bases", ()) if base.startswith("mindspore."))
    return None


def claim_member(finding: Finding, kb: KnowledgeBase, torch_class: str) -> bool:
    """Restate an unmapped member finding whose receiver's class the file maps: MSM100 when both
    signatures list the same parameters, else MSM101 (see the parameters). True when restated."""
    member = (finding.torch_api or "").rpartition(".")[2]
    found = mapped_member(kb, torch_class, member) if finding.rule in UNMAPPED_RULES else None
    if found is None:
        return False
    target, name = found
    same = same_parameters(kb.torch_signatures(finding.torch_api or ""), kb.mindspore_signatures(name))
    finding.mindspore_api = name
    finding.category = FindingCategory.CONSISTENT if same else FindingCategory.DIFFERENCES
    finding.rule = "MSM100" if same else "MSM101"
    key = "analysis.api.class_member" if same else "analysis.api.class_member_differs"
    finding.message_key = key
    finding.message_args = {"torch_api": finding.torch_api, "mindspore_api": name, "torch_class": torch_class,
                            "class_target": target, "member": member}
    finding.fixable = False  # the call is written as it is (the receiver's class is what changes)
    return True

