"""Which fixes are *safe*: applied by ``msmigrate fix`` without ``--unsafe-fixes``.

A fix is safe when the rewrite cannot change what the program computes:

* a fix that states its own ``safety`` (``Fix.safety``: a rule whose forms differ decides it where it
  builds the fix, MSM533; MSM201's typed tensor constructors), as it states;
* a rule module's fix, as the module declares next to its fixers (``FIX_SAFETY``: a ``Safety``, or
  ``(kb, finding) -> Safety``; ``fixes/fixers.declared_safety``): the framework rewrites whose exactness
  the project tests (``forward`` → ``construct``, ``nn.Sequential`` → ``SequentialCell``, ``nn.init.*``
  → ``set_data(initializer(...))`` with the same distribution, device moves, ``train()/eval()`` →
  ``set_train``, ``lr`` → ``learning_rate``, einops' names imported from the helper module that gives
  einops a MindSpore backend, …) declare ``Safety.SAFE``;
* the fix of an API finding (MSM100 / MSM101) whose resolution says so (``Resolution.safety``, decided once
  by ``knowledge/resolution.safety_of`` for the target the fix writes on the resolution's device, the
  device of ``msmigrate fix --device`` / the editor's ``device`` setting), and the torch names of a string
  annotation (MSM104): naming a type computes nothing (so is the MSM201 rename of a type named, declared
  by its module); a
  written pair that passed the numeric check on that device (``verified-<table>-<device>.json``,
  ``verified-derived-CPU.json`` on CPU, a device replacement chosen by its check there); a *consistent*
  mapping whose two installed signatures have the same parameters in the same order;
* a call of a missing API rewritten to its composition (MSM202, MSM205: declared by their modules in
  ``rules/missing/``): offered only when every case of its numeric check passed
  (``verified-compositions-CPU.json``), with the call's own arguments; safe on the device it was checked on.

A container's pair is verified like an operator, by a program run alike on both sides
(``check/worker_programs.py``: outputs and parameter names); ``nn.ModuleList`` → ``CellList`` then stays
unsafe for a list changed after its call or sliced, which MindSpore names otherwise
(``analysis/container_forms.py``, through the resolution).

Everything else is *unsafe* (the resolution gives the reason: a check that found a difference, a target
without a kernel on the device, an in-place call rewritten to ``assign_value`` of its out-of-place
counterpart, a module instance written as ``functools.partial`` of a function (no Cell any more), a function
written as a Primitive called with its output shape (batched inputs only), a replacement chosen by a
reviewed fact rather than a check, nothing verified), and so are the fixes their rule module declares
``Safety.UNSAFE`` (checkpoint loading, which needs the file converted; the training step rewritten with
``value_and_grad``, which moves code into a function): the editor still offers them, ``msmigrate fix``
applies them only when asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msmigrate.analysis.resolution import MAPPED_RULES
from msmigrate.fixes.fixers import declared_safety
from msmigrate.knowledge.resolution import same_parameters  # noqa: F401  (read from here by tests)
from msmigrate.model.resolution import Safety

if TYPE_CHECKING:
    from msmigrate.fixes.model import Fix
    from msmigrate.knowledge.base import KnowledgeBase
    from msmigrate.model.finding import Finding

# MSM104 on a string annotation: its torch names written as their MindSpore types (an annotation computes
# nothing; fixes/string_annotation_fixes.py)
STRING_ANNOTATION = ("MSM104", "finding.MSM104.string")


def is_safe(finding: Finding, kb: KnowledgeBase | None = None, fix: Fix | None = None) -> bool:
    """Whether the fix of ``finding`` cannot change the program's results (see the module doc): a tested
    pattern rule, or an API finding whose resolution is safe. ``kb`` is not read (the resolution was made
    with the table and device of the analysis) unless the rule's module declares its fix safety as a
    function of it. ``fix``: the fix offered, whose own ``safety``, when its rule decides one per fix (the
    form of the code it rewrites), is the answer."""
    if fix is not None and fix.safety is not None:
        return fix.safety is Safety.SAFE
    declared = declared_safety(finding.rule)
    if declared is not None:
        return (declared if isinstance(declared, Safety) else declared(kb, finding)) is Safety.SAFE
    if (finding.rule, finding.message_key) == STRING_ANNOTATION:
        return True
    if finding.rule not in MAPPED_RULES or not finding.torch_api or finding.resolution is None:
        return False
    return finding.resolution.safety is Safety.SAFE
