"""Building a model named ``path/file.py:expression`` (worker side).

This runs the user's own code (the file is imported, the expression evaluated in its namespace): only
in a worker process, and only for a model the user named (``--model``, ``msmigrate compare``); see
docs/SECURITY.md. The file's package root (the first folder up without ``__init__.py``) goes first on
``sys.path`` so its own absolute and relative imports work.
"""

from __future__ import annotations

import importlib
import importlib.util
import linecache
import sys
import traceback
from pathlib import Path
from typing import Any

from msmigrate.weights.model_spec import import_root
from msmigrate.weights.worker import WorkerError, exc_text, framework

_built: dict[str, Any] = {}  # "<file>:<expression>" -> the object, for later requests of the session


def user_frame(exc: BaseException, root: Path) -> str:
    """``file:line: source`` of the innermost frame of ``exc`` inside ``root`` (else the innermost)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{exc.filename}:{exc.lineno}: {(exc.text or '').strip()}"
    inside = [f for f in frames if Path(f.filename).resolve().is_relative_to(root.resolve())]
    frame = (inside or frames or [None])[-1]
    if frame is None:
        return ""
    line = frame.line or linecache.getline(frame.filename, frame.lineno or 0).strip()
    return f"{frame.filename}:{frame.lineno}: {line}"


def build(spec: dict[str, Any]) -> Any:
    """The object ``spec["expr"]`` evaluates to in the module ``spec["file"]`` (built once per session)."""
    file, expr = str(spec["file"]), str(spec["expr"])
    done = _built.get(f"{file}:{expr}")
    if done is not None:
        return done
    path = Path(file)
    if not path.is_file():
        raise WorkerError("weights.error.model_missing", path=file)
    root, module_name = import_root(path.resolve())
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        module = importlib.import_module(module_name)
        if Path(getattr(module, "__file__", "") or "").resolve() != path.resolve():  # a name taken already
            loaded = importlib.util.spec_from_file_location(f"_msmigrate_model_{len(_built)}", path)
            assert loaded is not None and loaded.loader is not None
            module = importlib.util.module_from_spec(loaded)
            loaded.loader.exec_module(module)
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in ("torch", "torchvision", "torchaudio"):
            raise WorkerError(
                "weights.error.model_imports_torch", path=file, where=user_frame(exc, root), name=exc.name
            ) from None
        raise WorkerError(
            "weights.error.model_import", path=file, where=user_frame(exc, root), detail=exc_text(exc)
        ) from None
    except BaseException as exc:  # noqa: BLE001 - the user's module may raise anything, even SystemExit
        if isinstance(exc, KeyboardInterrupt | MemoryError):
            raise
        raise WorkerError(
            "weights.error.model_import", path=file, where=user_frame(exc, root), detail=exc_text(exc)
        ) from None
    try:
        value = eval(expr, vars(module))  # noqa: S307 - the user's own constructor, named by the user
    except BaseException as exc:  # noqa: BLE001
        if isinstance(exc, KeyboardInterrupt | MemoryError):
            raise
        raise WorkerError(
            "weights.error.model_constructor",
            expr=expr,
            path=file,
            where=user_frame(exc, root),
            detail=exc_text(exc),
        ) from None
    _built[f"{file}:{expr}"] = value
    return value


def public_classes(ms: Any) -> dict[type, str]:
    """Every public cell class of ``mindspore.nn`` and ``mindspore.mint.nn`` -> its public name."""
    names: dict[type, str] = {}
    for prefix, module in (("mindspore.nn", ms.nn), ("mindspore.mint.nn", ms.mint.nn)):
        for attr in dir(module):
            value = getattr(module, attr, None)
            if isinstance(value, type) and issubclass(value, ms.nn.Cell) and attr[:1].isupper():
                names.setdefault(value, f"{prefix}.{attr}")
    return names


def class_name(cls: type, public: dict[type, str]) -> str:
    """The public MindSpore class ``cls`` is or derives from (a user's ``FrozenBN(nn.BatchNorm2d)`` is a
    ``mindspore.nn.BatchNorm2d``), else its own ``module.qualname``."""
    for base in cls.__mro__:
        if base in public:
            if public[base] in ("mindspore.nn.Cell", "mindspore.mint.nn.Cell"):
                break
            return public[base]
    return f"{cls.__module__}.{cls.__qualname__}"


def dtype_name(dtype: Any) -> str:
    """``Float32`` -> ``float32``, ``Bool`` -> ``bool``."""
    return str(dtype).lower()


def build_cell(spec: dict[str, Any]) -> Any:
    ms = framework("mindspore")
    cell = build(spec)
    if not isinstance(cell, ms.nn.Cell):
        raise WorkerError("weights.error.not_cell", expr=str(spec["expr"]), kind=type(cell).__name__)
    return cell


def parameters(cell: Any) -> list[dict[str, Any]]:
    ms = framework("mindspore")

    public = public_classes(ms)
    cells = {name: class_name(type(c), public) for name, c in cell.cells_and_names()}
    found = []
    for path, param in cell.parameters_and_names():
        holder = path.rpartition(".")[0]
        found.append(
            {
                "path": path,
                "name": param.name,
                "shape": [int(d) for d in param.shape],
                "dtype": dtype_name(param.dtype),
                "cell": holder,
                "cell_class": cells.get(holder, ""),
            }
        )
    return found


def model_parameters(request: dict[str, Any]) -> dict[str, Any]:
    """The parameters of the migrated model ``request["model"]`` (built in this worker)."""
    ms = framework("mindspore")
    if request.get("seed") is not None:
        ms.set_seed(int(request["seed"]))
    return {"parameters": parameters(build_cell(request["model"]))}
