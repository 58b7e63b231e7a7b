"""The executable conversion suite: does fix-all turn a torch program into MindSpore code that runs
without torch and computes the same numbers?

For every mapped API of a table and every derived mapping the knowledge base offers for an API the table
does not map (their own namespace group, ``derived``), a small torch program is generated from the API's
input spec (``mapping_data/input_specs.json``): inputs as literal tensors, one call, ``result``. A dtype
(``torch.long``) makes a tensor of that dtype; a spec comparing shapes and dtypes only (random values)
is followed.
The suite runs it with torch, applies fix-all (every quick-fix, as an editor user who accepts them all),
runs the output in a fresh MindSpore (CPU) process where torch cannot be imported, and compares
(shape, dtype class, allclose at rtol=atol=1e-4, NaN/Inf positions). When the converted program fails
only because its inputs still use torch, the call is tried once more with inputs the suite converts
itself, which tells "the API's fix is right" apart from "the program is torch-free".
A ``torch.distributed`` API's program (group_programs.py) sets up its own process group and runs on every
rank of a 2-process group the suite launches (``group_runner.run_group_programs``), compared rank by rank;
when its converted group setup fails, it is tried once more with the setup MindSpore needs on CPU.

Outcomes: ``pass`` (torch-free and same result), ``pass_api`` (the API's fix is right; the inputs were
not converted), ``not_fixed`` (a line past the inputs still uses torch after fix-all; the detail gives
the line and the title of the fix that explains why it made no edit), ``no_cpu_kernel``, ``ms_error``,
``mismatch``, ``no_program`` (the spec skips the API, with its note: in-place only, no input rule for a
required parameter …), ``torch_error``.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import tempfile
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # loaded by file path (tests/fixes): its sibling modules
    sys.path.append(str(HERE))

from form_programs import form_key, with_forms  # noqa: E402
from group_programs import (  # noqa: E402
    INIT,
    MS_SETUP,
    RANK,
    WORLD,
    failed_in_setup,
    group_call,
    merge_ranks,
    with_suite_setup,
)
from group_runner import RUNNER, run_group_programs  # noqa: E402  (RUNNER: the script both runners start)

from msmigrate.check.spec import DTYPE_ALIASES  # noqa: E402
from msmigrate.check.worker_shared import UNSUPPORTED_MARKERS  # noqa: E402

EXPECTED = HERE / "expected_outcomes.json"
RTOL = ATOL = 1e-4
NAMESPACES = ("torch", "Tensor", "nn", "nn.functional", "other", "derived")
DERIVED = "derived"  # the namespace group of derived mappings (knowledge/derived.py), whatever their name
NO_KERNEL_MARKERS = UNSUPPORTED_MARKERS  # the errors the equivalence check records as no kernel on the device
_INPUT_LINE = re.compile(r"^(x\d+) = .*$", re.M)


def namespace_of(torch_api: str) -> str:
    if torch_api.startswith("torch.Tensor."):
        return "Tensor"
    if torch_api.startswith("torch.nn.functional."):
        return "nn.functional"
    if torch_api.startswith("torch.nn.") and not torch_api.startswith(("torch.nn.init.", "torch.nn.utils.")):
        return "nn"
    if torch_api.startswith(("torch.optim.", "torch.utils.", "torch.distributed.", "torch.distributions.",
                             "torch.nn.init.", "torch.nn.utils.", "torch.cuda.", "torch.autograd.")):
        return "other"
    return "torch"


@dataclass(slots=True)
class Program:
    id: str
    torch_api: str
    mindspore_api: str
    namespace: str
    source: str  # the torch program
    inputs: dict[str, tuple[Any, str]]  # variable → (nested list data, dtype name)
    compare: str = "values"  # values | sorted | shape_dtype
    skip: str | None = None
    train_compare: str | None = None  # a mode-dependent module: outputs in training mode, then in eval mode
    written: bool = False  # the spec wrote the program: it sets every value it compares (parameters too)
    category: str = ""  # the mapping's category (``consistent``, ``param_names`` …)
    world: int = 0  # > 0: run by every rank of a process group of this size (group_programs.py)
    form: str = ""  # "": the call as the spec writes it; else a form real code uses (form_programs.py)


@dataclass(slots=True)
class Outcome:
    api: str
    namespace: str
    status: str
    detail: str = ""
    fixed_source: str = ""
    category: str = ""
    form: str = ""  # the program's calling form (form_programs.py); "" for the API's own program


@dataclass(slots=True)
class SuiteResult:
    version: str
    outcomes: list[Outcome] = field(default_factory=list)

    def counts(self) -> dict[str, Counter]:
        per: dict[str, Counter] = {ns: Counter() for ns in NAMESPACES}
        for o in self.outcomes:
            if not o.form:  # an API's programs of other forms are counted by forms()
                per[o.namespace][o.status] += 1
        return per

    def rates(self) -> dict[str, tuple[int, int]]:
        """Namespace → (passing programs, mapped APIs with a program)."""
        found = {}
        for ns, counter in self.counts().items():
            total = sum(n for status, n in counter.items() if status not in ("no_program", "torch_error"))
            found[ns] = (counter["pass"], total)
        found["all"] = (sum(p for p, _ in found.values()), sum(t for _, t in found.values()))
        return found

    def overall(self, namespaces: tuple[str, ...] = NAMESPACES,
                category: str | None = None) -> tuple[int, int]:
        """(passing, every mapped API of these namespace groups, programs or not), optionally of one
        mapping category only (``consistent``: the issue's ≥95% target)."""
        chosen = [o for o in self.outcomes if o.namespace in namespaces and not o.form
                  and (category is None or o.category == category)]
        return sum(o.status == "pass" for o in chosen), len(chosen)

    def forms(self) -> dict[str, Counter]:
        """Calling form → outcomes of the APIs' programs of that form (form_programs.py)."""
        per: dict[str, Counter] = {}
        for o in self.outcomes:
            if o.form:
                per.setdefault(o.form, Counter())[o.status] += 1
        return per


# --- generating programs ----------------------------------------------------------------------------


def data_dtype(dtype: str) -> str:
    """The dtype whose values a tensor of dtype ``dtype`` (a torch dtype name or alias) holds."""
    return DTYPE_ALIASES.get(dtype, dtype)


def _literal(data: Any, dtype: str) -> str:
    dtype = data_dtype(dtype)
    if dtype == "bool":
        return repr(np.asarray(data).astype(bool).tolist())
    if dtype.startswith(("int", "uint")):
        return repr(np.asarray(data).astype(np.int64).tolist())
    if dtype.startswith("complex"):
        return repr(np.round(np.asarray(data), 4).tolist())
    return repr(np.round(np.asarray(data, dtype=np.float64), 4).tolist())


class _Inputs:
    def __init__(self, api: str) -> None:
        self.rng = np.random.default_rng(zlib.crc32(api.encode()))
        self.values: dict[str, tuple[Any, str]] = {}

    def tensor(self, spec: dict[str, Any]) -> str:
        dtype = data_dtype(spec.get("dtype", "float32"))
        if "data" in spec:
            data = np.asarray(spec["data"]).tolist()
        else:
            shape = tuple(spec.get("shape", (2, 3, 4)))
            low, high = spec.get("low", -1.0), spec.get("high", 1.0)
            if dtype == "bool":
                data = (self.rng.integers(0, 2, shape) > 0).tolist()
            elif dtype.startswith(("int", "uint")):
                data = self.rng.integers(int(low), max(int(high), int(low) + 1), shape).tolist()
            elif dtype.startswith("complex"):
                data = (self.rng.uniform(low, high, shape) + 1j * self.rng.uniform(low, high, shape)).tolist()
            else:
                data = np.round(self.rng.uniform(low, high, shape), 4).tolist()
        name = f"x{len(self.values)}"
        self.values[name] = (data, spec.get("dtype", "float32"))
        return name

    def value(self, value: Any) -> str:
        if isinstance(value, dict):
            if "tensor" in value:
                return self.tensor(value["tensor"])
            if "tuple" in value:
                items = [self.value(v) for v in value["tuple"]]
                return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
            if "dtype" in value:
                return f"torch.{value['dtype']}"
            raise ValueError(f"value {sorted(value)} has no torch spelling")
        if isinstance(value, list):
            return "[" + ", ".join(self.value(v) for v in value) + "]"
        return repr(value)


def tensor_line(name: str, data: Any, dtype: str, framework: str) -> str:
    return f"{name} = {framework}.tensor({_literal(data, dtype)}, dtype={framework}.{dtype})"


def make_program(torch_api: str, mindspore_api: str, spec: Any, kind: str) -> Program:
    """The torch program that exercises one API (its call exactly as the spec describes it)."""
    ns = namespace_of(torch_api)
    pid = re.sub(r"\W", "_", torch_api)
    if spec.note == "needs_process_group" and group_call(torch_api) is not None:
        return _group_program(pid, torch_api, mindspore_api, ns)
    if spec.skip:  # the reason, with the spec's note if any (``no_input_rule: required_parameter:n``)
        skip = f"{spec.skip}: {spec.note}" if spec.note else spec.skip
        return Program(pid, torch_api, mindspore_api, ns, "", {}, skip=skip)
    inputs = _Inputs(torch_api)
    try:
        args = [inputs.value(v) for v in spec.args]
        kwargs = [f"{k}={inputs.value(v)}" for k, v in spec.kwargs.items()]
        init = [inputs.value(v) for v in spec.init_args] + [
            f"{k}={inputs.value(v)}" for k, v in spec.init_kwargs.items()
        ]
    except ValueError as exc:
        return Program(pid, torch_api, mindspore_api, ns, "", {}, skip=f"no_spelling: {exc}")
    lines = ["import torch", ""]
    if kind == "dtype":  # a dtype is used to make a tensor of it
        args = [inputs.tensor({"shape": [2, 3], "dtype": torch_api.rpartition(".")[2], "low": 0, "high": 3})]
    lines += [tensor_line(n, d, t, "torch") for n, (d, t) in inputs.values.items()]
    compare = spec.compare if spec.compare in ("sorted", "shape_dtype") else "values"
    if spec.program:  # an API used through state or an instance: the statements real code writes
        lines += list(spec.program)
        return Program(pid, torch_api, mindspore_api, ns, "\n".join(lines) + "\n", inputs.values, compare,
                       written=True)
    if spec.loop == "training_step":
        lines += training_step_lines(torch_api, args, init)
    elif spec.loop == "lr_scheduler":
        lines += training_step_lines(SCHEDULED_OPTIMIZER, args, ["lr=0.1", "momentum=0.9"], (torch_api, init))
    elif kind == "dtype":
        lines.append(f"result = {args[0]}")
    elif spec.loop == "per_argument":  # a predicate called on each argument
        lines.append(f"result = ({''.join(f'{torch_api}({a}), ' for a in args)})")
    elif kind == "class" and spec.train_compare:  # as real code: train, then evaluate
        lines.append(f"m = {torch_api}({', '.join(init)})")
        for mode, switch in (("train", "m.train()"), ("eval", "m.eval()")):
            lines += [switch, f"result_{mode} = m({', '.join(args + kwargs)})"]
        lines.append("result = (result_train, result_eval)")
    elif kind == "class":
        lines.append(f"m = {torch_api}({', '.join(init)})")
        lines.append(f"result = m({', '.join(args + kwargs)})")
    elif kind == "tensor_method":
        if not args:
            return Program(pid, torch_api, mindspore_api, ns, "", {}, skip="no_receiver")
        member = torch_api.rpartition(".")[2]
        call = f"{args[0]}.{member}"
        rest = args[1:] + kwargs
        if spec.args and not rest and _is_property(member):
            lines.append(f"result = {call}")
        else:
            lines.append(f"result = {call}({', '.join(rest)})")
    else:
        lines.append(f"result = {torch_api}({', '.join(args + kwargs)})")
    train = spec.train_compare if kind == "class" else None
    return Program(pid, torch_api, mindspore_api, ns, "\n".join(lines) + "\n", inputs.values, compare,
                   train_compare=train)


SCHEDULED_OPTIMIZER = "torch.optim.SGD"  # the optimizer of the learning-rate scheduler programs


def training_step_lines(optimizer: str, args: list[str], init: list[str],
                        scheduler: tuple[str, list[str]] | None = None) -> list[str]:
    """Steps of the standard PyTorch training loop on a linear model (``args``: inputs, targets, weight,
    bias) with the optimizer built from ``init``: two, or three with a ``scheduler`` (class, arguments
    after the optimizer) stepped after each; the result is the updated weight and bias."""
    inputs, targets, weight, bias = args
    lines = [
        f"w = torch.nn.Parameter({weight})",
        f"b = torch.nn.Parameter({bias})",
        f"opt = {optimizer}({', '.join(['[w, b]', *init])})",
    ]
    if scheduler is not None:
        lines.append(f"sched = {scheduler[0]}({', '.join(['opt', *scheduler[1]])})")
    lines += [
        f"for _ in range({2 if scheduler is None else 3}):",
        f"    out = {inputs} @ w + b",
        f"    loss = ((out - {targets}) ** 2).mean()",
        "    opt.zero_grad()",
        "    loss.backward()",
        "    opt.step()",
    ]
    return [*lines, *(["    sched.step()"] if scheduler is not None else []), "result = [w, b]"]


def _group_program(pid: str, torch_api: str, mindspore_api: str, ns: str) -> Program:
    """The program every rank of a process group runs (group_programs.CALLS)."""
    shapes, calls, result = group_call(torch_api)  # type: ignore[misc]
    inputs = _Inputs(torch_api)
    for shape in shapes:
        inputs.tensor({"shape": list(shape)})
    lines = ["import torch", "", INIT]
    if any(re.search(r"\brank\b", line) for line in [*calls, result]):
        lines.append(RANK)
    lines += [tensor_line(n, d, t, "torch") for n, (d, t) in inputs.values.items()]
    lines += [*calls, f"result = {result}"]
    return Program(pid, torch_api, mindspore_api, ns, "\n".join(lines) + "\n", inputs.values, world=WORLD)


_PROPERTIES = frozenset({"T", "mT", "H", "mH", "real", "imag", "shape", "dtype", "data", "grad", "ndim",
                         "is_leaf", "layout", "device", "is_cuda", "is_meta", "nbytes", "itemsize"})


def _is_property(member: str) -> bool:
    return member in _PROPERTIES


def program_for(api: str, mindspore_api: str, kb: Any) -> Program:
    """The program of one torch API from its input spec (``mindspore_api`` picks a pair's own spec)."""
    if kb.torch_inventory and kb.resolve_torch(api) is None:  # the table names an API torch lacks
        return Program(re.sub(r"\W", "_", api), api, mindspore_api, namespace_of(api), "", {},
                       skip="no_torch_api: not in the torch inventory")
    return make_program(api, mindspore_api, *spec_and_kind(api, mindspore_api, kb))


def spec_and_kind(api: str, mindspore_api: str, kb: Any) -> tuple[Any, str]:
    """The input spec of an API's program and how it is called (function, tensor_method, class, dtype)."""
    from msmigrate.check.spec import ApiSpec, api_kind, is_dtype_api, spec_for

    kind = api_kind(api, kb.torch_kind(api))
    spec = spec_for(api, kind, kb.torch_signatures(api), mindspore_api=mindspore_api)
    if spec.ms_call == "value":  # a class whose instance is the value (check/spec_values.py)
        kind = "function"
    return (ApiSpec(), "dtype") if is_dtype_api(api, kb.torch_kind(api)) else (spec, kind)


def programs_for_table(version: str, derived: bool = True, forms: bool = False) -> list[Program]:
    """One program per mapped torch API of the table (``torch.*`` names only), then, with ``derived``,
    one per derived mapping the knowledge base offers for an API the table does not map (namespace
    group ``derived``); with ``forms``, after each API's program its programs of the other calling forms
    real code uses (form_programs.py)."""
    from msmigrate.knowledge.base import get_knowledge_base
    from msmigrate.knowledge.model import MappingCategory

    kb = get_knowledge_base(version)
    programs: dict[str, Program] = {}

    def add(api: str, mindspore_api: str, category: str, namespace: str) -> None:
        program = program_for(api, mindspore_api, kb)
        program.namespace, program.category = namespace, category
        programs[api] = program

    for row in kb.rows():
        api = row.torch_api
        if not api.startswith("torch.") or not row.mindspore_api or api in programs:
            continue
        if row.category is MappingCategory.UNSUPPORTED:
            continue
        add(api, row.mindspore_api, row.category.value, namespace_of(api))
    if derived:
        for api in sorted(kb.derived_table.entries):
            offered = kb.derived(api)
            if offered is None or api in programs or not api.startswith("torch."):
                continue
            add(api, offered.mindspore_api, offered.row.category.value, DERIVED)
    ordered = [programs[api] for api in sorted(programs)]
    return with_forms(ordered, kb) if forms else ordered  # form_programs.py


# --- running ------------------------------------------------------------------------------------------


def run_programs(framework: str, programs: list[tuple[str, str]], work: Path) -> dict[str, dict[str, Any]]:
    """Run ``(id, source)`` programs in ``framework``; an interpreter crash costs only its program."""
    work.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict[str, Any]] = {}
    pending = list(programs)
    while pending:
        batch = work / "batch.json"
        batch.write_text(json.dumps([{"id": i, "source": s} for i, s in pending]), encoding="utf-8")
        log = work / "outcomes.jsonl"
        log.unlink(missing_ok=True)
        proc = subprocess.run([sys.executable, str(RUNNER), framework, str(batch), str(work)],
                              capture_output=True, text=True, timeout=1800)
        started: str | None = None
        for line in log.read_text(encoding="utf-8").splitlines() if log.exists() else []:
            entry = json.loads(line)
            if entry.get("started"):
                started = entry["id"]
                continue
            started = None
            results[entry["id"]] = entry
        done = {i for i, _ in pending if i in results}
        if started is not None:  # the interpreter died inside this program
            results[started] = {"id": started, "ok": False,
                                "error": f"crashed (exit {proc.returncode}): {proc.stderr[-300:]}"}
            done.add(started)
        elif len(done) < len(pending) and proc.returncode != 0:
            for i, _ in pending:
                results.setdefault(i, {"id": i, "ok": False, "error": f"runner failed: {proc.stderr[-300:]}"})
            break
        pending = [(i, s) for i, s in pending if i not in done]
    return results


def _load_leaves(work: Path, pid: str) -> list[np.ndarray]:
    with np.load(work / f"{pid}.npz", allow_pickle=False) as data:
        return [data[f"arr_{i}"] for i in range(len(data.files))]


def _kind(dtype: np.dtype) -> str:
    return {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}.get(dtype.kind, dtype.kind)


def compare(expected: list[np.ndarray], got: list[np.ndarray], mode: str) -> str | None:
    """``None`` when equal, else what differs."""
    if len(expected) != len(got):
        return f"{len(expected)} torch outputs, {len(got)} MindSpore outputs"
    for index, (a, b) in enumerate(zip(expected, got, strict=True)):
        if a.shape != b.shape:
            return f"output {index}: shape {list(a.shape)} vs {list(b.shape)}"
        if _kind(a.dtype) != _kind(b.dtype):
            return f"output {index}: dtype {a.dtype} vs {b.dtype}"
        if mode == "shape_dtype":
            continue
        x, y = (np.sort(a.ravel()), np.sort(b.ravel())) if mode == "sorted" else (a, b)
        if x.dtype.kind in "fc" or y.dtype.kind in "fc":
            xf, yf = x.astype(np.complex128), y.astype(np.complex128)
            same_nan = np.array_equal(np.isnan(xf), np.isnan(yf))
            if not same_nan or not np.array_equal(np.isinf(xf), np.isinf(yf)):
                return f"output {index}: NaN/Inf positions differ"
            finite = np.isfinite(xf)
            if not np.allclose(xf[finite], yf[finite], rtol=RTOL, atol=ATOL) or not np.array_equal(
                xf[~finite], yf[~finite], equal_nan=True
            ):
                err = float(np.max(np.abs(xf[finite] - yf[finite]))) if finite.any() else 0.0
                return f"output {index}: values differ (max abs {err:.3g})"
        elif not np.array_equal(x, y):
            return f"output {index}: values differ"
    return None


def compare_program(p: Program, expected: list[np.ndarray], got: list[np.ndarray],
                    has_parameters: bool) -> str | None:
    """Compare a program's outputs as it asks: parameters it did not set make values incomparable (random
    initial values); a mode-dependent module's outputs are its training-mode half, then its eval-mode half."""
    mode = "shape_dtype" if has_parameters and not p.written else p.compare
    if not p.train_compare:
        return compare(expected, got, mode)
    if len(expected) != len(got) or len(expected) % 2:
        return f"{len(expected)} torch outputs, {len(got)} MindSpore outputs"
    half = len(expected) // 2
    train = "shape_dtype" if has_parameters else p.train_compare
    for label, part, part_mode in (("training mode", slice(0, half), train),
                                   ("eval mode", slice(half, None), mode)):
        diff = compare(expected[part], got[part], part_mode)
        if diff is not None:
            return f"{label}: {diff}"
    return None


def uses_torch(source: str) -> bool:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "torch" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "torch":
            return True
        if isinstance(node, ast.Name) and node.id == "torch":
            return True
    return False


def torch_lines(fixed: str) -> list[str]:
    """The lines of a fixed program past its inputs that still use torch (its imports aside)."""
    found = []
    for line in fixed.splitlines():
        if _INPUT_LINE.match(line) or line.startswith(("import ", "from ")):
            continue
        if re.search(r"\btorch\b", line):
            found.append(line.strip())
    return found


def blocked_titles(program: Program, kb: Any) -> list[str]:
    """Why no fix rewrote the API under test: the titles of the fixes offered without edits."""
    from msmigrate.analysis.analyzer import analyze_source
    from msmigrate.fixes.api import fixes_by_finding

    path = f"{program.id}.py"
    findings = analyze_source(program.source, path, kb).findings
    return [fix.title("en") for finding, fix in fixes_by_finding(program.source, path, findings, kb)
            if not fix.edits and finding.torch_api == kb.canonical(program.torch_api)]


def with_converted_inputs(program: Program, fixed: str) -> str:
    """The fixed program with its input lines replaced by MindSpore ones (made by the suite)."""
    body = _INPUT_LINE.sub(lambda m: tensor_line(m.group(1), *program.inputs[m.group(1)], "mindspore")
                           if m.group(1) in program.inputs else m.group(0), fixed)
    lines = [line for line in body.splitlines() if line.strip() not in ("import torch",)]
    return "import mindspore\n" + "\n".join(lines) + "\n"


def with_helper_module(source: str, helpers: list[str]) -> str:
    """``source`` run with the project's helper module its fixes import (``msmigrate fix`` writes it beside
    the file): the module made in the program itself, as ``ms_compat``, before the program's imports."""
    if not helpers:
        return source
    from msmigrate.knowledge.compositions.helper_module import module_text

    text = module_text(sorted(set(helpers)))
    return ("import sys as _msm_sys, types as _msm_types\n_msm_compat = _msm_types.ModuleType('ms_compat')\n"
            f"exec({text!r}, _msm_compat.__dict__)\n_msm_sys.modules['ms_compat'] = _msm_compat\n" + source)


def run_suite(version: str, work: Path | None = None, programs: list[Program] | None = None) -> SuiteResult:
    """Generate, run, fix, run converted and compare every program of table ``version`` (the APIs' own
    and those of the other calling forms real code uses)."""
    from msmigrate.fixes.api import fix_all
    from msmigrate.knowledge.base import get_knowledge_base

    kb = get_knowledge_base(version)
    programs = programs if programs is not None else programs_for_table(version, forms=True)
    owned = work is None
    tmp = tempfile.TemporaryDirectory(prefix="msm-conversion-") if owned else None
    root = Path(tmp.name) if tmp is not None else Path(work)  # type: ignore[arg-type]
    try:
        result = SuiteResult(version)
        runnable = [p for p in programs if not p.skip]
        grouped = {p.id for p in runnable if p.world}

        def run(framework: str, sources: list[tuple[str, str]], folder: Path) -> dict[str, dict[str, Any]]:
            """Plain programs in one process, process-group ones on every rank of a group."""
            found = run_programs(framework, [(i, s) for i, s in sources if i not in grouped], folder)
            group = [(i, s) for i, s in sources if i in grouped]
            if group:
                found.update(merge_ranks(run_group_programs(framework, group, folder / "group")))
            return found

        torch_runs = run("torch", [(p.id, p.source) for p in runnable], root / "torch")
        fixed: dict[str, str] = {}
        for p in runnable:
            if torch_runs.get(p.id, {}).get("ok"):
                fixed[p.id], applied = fix_all(p.source, f"{p.id}.py", kb)
                fixed[p.id] = with_helper_module(fixed[p.id], [h for fix in applied for h in fix.helpers])
        ms_runs = run("mindspore", [(i, s) for i, s in fixed.items()], root / "ms")
        retry = {}
        why: dict[str, str] = {}
        for p in runnable:
            if p.id not in fixed or ms_runs.get(p.id, {}).get("ok"):
                continue
            source = fixed[p.id]
            if uses_torch(source):
                left = torch_lines(source)
                if left:
                    why[p.id] = "; ".join([left[0], *blocked_titles(p, kb)])
                    continue
                source = with_converted_inputs(p, source)
            if p.world and failed_in_setup(ms_runs.get(p.id, {}), fixed[p.id]):
                source = with_suite_setup(source)
            if source != fixed[p.id]:
                retry[p.id] = source
        retry_runs = run("mindspore", list(retry.items()), root / "ms_inputs") if retry else {}
        for p in programs:
            result.outcomes.append(_outcome(p, torch_runs, fixed, ms_runs, retry, retry_runs, root, why))
        return result
    finally:
        if tmp is not None:
            tmp.cleanup()


def error_line(error: str) -> str:
    """The line of an error message that says what failed (MindSpore's can open with an empty message
    and a framed header: ``RuntimeError:`` / ``- Kernel select failed:`` / ``Unsupported op [...]``)."""
    lines = [line.strip() for line in error.splitlines() if line.strip().strip("-").strip()]
    if not lines:
        return "?"
    head, rest = lines[0], [line for line in lines[1:] if not line.startswith("- ")]
    return f"{head} {rest[0]}" if head.endswith(":") and rest else head


def _run_leaves(run: dict[str, Any], folder: Path, pid: str) -> list[list[np.ndarray]]:
    """The result leaves of a run, one list per rank (one for a plain program)."""
    if "ranks" in run:
        return [_load_leaves(Path(entry["folder"]), pid) for entry in run["ranks"]]
    return [_load_leaves(folder, pid)]


def compare_ranks(expected: list[list[np.ndarray]], got: list[list[np.ndarray]],
                  same: Callable[[list[np.ndarray], list[np.ndarray]], str | None]) -> str | None:
    """``same`` (one run's outputs against the other's: ``compare_program``) rank by rank (``rank 1: …`` for
    a group's difference)."""
    for rank, (a, b) in enumerate(zip(expected, got, strict=True)):
        diff = same(a, b)
        if diff is not None:
            return diff if len(expected) == 1 else f"rank {rank}: {diff}"
    return None


def _outcome(p: Program, torch_runs, fixed, ms_runs, retry, retry_runs, root: Path,  # noqa: ANN001
             why: dict[str, str]) -> Outcome:
    def done(status: str, detail: str = "") -> Outcome:
        return Outcome(p.torch_api, p.namespace, status, detail, fixed.get(p.id, ""), p.category, p.form)

    if p.skip:
        return done("no_program", p.skip)
    t = torch_runs.get(p.id, {})
    if not t.get("ok"):
        return done("torch_error", t.get("error", "?"))
    has_parameters = t.get("has_parameters", False)

    def same(a: list[np.ndarray], b: list[np.ndarray]) -> str | None:
        return compare_program(p, a, b, has_parameters)

    expected = _run_leaves(t, root / "torch", p.id)
    m = ms_runs.get(p.id, {})
    if m.get("ok"):
        diff = compare_ranks(expected, _run_leaves(m, root / "ms", p.id), same)
        if diff is None and not uses_torch(fixed[p.id]):
            return done("pass")
        return done("mismatch", diff or "torch still imported")
    if p.id in why:  # a line past the inputs still uses torch: the fix did not rewrite it
        return done("not_fixed", why[p.id])
    setup = ""
    if p.id in retry:
        r = retry_runs.get(p.id, {})
        if p.world and failed_in_setup(m, fixed[p.id]):  # the group setup was replaced too
            converted = error_line(m.get("error", "?"))[:160]
            setup = f"with the suite's setup {MS_SETUP}; the converted one: {converted}"
        if r.get("ok"):
            diff = compare_ranks(expected, _run_leaves(r, root / "ms_inputs", p.id), same)
            if diff is None:
                return done("pass_api", setup)
            return done("mismatch", "; ".join(filter(None, [diff, setup])))
        m = r
    error = m.get("error", "?")
    detail = "; ".join(filter(None, [error_line(error)[:200], setup]))
    if any(marker in error.lower() for marker in NO_KERNEL_MARKERS):
        return done("no_cpu_kernel", detail)
    return done("ms_error", detail)


# --- expected outcomes ----------------------------------------------------------------------------------


def outcome_table(results: list[SuiteResult]) -> dict[str, dict[str, str]]:
    """table → API (``api [form]`` for a program of another form) → status, for every program that does
    not pass (the expected-failures file)."""
    return {r.version: {form_key(o.api, o.form): o.status for o in r.outcomes if o.status != "pass"}
            for r in results}


def render_expected(results: list[SuiteResult]) -> str:
    payload = {
        "about": "APIs whose converted program does not (yet) run torch-free with the same result, by "
                 "table, with the outcome; written by `python benchmarks/conversion_suite.py "
                 "--write-expected`. Outcomes: see tests/conversion/harness.py.",
        "tables": {r.version: {form_key(o.api, o.form): {"status": o.status, "detail": o.detail}
                             for o in r.outcomes if o.status != "pass"} for r in results},
    }
    return json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def load_expected() -> dict[str, dict[str, str]]:
    if not EXPECTED.is_file():
        return {}
    data = json.loads(EXPECTED.read_text(encoding="utf-8"))
    tables = data["tables"].items()
    return {version: {api: e["status"] for api, e in entries.items()} for version, entries in tables}
