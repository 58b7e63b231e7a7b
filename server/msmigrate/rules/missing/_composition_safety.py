"""Shared code of MSM202 and MSM205: the fix safety of a composition fix."""

from __future__ import annotations

from msmigrate.model.finding import Finding
from msmigrate.model.resolution import Safety


def composition_safety(kb, finding: Finding) -> Safety:  # noqa: ANN001 - the knowledge base (not read)
    """A verified composition called with the call's own arguments is safe on the device its numeric check
    passed on (CPU, ``knowledge/compositions/verified.py``), unsafe elsewhere."""
    from msmigrate.knowledge.compositions.verified import CHECK_DEVICE, offered_composition

    device = finding.resolution.device if finding.resolution is not None else CHECK_DEVICE
    offered = device == CHECK_DEVICE and offered_composition(finding.torch_api) is not None
    return Safety.SAFE if offered else Safety.UNSAFE
