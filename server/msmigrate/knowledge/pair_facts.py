"""Reviewed facts of mapped pairs whose names and parameters match but whose values differ in kind.

Each entry is ``(torch API, MindSpore API): message key`` of an ``analysis.detail.pair.*`` text that the
finding states (its category becomes ``differences``). Add one only after running both APIs (MindSpore
2.10 on CPU); a pair whose target is another API altogether belongs in ``derive_exceptions.py``.
"""

from __future__ import annotations

PAIR_FACTS: dict[tuple[str, str], str] = {
    # MindSpore 2.10: Tensor.device is 'CPU' (a str); torch's is a torch.device (x.device.type, .index)
    ("torch.Tensor.device", "mindspore.Tensor.device"): "analysis.detail.pair.device_str",
}


def pair_fact(torch_api: str, mindspore_api: str | None) -> str | None:
    return PAIR_FACTS.get((torch_api, mindspore_api or ""))
