"""``msmigrate dev new-rule``: the two files of a new rule (docs/ARCHITECTURE.md, "A rule").

:func:`new_rule` writes ``server/msmigrate/rules/<family>/msmNNN_<name>.py`` (the rule module: a detector of
the calls of one torch API and, with ``fix``, a fixer that writes the MindSpore API instead) and
``tests/rules/test_msmNNN_<name>.py`` (its example at its positions, its fix's exact output). Everything the
developer must decide is marked ``TODO``: the texts (``tests/core/test_i18n.py`` refuses a text with
``TODO``), the APIs, the example and the fixed example (the generated test fails until it is written).
Nothing else is edited: the rule is found by its file name.
"""

from __future__ import annotations

import re
from pathlib import Path

from msmigrate.registry import RULE_FAMILIES

_ID = re.compile(r"^MSM(\d{3})$")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class ScaffoldError(ValueError):
    """A rule that cannot be scaffolded: ``key`` and ``fields`` are its message (``messages/dev.py``)."""

    def __init__(self, key: str, **fields: object) -> None:
        super().__init__(key)
        self.key, self.fields = key, fields


def new_rule(root: Path, rule_id: str, name: str, family: str, fix: bool) -> list[Path]:
    """Write the rule module and its test file under the checkout ``root``; returns the two paths."""
    rule_id = rule_id.upper()
    match = _ID.match(rule_id)
    if match is None:
        raise ScaffoldError("dev.new_rule.bad_id", rule=rule_id)
    if not _NAME.match(name):
        raise ScaffoldError("dev.new_rule.bad_name", name=name)
    if family not in RULE_FAMILIES:
        raise ScaffoldError("dev.new_rule.bad_family", family=family, families=", ".join(RULE_FAMILIES))
    hundreds = RULE_FAMILIES[family][3]
    if match.group(1)[0] != hundreds:
        raise ScaffoldError("dev.new_rule.wrong_family", rule=rule_id, family=family,
                            ids=RULE_FAMILIES[family])
    number = match.group(1)
    folder = root / "server" / "msmigrate" / "rules" / family
    if not (folder / "__init__.py").is_file():  # a family whose rules are not moved into it yet
        raise ScaffoldError("dev.new_rule.no_family", family=family, path=str(folder.relative_to(root)))
    taken = sorted(folder.glob(f"msm{number}_*.py"))
    if taken:
        raise ScaffoldError("dev.new_rule.taken", rule=rule_id, path=str(taken[0].relative_to(root)))
    module = folder / f"msm{number}_{name}.py"
    test = root / "tests" / "rules" / f"test_msm{number}_{name}.py"
    if test.exists():
        raise ScaffoldError("dev.new_rule.taken", rule=rule_id, path=str(test.relative_to(root)))
    fields = {"ID": rule_id, "NUMBER": number, "NAME": name, "FAMILY": family, "PACKAGE": family}
    module_text = _fill(_MODULE_FIX if fix else _MODULE, fields)
    test_text = _fill(_TEST + (_TEST_FIX if fix else ""), fields)
    module.write_text(module_text, encoding="utf-8")
    test.parent.mkdir(parents=True, exist_ok=True)
    test.write_text(test_text, encoding="utf-8")
    return [module, test]


def _fill(template: str, fields: dict[str, str]) -> str:
    for key, value in fields.items():
        template = template.replace(f"@{key}@", value)
    return template


_HEAD = '''"""@ID@: TODO one line: what the rule finds.

TODO: what torch does, what MindSpore does, and why the fix is exact (or what it leaves to the user).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

'''

_IMPORTS = '''from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
'''

_BODY = '''from msmigrate.model.rule import Rule
from msmigrate.rules.support import IDIOM_TAKE_OVER, reference_range, report, tree_index

RULE = Rule("@ID@", C.FRAMEWORK_PATTERN, S.INFORMATION,  # TODO: category, severity, the MindSpore page
            "https://www.mindspore.cn/docs/en/r2.6.0/index.html"@FIXABLE@)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.@ID@.title": ("TODO title", "TODO 标题"),
    "rule.@ID@.explanation": ("TODO what to do; what the quick-fix writes", "TODO 怎么做；快速修复写什么"),
    "finding.@ID@": ("TODO {api}: what to do", "TODO {api}：怎么做"),@FIX_MESSAGE@
}

TORCH_API = "torch.TODO"  # the torch API the rule finds (its canonical name)@TARGET@

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "@ID@": (
        "import torch\\n\\ny = torch.TODO(x)\\n",  # the example: the rule finds it
        "import numpy\\n\\ny = numpy.TODO(x)\\n",  # the counter-example: the rule finds nothing
        [(3, 5)],  # (line, column) of each finding in the example
    ),
}


def detect(ctx) -> Iterable[Finding]:
    """The calls of ``TORCH_API``, however the file spells it (the API finding there becomes this rule's)."""
    found = []
    for call in tree_index(ctx).nodes(ast.Call):
        written = ctx.qualified_name(call.func)
        if written and ctx.kb.canonical(written) == TORCH_API:
            finding = report(ctx, RULE, reference_range(ctx, call.func), "finding.@ID@", {"api": TORCH_API},
                             apis=[TORCH_API, written], convertible=IDIOM_TAKE_OVER,
                             @FIXABLE_ARG@torch_api=TORCH_API)
            if finding is not None:
                found.append(finding)
    return found
'''

_MODULE = _HEAD + _IMPORTS + _BODY.replace("@FIXABLE@", "").replace("@FIX_MESSAGE@", "").replace(
    "@TARGET@", "").replace("@FIXABLE_ARG@", "") + '''

FIXERS = ()
'''

_MODULE_FIX = _HEAD + '''from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
''' + _IMPORTS + '''from msmigrate.model.resolution import Safety
''' + _BODY.replace("@FIXABLE@", ", fixable=True").replace(
    "@FIX_MESSAGE@", '''\n    "fix.@NAME@.call": ("TODO Call {target}", "TODO 调用 {target}"),''').replace(
    "@TARGET@", '''\nTARGET = "mindspore.TODO"  # the MindSpore API the fix writes instead''').replace(
    "@FIXABLE_ARG@", "fixable=True, ") + '''

def call_target(ctx: FixContext, finding: Finding) -> Fix | None:
    """``torch.X(...)`` → ``mindspore.Y(...)``: the called name replaced, the arguments kept."""
    call = ctx.call_of(finding)
    if call is None:
        return None
    name, import_edits = ctx.mindspore_reference(TARGET, finding.line)
    edit = TextEdit(*ctx.node_range(call.func), name)
    return Fix("@ID@", "fix.@NAME@.call", [edit, *import_edits], {"target": TARGET})


FIXERS = (call_target,)
FIX_SAFETY = Safety.SAFE  # TODO: Safety.SAFE only when the rewrite cannot change what the code computes
'''

_TEST = '''"""@ID@ (``rules/@FAMILY@/msm@NUMBER@_@NAME@.py``): its example is found where it says, its
counter-example is not; TODO: the rule's own variants."""

from __future__ import annotations

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.rules.@PACKAGE@ import msm@NUMBER@_@NAME@ as module

EXAMPLE, COUNTER_EXAMPLE, POSITIONS = module.EXAMPLES[module.RULE.id]


def findings(source: str) -> list:
    kb = get_knowledge_base("2.6", derived=False)
    result = analyze_source(source, "example.py", kb, AnalysisOptions(use_jedi=False))
    return [finding for finding in result.findings if finding.rule == module.RULE.id]


def test_the_example_is_found_at_its_positions_and_the_counter_example_is_not():
    assert [(finding.line, finding.column) for finding in findings(EXAMPLE)] == POSITIONS
    assert findings(COUNTER_EXAMPLE) == []
'''

_TEST_FIX = '''

FIXED = "TODO: the example as the fix writes it"


def test_the_fix_writes_the_example_exactly_with_its_declared_safety():
    from msmigrate.fixes.api import fix_all
    from msmigrate.fixes.safety import is_safe
    from msmigrate.model.resolution import Safety

    kb = get_knowledge_base("2.6", derived=False)
    fixed, applied = fix_all(EXAMPLE, "example.py", kb, AnalysisOptions(use_jedi=False),
                             accept=lambda finding, fix: finding.rule == module.RULE.id)
    assert [fix.rule for fix in applied if fix.rule != "imports"] == [module.RULE.id] * len(POSITIONS)
    assert fixed == FIXED
    safe = module.FIX_SAFETY is Safety.SAFE
    assert [is_safe(finding, kb) for finding in findings(EXAMPLE)] == [safe] * len(POSITIONS)
'''
