"""Snapshot of every user-visible output over the examples and the test inputs, to compare two versions.

A refactoring that must not change behaviour is checked by running this script with each version's
sources first on the path and comparing the two folders::

    PYTHONPATH=/old/server python tests/core/report_snapshot.py /tmp/before
    PYTHONPATH=$PWD/server python tests/core/report_snapshot.py /tmp/after
    diff -r /tmp/before /tmp/after

Inputs: ``examples/``, ``tests/rules/fixtures/``, every rule's example (``msmigrate rules ID --json``) and
every analyzer case of ``tests/analysis/analysis_cases.py``, written as files of one project. Outputs:
the scan report in every format (JSON in both languages, for the 2.6 and 1.10 tables), ``msmigrate fix
--diff`` (safe and unsafe fixes), ``msmigrate rules --json`` and each rule's ``--json``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _msmigrate(*args: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "msmigrate", *args], cwd=cwd, capture_output=True,
                          text=True, env=os.environ.copy(), timeout=600)
    return f"exit {done.returncode}\n--- stdout\n{done.stdout}--- stderr\n{done.stderr}"


def _stdout(run: str) -> str:
    return run.split("--- stdout\n", 1)[1].split("--- stderr\n", 1)[0]


def _inputs(project: Path, work: Path) -> None:
    shutil.copytree(ROOT / "examples", project / "examples")
    shutil.copytree(ROOT / "tests/rules/fixtures", project / "fixtures")
    listed = json.loads(_stdout(_msmigrate("rules", "--json", cwd=work)))
    (project / "rule_examples").mkdir()
    for rule in listed["rules"]:
        example = json.loads(_stdout(_msmigrate("rules", rule["id"], "--json", cwd=work))).get("example")
        if example:
            (project / "rule_examples" / f"{rule['id']}.py").write_text(example, encoding="utf-8")
    sys.path.insert(0, str(ROOT / "tests/analysis"))
    from analysis_cases import CASES

    (project / "analysis_cases").mkdir()
    for case_id, code, _expected in CASES:
        (project / "analysis_cases" / f"{case_id}.py").write_text(code, encoding="utf-8")


def _set_aside_crashing(project: Path, out: Path) -> list[str]:
    """Move the inputs whose findings cannot be rendered (a crash stops the whole scan) out of the project."""
    from msmigrate.analysis.analyzer import analyze_source
    from msmigrate.knowledge.base import get_knowledge_base

    crashing = []
    for version in ("2.6", "1.10"):
        kb = get_knowledge_base(version)
        for path in sorted(project.rglob("*.py")):
            try:
                for finding in analyze_source(path.read_bytes(), str(path), kb).findings:
                    finding.to_dict("en"), finding.to_dict("zh")
            except Exception as error:  # noqa: BLE001 - recorded, then left out of the scans
                name = path.relative_to(project).as_posix()
                crashing.append(f"{name} ({version}): {type(error).__name__}: {error}")
                target = out / "crashing" / name
                target.parent.mkdir(parents=True, exist_ok=True)
                path.rename(target)
    return crashing


def snapshot(out: Path) -> None:
    work = out / "work"
    project = work / "project"
    project.mkdir(parents=True)
    _inputs(project, work)
    outputs = out / "outputs"
    outputs.mkdir()
    (outputs / "crashing.txt").write_text("".join(f"{line}\n" for line in _set_aside_crashing(project, out)))
    runs: dict[str, list[str]] = {
        "rules.json.txt": ["rules", "--json"],
        "fix-safe.diff.txt": ["fix", "project", "--diff"],
        "fix-unsafe.diff.txt": ["fix", "project", "--diff", "--unsafe-fixes"],
    }
    for version in ("2.6", "1.10"):
        for fmt, lang in (("json", "en"), ("json", "zh")):
            runs[f"scan-{version}-{fmt}-{lang}.txt"] = [
                "scan", "project", "--no-cache", "-j", "1", "--format", fmt, "--lang", lang,
                "--mindspore-version", version]
    for fmt in ("text", "csv", "html", "sarif", "markdown"):
        runs[f"scan-2.6-{fmt}.txt"] = ["scan", "project", "--no-cache", "-j", "1", "--format", fmt,
                                       "--mindspore-version", "2.6"]
    for rule_file in sorted((project / "rule_examples").iterdir()):
        runs[f"rule-{rule_file.stem}.json.txt"] = ["rules", rule_file.stem, "--json"]
    for name, args in runs.items():  # the folder's own path (SARIF's project URI) is left out
        shown = _msmigrate(*args, cwd=work).replace(str(work), "<work>")
        (outputs / name).write_text(shown, encoding="utf-8")


if __name__ == "__main__":
    snapshot(Path(sys.argv[1]))
