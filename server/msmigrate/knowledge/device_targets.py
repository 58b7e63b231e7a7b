"""Device-aware targets: when the selected table's MindSpore API has no kernel on the user's device,
the equivalent that runs there.

The verification runs record which targets MindSpore cannot run on a device (``unsupported_on_device``:
e.g. most ``mindspore.mint`` operators of the 2.6 table on CPU with MindSpore 2.10): the table checks
``verified-<table>-<device>.json`` for table rows, the derived check ``verified-derived-CPU.json`` for
derived mappings. For such an API, the rows of the other official tables are tried, newest first, then
the derived candidates of every table (this one first); the first whose target passed the numeric check
on that device is the replacement. Only recorded facts are used: without verification data for a device,
the table's target stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from msmigrate.knowledge.base import VERSIONS, get_knowledge_base
from msmigrate.knowledge.derived import CHECK_DEVICE, DerivedMapping
from msmigrate.knowledge.model import MappingRow

NO_KERNEL = "unsupported_on_device"


@dataclass(frozen=True, slots=True)
class DeviceTarget:
    row: MappingRow  # the row whose target runs on the device (from ``table``, or a derived one)
    table: str  # the table version of the row, or of the derived file that offered the candidate
    replaced: str  # the selected mapping's target, which has no kernel there
    device: str
    derived: DerivedMapping | None = None  # set when the replacement is a derived candidate


def runnable_target(torch_api: str, version: str, device: str = "CPU") -> DeviceTarget | None:
    """The replacement row for ``torch_api`` when table ``version``'s target has no kernel on ``device``."""
    return _runnable_target(torch_api, version, device.upper() if device.lower() != "ascend" else "Ascend")


@cache
def _runnable_target(torch_api: str, version: str, device: str) -> DeviceTarget | None:
    from msmigrate.check.verified import verified_status

    replaced = _without_kernel(torch_api, version, device)
    if replaced is None:
        return None
    for other in sorted((v for v in VERSIONS if v != version), key=_order, reverse=True):
        row = get_knowledge_base(other).row(torch_api)
        if row is None or not row.mindspore_api or row.mindspore_api == replaced:
            continue
        status = verified_status(torch_api, other, device)
        if status is not None and status.passed and status.mindspore_api == row.mindspore_api:
            return DeviceTarget(row, other, replaced, device)
    if device != CHECK_DEVICE:
        return None
    for other in (version, *sorted((v for v in VERSIONS if v != version), key=_order, reverse=True)):
        entry = get_knowledge_base(other).derived_table.entry(torch_api)
        for candidate in entry.candidates if entry is not None else ():
            if candidate.verified and candidate.mindspore_api != replaced:
                return DeviceTarget(candidate.row, other, replaced, device, candidate)
    return None


def _without_kernel(torch_api: str, version: str, device: str) -> str | None:
    """The target of ``torch_api`` in table ``version`` (its row, else its derived mapping) when the
    checks recorded that it has no kernel on ``device``."""
    from msmigrate.check.verified import verified_status

    derived = get_knowledge_base(version).derived(torch_api)
    if derived is not None:
        no_kernel = device == CHECK_DEVICE and derived.check == "error" and derived.check_reason == NO_KERNEL
        return derived.mindspore_api if no_kernel else None
    own = verified_status(torch_api, version, device)
    if own is None or own.status != "error" or own.reason != NO_KERNEL:
        return None
    return own.mindspore_api or ""


def _order(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))
