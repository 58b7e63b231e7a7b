"""The real-model corpus harness: does ``msmigrate fix`` turn a real model definition into MindSpore code that
imports no torch, builds, takes the torch model's weights and computes the same numbers?

Per case (``corpus_cases.CASES``): the model's files are copied from the pinned packages (installed once into
a cache outside the repository, ``--no-deps``) into a temporary project; the torch run builds the model from
that copy (seed 0), saves its state dict and its eval-mode output on the case's inputs (and, with a loss,
the loss and the weights after one SGD step). The project is fixed twice, safe fixes only and with
``--unsafe-fixes`` (``--device CPU``, the 2.6 table); each fixed copy runs in a fresh MindSpore process where
torch cannot be imported: import, build, weights converted (``msmigrate convert-weights``) and loaded,
forward in eval mode, compared at
rtol=atol=1e-4 (then the training step). The outcome of a case and mode is the first stage that failed:

``fix`` (msmigrate fix failed on a file) · ``import_torch_left`` (the fixed code still imports torch) ·
``import_error`` · ``build`` · ``weight_load`` · ``forward_error`` · ``mismatch`` · ``train_error`` ·
``train_mismatch`` · ``pass``; ``torch_error`` (the torch reference itself failed: a case to mend) and
``crash`` (the interpreter died) should not occur.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))

from corpus_cases import CASES, DEPENDENCIES, MODEL_PACKAGES, STAND_INS, Case  # noqa: E402

EXPECTED = HERE / "expected_outcomes.json"
RUNNER = HERE / "corpus_runner.py"
RTOL = ATOL = 1e-4
MODES = ("safe", "unsafe")
TABLE, DEVICE = "2.6", "CPU"
STAGES = (
    "fix",
    "import_torch_left",
    "import_error",
    "build",
    "weight_load",
    "forward_error",
    "mismatch",
    "train_error",
    "train_mismatch",
    "pass",
    "torch_error",
    "crash",
)
BLOCKED = "torch is blocked for converted programs"
REFRESH = "python benchmarks/model_migration.py --write-expected"


# --- the pinned packages, installed once ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Installed:
    models: Path  # the model packages (files are copied from here)
    deps: Path  # runtime dependencies both runs import as installed (einops)


def cache_root() -> Path:
    return Path(os.environ.get("MSMIGRATE_CORPUS_CACHE") or Path.home() / ".cache" / "msmigrate-corpus")


def pins_key() -> str:
    text = json.dumps([MODEL_PACKAGES, DEPENDENCIES, sys.version_info[:2]])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def install() -> Installed:
    """The pinned packages in ``cache_root()/<key of the pins>`` (installed on first use, under a lock)."""
    base = cache_root() / pins_key()
    base.mkdir(parents=True, exist_ok=True)
    found = Installed(base / "models", base / "deps")
    with (base / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for target, pins in ((found.models, MODEL_PACKAGES), (found.deps, DEPENDENCIES)):
            if (target / ".done").is_file():
                continue
            shutil.rmtree(target, ignore_errors=True)
            command = [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-deps",
                "--no-compile",
                "--disable-pip-version-check",
                "--target",
                str(target),
                *(f"{n}=={v}" for n, v in pins),
            ]
            done = subprocess.run(command, capture_output=True, text=True, timeout=900)
            if done.returncode != 0:
                raise RuntimeError(f"installing the corpus packages failed: {done.stderr[-2000:]}")
            (target / ".done").write_text("\n".join(f"{n}=={v}" for n, v in pins) + "\n", encoding="utf-8")
    return found


# --- projects and inputs ----------------------------------------------------------------------------------


def make_project(case: Case | Iterable[Case], installed: Installed, dest: Path) -> Path:
    """Copy the case's files (of several cases: all their files) into ``dest`` with the stand-ins of their
    top-level folders; every folder on the way gets an empty ``__init__.py`` unless one was copied."""
    files = sorted({rel for c in ([case] if isinstance(case, Case) else case) for rel in c.files})
    dest.mkdir(parents=True, exist_ok=True)
    written: set[str] = set()
    for rel in files:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(installed.models / rel, target)
        written.add(rel)
    for top in sorted({rel.split("/")[0] for rel in files}):
        for rel, text in STAND_INS.get(top, {}).items():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            (dest / rel).write_text(text, encoding="utf-8")
            written.add(rel)
    for rel in list(written):
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            init = "/".join(parts[:i]) + "/__init__.py"
            if init not in written:
                (dest / init).touch()
                written.add(init)
    return dest


def make_inputs(case: Case) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(zlib.crc32(case.id.encode()))
    found = {}
    for i, spec in enumerate(case.inputs):
        if spec.dtype.startswith("int"):
            found[f"x{i}"] = rng.integers(int(spec.low), int(spec.high), spec.shape).astype(spec.dtype)
        else:
            found[f"x{i}"] = rng.uniform(spec.low, spec.high, spec.shape).astype(spec.dtype)
    return found


# --- fixing -------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class FixRecord:
    summary: dict[str, Any] = field(default_factory=dict)  # ``msmigrate fix --json``
    text: list[str] = field(default_factory=list)  # the summary ``msmigrate fix`` prints
    error: str | None = None  # the first file msmigrate could not fix, or what it raised

    def file_error(self, rel: str) -> str:
        entry = next((e for e in self.summary.get("files", []) if e["path"] == rel), {})
        return entry.get("error") or ""


def fix_project(project: Path, unsafe: bool) -> FixRecord:
    """``msmigrate fix PROJECT [--unsafe-fixes] --device CPU --mindspore-version 2.6`` (in this process)."""
    from msmigrate.fixes.project import FileStatus, FixOptions, fix_paths
    from msmigrate.reports.fix_summary import summary_lines

    try:
        result = fix_paths([str(project)], FixOptions(mindspore_version=TABLE, unsafe=unsafe, device=DEVICE))
    except Exception as exc:  # noqa: BLE001 - a failure of the fix is the case's outcome
        return FixRecord(error=f"{type(exc).__name__}: {exc}")
    record = FixRecord(result.to_json("en"), summary_lines(result, "en"))
    for f in result.files:
        if f.status in (FileStatus.ERROR, FileStatus.SYNTAX_ERROR, FileStatus.READ_ONLY):
            record.error = f"{f.rel}: {f.status.value} {record.file_error(f.rel)}".strip()
            break
    return record


# --- running ------------------------------------------------------------------------------------------------


def run_jobs(fw: str, jobs: list[dict], installed: Installed, work: Path) -> dict[str, dict]:
    """Run ``jobs`` in one ``fw`` process; after a crash, again from the job after the one that crashed."""
    found: dict[str, dict] = {}
    remaining = list(jobs)
    attempt = 0
    while remaining:
        attempt += 1
        jobs_file = work / f"{fw}-jobs-{attempt}.json"
        log = work / f"{fw}-log-{attempt}.jsonl"
        jobs_file.write_text(json.dumps({"jobs": remaining, "deps": [str(installed.deps)]}), encoding="utf-8")
        env = {**os.environ, "PYTHONHASHSEED": "0", "GLOG_v": "3", "OMP_NUM_THREADS": "1"}
        done = subprocess.run(
            [sys.executable, str(RUNNER), fw, str(jobs_file), str(log)],
            capture_output=True,
            text=True,
            env=env,
            timeout=60 * 60,
        )
        started: str | None = None
        for line in log.read_text(encoding="utf-8").splitlines() if log.is_file() else []:
            entry = json.loads(line)
            if entry.get("started"):
                started = entry["id"]
            else:
                found[entry["id"]] = entry
                started = None
        if started is not None:
            found[started] = {
                "id": started,
                "stage": "crash",
                "error": f"the {fw} process died (exit {done.returncode}): {done.stderr[-300:]}",
            }
        elif len(found) < len(jobs) and not any(j["id"] in found for j in remaining):
            raise RuntimeError(f"the {fw} runner started no job: {done.stderr[-2000:]}")
        remaining = [j for j in remaining if j["id"] not in found]
    return found


# --- outcomes -----------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Outcome:
    case: str
    package: str
    mode: str
    stage: str
    detail: str = ""


@dataclass(slots=True)
class CorpusResult:
    outcomes: list[Outcome] = field(default_factory=list)
    fixes: dict[tuple[str, str], FixRecord] = field(default_factory=dict)  # (case, mode) → fix record
    projects: dict[tuple[str, str], Path] = field(default_factory=dict)  # (case, mode|"original") → folder

    def outcome(self, case: str, mode: str) -> Outcome:
        return next(o for o in self.outcomes if o.case == case and o.mode == mode)

    def counts(self, mode: str) -> dict[str, int]:
        found = {stage: 0 for stage in STAGES}
        for o in self.outcomes:
            if o.mode == mode:
                found[o.stage] += 1
        return found


def _clean(text: str, roots: Iterable[Path]) -> str:
    for root in roots:
        text = text.replace(str(root), "<project>")
    return re.sub(r"0x[0-9a-f]{6,}", "0x…", text).strip()


def compare(expected: list[np.ndarray], got: list[np.ndarray], what: str = "output") -> str | None:
    if len(expected) != len(got):
        return f"{len(got)} {what}s, torch gives {len(expected)}"
    for i, (a, b) in enumerate(zip(expected, got, strict=True)):
        if tuple(a.shape) != tuple(b.shape):
            return f"{what} {i}: shape {tuple(b.shape)}, torch {tuple(a.shape)}"
        if a.dtype.kind in "fc" or b.dtype.kind in "fc":
            a64, b64 = a.astype(np.float64), b.astype(np.float64)
            if not np.allclose(b64, a64, rtol=RTOL, atol=ATOL, equal_nan=True):
                return f"{what} {i}: max abs difference {float(np.nanmax(np.abs(a64 - b64))):.3g}"
        elif not np.array_equal(a, b):
            return f"{what} {i}: values differ"
    return None


def _arrays(path: Path) -> list[np.ndarray]:
    data = np.load(path)
    return [data[f"arr_{i}"] for i in range(len(data.files))]


def _train_difference(torch_file: Path, ms_file: Path) -> str | None:
    t, m = np.load(torch_file), np.load(ms_file)
    diff = compare([t["loss"]], [m["loss"]], "loss")
    if diff:
        return diff
    for key in t.files:
        if key == "loss":
            continue
        if key not in m.files:
            return f"no updated MindSpore parameter for {key[2:]}"
        diff = compare([t[key]], [m[key]], f"updated {key[2:]}")
        if diff:
            return diff
    return None


def left_behind(record: FixRecord, where: str) -> str:
    """What the fix summary says about the torch import the run failed on (``where``: ``path:line``): the
    leftover on that line with its reason, and for an import of torch the first use it is kept for."""
    rel, _, line = where.rpartition(":")
    entry = next((e for e in record.summary.get("files", []) if e["path"] == rel), None)
    if entry is None or not line.isdigit():
        return f"{where}: the fix summary has no such file"
    left = entry["leftovers"]
    at = [x for x in left if x["line"] == int(line)]
    if not at:
        return f"{where}: torch imported, yet the fix summary lists no leftover on that line"
    said = f"{where} {at[0]['kind']} {at[0]['text']}: {at[0]['reason']}"
    uses = [x for x in left if x["kind"] != "import" and x["line"] in at[0]["used_on"]]
    if uses:
        said += f"; first use left: line {uses[0]['line']} {uses[0]['text']}: {uses[0]['reason']}"
    return said


def _ms_outcome(case: Case, mode: str, entry: dict, record: FixRecord, folders: tuple[Path, Path],
                roots: list[Path]) -> Outcome:
    torch_out, ms_out = folders

    def done(stage: str, detail: str = "") -> Outcome:
        return Outcome(case.id, case.package, mode, stage, _clean(detail, roots))

    stage, error = entry.get("stage", "crash"), entry.get("error", "")
    if BLOCKED in error:
        at = "" if stage == "import" else f" (at {stage})"
        return done("import_torch_left", left_behind(record, entry.get("where", "")) + at)
    if entry.get("where"):
        error = f"{error} [{entry['where']}]"
    if stage == "import":
        return done("import_error", error)
    if stage != "ran":
        return done(stage, error)
    diff = compare(_arrays(torch_out / "outputs.npz"), _arrays(ms_out / "outputs.npz"))
    if diff:
        return done("mismatch", diff)
    if case.loss:
        diff = _train_difference(torch_out / "train.npz", ms_out / "train.npz")
        if diff:
            return done("train_mismatch", diff)
    return done("pass")


def run_corpus(cases: Iterable[Case] = CASES, work: Path | None = None) -> CorpusResult:
    """Every stage of every case, in both modes (see the module docstring)."""
    from msmigrate.knowledge.base import get_knowledge_base

    cases = list(cases)
    installed = install()
    work = Path(tempfile.mkdtemp(prefix="msmigrate-corpus-")) if work is None else work
    work.mkdir(parents=True, exist_ok=True)
    result = CorpusResult()
    torch_jobs = []
    for case in cases:
        folder = work / case.id
        shutil.rmtree(folder, ignore_errors=True)
        original = make_project(case, installed, folder / "original")
        result.projects[(case.id, "original")] = original
        (folder / "torch").mkdir()
        np.savez(folder / "inputs.npz", **make_inputs(case))
        torch_jobs.append(_job(case, original, folder, "torch"))
    torch_runs = run_jobs("torch", torch_jobs, installed, work)
    get_knowledge_base(TABLE)  # loaded once for all fixes
    for mode in MODES:
        ms_jobs = []
        for case in cases:
            folder = work / case.id
            project = folder / mode
            shutil.copytree(folder / "original", project)
            result.projects[(case.id, mode)] = project
            record = fix_project(project, unsafe=mode == "unsafe")
            result.fixes[(case.id, mode)] = record
            if torch_runs.get(case.id, {}).get("stage") != "pass" or record.error:
                continue
            (folder / f"ms-{mode}").mkdir()
            ms_jobs.append(
                {**_job(case, project, folder, f"ms-{mode}"), "state": str(folder / "torch" / "state.pt")}
            )
        ms_runs = run_jobs("mindspore", ms_jobs, installed, work) if ms_jobs else {}
        for case in cases:
            folder = work / case.id
            roots = [folder / mode, folder / "original", installed.deps]
            t = torch_runs.get(case.id, {})
            record = result.fixes[(case.id, mode)]
            if t.get("stage") != "pass":
                detail = f"{t.get('stage', '?')}: {t.get('error', '')}"
                result.outcomes.append(
                    Outcome(case.id, case.package, mode, "torch_error", _clean(detail, roots))
                )
            elif record.error:
                result.outcomes.append(
                    Outcome(case.id, case.package, mode, "fix", _clean(record.error, roots))
                )
            else:
                result.outcomes.append(
                    _ms_outcome(case, mode, ms_runs.get(case.id, {}), record,
                                (folder / "torch", folder / f"ms-{mode}"), roots)
                )
    return result


def _job(case: Case, project: Path, folder: Path, out: str) -> dict:
    return {
        "id": case.id,
        "project": str(project),
        "module": case.module,
        "expr": case.expr,
        "call": case.call,
        "loss": list(case.loss) if case.loss else None,
        "inputs": str(folder / "inputs.npz"),
        "out": str(folder / out),
    }


# --- expected outcomes --------------------------------------------------------------------------------------


def render_expected(result: CorpusResult) -> str:
    payload = {
        "about": "The outcome of every corpus case in both fix modes (first stage that failed, with its "
        f"cause); written by `{REFRESH}`. Stages: see tests/model_corpus/corpus_harness.py.",
        "cases": {
            case: {o.mode: {"stage": o.stage, "reason": o.detail} for o in result.outcomes if o.case == case}
            for case in sorted({o.case for o in result.outcomes})
        },
    }
    return json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def load_expected() -> dict[str, dict[str, dict[str, str]]]:
    """case → mode → {"stage", "reason"}."""
    if not EXPECTED.is_file():
        return {}
    return json.loads(EXPECTED.read_text(encoding="utf-8"))["cases"]
