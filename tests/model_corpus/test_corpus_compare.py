"""``msmigrate compare`` on the real-model corpus (corpus_compare_runs.py): every case that passes with
``--unsafe-fixes`` is compared in PyNative and GRAPH_MODE by the benchmark (``python
benchmarks/corpus_compare.py``), its outcome pinned in expected_compare.json with the reason unless both
modes match; here a sample runs the same commands: a torchvision CNN (matches in both modes),
segment-anything's PromptEncoder (its forward takes ``points=(coords, labels)``, a tuple: PyNative matches,
GRAPH_MODE stops at ``Parameter.device``), a vit-pytorch ViT (einops: PyNative only) and whisper's audio
encoder (its attention returns a tensor where torch's returns None: a note, and a match in both modes). An
outcome that changes either way fails until the file is refreshed with ``python benchmarks/corpus_compare.py
--write-expected``.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import corpus_compare_runs as runs
import pytest
from corpus_cases import CASES

needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="the model corpus needs torch and mindspore (pip install -e '.[check]')",
)
SAMPLE = (
    "tv_squeezenet", "sam_prompt_encoder", "vit_simple_vit", "whisper_audio_encoder",
)


def test_every_passing_case_is_pinned_with_a_reason() -> None:
    expected = runs.load_expected_compare()
    assert sorted(expected) == runs.passing_cases(), f"refresh with `{runs.REFRESH_COMPARE}`"
    for case, row in expected.items():
        assert row["pynative"] in runs.STATUSES and row["graph"] in runs.STATUSES, case
        assert row["pynative"] == row["graph"] == "match" or row["reason"], case
        assert row["pynative"] != "not run", (case, row["reason"])  # every passing case can be compared
        if row["graph"] == "graph_error":  # issue 25: each graph failure at a line a static rule flags
            assert re.search(r"\(rule MSM7\d\d\)$", row["reason"]), (case, row["reason"])
    assert set(SAMPLE) <= set(expected), f"a sample case no longer passes: `{runs.REFRESH_COMPARE}`"
    # the sample: a match in both modes, a graph failure, a PyNative-only einops model
    assert {(expected[c]["pynative"], expected[c]["graph"]) for c in SAMPLE} >= {("match", "match"),
                                                                              ("match", "graph_error")}


def test_a_call_is_written_as_inputs(tmp_path: Path) -> None:
    cases = {case.id: case for case in CASES}
    line = runs.command(cases["sam_prompt_encoder"], tmp_path)
    assert isinstance(line, list)
    assert line[line.index("--mindspore") + 2:] == [
        "--input", "points=(float32[1, 2, 2](0, 64), int64[1, 2](0, 2))",
        "--input", "boxes=float32[1, 4](0, 64)",
        "--input", "masks=float32[1, 1, 16, 16](-1.0, 1.0)",
        "--mode", "both", "--json",
    ]
    line = runs.command(cases["sam_mask_decoder"], tmp_path)
    assert isinstance(line, list) and line[-6:] == [
        "--input", "dense_prompt_embeddings=float32[1, 16, 4, 4](-1.0, 1.0)",
        "--kwarg", "multimask_output=True", "--mode", "both", "--json"][-6:]


@pytest.mark.slow
@needs_frameworks
def test_the_sample_compares_as_pinned(tmp_path: Path) -> None:
    cases = [case for case in CASES if case.id in SAMPLE]
    kept = runs.prepare(cases, tmp_path)
    got = {case.id: runs.compare(case, kept) for case in cases}
    changed = runs.changes(got, runs.load_expected_compare())
    assert not changed, f"outcomes changed; refresh with `{runs.REFRESH_COMPARE}`:\n" + "\n".join(changed)
    assert "prompt_encoder.py:126" in got["sam_prompt_encoder"]["reason"]
