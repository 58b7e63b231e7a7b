"""The compositions: for a torch API MindSpore lacks, a helper of MindSpore operators that computes the same.

Each row names the torch API, the helper (its source is ``templates/<helper>.py.txt``, written into the
project's helper module by the fix) and how a call maps onto it. Helpers take the torch API's parameters,
in torch's order, with torch's names and defaults (checked by ``tests/knowledge/test_compositions.py``), so
the argument plan is the call's own arguments:

* ``call``: ``torch_api(args)`` → ``helper(args)`` (a function, or a class such as ``RMSNorm``);
* ``method``: ``x.name(args)`` → ``helper(x, args)`` (a Tensor method becomes a function of the tensor).

``refused``: torch parameters the helper does not take (``out=``, ``layout=``): a call passing one is left
as it is. ``extra``: parameters the helper takes that torch's inventory signature does not list (torch
accepts ``axis`` for ``dim`` in ``concatenate``). ``needs``: other helpers this one calls. ``members``:
attributes of the result that torch's inventory lists as APIs of their own (``torch.finfo.min``), which
the helper's result has too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

CALL = "call"
METHOD = "method"


@dataclass(frozen=True, slots=True)
class Composition:
    torch_api: str
    helper: str  # its name in the helper module (and of its template)
    form: str = CALL  # CALL | METHOD
    refused: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    members: tuple[str, ...] = ()


COMPOSITIONS: tuple[Composition, ...] = (
    Composition("torch.nn.functional.scaled_dot_product_attention", "scaled_dot_product_attention"),
    Composition("torch.finfo", "finfo",
                members=("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")),
    Composition("torch.Tensor.unfold", "unfold", METHOD),
    Composition("torch.nn.utils.rnn.pad_sequence", "pad_sequence"),
    Composition("torch.isin", "isin", refused=("out",)),
    Composition("torch.bucketize", "bucketize", refused=("out",)),
    Composition("torch.hann_window", "hann_window", refused=("layout", "pin_memory", "requires_grad")),
    Composition("torch.concatenate", "concatenate", refused=("out",), extra=("axis",)),
    Composition("torch.take_along_dim", "take_along_dim", refused=("out",)),
    Composition("torch.Tensor.unflatten", "unflatten", METHOD),
    Composition("torch.unflatten", "unflatten"),
    Composition("torch.linalg.solve_triangular", "solve_triangular", refused=("out",)),
    Composition("torch.nn.functional.rms_norm", "rms_norm", needs=("finfo",)),
    Composition("torch.nn.RMSNorm", "RMSNorm", needs=("rms_norm",)),
)


@cache
def _by_api() -> dict[str, Composition]:
    return {c.torch_api: c for c in COMPOSITIONS}


def composition_for(torch_api: str | None) -> Composition | None:
    """The composition of a (canonical) torch API, verified or not."""
    return _by_api().get(torch_api or "")


def composition_of_member(torch_api: str | None) -> Composition | None:
    """The composition whose result has the member ``torch_api`` names (``torch.finfo.min`` → finfo's)."""
    owner, _, member = (torch_api or "").rpartition(".")
    composition = composition_for(owner)
    return composition if composition is not None and member in composition.members else None


def helpers_with_needs(helpers: list[str] | tuple[str, ...]) -> list[str]:
    """``helpers`` with the helpers they call, each once, a needed helper before the one needing it."""
    needs = {c.helper: c.needs for c in COMPOSITIONS}
    ordered: list[str] = []

    def add(name: str) -> None:
        if name in ordered:
            return
        for needed in needs.get(name, ()):
            add(needed)
        ordered.append(name)

    for name in helpers:
        add(name)
    return ordered
