"""Every claim about an API finding is the finding's one resolution (``model/resolution.py``): over the whole
conversion suite's programs (tests/conversion, both tables) and a real-code corpus (the installed torch
package's own ``nn/`` and ``optim/`` sources, read at test time), for every mapped API finding, hover's
stated target, the finding's ``mindspore_api`` and message, the target the quick-fix writes, the safety
verdict and ``lookup`` name the same target for the same device."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.analysis.options import AnalysisOptions
from msmigrate.analysis.severity import carried_fix
from msmigrate.fixes.api import fixes_by_finding
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.lookup import _escape, lookup
from msmigrate.lsp.hover import hover_markdown
from msmigrate.model.finding import Finding
from msmigrate.model.resolution import Safety

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conversion"))
from harness import programs_for_table  # noqa: E402

MAPPED = ("MSM100", "MSM101")
MINDSPORE_NAME = re.compile(r"\bmindspore(?:\.[A-Za-z_]\w*)+")
# the safe reasons that need no numeric check: a type named; a consistent rename of the same parameters
UNCHECKED_SAFE = ("reference", "same_parameters")


@dataclass
class Tally:
    findings: int = 0
    fixes: int = 0
    by_call: int = 0
    problems: list[str] = field(default_factory=list)


def _api_findings(findings: list[Finding]) -> list[Finding]:
    """The mapped API findings: the finding itself, or the API finding a rule's finding carries."""
    found = []
    for finding in findings:
        if finding.rule in MAPPED:
            found.append(finding)
        carried = carried_fix(finding)
        if carried is not None and carried.rule in MAPPED:
            found.append(carried)
    return [f for f in found if f.resolution is not None and f.resolution.target]


def _title_targets(fix) -> set[str]:
    """The MindSpore APIs a fix's title names as written (``mindspore_api`` of it or of its base title)."""
    names = set()
    if "mindspore_api" in fix.title_args:
        names.add(fix.title_args["mindspore_api"])
    for _key, fields in fix.title_args.get("base", ()):
        names.update(value for name, value in fields if name == "mindspore_api")
    return names


def check_file(source: str, path: str, version: str, device: str, tally: Tally) -> None:
    kb = get_knowledge_base(version)
    findings = analyze_source(source, path, kb, AnalysisOptions(use_jedi=False, device=device)).findings
    pairs = fixes_by_finding(source, path, findings, kb, device=device)
    for finding in _api_findings(findings):
        resolution = finding.resolution
        assert resolution is not None
        target, where = resolution.target, f"{path}:{finding.line}:{finding.column} {finding.torch_api}"
        tally.findings += 1
        tally.by_call += resolution.by_call

        def problem(what: str, where: str = where, target: str = target,
                    device: str = resolution.device) -> None:
            tally.problems.append(f"{where}: {what} (resolution: {target} on {device})")

        if resolution.device != device:
            problem(f"resolved for {resolution.device}")
        if finding.mindspore_api != target:
            problem(f"finding says {finding.mindspore_api}")
        if f"→ {target}" not in finding.message("en"):
            problem(f"message says {finding.message('en')!r}")
        hover = hover_markdown(finding, kb, "en", device)
        if _escape(f"→ {target} ") not in hover.split("\n", 1)[0]:
            problem(f"hover says {hover.splitlines()[0]!r}")
        named = lookup(finding.torch_api or "", kb, device=device)
        if named.target != target and not resolution.by_call:
            problem(f"lookup says {named.target}")
        safe = is_safe(finding)
        if safe != (resolution.safety is Safety.SAFE):
            problem("is_safe disagrees with the resolution")
        evidence = resolution.evidence
        if safe and resolution.safety_reason not in UNCHECKED_SAFE and (
                evidence.check != "pass" or evidence.device != device):
            problem(f"safe without a check of the written pair on {device}: {evidence}")
        last = target.rpartition(".")[2]
        for owner, fix in pairs:
            if fix.rule not in MAPPED or (owner.line, owner.column) != (finding.line, finding.column):
                continue
            titled = _title_targets(fix)
            if titled and titled != {target}:
                problem(f"the fix's title writes {titled}")
            if fix.edits:
                tally.fixes += 1
                written = {name for edit in fix.edits for name in MINDSPORE_NAME.findall(edit.new_text)}
                other = {name for name in written if name.endswith(f".{last}") and name != target}
                # (a method of the same name: only its arguments change)
                renamed = last != (finding.torch_api or "").rpartition(".")[2]
                if other or (renamed and not any(last in edit.new_text for edit in fix.edits)):
                    problem(f"the fix writes {[e.new_text for e in fix.edits]}")


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_the_conversion_suite_agrees(version: str) -> None:
    tally = Tally()
    for program in programs_for_table(version):
        if program.source:
            check_file(program.source, f"{program.id}.py", version, "CPU", tally)
    assert tally.problems == []
    assert tally.findings > 900 and tally.fixes > 800  # the programs' calls: one per mapped API


def _torch_sources(sample: int) -> list[Path]:
    import importlib.util

    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.origin:
        pytest.fail("torch is a test dependency (make setup-test)")
    root = Path(spec.origin).parent
    files = sorted([*(root / "nn").rglob("*.py"), *(root / "optim").rglob("*.py")])
    step = max(1, len(files) // sample)
    return files[::step]


def test_the_installed_torch_nn_and_optim_sources_agree() -> None:
    sample = int(os.environ.get("MSMIGRATE_AGREEMENT_FILES", "60"))  # every k-th file, k from the count
    tally = Tally()
    files = _torch_sources(sample)
    for path in files:
        check_file(path.read_text(encoding="utf-8"), path.name, "2.6", "CPU", tally)
    assert tally.problems == []
    assert len(files) >= sample and tally.findings > 1000


@pytest.mark.parametrize("device", ["GPU", "Ascend"])
def test_other_devices_agree(device: str) -> None:
    """Without verification data for the device, the table's targets stand, and nothing checked on CPU
    counts as checked there."""
    tally = Tally()
    for program in programs_for_table("2.6")[::5]:
        if program.source:
            check_file(program.source, f"{program.id}.py", "2.6", device, tally)
    assert tally.problems == []
    assert tally.findings > 150


def test_a_problem_is_reported(monkeypatch) -> None:
    """The check above can fail: a fixer writing the mapping's own target instead of the resolution's."""
    from dataclasses import replace

    import msmigrate.fixes.api_fixes as api_fixes

    real = api_fixes.resolution_for

    def stale(ctx, finding):  # noqa: ANN001, ANN202
        found = real(ctx, finding)
        if found is None or found.replacement is None:
            return found
        return replace(found, target=found.replacement.replaced, replacement=None)

    monkeypatch.setattr(api_fixes, "resolution_for", stale)
    tally = Tally()
    check_file("import torch.nn.functional as F\ny = F.gelu(x)\n", "g.py", "2.6", "CPU", tally)
    assert tally.problems == [
        "g.py:2:5 torch.nn.functional.gelu: the fix's title writes {'mindspore.mint.nn.functional.gelu'} "
        "(resolution: mindspore.ops.gelu on CPU)",
        "g.py:2:5 torch.nn.functional.gelu: the fix writes ['mindspore.mint.nn.functional.gelu', "
        "'import mindspore\\n'] (resolution: mindspore.ops.gelu on CPU)",
    ]
