"""What ``msmigrate compare`` compares: ``[[tool.msmigrate.compare]]`` tables of ``pyproject.toml`` or the
command line's flags, as :class:`CompareSpec` (paths resolved against the file's folder).

```toml
[[tool.msmigrate.compare]]
name = "resnet50"
torch = "models/resnet.py:resnet50(num_classes=10)"
mindspore = "../resnet_ms/models/resnet.py:resnet50(num_classes=10)"
inputs = [{shape = [2, 3, 64, 64]}]            # dtype (float32), low/high, mindspore_dtype; or text:
# inputs = ["f32[1, 3, 64, 64]", "points=(f32[1, 2, 2](0, 64), i64[1, 2](0, 2))", "boxes=None"]
checkpoint = "resnet50.pth"                    # optional; else the torch model's initial weights
key = "state_dict"                             # optional: where the state dict is in the file
rtol = 1e-4
atol = 1e-4
modes = ["pynative", "graph"]

[tool.msmigrate.compare.loss]                  # optional: one training step (SGD) too
torch = "torch.nn.CrossEntropyLoss()"
mindspore = "mindspore.nn.CrossEntropyLoss()"
target = {shape = [2], dtype = "int64", low = 0, high = 10, mindspore_dtype = "int32"}
lr = 0.1
```
"""

from __future__ import annotations

import ast
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msmigrate.compare.inputs import DTYPES, InputSpec, Keyword, input_spec, parse_input, table_input
from msmigrate.weights.session import WeightsError

__all__ = ["DTYPES", "MODES", "CompareSpec", "InputSpec", "Keyword", "LossSpec", "cli_input", "load_specs"]

MODES = ("pynative", "graph")


@dataclass(frozen=True, slots=True)
class LossSpec:
    torch: str  # an expression (torch, nn, F in scope) or path/file.py:expression
    mindspore: str  # an expression (mindspore, nn, ops, mint in scope) or path/file.py:expression
    target: InputSpec
    lr: float = 0.1


@dataclass(slots=True)
class CompareSpec:
    name: str
    torch: str  # path/file.py:expression (absolute path)
    mindspore: str
    inputs: list[Any]  # InputSpec, a structure of them or None, or a Keyword of one (compare.inputs)
    checkpoint: Path | None = None
    key: str | None = None
    loss: LossSpec | None = None
    rtol: float = 1e-4
    atol: float = 1e-4
    modes: tuple[str, ...] = MODES
    seed: int = 0
    base: Path = field(default_factory=Path.cwd)
    kwargs: dict[str, Any] = field(default_factory=dict)  # constant keyword arguments of both forwards


def _bad(where: str, detail: str) -> WeightsError:
    return WeightsError("compare.error.config", where=where, detail=detail)


def cli_input(text: str) -> Any:
    """An input of ``--input``: ``2x3x64x64``, ``2x7:int64:0:10:int32``, ``f32[2, 3]``,
    ``points=(f32[1, 2, 2], i64[1, 2])``, ``boxes=None`` (see :mod:`msmigrate.compare.inputs`)."""
    return parse_input(text, "--input")


def _model(value: Any, base: Path, where: str) -> str:
    if not isinstance(value, str) or ".py:" not in value:
        raise _bad(where, "a model is 'path/file.py:expression'")
    file, _, expr = value.partition(".py:")
    path = Path(file + ".py").expanduser()
    return f"{path if path.is_absolute() else (base / path).resolve()}:{expr}"


def spec_from_table(table: Any, base: Path, index: int) -> CompareSpec:
    where = f"[[tool.msmigrate.compare]] #{index + 1}"
    if not isinstance(table, dict):
        raise _bad(where, "not a table")
    name = table.get("name", f"compare-{index + 1}")
    where = f"[[tool.msmigrate.compare]] {name}"
    inputs = table.get("inputs")
    if not isinstance(inputs, list) or not inputs:
        raise _bad(where, "inputs = [{shape = [...]}, ...] is required")
    spec = CompareSpec(
        str(name),
        _model(table.get("torch"), base, where + " torch"),
        _model(table.get("mindspore"), base, where + " mindspore"),
        [table_input(v, where) for v in inputs],
        base=base,
    )
    if "checkpoint" in table:
        if not isinstance(table["checkpoint"], str):
            raise _bad(where, "checkpoint is a path")
        spec.checkpoint = (base / Path(table["checkpoint"]).expanduser()).resolve()
    if isinstance(table.get("key"), str):
        spec.key = table["key"]
    for tol in ("rtol", "atol"):
        if tol in table:
            if not isinstance(table[tol], int | float) or table[tol] < 0:
                raise _bad(where, f"{tol} is a non-negative number")
            setattr(spec, tol, float(table[tol]))
    if "modes" in table:
        modes = table["modes"]
        if not isinstance(modes, list) or not modes or any(m not in MODES for m in modes):
            raise _bad(where, "modes lists pynative and/or graph")
        spec.modes = tuple(modes)
    if "seed" in table and type(table["seed"]) is int:
        spec.seed = table["seed"]
    if "kwargs" in table:
        if not isinstance(table["kwargs"], dict):
            raise _bad(where, "kwargs is a table of constant keyword arguments")
        spec.kwargs = dict(table["kwargs"])
    if "loss" in table:
        spec.loss = loss_spec(table["loss"], where)
    return spec


def loss_spec(value: Any, where: str) -> LossSpec:
    if not isinstance(value, dict) or not all(isinstance(value.get(k), str) for k in ("torch", "mindspore")):
        raise _bad(where, "loss = {torch = '...', mindspore = '...', target = {...}}")
    lr = value.get("lr", 0.1)
    if not isinstance(lr, int | float) or type(lr) is bool:
        raise _bad(where, "loss.lr is a number")
    return LossSpec(
        value["torch"], value["mindspore"], input_spec(value.get("target"), where + " loss.target"), float(lr)
    )


def load_specs(path: Path) -> list[CompareSpec]:
    """Every ``[[tool.msmigrate.compare]]`` of ``path`` (a ``pyproject.toml``)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise _bad(str(path), str(exc)) from None
    tables = data.get("tool", {}).get("msmigrate", {}).get("compare", [])
    if not isinstance(tables, list):
        raise _bad(str(path), "[[tool.msmigrate.compare]] is an array of tables")
    return [spec_from_table(table, path.parent.resolve(), i) for i, table in enumerate(tables)]


def find_config(start: Path, top: Path | None = None) -> Path | None:
    """The nearest ``pyproject.toml`` from ``start`` up (to ``top`` included, when given) that has
    ``[[tool.msmigrate.compare]]``."""
    folders = [start, *start.parents]
    if top is not None:
        folders = folders[: folders.index(top) + 1] if top in folders else []
    for folder in folders:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                if "tool.msmigrate.compare" in candidate.read_text(encoding="utf-8", errors="replace"):
                    return candidate
            except OSError:
                continue
    return None


def cli_kwarg(text: str) -> tuple[str, Any]:
    """``multimask_output=True``: a keyword argument of both models' forward, a Python literal."""
    name, sep, value = text.partition("=")
    try:
        if not sep or not name.strip().isidentifier():
            raise ValueError(text)
        return name.strip(), ast.literal_eval(value.strip())
    except (ValueError, SyntaxError):
        raise _bad("--kwarg", f"{text!r}: NAME=LITERAL, e.g. multimask_output=True") from None


def _validate_keywords(spec: CompareSpec) -> None:
    """A keyword given once: by one input, or as a constant (kwargs / --kwarg)."""
    seen: set[str] = set(spec.kwargs)
    for item in spec.inputs:
        if isinstance(item, Keyword):
            if item.name in seen:
                raise WeightsError("compare.error.input_twice", name=item.name, comparison=spec.name)
            seen.add(item.name)


def select_specs(
    names: tuple[str, ...] | list[str],
    config: Path | None,
    torch_model: str | None,
    ms_model: str | None,
    inputs: tuple[str, ...] | list[str],
    checkpoint: Path | None = None,
    key: str | None = None,
    mode: str | None = None,
    rtol: float | None = None,
    atol: float | None = None,
    cwd: Path | None = None,
    kwargs: tuple[str, ...] | list[str] = (),
) -> list[CompareSpec]:
    """The comparisons the command line asks for: one from ``--torch/--mindspore/--input``, else the named
    (or all) tables of the configuration; flags given override the tables' values."""
    here = cwd or Path.cwd()
    if torch_model or ms_model:
        if not (torch_model and ms_model and inputs):
            raise _bad("--torch/--mindspore/--input", "all three are needed together")
        specs = [
            CompareSpec(
                "command-line",
                _model(torch_model, here, "--torch"),
                _model(ms_model, here, "--mindspore"),
                [cli_input(i) for i in inputs],
                base=here,
            )
        ]
    else:
        path = config or find_config(here)
        if path is None:
            raise WeightsError("compare.error.no_config", path=str(here))
        specs = load_specs(path)
        if names:
            known = {s.name: s for s in specs}
            for name in names:
                if name not in known:
                    raise WeightsError(
                        "compare.error.unknown_name", name=name, path=str(path), names=", ".join(known) or "-"
                    )
            specs = [known[n] for n in names]
        if not specs:
            raise WeightsError("compare.error.no_config", path=str(path))
    extra = dict(cli_kwarg(text) for text in kwargs)
    for spec in specs:
        spec.kwargs.update(extra)
        _validate_keywords(spec)
        if checkpoint is not None:
            spec.checkpoint = (here / checkpoint).resolve()
        if key is not None:
            spec.key = key
        if mode is not None:
            spec.modes = MODES if mode == "both" else (mode,)
        if rtol is not None:
            spec.rtol = rtol
        if atol is not None:
            spec.atol = atol
    return specs
