"""The fields a project builds, by value form (``analysis/project_fields.py``): what one file builds, the
project's index over files, and the index as the scan and the language server's helper build it."""

from __future__ import annotations

import ast
from pathlib import Path

from msmigrate.analysis.project_fields import built_as, built_fields, field_index, file_fields, well_formed
from msmigrate.scan.runner import project_index

SOURCE = """import collections
Args = collections.namedtuple("Args", ["stride", "size", "pad"])
a = Args(stride=[1], size=(1,), pad=1)
b = a._replace(
    stride=list(range(2)), size=[s for s in (1, 2)],
)
obj.kernel = [3]
self.widths: list = [1, 2]
local = [1]
x, y = [1, 2]
f(*[1], **{"k": [2]})


def g(depth=[1]):
    pass
"""


def test_what_one_file_builds_as_a_list() -> None:
    # keywords of calls (a namedtuple's constructor, _replace), attribute assignments (annotated too);
    # not a local name, an unpacking, a starred argument, a dict value, a parameter's default
    assert built_fields(ast.parse(SOURCE)) == [
        ["stride", "list", 3], ["size", "list", 5], ["stride", "list", 5], ["kernel", "list", 7],
        ["widths", "list", 8],
    ]
    assert file_fields(SOURCE) == built_fields(ast.parse(SOURCE))
    assert well_formed(file_fields(SOURCE))


def test_a_file_without_a_candidate_or_that_does_not_parse_builds_nothing() -> None:
    assert file_fields("stride = [1]\nargs = Args(stride=1)\n") == []
    assert file_fields("f(stride=[1]\n") == []  # a syntax error
    assert not well_formed([["stride", "list", "3"]]) and not well_formed({"stride": "list"})


def test_the_index_names_the_first_file_by_path() -> None:
    index = field_index([("pkg/utils.py", [["stride", "list", 9]]), ("pkg/b.py", [["stride", "list", 2]]),
                         ("pkg\\c.py", [["kernel", "list", 1]])])
    assert index == (("kernel", "list", "pkg/c.py"), ("stride", "list", "pkg/b.py"))
    assert built_as(index, "list") == {"kernel": "pkg/c.py", "stride": "pkg/b.py"}
    assert built_as(index, "tuple") == {}


def test_project_index_of_a_folder(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "utils.py").write_text(SOURCE, encoding="utf-8")
    (package / "model.py").write_text("import torch.nn as nn\nclass Net(nn.Module):\n    pass\n",
                                      encoding="utf-8")
    index = project_index([tmp_path])
    assert index.fields == (("kernel", "list", "pkg/utils.py"), ("size", "list", "pkg/utils.py"),
                            ("stride", "list", "pkg/utils.py"), ("widths", "list", "pkg/utils.py"))
    assert index.module_classes == frozenset({"pkg.model.Net", "model.Net"})


def test_a_deferred_index_is_built_once_when_first_read() -> None:
    from msmigrate.analysis.project_fields import DeferredIndex

    builds: list[int] = []

    def build() -> tuple[tuple[str, str, str], ...]:
        builds.append(1)
        return (("stride", "list", "utils.py"),)

    index = DeferredIndex(build)
    assert (builds, index.built) == ([], False)
    assert built_as(index, "list") == {"stride": "utils.py"}
    assert list(index) == [("stride", "list", "utils.py")]
    assert (builds, index.built) == ([1], True)

    def broken() -> tuple[tuple[str, str, str], ...]:
        raise OSError("unreadable")

    assert list(DeferredIndex(broken)) == []


def test_a_rule_reads_the_index_only_for_a_comparison_it_cannot_settle_alone(analyze) -> None:  # noqa: ANN001
    """MSM710 reads the other files' fields only for ``X.NAME == literal`` its own file does not explain:
    the editor's index is then never built for most documents."""
    from msmigrate.analysis.project_fields import DeferredIndex

    def build() -> tuple[tuple[str, str, str], ...]:
        raise AssertionError("built")

    head = "import torch.nn as nn\nclass Net(nn.Module):\n    def forward(self, x):\n"
    tail = "            return x\n        return x\n"
    for test in ("        if x:\n", "        if x.shape[0] == 1:\n", "        if self.k == 1:\n",
                 "        if [1] == 1:\n"):
        index = DeferredIndex(build)
        result = analyze(head + test + tail, project_fields=index, run_checkers=True)
        found = [f.rule for f in result.findings]
        assert result.error_key is None and result.syntax_error_line is None
        assert not index.built and found.count("MSM710") == (1 if "[1]" in test else 0), test
    index = DeferredIndex(lambda: (("k", "list", "utils.py"),))
    found = [f.rule for f in analyze(head + "        if self.cfg.k == 1:\n" + tail, project_fields=index,
                                     run_checkers=True).findings]
    assert index.built and found.count("MSM710") == 1
