"""Tensor-method call forms MindSpore 2.10 runs in PyNative mode but not in GRAPH_MODE on CPU.

The torch spelling (``x.chunk(2, dim=1)``, ``x.transpose(1, 2)``) is what ``msmigrate fix`` keeps, and
MindSpore's Tensor method takes it in PyNative; in GRAPH_MODE the keyword ``dim`` selects an overload
whose primitive has no CPU kernel ("Kernel select failed: Unsupported op [Chunk] on CPU"), and
``transpose`` takes a full permutation. Found running migrated models with ``msmigrate compare``
(torchvision's ShuffleNetV2: ``x.chunk(2, dim=1)``); each row is checked under MindSpore 2.10 by
``tests/rules/test_graph_mode_rules.py`` in both modes, with the alternative where one is given: it
compiles in GRAPH_MODE and gives the PyNative result of the original form.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GraphForm:
    method: str
    keyword: str | None  # the keyword that selects the failing overload; None: by positional count
    positional: int | None  # the positional count of the failing form (transpose's two dims)
    error: str  # what GRAPH_MODE says
    alternative: str | None  # a form that runs in both modes with the same result, when one exists
    min_positional: int | None = None  # the failing form: this many positional arguments or more


_KERNEL = "Kernel select failed"
GRAPH_FORMS: dict[str, GraphForm] = {
    "chunk": GraphForm("chunk", "dim", None, _KERNEL, "x.chunk(chunks, dim) with dim positional"),
    "split": GraphForm("split", "dim", None, _KERNEL, "x.split(split_size, dim) with dim positional"),
    "cumsum": GraphForm("cumsum", "dim", None, _KERNEL, "x.cumsum(dim) with dim positional"),
    "sort": GraphForm("sort", "dim", None, _KERNEL, "x.sort(dim) with dim positional"),
    # the positional forms of std/median are older overloads (std: ddof=0): no alternative offered
    "std": GraphForm("std", "dim", None, _KERNEL, None),
    "median": GraphForm("median", "dim", None, _KERNEL, None),
    # two dimensions are a full permutation only for a 2-D tensor
    "transpose": GraphForm("transpose", None, 2, "the number of axes must be equal to the dimension of "
                           "Tensor", "x.swapaxes(dim0, dim1)"),
    # sizes as separate arguments (open_clip's ``token.view(1, 1, -1).expand(batch, -1, -1)``): GRAPH_MODE's
    # expand takes one size ("The parameters number of the function is 2, but … provided arguments is 4")
    "expand": GraphForm("expand", None, None, "The parameters number of the function is 2",
                        "x.broadcast_to((size, …))", min_positional=2),
}


def failing_form(method: str, positional: int, keywords: set[str]) -> GraphForm | None:
    """The row a call ``x.<method>(…)`` with ``positional`` arguments and these keywords matches."""
    form = GRAPH_FORMS.get(method)
    if form is None:
        return None
    if form.keyword is not None and form.keyword in keywords:
        return form
    if form.positional is not None and positional == form.positional and not keywords:
        return form
    if form.min_positional is not None and positional >= form.min_positional and not keywords:
        return form
    return None
