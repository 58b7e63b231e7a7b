"""Labelled real-code findings: 325 positions drawn at random (stratified by rule) from a scan of pinned
third-party PyTorch code and of the installed torch's own sources, and the 44 findings new in that scan after
main ``be146a9`` (against ``5862332``: MSM534, MSM102 on a factory's output, …), each labelled by reading the
code and running MindSpore 2.10 (``labels.json``, see ``realcode_labels.py``; how the 325 were drawn:
``draw_sample.py``; docs/real-code-quality.md).

The code is read at test time from the pinned packages (installed outside the repository by
``realcode_packages.ensure_installed``) and from the installed torch; only the sampled files are analysed.

Target (issue 23): claims right for >= 98% of the labels, identification >= 99%. The thresholds below are a
ratchet at the figures measured when the labels were written (docs/real-code-quality.md): raise them as
fixes land, never lower them without a label review. ``python benchmarks/labelled_precision.py`` prints the
figures and the wrong claims grouped by topic.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from msmigrate.model.finding import FindingCategory, Severity

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))

from realcode_labels import figures, judge, load_labels, schema_problems, verdicts  # noqa: E402
from realcode_packages import source_root  # noqa: E402

# measured 2026-11 on main at the time the labels were written; target 98% claims, 99% identification
RATCHET = {
    # Raised with the claims work of issue 23 (item 2: the call decides the claim) after a review of 18
    # labels against MindSpore 2.10 on CPU (their reasons say what changed); on the labels before that
    # review the same code has identification 323, claims 302 (docs/real-code-quality.md). After the
    # compositions for classes passed as values and MSM533 (in-place methods without a CPU kernel), 13
    # labels accept those answers too (each reason says why).
    # The 44 labels of the findings new after main be146a9 (h/heldout2): all right but one
    # (torch.nn.Module.compile, a derived pair excluded since).
    "identified": 369,  # of 369 (100%)
    "claims_right": 366,  # 99.2%
    "claims_right_cpu": 366,  # 99.2%: right on CPU too (the target runs there, or the message says not)
    "severity_right": 318,  # of 324 judged
}


def test_labels_are_well_formed():
    data = load_labels()
    assert schema_problems(data) == []
    assert len(data["labels"]) >= 300
    packages = {label["package"] for label in data["labels"]}
    assert len(packages) >= 5
    rules = {r for label in data["labels"] for r in (label["rule"] if isinstance(label["rule"], list)
                                                      else [label["rule"]])}
    assert len(rules) >= 20  # stratified by rule: every rule the scan found has labels


def test_schema_check_reports_malformed_labels():
    label = {"package": "timm", "file": "timm/x.py", "line": 3, "column": 1, "rule": "MSM100",
             "torch_api": "torch.cat", "mindspore_api": "mindspore.mint.cat", "category": "consistent",
             "severity": "note", "words": ["cat"], "topic": "plain", "reason": "r"}
    data = {"schema_version": 1, "table": "2.6", "device": "CPU", "labels": [label]}
    assert schema_problems(data) == []
    bad = dict(label, severity="loud", category="fine", package="numpy", reason="")
    assert schema_problems(dict(data, labels=[bad, label, label])) == [
        "label 0 (timm/x.py:3): unknown package numpy",
        "label 0 (timm/x.py:3): category 'fine'",
        "label 0 (timm/x.py:3): severity is attention, note or null",
        "label 0 (timm/x.py:3): a reason and a topic are required",
        "label 2 (timm/x.py:3): position labelled twice",
    ]


@dataclass
class _Finding:  # what judge reads of a msmigrate Finding, with the message given as text
    rule: str
    torch_api: str | None
    mindspore_api: str | None
    category: FindingCategory
    severity: Severity
    text: str

    def message(self) -> str:
        return self.text


def _finding(rule: str, torch_api: str | None, target: str | None, category: str, severity: str, text: str):
    return _Finding(rule, torch_api, target, FindingCategory(category), Severity(severity), text)


def test_judge_compares_rule_target_category_and_words():
    label = {"rule": ["MSM101", "MSM501"], "torch_api": "torch.nn.Module",
             "mindspore_api": "mindspore.nn.Cell", "category": ["differences", "framework_pattern"],
             "severity": "note", "words": ["construct|bprop"], "not_words": ["same behaviour"],
             "no_cpu_kernel": [], "topic": "t", "reason": "r"}
    right = judge(label, _finding("MSM101", "torch.nn.Module", "mindspore.nn.Cell", "differences", "hint",
                                  "rename forward to construct"))
    assert (right.identified, right.claim, right.claim_cpu, right.severity) == (True, True, True, True)
    assert right.why == []
    wrong = judge(label, _finding("MSM100", "torch.nn.Module", "mindspore.nn.Cell", "consistent", "warning",
                                  "same behaviour; replacing the name is enough"))
    assert (wrong.identified, wrong.claim, wrong.severity) == (True, False, False)
    assert wrong.why == ["rule", "category", "words ['construct|bprop']", "says ['same behaviour']"]
    absent = judge(label, None)
    assert (absent.identified, absent.claim, absent.why) == (False, False, ["no finding"])
    none_right = dict(label, rule=[None], torch_api=None, mindspore_api=None, category=None, words=[])
    assert judge(none_right, None).claim is True
    pattern = _finding("MSM307", None, None, "dynamic_shape", "warning", "condition depends on tensor values")
    assert (judge(none_right, pattern).identified, judge(none_right, pattern).claim) == (True, False)


def test_judge_on_cpu_needs_a_target_that_runs_there_or_a_message_saying_so():
    label = {"rule": "MSM100", "torch_api": "torch.stack", "mindspore_api": ["mindspore.mint.stack",
             "mindspore.ops.stack"], "category": "consistent", "severity": None, "words": ["stack"],
             "no_cpu_kernel": ["mindspore.mint.stack"], "topic": "t", "reason": "r"}
    mint = judge(label, _finding("MSM100", "torch.stack", "mindspore.mint.stack", "consistent", "hint",
                                 "stack"))
    assert (mint.claim, mint.claim_cpu, mint.severity) == (True, False, None)
    said = judge(label, _finding("MSM100", "torch.stack", "mindspore.mint.stack", "consistent", "hint",
                                 "stack (no CPU kernel)"))
    assert said.claim_cpu is True
    ops = judge(label, _finding("MSM100", "torch.stack", "mindspore.ops.stack", "consistent", "hint",
                                "stack"))
    assert ops.claim_cpu is True


def test_labelled_positions_exist_in_the_pinned_sources():
    for label in load_labels()["labels"]:
        lines = (source_root(label["package"]) / label["file"]).read_text(encoding="utf-8").splitlines()
        assert label["line"] <= len(lines), label
        assert label["column"] <= len(lines[label["line"] - 1]) + 1, label


def _report(results) -> str:
    lines = []
    for v in results:
        if not (v.identified and v.claim_cpu):
            lines.append(f"{v.where} ({'; '.join(v.why) or 'identification'}) [{v.label['topic']}]\n"
                         f"    expected: {v.expected()}\n    got: {v.got()[:300]}")
    return "\n".join(lines)


def test_labelled_findings_ratchet():
    results = verdicts()
    measured = figures(results)
    print(measured)
    failed = {key: (measured[key], floor) for key, floor in RATCHET.items() if measured[key] < floor}
    assert not failed, f"below the ratchet (measured, floor): {failed}\n{_report(results)}"
