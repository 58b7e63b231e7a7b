"""Which fixes are *safe*: applied by ``msmigrate fix`` without ``--unsafe-fixes``.

A fix is safe when the rewrite cannot change what the program computes:

* the framework-pattern rewrites whose exactness the project tests (``forward`` → ``construct``,
  ``nn.Sequential`` → ``SequentialCell``, ``nn.init.*`` → ``set_data(initializer(...))`` with the same
  distribution, device moves, ``train()/eval()`` → ``set_train``, ``lr`` → ``learning_rate``);
* a type *named* rather than called (an annotation, an ``isinstance`` class, ``Optional[Tensor]``,
  ``cast(Tensor, x)``, ``type(x) is Tensor``: :mod:`msmigrate.analysis.type_positions`) renamed to the
  mapping's MindSpore class: naming it computes nothing, and the migrated values are of that class;
* an API replacement whose mapping passed the numeric check on CPU (``verified-<table>-CPU.json``, or
  ``verified-derived-CPU.json`` for a derived mapping), including the device-aware replacement of a
  target without a CPU kernel (:mod:`msmigrate.knowledge.device_targets`);
* an API replacement of a *consistent* mapping whose two installed signatures have the same
  parameters in the same order (a rename of the function only).

Everything else (differences not verified, equivalent replacements of missing APIs, an in-place call
rewritten to ``assign_value`` of its out-of-place counterpart, a module instance written as
``functools.partial`` of a function (no Cell any more), a function written as a Primitive called with its
output shape (batched inputs only), checkpoint loading,
which needs the file converted, the training step rewritten with ``value_and_grad``, which moves code into
a function) is *unsafe*: the
editor still offers it, ``msmigrate fix`` applies it only when asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msmigrate.model.finding import FindingCategory, UsageKind

if TYPE_CHECKING:
    from msmigrate.knowledge.base import KnowledgeBase
    from msmigrate.model.finding import Finding

EXACT_PATTERN_RULES: frozenset[str] = frozenset(
    {"MSM501", "MSM502", "MSM503", "MSM504", "MSM505", "MSM507", "MSM508", "MSM513", "MSM514",
     "MSM515", "MSM516", "MSM517", "MSM518", "MSM519", "MSM520", "MSM521"}
)
API_RULES: frozenset[str] = frozenset({"MSM100", "MSM101"})
_VARIADIC = ("var_positional", "var_keyword")


def is_safe(finding: Finding, kb: KnowledgeBase) -> bool:
    """Whether the fix of ``finding`` cannot change the program's results (see the module doc)."""
    if finding.rule in EXACT_PATTERN_RULES:
        return True
    if finding.rule not in API_RULES or not finding.torch_api:
        return False
    if finding.usage is UsageKind.REFERENCE and finding.mindspore_api:
        return True
    from msmigrate.check.verified import verified_status
    from msmigrate.knowledge.device_targets import out_of_place_target, runnable_target
    from msmigrate.knowledge.param_facts import class_as_partial
    from msmigrate.knowledge.value_forms import output_shape_primitive

    if out_of_place_target(finding.torch_api, kb.version, "CPU") is not None:
        return False  # the result is written back with assign_value: a view's base is not updated
    target = runnable_target(finding.torch_api, kb.version, "CPU")
    if target is not None:  # the fix writes another target: safe when it passed the check on CPU
        # (a module written as functools.partial of a function is no Cell any more, a Primitive called
        # with the output shape takes batched inputs only: to review)
        other_way = (class_as_partial(finding.torch_api, target.row.mindspore_api)
                     or output_shape_primitive(target.row.torch_api, target.row.mindspore_api) is not None)
        return target.verified and target.reason is None and not other_way
    status = verified_status(finding.torch_api, kb.version, "CPU")
    if status is not None and status.status in ("pass", "fail"):
        return status.passed
    derived = kb.derived(finding.torch_api)
    if derived is not None and derived.mindspore_api == finding.mindspore_api and derived.verified:
        return True  # a derived mapping whose candidate passed the numeric check on CPU
    if finding.category is not FindingCategory.CONSISTENT or not finding.mindspore_api:
        return False
    return same_parameters(kb.torch_signatures(finding.torch_api),
                           kb.mindspore_signatures(finding.mindspore_api))


def same_parameters(torch_sigs: list[list[dict[str, Any]]], ms_sigs: list[list[dict[str, Any]]]) -> bool:
    """Whether one torch signature and one MindSpore signature list the same named parameters in the
    same order (``self`` ignored); unknown signatures are never the same."""
    if not torch_sigs or not ms_sigs:
        return False
    torch_shapes = {_shape(sig) for sig in torch_sigs}
    return any(_shape(sig) in torch_shapes for sig in ms_sigs)


def _shape(signature: list[dict[str, Any]]) -> tuple[tuple[str, str], ...]:
    return tuple(
        (p.get("name", ""), p.get("kind", "")) if p.get("kind") not in _VARIADIC else ("*", p.get("kind", ""))
        for p in signature
        if p.get("name") != "self"
    )
