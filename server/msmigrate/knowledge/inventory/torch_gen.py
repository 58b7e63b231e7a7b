"""Build the torch inventory from the installed wheel: ``.pyi`` stubs (every overload) plus ``inspect``."""

from __future__ import annotations

import importlib
import inspect
import re
import warnings
from pathlib import Path
from typing import Any

from msmigrate.knowledge.inventory.introspect import Inventory, ModuleWalker, resolve, safe_getattr
from msmigrate.knowledge.inventory.introspect import public_names as _public_names
from msmigrate.knowledge.inventory.stubs import StubClass, StubModule, parse_stub
from msmigrate.knowledge.inventory.table_names import guessed_kind, table_torch_names

# module → owner prefixes that count as "defined there" when the module has no ``__all__``
MODULES: dict[str, tuple[str, ...]] = {
    "torch": ("torch",),
    "torch.nn": ("torch.nn",),
    "torch.nn.functional": ("torch.nn.functional",),
    "torch.nn.init": ("torch.nn.init",),
    "torch.nn.parameter": ("torch.nn.parameter",),
    "torch.nn.utils": ("torch.nn.utils",),
    "torch.nn.utils.rnn": ("torch.nn.utils.rnn",),
    "torch.nn.utils.parametrize": ("torch.nn.utils.parametrize",),
    "torch.nn.parallel": ("torch.nn.parallel",),
    "torch.linalg": ("torch.linalg", "torch._C"),
    "torch.fft": ("torch.fft", "torch._C._fft"),
    "torch.special": ("torch.special", "torch._C._special"),
    "torch.optim": ("torch.optim",),
    "torch.optim.lr_scheduler": ("torch.optim.lr_scheduler",),
    "torch.utils": ("torch.utils",),
    "torch.utils.data": ("torch.utils.data",),
    "torch.utils.data.distributed": ("torch.utils.data.distributed",),
    "torch.utils.checkpoint": ("torch.utils.checkpoint",),
    "torch.distributed": ("torch.distributed", "torch._C._distributed_c10d"),
    "torch.cuda": ("torch.cuda",),
    "torch.cuda.amp": ("torch.cuda.amp",),
    "torch.amp": ("torch.amp",),
    "torch.autograd": ("torch.autograd",),
    "torch.autograd.functional": ("torch.autograd.functional",),
    "torch.distributions": ("torch.distributions",),
    "torch.jit": ("torch.jit",),
    "torch.random": ("torch.random",),
    "torch.sparse": ("torch.sparse",),
    "torch.backends": ("torch.backends",),
}

# classes whose members are listed under ``<class>.<member>``: (method kind, attribute kind, own members only)
CLASS_MEMBERS: dict[str, tuple[str, str, bool]] = {
    "torch.Tensor": ("tensor_method", "tensor_attribute", False),
    "torch.nn.Module": ("method", "attribute", False),
    "torch.nn.Parameter": ("method", "attribute", True),
    "torch.optim.Optimizer": ("method", "attribute", False),
    "torch.optim.lr_scheduler.LRScheduler": ("method", "attribute", False),
    "torch.optim.lr_scheduler.ReduceLROnPlateau": ("method", "attribute", True),
    "torch.utils.data.Dataset": ("method", "attribute", False),
    "torch.utils.data.DataLoader": ("method", "attribute", False),
    "torch.autograd.Function": ("method", "attribute", False),
    "torch.amp.GradScaler": ("method", "attribute", False),
    "torch.distributions.Distribution": ("method", "attribute", False),
    "torch.Generator": ("method", "attribute", False),
}

# settings read through module ``__getattr__``/properties (``torch.backends.cudnn`` has no ``__all__``)
EXTRA_NAMES: dict[str, tuple[str, ...]] = {
    "torch.backends.cudnn": (
        "allow_tf32", "benchmark", "deterministic", "enabled", "is_available", "version",
    ),
    "torch.backends.cuda": ("is_built", "matmul"),
    "torch.backends.mps": ("is_available", "is_built"),
}

_LEGACY_TENSOR_TYPE = re.compile(r"torch\.(?:cuda\.)?[A-Z][a-z]+Tensor")

# public-looking top-level names that ``torch.__all__`` omits and that are not user APIs
_TOP_LEVEL_INTERNALS = frozenset({
    "LoggerBase", "PRIVATE_OPS", "TYPE_CHECKING", "USE_GLOBAL_DEPS", "USE_RTLD_GLOBAL_WITH_LIBTORCH",
    "classproperty", "get_file_path", "prepare_multiprocessing_environment",
    "profiler_allow_cudagraph_cupti_lazy_reinit_cuda12",
})

THIRD_PARTY = ("torchvision", "torchaudio", "torchtext")


def torch_version() -> str:
    import torch

    return str(torch.__version__).split("+", 1)[0]


def _stub(root: Path, relative: str) -> StubModule:
    path = root / relative
    return parse_stub(path) if path.is_file() else StubModule()


def build(sources: Path | None = None, data: Path | None = None) -> dict[str, dict[str, Any]]:
    """The ``apis`` mapping of the torch inventory."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import torch

        root = Path(torch.__file__).parent
        variable_functions = _stub(root, "_C/_VariableFunctions.pyi")
        c_module = _stub(root, "_C/__init__.pyi")
        functional = _stub(root, "nn/functional.pyi")
        top_functions = {**c_module.functions, **variable_functions.functions}

        inventory = Inventory()
        walker = ModuleWalker(inventory)
        for module_name, owners in MODULES.items():
            module = importlib.import_module(module_name)
            stub_functions: dict[str, Any] = {}
            stub_classes = None
            if module_name == "torch":
                stub_functions, stub_classes = top_functions, c_module.classes
            elif module_name == "torch.distributed":
                stub_classes = _stub(root, "_C/_distributed_c10d.pyi").classes
            elif module_name == "torch.nn.functional":
                stub_functions = _functional_signatures(functional, {
                    "torch._C._nn": _stub(root, "_C/_nn.pyi"),
                    "torch": StubModule(functions=top_functions),
                })
            names = _public_names(module, owners, stub_functions)
            if module_name == "torch":
                names = sorted(set(names) | _unlisted_top_level(torch))
            walker.walk(module_name, module, names, stub_functions, stub_classes)
        for module_name, names in EXTRA_NAMES.items():
            module = safe_getattr(torch.backends, module_name.rsplit(".", 1)[-1])
            if module is None:
                continue
            inventory.add_module(module_name)
            for name in names:
                if hasattr(module, name):
                    walker.add_object(f"{module_name}.{name}", name, safe_getattr(module, name))
        tensor_stub = c_module.classes.get("TensorBase")
        for class_name, (method_kind, attribute_kind, own_only) in CLASS_MEMBERS.items():
            cls = resolve(torch, class_name)
            if isinstance(cls, type):
                stub = tensor_stub if class_name == "torch.Tensor" else c_module.classes.get(cls.__name__)
                walker.walk_members(class_name, cls, method_kind=method_kind, attribute_kind=attribute_kind,
                                    stub=stub, own_only=own_only)
        _add_table_names(torch, walker, table_torch_names(data, sources), tensor_stub)
    return inventory.apis


def _functional_signatures(functional: StubModule, others: dict[str, StubModule]) -> dict[str, Any]:
    """``torch.nn.functional``'s stub overloads, including the C functions its stub re-exports."""
    names = set(functional.functions) | set(functional.all_names or ())
    found = {name: functional.signatures(name, others) for name in names}
    return {name: sigs for name, sigs in found.items() if sigs}


def _unlisted_top_level(torch: Any) -> set[str]:
    """``torch.unique``, ``torch.set_grad_enabled``, ``torch.channels_last``: public, not in ``__all__``."""
    names = set()
    for name in dir(torch):
        if name.startswith("_") or name in _TOP_LEVEL_INTERNALS:
            continue
        if not inspect.ismodule(safe_getattr(torch, name)):
            names.add(name)
    return names


def _add_table_names(torch: Any, walker: ModuleWalker, names: list[str],
                     tensor_stub: StubClass | None) -> None:
    """Names the tables cite: real ones found in the wheel; torchvision & co. recorded as cited."""

    def tensor_like(parent: str, owner: type) -> bool:
        return issubclass(owner, torch.Tensor) or _LEGACY_TENSOR_TYPE.fullmatch(parent) is not None

    for name in names:
        if name.startswith(THIRD_PARTY):
            walker.inventory.add(name, guessed_kind(name), [], "mapping_table")
        else:
            walker.add_cited(torch, name, tensor_like, tensor_stub)
