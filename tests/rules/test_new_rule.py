"""Adding a rule with a fix touches one new module and one test file: ``msmigrate dev new-rule`` writes both
into a copy of the package, the placeholders are filled as a developer would, and the new rule is listed,
its detector finds its example, its fix is applied by ``msmigrate fix`` with its declared safety, and the
generated test passes, with no other file of the copy changed."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from msmigrate.paths import data_dir
from msmigrate.rules.scaffold import ScaffoldError, new_rule

ROOT = Path(__file__).resolve().parents[2]
MODULE = Path("server/msmigrate/rules/framework/msm599_call_abs.py")
TEST = Path("tests/rules/test_msm599_call_abs.py")
FIXED = "import mindspore\n\ny = mindspore.ops.abs(x)\n"
# what a developer writes where the scaffold says TODO (then the remaining markers go)
FILLED = [('"torch.TODO"', '"torch.abs"'), ("torch.TODO(x)", "torch.abs(x)"),
          ("numpy.TODO(x)", "numpy.abs(x)"), ('"mindspore.TODO"', '"mindspore.ops.abs"'),
          ('"TODO: the example as the fix writes it"', repr(FIXED)),
          ("TODO title", "Absolute value"), ("TODO 标题", "绝对值")]


def files(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*"))
            if path.is_file() and "__pycache__" not in path.parts}


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    """A copy of the package (and an empty tests/rules) the scaffold writes into."""
    root = tmp_path_factory.mktemp("checkout")
    shutil.copytree(ROOT / "server" / "msmigrate", root / "server" / "msmigrate",
                    ignore=shutil.ignore_patterns("__pycache__", "_data"))
    (root / "tests" / "rules").mkdir(parents=True)
    return root


def run(root: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root / "server"), "MSMIGRATE_DATA_DIR": str(data_dir()),
           "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, *args], cwd=cwd or root, env=env, capture_output=True, text=True,
                          timeout=300)


def test_a_new_rule_with_a_fix_is_two_new_files(checkout: Path, tmp_path: Path):
    before = files(checkout)
    done = run(checkout, "-m", "msmigrate", "dev", "new-rule", "MSM599", "call_abs", "--family", "framework",
               "--fix", "--root", str(checkout))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == [f"Wrote {MODULE}", f"Wrote {TEST}"]
    after = files(checkout)
    assert sorted(set(after) - set(before)) == sorted([str(MODULE), str(TEST)])
    assert {name: after[name] for name in before} == before  # nothing else written
    # the texts, the APIs and the fixed example are the developer's to write: the i18n test refuses TODO
    for relative in (MODULE, TEST):
        path = checkout / relative
        text = path.read_text(encoding="utf-8")
        assert "TODO" in text
        for old, new in FILLED:
            text = text.replace(old, new)
        path.write_text(re.sub(r"TODO:? ?", "", text), encoding="utf-8")

    listed = run(checkout, "-m", "msmigrate", "rules", "--json")
    assert listed.returncode == 0, listed.stderr
    rule = next(item for item in json.loads(listed.stdout)["rules"] if item["id"] == "MSM599")
    assert (rule["title"], rule["fixable"]) == ({"en": "Absolute value", "zh": "绝对值"}, True)

    example = tmp_path / "project" / "example.py"
    example.parent.mkdir()
    example.write_text("import torch\n\ny = torch.abs(x)\n", encoding="utf-8")
    scanned = run(checkout, "-m", "msmigrate", "scan", "--format", "json", str(example.parent))
    found = [(f["line"], f["column"], f["rule"]) for item in json.loads(scanned.stdout)["files"]
             for f in item["findings"]]
    assert found == [(3, 5, "MSM599")]
    fixed = run(checkout, "-m", "msmigrate", "fix", str(example.parent))  # safe fixes only
    assert fixed.returncode == 0, fixed.stderr
    assert example.read_text(encoding="utf-8") == FIXED

    generated = run(checkout, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(TEST), cwd=checkout)
    assert generated.returncode == 0, generated.stdout
    assert "2 passed" in generated.stdout


@pytest.mark.parametrize(("args", "key"), [
    (("MSM59", "x", "framework"), "dev.new_rule.bad_id"),
    (("MSM599", "Bad-Name", "framework"), "dev.new_rule.bad_name"),
    (("MSM599", "x", "idioms"), "dev.new_rule.bad_family"),
    (("MSM399", "x", "framework"), "dev.new_rule.wrong_family"),
    (("MSM515", "again", "framework"), "dev.new_rule.taken"),
])
def test_the_scaffold_refuses_what_it_cannot_write(args, key):
    rule_id, name, family = args
    with pytest.raises(ScaffoldError) as raised:
        new_rule(ROOT, rule_id, name, family, fix=False)
    assert raised.value.key == key
