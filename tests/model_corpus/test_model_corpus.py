"""The real-model corpus (corpus_harness.py): third-party model definitions, fixed by ``msmigrate fix`` and
run in MindSpore without torch against the torch original. The whole corpus runs in the benchmark
(``python benchmarks/model_migration.py``); here a sample of cases from different packages runs end to end
(``Case.ci``), and every case is fixed to check the file-level truth of the fix summary.

Every case's outcome in both modes is pinned in expected_outcomes.json with its cause; an outcome that
changes either way fails until the file is refreshed with ``python benchmarks/model_migration.py
--write-expected``.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import shutil
import tokenize
from pathlib import Path

import corpus_harness as harness
import pytest
from corpus_cases import CASES, STAND_INS

from msmigrate.analysis.columns import ColumnMap
from msmigrate.analysis.leftovers import torch_leftovers

needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="the model corpus needs torch and mindspore (pip install -e '.[check]')",
)
SAMPLE = [case for case in CASES if case.ci]
TORCH_ROOTS = {"torch", "torchvision", "torchaudio", "torchtext"}


def test_the_corpus_is_large_varied_and_every_case_is_pinned_with_a_reason() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids)) and len(ids) >= 25
    assert len({case.package for case in CASES}) >= 6
    expected = harness.load_expected()
    assert sorted(expected) == sorted(ids), f"refresh with `{harness.REFRESH}`"
    for case_id, modes in expected.items():
        assert sorted(modes) == sorted(harness.MODES), case_id
        for mode, entry in modes.items():
            assert entry["stage"] in harness.STAGES, (case_id, mode)
            assert entry["stage"] in ("pass", "torch_error") or entry["reason"], (case_id, mode)
            assert entry["stage"] not in ("torch_error", "crash"), (case_id, mode, entry["reason"])
    # the sample: cases of different packages, one with a training step
    assert 5 <= len(SAMPLE) <= 6 and len({case.package for case in SAMPLE}) == len(SAMPLE)
    assert any(case.loss for case in SAMPLE)


def test_stand_ins_hold_no_torch() -> None:
    for files in STAND_INS.values():
        for rel, text in files.items():
            tree = ast.parse(text)
            assert torch_leftovers(tree, ColumnMap(text.splitlines(), text.isascii())) == [], rel


def _uses_torch(source: str) -> set[int]:
    """Lines that import a torch module or name ``torch`` in code (read independently of msmigrate's
    leftover analysis: the import statements and the name tokens)."""
    lines = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            if any(set(alias.name.split(".")) & TORCH_ROOTS for alias in node.names):
                lines.add(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if set(node.module.split(".")) & TORCH_ROOTS:
                lines.add(node.lineno)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME and token.string == "torch":
            lines.add(token.start[0])
    return lines


def test_no_fix_summary_claims_a_file_converted_while_torch_is_left(tmp_path: Path) -> None:
    """Every file of every case (one project per package holds its cases' files), both modes: a file the
    summary calls free of torch has none; a file that still has torch is listed with every torch import
    line; no summary then says nothing is left or 100% converted."""
    installed = harness.install()
    checked = 0
    for package in sorted({case.package for case in CASES}):
        cases = [case for case in CASES if case.package == package]
        original = harness.make_project(cases, installed, tmp_path / package / "original")
        for mode in harness.MODES:
            project = tmp_path / package / mode
            shutil.copytree(original, project)
            record = harness.fix_project(project, unsafe=mode == "unsafe")
            assert record.error is None, (package, mode, record.error)
            any_torch = False
            for entry in record.summary["files"]:
                used = _uses_torch((project / entry["path"]).read_text(encoding="utf-8"))
                where = (package, mode, entry["path"], sorted(used))
                assert entry["torch_free"] is (not used), where
                listed = {x["line"] for x in entry["leftovers"]}
                assert used <= listed, (where, sorted(listed))
                # the only torch.nn.Module members the fixes left on a Cell here were self.parameters() in
                # safe mode (open_clip's lock, whisper's device): get_parameters is now verified, so none
                assert [x for x in entry["leftovers"] if x["kind"] == "cell"] == [], where
                any_torch = any_torch or bool(used)
                checked += 1
            if any_torch:
                assert "Nothing left to migrate." not in record.text, (package, mode)
                assert not any("(100.0%)" in line for line in record.text), (package, mode)
                assert record.summary["files_with_torch_left"] > 0
    corpus_files = {rel for case in CASES for rel in case.files}
    assert checked >= 2 * len(corpus_files)


@needs_frameworks
def test_the_sample_reaches_its_pinned_outcomes(tmp_path: Path) -> None:
    result = harness.run_corpus(SAMPLE, tmp_path)
    expected = harness.load_expected()
    got = {(o.case, o.mode): (o.stage, o.detail) for o in result.outcomes}
    changed = [f"{case} {mode}: pinned {expected[case][mode]['stage']}, now {stage} ({detail})"
               for (case, mode), (stage, detail) in sorted(got.items())
               if expected[case][mode]["stage"] != stage]
    assert not changed, f"outcomes changed; refresh with `{harness.REFRESH}`:\n" + "\n".join(changed)
    assert len(got) == 2 * len(SAMPLE)
    for (case, mode), (stage, detail) in got.items():
        if stage == "import_torch_left":  # the summary lists the leftover the run failed on, with a reason
            assert "lists no leftover" not in detail and "no such file" not in detail, (case, mode, detail)


TINY_TORCH = '''\
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)
        self.bn = torch.nn.BatchNorm1d(3)

    def forward(self, x):
        return torch.tanh(self.bn(self.fc(x)))


def loss_of(out):
    return (out ** 2).mean()
'''
TINY_MINDSPORE = '''\
import mindspore


class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = mindspore.mint.nn.Linear(4, 3)
        self.bn = mindspore.nn.BatchNorm1d(3)

    def construct(self, x):
        return mindspore.mint.tanh(self.bn(self.fc(x))){shift}


def loss_of(out):
    return (out ** 2).mean()
'''


@needs_frameworks
def test_the_runs_compare_outputs_and_a_training_step_with_converted_weights(tmp_path: Path) -> None:
    """The harness's own check, on a model pair written here: the MindSpore run takes the torch weights
    through msmigrate convert-weights (BatchNorm renamed), matches the output and the SGD step, and a
    forward that differs by 0.01 is a mismatch."""
    installed = harness.install()
    projects = {"torch": TINY_TORCH, "good": TINY_MINDSPORE.format(shift=""),
                "shifted": TINY_MINDSPORE.format(shift=" + 0.01")}
    jobs = {}
    for name, source in projects.items():
        (tmp_path / name / "tiny").mkdir(parents=True)
        (tmp_path / name / "tiny" / "__init__.py").touch()
        (tmp_path / name / "tiny" / "model.py").write_text(source, encoding="utf-8")
        (tmp_path / f"out-{name}").mkdir()
        jobs[name] = {"id": name, "project": str(tmp_path / name), "module": "tiny.model", "expr": "Net()",
                      "call": "model(x0)", "loss": ["tiny.model", "loss_of(out)"],
                      "inputs": str(tmp_path / "inputs.npz"), "out": str(tmp_path / f"out-{name}")}
    inputs = harness.np.linspace(-1, 1, 20, dtype="float32").reshape(5, 4)
    harness.np.savez(tmp_path / "inputs.npz", x0=inputs)
    torch_runs = harness.run_jobs("torch", [jobs["torch"]], installed, tmp_path)
    assert torch_runs["torch"]["stage"] == "pass"
    state = str(tmp_path / "out-torch" / "state.pt")
    runs = harness.run_jobs("mindspore", [{**jobs[n], "state": state} for n in ("good", "shifted")],
                            installed, tmp_path)
    assert {n: (r["stage"], r.get("error")) for n, r in runs.items()} == {"good": ("ran", None),
                                                                        "shifted": ("ran", None)}
    expected = harness._arrays(tmp_path / "out-torch" / "outputs.npz")
    assert harness.compare(expected, harness._arrays(tmp_path / "out-good" / "outputs.npz")) is None
    step = tmp_path / "out-torch" / "train.npz", tmp_path / "out-good" / "train.npz"
    assert harness._train_difference(*step) is None
    trained = harness.np.load(tmp_path / "out-good" / "train.npz")
    assert sorted(trained.files) == ["loss", "p:bn.bias", "p:bn.weight", "p:fc.bias", "p:fc.weight"]
    shifted = harness.compare(expected, harness._arrays(tmp_path / "out-shifted" / "outputs.npz"))
    assert shifted is not None and shifted.startswith("output 0: max abs difference 0.01")
