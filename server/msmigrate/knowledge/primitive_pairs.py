"""Torch functions whose MindSpore counterpart is a Primitive class called with the function's other
arguments (``F.normalize`` → ``ops.L2Normalize(…)(x)``): the reviewed pairs, read by the resolution
(``knowledge/resolution.py``) and written by ``fixes/primitive_calls.py``."""

from __future__ import annotations

from msmigrate.knowledge.base import KnowledgeBase

PRIMITIVE = "mindspore.ops.Primitive"

# (torch function, Primitive class) pairs whose Primitive, built with the torch call's other arguments,
# takes the call's tensors in torch's order and returns torch's result (reviewed against both APIs'
# documentation; checked on CPU with MindSpore 2.10, see ``knowledge/facts/check_specs.toml``)
PRIMITIVE_CALLS: frozenset[tuple[str, str]] = frozenset({
    # x / max(||x||_2, eps) along dim; L2Normalize: x / sqrt(max(sum(x ** 2), epsilon)) along axis
    ("torch.nn.functional.normalize", "mindspore.ops.L2Normalize"),
})


def is_primitive_call(kb: KnowledgeBase, torch_api: str, mindspore_api: str) -> bool:
    """Whether a call of the torch function ``torch_api`` is written as a call of the Primitive class
    ``mindspore_api`` (a reviewed pair of :data:`PRIMITIVE_CALLS`)."""
    entry = kb.mindspore_entry(mindspore_api)
    return ((torch_api, mindspore_api) in PRIMITIVE_CALLS and entry is not None
            and entry.get("kind") == "class" and PRIMITIVE in entry.get("bases", ()))
