"""Adapters: helpers of the project's helper module that let a third-party library's torch-only parts work
on MindSpore tensors, written where the migrated code used those parts
(``rules/framework/msm530_einops_layers.py``), and torch's download of pretrained weights for MindSpore
checkpoints (``rules/framework/_weights_download.py``).

einops (``einops.layers.torch.Rearrange``, ``einops.rearrange`` on tensors) reads its patterns itself and
calls a backend of the tensor's framework for the operators; MindSpore has none in einops 0.8. The adapter
``einops_backend`` defines one (MindSpore's reshape, transpose, reductions, tiling), and the layers and
functions call einops through it. Their sources are ``adapters/<helper>.py.txt`` (classes in
``adapters/classes/``); like the compositions' they take the library's own parameters, so a use keeps
its arguments. They are checked against einops on torch tensors by ``tests/fixes/test_einops_layers.py``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Adapter:
    name: str  # the library's name it stands for: ``einops.layers.torch.Rearrange``, ``einops.rearrange``
    helper: str  # its name in the helper module (and of its template)
    needs: tuple[str, ...] = ()


_EINOPS = ("einops_backend",)
ADAPTERS: tuple[Adapter, ...] = (
    Adapter("einops.layers.torch.Rearrange", "Rearrange", _EINOPS),
    Adapter("einops.layers.torch.Reduce", "Reduce", _EINOPS),
    *(Adapter(f"einops.{name}", name, _EINOPS)
      for name in ("rearrange", "repeat", "reduce", "pack", "unpack")),
    # torch's download of a state dict (torch.utils.model_zoo.load_url is the same function), for MindSpore
    # checkpoints (rules/framework/_weights_download.py)
    Adapter("torch.hub.load_state_dict_from_url", "load_url"),
    # a named child added to a Cell with its parameters named by their path (fixes/add_module_fixes.py)
    Adapter("torch.nn.Module.add_module", "add_module"),
)
# helpers of no name of their own, with what they need
SUPPORT: dict[str, tuple[str, ...]] = {"einops_backend": ()}
# import statements a helper needs beyond the module's own (statement, name it binds, module bound)
HELPER_IMPORTS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "einops_backend": (("import einops", "einops", "einops"),),
    "load_url": (("import os", "os", "os"), ("import urllib.request", "urllib", "urllib")),  # .parse with it
}


def adapter_needs() -> dict[str, tuple[str, ...]]:
    """helper → the helpers it calls, for every adapter helper."""
    return {**SUPPORT, **{a.helper: a.needs for a in ADAPTERS}}


def adapter_for(name: str) -> Adapter | None:
    """The adapter of a library name (``einops.layers.torch.Rearrange``)."""
    return next((a for a in ADAPTERS if a.name == name), None)
