"""Device alternatives (``cpu_alternatives`` of ``mapping_data/derived-<v>.json``): for a table row whose
MindSpore target has no kernel on the check device (recorded by ``verified-<v>-CPU.json``), and for a derived
mapping whose offered target has none (recorded by ``verified-derived-CPU.json``: ``Tensor.unique``), other
MindSpore APIs that may compute the same there.

The candidates of a row are found as for a derived mapping (``derive_candidates.candidates_for``: the
other tables' targets, the same name in the counterpart namespaces), plus the same name in
:data:`DEVICE_NAMESPACES` (``mindspore.numpy``, ``mindspore.ops``) and the reviewed :data:`OTHER_NAMES`
(a Tensor method's include those of the torch function of the same name); the row's own target is left
out. None is offered before its numeric check on the device passed (``msmigrate check --derived --all``
checks them with the derived candidates); ``knowledge/device_targets.py`` offers the ones that did.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from msmigrate.datagen.derive_candidates import candidates_for
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.knowledge.derived import CHECK_DEVICE

# torch namespace → further MindSpore namespaces whose same-named API may run where the table's target
# has no kernel (the longest matching torch namespace wins, as in ``derive_candidates.NAMESPACES``)
DEVICE_NAMESPACES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("torch.Tensor.", ("mindspore.ops.", "mindspore.numpy.")),  # a function taking the tensor first
    ("torch.nn.functional.", ("mindspore.ops.",)),
    ("torch.linalg.", ("mindspore.ops.",)),
    ("torch.", ("mindspore.ops.", "mindspore.numpy.")),
)
# counterparts under another name, reviewed against both APIs' documentation (same arguments, same result;
# the numeric check decides whether one is offered)
OTHER_NAMES: dict[str, tuple[str, ...]] = {
    # a copy of the tensor (torch's memory_format has no MindSpore meaning)
    "torch.clone": ("mindspore.numpy.copy", "mindspore.ops.deepcopy"),
    # True when both have the same shape and elements (MindSpore returns a bool tensor of shape ())
    "torch.equal": ("mindspore.numpy.array_equal",),
    # an in-place API's result computed anew (device_targets.out_of_place_target writes it back with
    # Tensor.assign_value): zeros, or the value, in the tensor's shape and dtype
    "torch.Tensor.zero_": ("mindspore.ops.zeros_like",),
    "torch.zero_": ("mindspore.ops.zeros_like",),
    "torch.Tensor.fill_": ("mindspore.ops.full_like",),
    # the inverse of each square matrix of a batch
    "torch.linalg.inv": ("mindspore.ops.inverse",),
    # the gradient of a convolution is the transposed convolution (value_forms.OUTPUT_SHAPE_PRIMITIVES)
    "torch.nn.functional.conv_transpose2d": ("mindspore.ops.Conv2DTranspose",),
    # the module's computation as a function (param_facts.CLASS_AS_PARTIAL: written as functools.partial)
    "torch.nn.Fold": ("mindspore.ops.fold",),
    "torch.nn.Unfold": ("mindspore.ops.unfold",),
    # instance normalization is group normalization with one group per channel, without running statistics
    # (torch's default track_running_stats=False; param_facts: the pair's renames, DEFAULT_FROM, ABSENT_MEANS)
    **{f"torch.nn.InstanceNorm{n}d": ("mindspore.mint.nn.GroupNorm",) for n in (1, 2, 3)},
    # zero padding is constant padding with the value 0 (param_facts.PAIR_COMPANIONS adds value=0.0)
    "torch.nn.ZeroPad1d": ("mindspore.nn.ConstantPad1d",),
    "torch.nn.ZeroPad2d": ("mindspore.nn.ConstantPad2d",),
    "torch.nn.ZeroPad3d": ("mindspore.nn.ConstantPad3d",),
}


_METHOD = "torch.Tensor."


def device_names(torch_api: str) -> list[str]:
    """The further MindSpore names tried for ``torch_api`` on a device without its table target's kernel."""
    names = list(OTHER_NAMES.get(torch_api, ()))
    if torch_api.startswith(_METHOD):  # x.clone() computes torch.clone(x): the function's other names
        names += [n for n in OTHER_NAMES.get("torch." + torch_api[len(_METHOD):], ()) if n not in names]
    for prefix, targets in sorted(DEVICE_NAMESPACES, key=lambda item: -len(item[0])):
        if torch_api.startswith(prefix):
            rest = torch_api[len(prefix) :]
            if rest and "." not in rest and not rest.startswith("_"):
                names.extend(target + rest for target in targets)
            break
    return names


def device_alternatives(kb: KnowledgeBase, others: list[KnowledgeBase],
                        derived_apis: Iterable[str] = ()) -> dict[str, Any]:
    """``{torch_api: {"replaces": target, "candidates": [...]}}`` for the rows of ``kb``'s table, then the
    torch APIs of its derived mappings (``derived_apis``), whose target has no kernel on the check device
    (``others``: the other tables, newest first)."""
    from msmigrate.datagen.derive_exceptions import EXCEPTIONS

    def excluded(torch_api: str, target: str) -> bool:
        return bool(EXCEPTIONS.get((torch_api, target)) or EXCEPTIONS.get((torch_api, "*")))
    from msmigrate.knowledge.device_targets import DEVICE_ONLY, reviewed_row, without_kernel

    found: dict[str, Any] = {}
    rows = [row.torch_api for row in kb.rows() if row.mindspore_api and kb.mindspore_has(row.mindspore_api)]
    # (a row without a target, or with one MindSpore no longer has, is replaced by the derived candidates)
    for torch_api in [*rows, *(api for api in sorted(derived_apis) if kb.row(api) is None)]:
        if torch_api in found:
            continue
        replaced = without_kernel(torch_api, kb.version, CHECK_DEVICE)
        if not replaced:
            continue
        # a target with a reviewed fact (not checked numerically): its reviewed replacement only
        fact = DEVICE_ONLY.get(replaced)
        reviewed = reviewed_row(torch_api, fact) if fact is not None else None
        candidates = [
            c for c in candidates_for(torch_api, kb, others, device_names(torch_api))
            if c.row.mindspore_api != replaced and not excluded(torch_api, c.row.mindspore_api or "")
            and (fact is None or (reviewed is not None and c.row.mindspore_api == reviewed.mindspore_api))
        ]
        if candidates:
            found[torch_api] = {"replaces": replaced, "candidates": [c.to_json() for c in candidates]}
    return found
