"""Device-aware targets: when the selected table's MindSpore API has no kernel on the user's device,
the equivalent that runs there.

The verification runs (``verified-<table>-<device>.json``) record which targets MindSpore cannot run
on a device (``unsupported_on_device``: e.g. most ``mindspore.mint`` operators of the 2.6 table on CPU
with MindSpore 2.10). For such an API, the rows of the other official tables are tried, newest first;
the first whose target passed the numeric check on that device is the replacement. Only recorded facts
are used: without verification data for a device, the table's target stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from msmigrate.knowledge.base import VERSIONS, get_knowledge_base
from msmigrate.knowledge.model import MappingRow

NO_KERNEL = "unsupported_on_device"


@dataclass(frozen=True, slots=True)
class DeviceTarget:
    row: MappingRow  # the row whose target runs on the device (from ``table``)
    table: str
    replaced: str  # the selected table's target, which has no kernel there
    device: str


def runnable_target(torch_api: str, version: str, device: str = "CPU") -> DeviceTarget | None:
    """The replacement row for ``torch_api`` when table ``version``'s target has no kernel on ``device``."""
    return _runnable_target(torch_api, version, device.upper() if device.lower() != "ascend" else "Ascend")


@cache
def _runnable_target(torch_api: str, version: str, device: str) -> DeviceTarget | None:
    from msmigrate.check.verified import verified_status

    own = verified_status(torch_api, version, device)
    if own is None or own.status != "error" or own.reason != NO_KERNEL:
        return None
    for other in sorted((v for v in VERSIONS if v != version), key=_order, reverse=True):
        row = get_knowledge_base(other).row(torch_api)
        if row is None or not row.mindspore_api:
            continue
        status = verified_status(torch_api, other, device)
        if status is not None and status.passed and status.mindspore_api == row.mindspore_api:
            return DeviceTarget(row, other, own.mindspore_api or "", device)
    return None


def _order(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))
