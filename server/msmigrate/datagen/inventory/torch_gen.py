"""Build the torch inventory from the installed wheel: every public module walked, signatures from the
``.pyi`` stubs (every overload) and ``inspect``."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

from msmigrate.datagen.inventory.discover import discover
from msmigrate.datagen.inventory.introspect import Inventory, ModuleWalker, safe_getattr
from msmigrate.datagen.inventory.stubs import StubClass, StubModule, parse_stub
from msmigrate.datagen.inventory.table_names import guessed_kind, table_torch_names
from msmigrate.datagen.inventory.walk import WalkHooks, WalkResult, walk_package

# modules not imported by the walk: import-time side effects or code generators, not user APIs
SIDE_EFFECTS: frozenset[str] = frozenset({
    "torch.utils.data.datapipes.gen_pyi",  # regenerates .pyi files when run
    "torch.utils.bottleneck",  # a profiling command-line tool
})

# settings read through module ``__getattr__``/properties (``torch.backends.cudnn`` has no ``__all__``)
EXTRA_NAMES: dict[str, tuple[str, ...]] = {
    "torch.backends.cudnn": (
        "allow_tf32", "benchmark", "deterministic", "enabled", "is_available", "version",
    ),
    "torch.backends.cuda": ("is_built", "matmul"),
    "torch.backends.mps": ("is_available", "is_built"),
}

_LEGACY_TENSOR_TYPE = re.compile(r"torch\.(?:cuda\.|sparse\.)?[A-Z][A-Za-z0-9]*Tensor")

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


def build(sources: Path | None = None, data: Path | None = None) -> WalkResult:
    """The torch inventory: every public module walked (``discover``), names tied to canonical spellings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import torch

        root = Path(torch.__file__).parent
        variable_functions = _stub(root, "_C/_VariableFunctions.pyi")
        c_module = _stub(root, "_C/__init__.pyi")
        top_functions = {**c_module.functions, **variable_functions.functions}
        functional = _functional_signatures(_stub(root, "nn/functional.pyi"), {
            "torch._C._nn": _stub(root, "_C/_nn.pyi"),
            "torch": StubModule(functions=top_functions),
        })
        c_classes = {**_stub(root, "_C/_distributed_c10d.pyi").classes, **c_module.classes}
        tensor_stub = c_module.classes.get("TensorBase")

        def function_stub(spellings: list[str], name: str) -> list[Any] | None:
            for spelling in spellings:
                module = spelling.rpartition(".")[0]
                found = (top_functions if module == "torch" else
                         functional if module == "torch.nn.functional" else {}).get(name)
                if found:
                    return found
            return None

        def class_stub(name: str, cls: type) -> StubClass | None:
            if name == "torch.Tensor":
                return tensor_stub
            owner = getattr(cls, "__module__", "") or ""
            return c_classes.get(cls.__name__) if owner == "torch" or owner.startswith("torch._C") else None

        found = discover("torch", SIDE_EFFECTS)
        excluded = frozenset(f"torch.{name}" for name in _TOP_LEVEL_INTERNALS)
        def members_of(name: str, cls: type) -> str | None:
            legacy = name != "torch.Tensor" and _LEGACY_TENSOR_TYPE.fullmatch(name) is not None
            return "torch.Tensor" if legacy and getattr(cls, "view", None) is torch.Tensor.view else None

        cited = table_torch_names(data, sources)
        hooks = WalkHooks(function_stub, class_stub, excluded, members_of)
        result = walk_package("torch", found.modules, hooks)
        walker = ModuleWalker(Inventory(result.apis))
        for module_name, names in EXTRA_NAMES.items():
            module = safe_getattr(torch.backends, module_name.rsplit(".", 1)[-1])
            if module is None:
                continue
            walker.inventory.add_module(module_name)
            for name in names:
                if hasattr(module, name):
                    walker.add_object(f"{module_name}.{name}", name, safe_getattr(module, name))
        _add_table_names(torch, walker, result.aliases, cited, tensor_stub)
    result.skipped = {name: why for name, why in found.skipped.items() if why != "private"}
    return result


def _functional_signatures(functional: StubModule, others: dict[str, StubModule]) -> dict[str, Any]:
    """``torch.nn.functional``'s stub overloads, including the C functions its stub re-exports."""
    names = set(functional.functions) | set(functional.all_names or ())
    found = {name: functional.signatures(name, others) for name in names}
    return {name: sigs for name, sigs in found.items() if sigs}


def _add_table_names(torch: Any, walker: ModuleWalker, aliases: dict[str, str], names: list[str],
                     tensor_stub: StubClass | None) -> None:
    """Names the tables cite: real ones found in the wheel; torchvision & co. recorded as cited."""

    def tensor_like(parent: str, owner: type) -> bool:
        return issubclass(owner, torch.Tensor) or _LEGACY_TENSOR_TYPE.fullmatch(parent) is not None

    for name in names:
        if name in aliases:
            continue
        if name.startswith(THIRD_PARTY):
            walker.inventory.add(name, guessed_kind(name), [], "mapping_table")
        else:
            walker.add_cited(torch, name, tensor_like, tensor_stub)
