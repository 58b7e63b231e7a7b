"""A method of a torch object whose class the file maps: the MindSpore class it becomes has the method.

``sched = StepLR(opt, 10)`` … ``sched.step()``: torch's ``LRScheduler.step`` has no row of its own, but the
file's ``StepLR`` becomes ``mindspore.experimental.optim.lr_scheduler.StepLR``, whose base
``LRScheduler`` has ``step(epoch=None)``: the call stays as written. Read by the resolution for a usage the
mapping tables leave unmapped (MSM200, MSM201) whose receiver is an instance of a mapped torch class, or a
Parameter (``analysis/parameter_receivers.py``).
"""

from __future__ import annotations

import ast

from msmigrate.analysis.parameter_receivers import parameter_receiver
from msmigrate.analysis.usage_claims import CodeIndex
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.knowledge.resolution import same_parameters
from msmigrate.model.finding import Finding, FindingCategory, UsageKind

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


_METHOD_USAGES = frozenset({UsageKind.CALL, UsageKind.MODULE_METHOD, UsageKind.OPTIMIZER_METHOD})
# members every module / optimizer has: the table maps them (or leaves them out) for what they mean there
# (Module.to moves to a device, Cell.to casts), whatever class the object has
_GENERIC_OWNERS = frozenset({"torch.nn.Module", "torch.optim.Optimizer"})


def claim_receiver(finding: Finding, kb: KnowledgeBase, ref_node: ast.expr | None, values: dict,
                   index: CodeIndex, call: ast.Call | None = None) -> bool:
    """Restate an unmapped member finding by what its receiver is: an instance of a torch class the file
    maps (:func:`claim_member`) or a Parameter (:func:`claim_parameter_member`). True when restated."""
    if finding.rule not in UNMAPPED_RULES or not isinstance(ref_node, ast.Attribute):
        return False
    torch_class = getattr(values.get(ref_node.value), "torch_class", None)
    if (finding.torch_api or "").rpartition(".")[0] in _GENERIC_OWNERS:
        torch_class = None
    if torch_class and finding.usage in _METHOD_USAGES and claim_member(finding, kb, torch_class, call):
        return True
    return claim_parameter_member(finding, kb, ref_node, index)


def claim_parameter_member(finding: Finding, kb: KnowledgeBase, ref_node: ast.Attribute,
                           index: CodeIndex) -> bool:
    """``p.requires_grad`` where ``p`` is shown to be a Parameter: ``mindspore.Parameter`` has it."""
    api = finding.torch_api or ""
    name = f"mindspore.Parameter.{ref_node.attr}"
    if not api.startswith("torch.Tensor.") or not kb.mindspore_has(name):
        return False
    evidence = parameter_receiver(ref_node.value, index)
    if evidence is None:
        return False
    call = finding.usage is UsageKind.CALL
    same = not call or same_parameters(kb.torch_signatures(api), kb.mindspore_signatures(name))
    _restate(finding, name, same, "analysis.api.parameter_member",
             {"torch_api": api, "mindspore_api": name, "evidence": evidence, "member": ref_node.attr})
    return True


def _restate(finding: Finding, name: str, same: bool, key: str, args: dict[str, str | None]) -> None:
    finding.mindspore_api = name
    finding.category = FindingCategory.CONSISTENT if same else FindingCategory.DIFFERENCES
    finding.rule = "MSM100" if same else "MSM101"
    finding.message_key = key if same else f"{key}_differs"
    finding.message_args = args
    finding.fixable = False  # the code is written as it is (what the receiver is decides)


def same_for_call(torch_sigs: list[list[dict]], ms_sigs: list[list[dict]], call: ast.Call | None) -> bool:
    """The same parameters, or (names aside) the same positional parameters for a call passing only
    positional arguments (``blocks.append(layer)``: torch's ``module``, MindSpore's ``cell``)."""
    if same_parameters(torch_sigs, ms_sigs):
        return True
    if call is None or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    shapes = {_kinds(sig) for sig in torch_sigs}
    return any(_kinds(sig) in shapes and len(_kinds(sig)) >= len(call.args) for sig in ms_sigs)


def _kinds(signature: list[dict]) -> tuple[str, ...]:
    return tuple(p.get("kind", "") for p in signature if p.get("name") != "self")


def claim_member(finding: Finding, kb: KnowledgeBase, torch_class: str, call: ast.Call | None = None) -> bool:
    """Restate an unmapped member finding whose receiver's class the file maps: MSM100 when both
    signatures list the same parameters, else MSM101 (see the parameters). True when restated."""
    member = (finding.torch_api or "").rpartition(".")[2]
    found = mapped_member(kb, torch_class, member) if finding.rule in UNMAPPED_RULES else None
    if found is None:
        return False
    target, name = found
    same = same_for_call(kb.torch_signatures(finding.torch_api or ""), kb.mindspore_signatures(name), call)
    _restate(finding, name, same, "analysis.api.class_member",
             {"torch_api": finding.torch_api, "mindspore_api": name, "torch_class": torch_class,
              "class_target": target, "member": member})
    return True

