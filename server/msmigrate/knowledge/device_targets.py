"""Device-aware targets: when the selected table's MindSpore API has no kernel on the user's device,
the equivalent that runs there.

The verification runs record which targets MindSpore cannot run on a device (``unsupported_on_device``:
e.g. most ``mindspore.mint`` operators of the 2.6 table on CPU with MindSpore 2.10), or that run there
without effect (``no_effect``: 2.6 ``mint.optim.Adam`` on CPU leaves the weights unchanged, without an
error; only a target that passed its check replaces one of these): the table checks
``verified-<table>-<device>.json`` for table rows, the derived check ``verified-derived-CPU.json`` for
derived mappings. For such an API, the rows of the other official tables are tried, newest first, then
the derived candidates of every table (this one first), then their CPU alternatives (other MindSpore APIs
for table rows whose target has no CPU kernel, ``datagen/derive_device.py``); the first whose target
passed the numeric check on that device is the replacement; failing that, a target whose only recorded
failure is int32 indices (or integers) where torch returns int64 (same values; the fix title says so),
a table's first; last, a target whose only recorded difference is one the fix's result form corrects
(``value_forms.corrects``: float counts written ``.long()``). A check that compared MindSpore's result
in the form the fix writes (``value_forms.CHECKED_FORMS``: ``ops.sort(ops.unique(x)[0])[0]``) records it
(``form``): the fix writes that target only for a call it writes the same form for. Only recorded facts
are used: without verification data for a device, the table's target stands. An in-place API with none
of these (``x.clamp_``) gets its out-of-place counterpart's target verified on the device
(:func:`out_of_place_target`): the fix writes the result back with ``Tensor.assign_value``.

APIs the numeric check does not run (those that need a process group) have reviewed facts instead
(:data:`DEVICE_ONLY`): a target that runs on some devices only, and the row written elsewhere (the other
table's, or that of a torch API computing what the call needs: ``reduce`` → ``all_reduce`` on CPU).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from msmigrate.knowledge.base import VERSIONS, get_knowledge_base
from msmigrate.knowledge.derived import CHECK_DEVICE, DerivedMapping
from msmigrate.knowledge.model import MappingRow
from msmigrate.knowledge.value_forms import corrects

NO_KERNEL = "unsupported_on_device"
# a target that runs on the device without error but changes nothing (2.6 mint.optim.Adam on CPU: its
# optimizer step leaves the weights as they were); replaced like one without a kernel, by verified
# targets only
NO_EFFECT = "no_effect"
# the recorded (status, reason) of a check that says the target does not work on the device
DEVICE_FAILURES = frozenset({("error", NO_KERNEL), ("fail", NO_EFFECT)})


@dataclass(frozen=True, slots=True)
class DeviceTarget:
    row: MappingRow  # the row whose target runs on the device (of ``version``, or a derived one)
    version: str  # the table version of the row, or of the derived file that offered the candidate
    replaced: str  # the selected mapping's target, which has no kernel there
    device: str
    derived: DerivedMapping | None = None  # set when the replacement is a derived candidate
    verified: bool = True  # False: same values on the device, but int32 indices where torch gives int64
    note: str | None = None  # with ``verified`` False: the check's note (SAME_VALUES_NOTES, or corrected)
    reason: str | None = None  # a DEVICE_ONLY fact's message key: why the table's target fails there
    failure: str = NO_KERNEL  # the replaced target's recorded failure on the device (NO_KERNEL, NO_EFFECT)
    form: str | None = None  # the result form its check applied (``value_forms.CHECKED_FORMS``)


@dataclass(frozen=True, slots=True)
class DeviceOnly:
    """A table target that runs on ``devices`` only (a reviewed fact, measured or read from MindSpore's
    source), and where the same torch API's row of table ``version`` is written instead (or the row of
    ``torch_api``, a torch API that computes what the call needs)."""

    devices: frozenset[str]  # where the table's target runs (or is not known to fail)
    version: str  # the table whose row (same torch API) is written on the devices of ``instead_on``
    instead_on: frozenset[str]  # where that row's target was run (or MindSpore's source says it runs)
    reason: str  # message key (fields: replaced, device, table): why the table's target fails there
    torch_api: str | None = None  # the torch API whose row is written; None: the same one


# Measured with MindSpore 2.10 on CPU in the conversion suite's 2-rank group (docs/verification.md,
# "Distributed APIs"):
# mint.distributed.init_process_group raises ValueError ("Only support hccl now") for any backend but
# "hccl", and with "hccl" it calls communication.init("hccl"), which raises RuntimeError off Ascend
# ("the argument 'backend_name' should be 'mccl' to init 'CPU', but got 'hccl'"); communication.init()
# (backend None: the device's library) formed the group. On GPU the same two checks are in MindSpore's
# source (communication/management.py: 'hccl' needs device_target Ascend; None picks nccl on GPU).
# einsum, from MindSpore 2.10's source and the CPU checks: mint.einsum (2.6 table) dispatches to EinsumExt
# on Ascend and raises NotImplementedError ("einsum only supports Ascend", ops/tensor_method.py
# deprecated_einsum) on any other device; ops.einsum (2.4 table) is the Einsum primitive, documented for
# GPU only ("Supported Platforms: GPU"; on CPU: "Unsupported op [Einsum] on CPU"). Neither runs on CPU,
# nor does any einsum of mindspore.numpy (it has none).
# mint.distributed.reduce raised "The kernel DistCommReduce unregistered" on CPU (as did ops.Reduce and
# comm_func.reduce: "Unsupported op [Reduce] on CPU"), while mint.distributed.all_reduce gave every rank the
# sum, max, min, product and average: torch's reduce leaves the tensors of the ranks other than dst
# unspecified (gloo left one half-reduced), so all_reduce computes what a reduce promises (dst's tensor),
# the dst argument dropped (param_facts.ABSENT_MEANS). GPU not measured: the table's target stands there.
DEVICE_ONLY: dict[str, DeviceOnly] = {
    "mindspore.mint.distributed.init_process_group": DeviceOnly(
        frozenset({"Ascend"}), "2.4", frozenset({"CPU", "GPU"}), "fix.device_only.hccl"),
    "mindspore.mint.einsum": DeviceOnly(
        frozenset({"Ascend"}), "2.4", frozenset({"GPU"}), "fix.device_only.einsum"),
    "mindspore.ops.einsum": DeviceOnly(
        frozenset({"GPU"}), "2.6", frozenset({"Ascend"}), "fix.device_only.einsum"),
    "mindspore.mint.distributed.reduce": DeviceOnly(
        frozenset({"Ascend", "GPU"}), "2.6", frozenset({"CPU"}), "fix.device_only.reduce",
        "torch.distributed.all_reduce"),
}


def device_only(mindspore_api: str | None) -> DeviceOnly | None:
    """The reviewed fact of a target that runs on some devices only (:data:`DEVICE_ONLY`)."""
    return DEVICE_ONLY.get(mindspore_api or "")


# The one recorded failure a replacement may have: values agree, only the index dtype is narrower (the
# conversion suite compares dtype classes, as the 2.6 table's own Tensor.argmax / sort / topk need).
# int32_default_int: MindSpore's numpy functions make int32 tensors from a Python int where torch makes int64;
# random_int32_indices: a sampler (values random, compared by shape) returning int32 indices.
SAME_VALUES_NOTES = frozenset({"int32_indices", "int32_default_int", "random_int32_indices"})


def runnable_target(torch_api: str, version: str, device: str = "CPU") -> DeviceTarget | None:
    """The replacement row for ``torch_api`` when table ``version``'s target has no kernel on ``device``."""
    found = runnable_targets(torch_api, version, device)
    return found[0] if found else None


def runnable_targets(torch_api: str, version: str, device: str = "CPU") -> tuple[DeviceTarget, ...]:
    """Every replacement for ``torch_api`` when table ``version``'s target has no kernel on ``device``,
    best first (a fix takes the first that the call can be rewritten to)."""
    return _runnable_targets(torch_api, version, _device_name(device))


def _device_name(device: str) -> str:
    """A device as the verification files spell it (``CPU``, ``GPU``, ``Ascend``)."""
    return device.upper() if device.lower() != "ascend" else "Ascend"


@cache
def _runnable_targets(torch_api: str, version: str, device: str) -> tuple[DeviceTarget, ...]:
    from msmigrate.knowledge.verified import verified_status

    failed = device_failure(torch_api, version, device)
    if failed is None:
        return ()
    replaced, failure = failed
    fact = DEVICE_ONLY.get(replaced)
    if fact is not None:
        row = reviewed_row(torch_api, fact)
        if device not in fact.instead_on or row is None or not row.mindspore_api:
            return ()
        return (DeviceTarget(row, fact.version, replaced, device, reason=fact.reason),)
    others = sorted((v for v in VERSIONS if v != version), key=_order, reverse=True)
    # verified; same values but int32 (SAME_VALUES_NOTES); the check's one difference is what the fix's
    # result form corrects
    ranked: tuple[list[DeviceTarget], ...] = ([], [], [])
    for other in others:
        row = get_knowledge_base(other).row(torch_api)
        if row is None or not row.mindspore_api or row.mindspore_api == replaced:
            continue
        status = verified_status(row.torch_api, other, device)  # the table's spelling of the API
        if status is None or status.mindspore_api != row.mindspore_api:
            continue
        rank = _rank(status.passed, status.status, status.note, status.reason, row.mindspore_api)
        if rank is not None:
            ranked[rank].append(DeviceTarget(row, other, replaced, device, verified=rank == 0,
                                             note=None if rank == 0 else status.note, failure=failure,
                                             form=status.result_form))
    if device == CHECK_DEVICE:
        tables = [(other, get_knowledge_base(other).derived_table) for other in (version, *others)]
        found_in = [(other, entry.candidates) for other, table in tables
                    if (entry := table.entry(torch_api)) is not None]
        # CPU alternatives are keyed by the table's spelling (torch.nn.functional.conv_transpose2d for
        # torch.conv_transpose2d)
        found_in += [(other, table.alternatives.get(torch_api)
                      or table.alternatives.get(_spelled(other, torch_api)) or ()) for other, table in tables]
        for other, candidates in found_in:  # derived mappings of every table, then the CPU alternatives
            for candidate in candidates:
                if candidate.mindspore_api == replaced:
                    continue
                rank = _rank(candidate.verified, candidate.check, candidate.check_note,
                             candidate.check_reason, candidate.mindspore_api)
                if rank is not None:
                    ranked[rank].append(DeviceTarget(candidate.row, other, replaced, device, candidate,
                                                     verified=rank == 0,
                                                     note=None if rank == 0 else candidate.check_note,
                                                     failure=failure, form=candidate.check_form))
    if failure == NO_EFFECT:  # a target that silently does nothing gives way to verified targets only
        ranked = (ranked[0], [], [])
    found: dict[str, DeviceTarget] = {}
    for target in (target for rank in ranked for target in rank):  # one per MindSpore API, best first
        found.setdefault(target.row.mindspore_api or "", target)
    return tuple(found.values())


def _spelled(version: str, torch_api: str) -> str:
    """``torch_api`` as table ``version``'s row spells it (itself without a row)."""
    row = get_knowledge_base(version).row(torch_api)
    return row.torch_api if row is not None else torch_api


def reviewed_row(torch_api: str, fact: DeviceOnly) -> MappingRow | None:
    """The row a :data:`DEVICE_ONLY` fact writes for ``torch_api`` on the devices of ``instead_on``."""
    return get_knowledge_base(fact.version).row(fact.torch_api or torch_api)


def _rank(passed: bool, check: str | None, note: str | None, reason: str | None,
          mindspore_api: str | None) -> int | None:
    """How a replacement's numeric check ranks it: 0 passed, 1 same values with int32 where torch gives
    int64, 2 a difference the fix's result form corrects; None: not a replacement."""
    if passed:
        return 0
    if check != "fail":
        return None
    if note in SAME_VALUES_NOTES:
        return 1
    return 2 if corrects(mindspore_api, note, reason) else None


def rewritten_on(torch_api: str, version: str, device: str = CHECK_DEVICE) -> bool:
    """Whether the fix writes another target for ``torch_api`` on ``device`` (table ``version``'s has no
    kernel there): a replacement, or the out-of-place counterpart's target written back."""
    return bool(runnable_targets(torch_api, version, device)) or out_of_place_target(
        torch_api, version, device) is not None


def without_kernel(torch_api: str, version: str, device: str) -> str | None:
    """The target of ``torch_api`` in table ``version`` (its row, else its derived mapping) when the
    checks recorded that it does not work on ``device`` (no kernel, or no effect: :func:`device_failure`)."""
    failed = device_failure(torch_api, version, device)
    return failed[0] if failed is not None else None


def device_failure(torch_api: str, version: str, device: str) -> tuple[str, str] | None:
    """(target, failure) when the checks recorded that the target of ``torch_api`` in table ``version`` (its
    row, else its derived mapping) does not work on ``device``: ``NO_KERNEL``, or ``NO_EFFECT`` (it runs
    and changes nothing); a DEVICE_ONLY fact counts as ``NO_KERNEL``."""
    from msmigrate.knowledge.verified import verified_status

    kb = get_knowledge_base(version)
    row = kb.row(torch_api)
    fact = DEVICE_ONLY.get(row.mindspore_api or "") if row is not None else None
    if row is not None and fact is not None:
        return (row.mindspore_api or "", NO_KERNEL) if device not in fact.devices else None
    derived = kb.derived(torch_api)
    if derived is not None:
        failed = device == CHECK_DEVICE and (derived.check, derived.check_reason) in DEVICE_FAILURES
        return (derived.mindspore_api, derived.check_reason or "") if failed else None
    # row: under the table's spelling (torch.nn.functional.conv2d for torch.conv2d)
    own = verified_status(row.torch_api if row is not None else torch_api, version, device)
    if own is None or (own.status, own.reason) not in DEVICE_FAILURES:
        return None
    return own.mindspore_api or "", own.reason or ""


def _order(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


@dataclass(frozen=True, slots=True)
class OutOfPlaceTarget:
    """For an in-place torch API whose target has no kernel on the device: its out-of-place torch API
    (``torch.Tensor.clamp`` for ``torch.Tensor.clamp_``) and that API's target verified on the device; or
    the in-place API itself with its verified replacement that returns a new tensor
    (``mindspore.ops.zeros_like`` for ``torch.Tensor.zero_``)."""

    torch_api: str  # the out-of-place torch API (the in-place one: its replacement returns a new tensor)
    row: MappingRow  # its row (of ``version``, or a derived one)
    version: str
    replaced: str  # the in-place API's target, which has no kernel there
    device: str
    derived: DerivedMapping | None = None


def in_place(name: str) -> bool:
    """Whether the last part of ``name`` is torch's spelling of an in-place operation (``clamp_``)."""
    last = name.rpartition(".")[2]
    return last.endswith("_") and not last.endswith("__") and len(last) > 1


def out_of_place_target(torch_api: str, version: str, device: str = "CPU") -> OutOfPlaceTarget | None:
    """The out-of-place counterpart of the in-place ``torch_api`` when neither table ``version``'s target
    nor a replacement of it runs on ``device``, and the counterpart's target passed the numeric check
    there (its table target, else its first verified replacement); or, when the in-place API's verified
    replacements all return a new tensor, the first of them (its result is what the in-place call leaves
    in the tensor); None otherwise."""
    return _out_of_place_target(torch_api, version, _device_name(device))


@cache
def _out_of_place_target(torch_api: str, version: str, device: str) -> OutOfPlaceTarget | None:
    from msmigrate.knowledge.verified import verified_status

    if not in_place(torch_api):
        return None
    swaps = _runnable_targets(torch_api, version, device)
    if any(writes_in_place(swap.row.mindspore_api) for swap in swaps):
        return None  # the replacement changes the tensor itself
    # a verified replacement returning a new tensor (x.zero_() → ops.zeros_like(x)): written back; a
    # function first (a method call cannot become a Primitive's: ops.ZerosLike()(x))
    kb = get_knowledge_base(version)
    verified = sorted((swap for swap in swaps if swap.verified),
                      key=lambda swap: kb.mindspore_kind(swap.row.mindspore_api or "") != "function")
    own = next(iter(verified), None)
    if own is not None:
        return OutOfPlaceTarget(torch_api, own.row, own.version, own.replaced, device, own.derived)
    if swaps:
        return None
    replaced = without_kernel(torch_api, version, device)
    if replaced is None:
        return _new_tensor_target(torch_api, version, device)
    out = torch_api[:-1]
    if not same_arguments(kb.torch_signatures(torch_api), kb.torch_signatures(out)):
        return None  # x.bernoulli_() samples with p=0.5, x.bernoulli() with the tensor's own values
    for target in _runnable_targets(out, version, device):  # the counterpart has no kernel either
        if target.verified:
            return OutOfPlaceTarget(out, target.row, target.version, replaced, device, target.derived)
    row = kb.row(out)
    if row is not None and row.mindspore_api and row.mindspore_api != replaced:
        status = verified_status(row.torch_api, version, device)
        if status is not None and status.passed and status.mindspore_api == row.mindspore_api:
            return OutOfPlaceTarget(out, row, version, replaced, device)
    derived = kb.derived(out) if row is None and device == CHECK_DEVICE else None
    if derived is not None and derived.verified and derived.mindspore_api != replaced:
        return OutOfPlaceTarget(out, derived.row, version, replaced, device, derived)
    return None


def _new_tensor_target(torch_api: str, version: str, device: str) -> OutOfPlaceTarget | None:
    """The in-place ``torch_api``'s own target when it is a function returning a new tensor, verified on
    ``device`` (``ops.tensor_scatter_elements`` for ``Tensor.scatter_``): ``replaced`` is that target."""
    from msmigrate.knowledge.verified import verified_status

    kb = get_knowledge_base(version)
    row = kb.mapping(torch_api)
    target = row.mindspore_api if row is not None else None
    if row is None or not target or writes_in_place(target) or kb.mindspore_kind(target) != "function":
        return None
    derived = kb.derived(torch_api)
    if derived is not None:
        passed = device == CHECK_DEVICE and derived.verified
    else:
        status = verified_status(row.torch_api, version, device)
        passed = status is not None and status.passed and status.mindspore_api == target
    return OutOfPlaceTarget(torch_api, row, version, target, device, derived) if passed else None


def writes_in_place(mindspore_api: str | None) -> bool:
    """Whether the MindSpore target changes the tensor it is called on (``mindspore.Tensor.clamp_``)."""
    return bool(mindspore_api) and in_place(mindspore_api or "")


_UNSHOWN = frozenset({"..."})  # a default the stubs do not show


def same_arguments(in_place: list[list[dict]], out_of_place: list[list[dict]]) -> bool:
    """Whether every call of the in-place API means the same arguments to the out-of-place one: each of
    its overloads is the start of one of the other's (same names, kinds and defaults; the rest optional,
    such as ``out`` or ``inplace``). No signature known: False."""
    def fits(short: list[dict], long: list[dict]) -> bool:
        if len(short) > len(long) or any("default" not in p for p in long[len(short):]):
            return False
        for a, b in zip(short, long, strict=False):
            if (a["name"], a["kind"]) != (b["name"], b["kind"]) or ("default" in a) != ("default" in b):
                return False
            defaults = {a.get("default"), b.get("default")}
            if "default" in a and len(defaults) > 1 and not defaults & _UNSHOWN:
                return False
        return True

    return bool(in_place) and all(any(fits(i, o) for o in out_of_place) for i in in_place)
