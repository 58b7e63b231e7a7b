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

``replaces``: a composition of a *mapped* API, written where the MindSpore target the fix would write takes
other arguments than torch's (on CPU ``mint.nn.LayerNorm`` has no kernel and ``nn.LayerNorm`` wants a
tuple, ``epsilon``, begin axes): ``EVERY_USE`` (every use of the torch name, ``isinstance`` tests too, so
that the classes agree) or ``TORCH_ARGUMENTS`` (the uses that hand torch's arguments to the class out of
the fix's sight: a base class, the class passed as a value, and the calls passing an ``as_written``
parameter otherwise than as the literal the target takes as torch does: ``padding=p``). Such a helper
subclasses the target or names its parameters as torch does
(``rules/missing/msm205_device_composition.py``, MSM205);
``UNSAFE_USES``: the uses whose own fix is not safe on the check device (an ``nn.ModuleList`` changed after
its call: ``analysis/container_forms.py``), where the target's fix stands for the others.

A container's composition (``nn.ModuleDict``, ``nn.ModuleList``) is checked by a program run alike on both
sides (``check/worker_programs.py``: outputs and parameter names), not by calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

CALL = "call"
METHOD = "method"
EVERY_USE = "every_use"
UNSAFE_USES = "unsafe_uses"
TORCH_ARGUMENTS = "torch_arguments"
INT_LITERAL = "int"  # in ``as_written``: any int literal


@dataclass(frozen=True, slots=True)
class Composition:
    torch_api: str
    helper: str  # its name in the helper module (and of its template)
    form: str = CALL  # CALL | METHOD
    refused: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    members: tuple[str, ...] = ()
    replaces: str = ""  # "" (a missing API), EVERY_USE or TORCH_ARGUMENTS
    as_written: tuple[tuple[str, str], ...] = ()  # (parameter, INT_LITERAL or the literal's source)
    # TORCH_ARGUMENTS: the target takes torch's parameter names with other meanings (GELU's approximate:
    # torch's 'none'/'tanh', MindSpore's bool, True by default), so a use out of the fix's sight differs
    other_meaning: bool = False
    # TORCH_ARGUMENTS: only the calls passing an ``as_written`` parameter otherwise (a base class or a value
    # keeps the target's fix): the composition's check covers those calls' paths only (interpolate)
    calls_only: bool = False


_CONV_AS_WRITTEN = (("padding", INT_LITERAL), ("padding_mode", "'zeros'"))

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
    Composition("torch.nn.functional.layer_norm", "layer_norm", replaces=EVERY_USE),
    Composition("torch.einsum", "einsum", replaces=EVERY_USE),
    Composition("torch.conv1d", "conv1d", replaces=EVERY_USE),
    Composition("torch.conv2d", "conv2d", replaces=EVERY_USE),
    Composition("torch.nn.LayerNorm", "LayerNorm", needs=("layer_norm",), replaces=EVERY_USE),
    Composition("torch.nn.Conv1d", "Conv1d", replaces=TORCH_ARGUMENTS, as_written=_CONV_AS_WRITTEN),
    Composition("torch.nn.Conv2d", "Conv2d", replaces=TORCH_ARGUMENTS, as_written=_CONV_AS_WRITTEN),
    # activation classes passed as a value (torchvision's activation_layer=nn.ReLU6, called with inplace=):
    # the targets take no inplace, or have no in-place kernel on CPU
    *(Composition(f"torch.nn.{name}", name, replaces=TORCH_ARGUMENTS)
      for name in ("ReLU", "ReLU6", "SiLU", "Hardswish", "Hardsigmoid")),
    # passed as a value (segment-anything's activation=nn.GELU, open_clip's act_layer): built with
    # MindSpore's default, the tanh form, 4e-4 off torch's exact GELU
    Composition("torch.nn.GELU", "GELU", replaces=TORCH_ARGUMENTS, other_meaning=True),
    # antialias=True, which MindSpore's interpolate does not take (open_clip's resize_pos_embed passes it as a
    # variable): ops.ScaleAndTranslate's kernels are torch's anti-aliased ones
    Composition("torch.nn.functional.interpolate", "interpolate", replaces=TORCH_ARGUMENTS,
                as_written=(("antialias", "False"),), calls_only=True),
    # the most frequent missing APIs of the real-code corpus (docs/missing-apis.md)
    Composition("torch.distributions.utils.broadcast_all", "broadcast_all"),
    Composition("torch.Tensor.neg_", "neg_", METHOD),
    Composition("torch.Tensor.addcdiv_", "addcdiv_", METHOD),
    Composition("torch.Tensor.addcmul_", "addcmul_", METHOD),
    Composition("torch.Tensor.lerp_", "lerp_", METHOD),
    Composition("torch.Tensor.sqrt_", "sqrt_", METHOD),
    Composition("torch.Tensor.unsqueeze_", "unsqueeze_", METHOD),
    # torchvision's ViT: x, _ = attention(x, x, x, need_weights=False) (mindspore.nn.MultiheadAttention
    # returns a 1-tuple there)
    Composition("torch.nn.MultiheadAttention", "MultiheadAttention", replaces=EVERY_USE),
    # open_clip's AttentionPool2d (separate q/k/v weights); fixed keys and values (static_k/v) not composed
    Composition("torch.nn.functional.multi_head_attention_forward", "multi_head_attention_forward",
                refused=("static_k", "static_v")),
    # containers: CellDict refuses a SequentialCell value (torchvision's IntermediateLayerGetter holds
    # ResNet's stages); CellList names a cell appended later otherwise than torch (0.weight for
    # blocks.0.weight): checked by a program (outputs and parameter names)
    Composition("torch.nn.ModuleDict", "ModuleDict", needs=("add_module",), replaces=EVERY_USE),
    Composition("torch.nn.ModuleList", "ModuleList", needs=("parameter_prefix",), replaces=UNSAFE_USES),
    # a Cell's modules and named parameters (torchvision's weight init loops, open_clip's per-block init),
    # checked by a program: the same cells and parameters, in the same order, under the same names
    Composition("torch.nn.Module.modules", "modules", METHOD, refused=("remove_duplicate",)),
    Composition("torch.nn.Module.named_parameters", "named_parameters", METHOD,
                refused=("remove_duplicate",)),
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
    from msmigrate.knowledge.compositions.adapters import adapter_needs

    needs = {**adapter_needs(), **{c.helper: c.needs for c in COMPOSITIONS}}
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
