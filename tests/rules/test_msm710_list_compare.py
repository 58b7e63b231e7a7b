"""MSM710: a list compared with a number in code GRAPH_MODE compiles (met by ``msmigrate compare`` on
efficientnet_pytorch's MBConvBlock: ``self._block_args.stride == 1`` with ``stride=[1]``, guarding
``x = x + inputs``). Flagged in torch ``forward`` and MindSpore ``construct`` where the file shows the list;
the last test compiles a minimal reproduction of each form under MindSpore 2.10: every form runs in PyNative
mode without taking the branch; the flagged ones stop GRAPH_MODE at the branch's ``Add`` except the one form
MindSpore works out (``if self.stride == 1:``), the others (an element, a tuple, ``len``) compile."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from graph_probe import compile_net, needs_mindspore

from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.rules.graph._family import graph_findings
from msmigrate.scan import ScanOptions, scan_paths
from msmigrate.scan.runner import project_index

TORCH = """import collections
import torch.nn as nn

Args = collections.namedtuple("Args", ["stride"])


def decode():
    return Args(stride=[1])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stride = [1]
        self.pair = (1,)
        self.args = decode()

    def forward(self, x):
        y = x[:, :2]
{body}
        return y
"""
MS = TORCH.replace("import torch.nn as nn", "import mindspore.nn as nn").replace(
    "(nn.Module)", "(nn.Cell)").replace("def forward(", "def construct(")

# the test guarding ``y = y + x`` (shapes (2, 2) and (2, 3): only a branch never compiled lets it pass)
# -> (flagged, compiles in GRAPH_MODE)
BODIES: dict[str, tuple[bool, bool]] = {
    "if 1 == self.stride:": (True, False),
    "if self.args.stride == 1:": (True, False),  # a namedtuple field the file builds with a list (effnet)
    "s = [1]\nif s == 1:": (True, False),
    "same = self.stride == 1\nif same:": (True, False),
    # MindSpore 2.10 works this one form out (a cell's own list attribute, left of ==, in the if itself);
    # flagged all the same: always False in Python, and any other spelling of it stops GRAPH_MODE
    "if self.stride == 1:": (True, True),
    "if self.stride[0] == 2:": (False, True),
    "if self.pair == 1:": (False, True),
    "if len(self.stride) == 2:": (False, True),
    "if self.stride == [2]:": (False, True),
}


def _source(head: str, body: str) -> str:
    return head.format(body=textwrap.indent(body + "\n    y = y + x", " " * 8))


def _flagged(findings) -> list[tuple[str, str]]:  # noqa: ANN001
    return [(f.message_args["expr"], f.message_args["function"]) for f in findings if f.rule == "MSM710"]


def _expr(body: str) -> str:
    return next(line for line in body.splitlines() if "==" in line).removeprefix("if ").removesuffix(":") \
        .removeprefix("same = ")


@pytest.mark.parametrize("body", list(BODIES))
def test_forward_of_a_torch_module(analyze, body: str) -> None:  # noqa: ANN001
    found = _flagged(analyze(_source(TORCH, body)).findings)
    assert found == ([(_expr(body), "Net.forward")] if BODIES[body][0] else [])


@pytest.mark.parametrize("body", list(BODIES))
def test_construct_of_a_mindspore_cell(body: str) -> None:
    found = _flagged(graph_findings(_source(MS, body), "m.py", get_knowledge_base("2.6")))
    assert found == ([(_expr(body), "Net.construct")] if BODIES[body][0] else [])


def test_message_in_both_languages(analyze) -> None:  # noqa: ANN001
    (finding,) = [f for f in analyze(_source(TORCH, "if self.stride == 1:")).findings if f.rule == "MSM710"]
    assert (finding.line, finding.column, finding.end_column) == (20, 12, 28)
    assert finding.message("en") == (
        "self.stride == 1 in Net.forward compares a list with 1: always False in Python, and GRAPH_MODE "
        "may compile the branch it guards too (it stops where that branch's shapes disagree); compare an "
        "element or keep an int or a tuple"
    )
    assert finding.message("zh") == (
        "Net.forward 中的 self.stride == 1 将列表与 1 比较：在 Python 中总为 False，而 GRAPH_MODE 可能会把它"
        "所控制的分支也一并编译（该分支形状不一致时编译失败）；请比较其中的元素，或保存为 int 或元组"
    )


@pytest.mark.slow
@needs_mindspore
@pytest.mark.parametrize("body", list(BODIES))
def test_every_flagged_form_but_one_fails_to_compile_and_every_other_compiles(tmp_path, body: str) -> None:  # noqa: ANN001
    refused = "For 'Add', input1.shape and input2.shape need to broadcast. The value of input1.shape[3] or " \
        "input2.shape[3] must be 1 or -1 when they are not the same, but got input1.shape = [2, 2] and " \
        "input2.shape = [2, 3]"
    assert compile_net(tmp_path, _source(MS, body)) == {
        "pynative": [2, 2], "graph": [2, 2] if BODIES[body][1] else refused}


# --- a field built as a list in another file of the project (efficientnet: utils.py builds, model.py
# compares) ----------------------------------------------------------------------------------------
FIELDS = """import collections

Args = collections.namedtuple("Args", ["stride", "filters"])


def decode():
    return Args(stride=[1], filters=2)
"""
# the torch side of a two-file project: the field is read from the object another file builds
TORCH_BLOCK = """import torch.nn as nn

from fields import decode


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.args = decode()
        self.stride = 1

    def forward(self, x):
        y = x[:, :2]
{body}
        return y
"""
MS_BLOCK = TORCH_BLOCK.replace("import torch.nn as nn", "import mindspore.nn as nn").replace(
    "(nn.Module)", "(nn.Cell)").replace("def forward(", "def construct(")
# -> (flagged, compiles in GRAPH_MODE); Python: [1] == 1 is False, so y + x never runs (shapes (2, 2), (2, 3))
FIELD_BODIES: dict[str, tuple[bool, bool]] = {
    "if self.args.stride == 1:": (True, False),
    "if self.args.filters == 2 and self.args.stride == 1:": (True, False),
    "if self.args.stride[0] == 2:": (False, True),
    # the class's own attribute is an int: another file's list field of that name does not make it one
    "if self.stride == 2:": (False, True),
}


def _project(folder: Path, head: str, body: str) -> Path:
    (folder / "fields.py").write_text(FIELDS, encoding="utf-8")
    (folder / "case.py").write_text(_source(head, body), encoding="utf-8")
    return folder


def _scan_findings(folder: Path) -> list[tuple[int, int, str, str]]:
    report = scan_paths([folder], ScanOptions(use_cache=False, jobs=1, mindspore_version="2.6"))
    return [(f.line, f.column, f.message("en"), f.message("zh"))
            for file, f in report.findings() if f.rule == "MSM710" and file.path == "case.py"]


@pytest.mark.parametrize("body", list(FIELD_BODIES))
def test_a_field_another_file_builds_as_a_list(tmp_path: Path, body: str) -> None:
    found = _scan_findings(_project(tmp_path, TORCH_BLOCK, body))
    assert [(line, column) for line, column, _, _ in found] == (
        [(14, 9 + body.index("self.args.stride"))] if FIELD_BODIES[body][0] else [])


def test_the_message_says_where_the_project_builds_the_list(tmp_path: Path) -> None:
    [(line, column, en, zh)] = _scan_findings(_project(tmp_path, TORCH_BLOCK, "if self.args.stride == 1:"))
    assert (line, column) == (14, 12)
    assert en == (
        "self.args.stride == 1 in Net.forward compares stride, which fields.py builds as a list, with 1: a "
        "list never equals 1 in Python, so the test is False wherever stride holds such a list, and "
        "GRAPH_MODE may compile the branch it guards too (it stops where that branch's shapes disagree); "
        "build it as a tuple there (a tuple compares as the list does, and GRAPH_MODE works that comparison "
        "out) or compare what is meant"
    )
    assert zh == (
        "Net.forward 中的 self.args.stride == 1 将 stride（fields.py 将其构造为列表）与 1 比较："
        "在 Python 中列表永远不等于 1，因此只要 stride 是这样的列表，该判断就为 False，"
        "而 GRAPH_MODE 可能会把它所控制的分支也一并编译（该分支形状不一致时编译失败）；"
        "请在该处将其构造为元组（元组的比较结果与列表相同，且 GRAPH_MODE 能在编译时算出该比较），"
        "或改为比较真正想比较的值"
    )


def test_a_field_the_project_also_builds_otherwise_is_still_flagged(tmp_path: Path) -> None:
    """efficientnet's repeated blocks get ``_replace(stride=1)``: the test is True for them, so the message
    says "wherever stride holds such a list", never "always"."""
    folder = _project(tmp_path, TORCH_BLOCK, "if self.args.stride != 1:")
    (folder / "more.py").write_text("from fields import decode\nrepeat = decode()._replace(stride=1)\n",
                                    encoding="utf-8")
    [(_, _, en, _)] = _scan_findings(folder)
    assert "so the test is True wherever stride holds such a list" in en and "always" not in en


def test_no_finding_without_the_file_that_builds_the_list(tmp_path: Path) -> None:
    (tmp_path / "case.py").write_text(_source(TORCH_BLOCK, "if self.args.stride == 1:"), encoding="utf-8")
    (tmp_path / "fields.py").write_text(FIELDS.replace("stride=[1]", "stride=1"), encoding="utf-8")
    assert _scan_findings(tmp_path) == []


def test_the_index_naming_this_file_is_not_read(analyze) -> None:  # noqa: ANN001
    """The editor's index is built once per settings generation: a file that built the list then and no
    longer does is not flagged for it."""
    source = _source(TORCH_BLOCK, "if self.args.stride == 1:")
    assert _flagged(analyze(source, "pkg/case.py", project_fields=(("stride", "list", "pkg/case.py"),))
                    .findings) == []
    assert _flagged(analyze(source, "pkg/case.py", project_fields=(("stride", "list", "pkg/fields.py"),))
                    .findings) == [("self.args.stride == 1", "Net.forward")]


def test_a_field_this_file_builds_names_its_line(analyze) -> None:  # noqa: ANN001
    source = _source(TORCH, "if self.args.stride == 1:")
    (finding,) = [f for f in analyze(source).findings if f.rule == "MSM710"]
    assert finding.message("en").startswith(
        "self.args.stride == 1 in Net.forward compares stride, which line 8 of this file builds as a list, "
        "with 1: a list never equals 1 in Python, so the test is False wherever stride holds such a list")
    assert finding.message("zh").startswith(
        "Net.forward 中的 self.args.stride == 1 将 stride（本文件第 8 行将其构造为列表）与 1 比较")


@pytest.mark.parametrize("stride", ["[1]", "1"])
def test_compare_places_a_graph_failure_on_a_field_another_file_builds(tmp_path: Path, stride: str) -> None:
    """``msmigrate compare`` names the rule of the failing line with the fields of the file's package (the
    frames as MindSpore 2.10 writes them for this project's GRAPH_MODE failure, the If then the Add)."""
    from msmigrate.compare.graph_errors import place

    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    _project(package, MS_BLOCK, "if self.args.filters == 2 and self.args.stride == 1:")
    (package / "fields.py").write_text(FIELDS.replace("stride=[1]", f"stride={stride}"), encoding="utf-8")
    case = package / "case.py"
    message = (
        "For 'Add', input1.shape and input2.shape need to broadcast.\n"
        "- The Traceback of Net Construct Code:\n"
        f"# 0 In file {case}:14~15, 8~21\n        if self.args.filters == 2 and self.args.stride == 1:\n"
        f"# 1 In file {case}:15, 16~21\n            y = y + x\n")
    error = place({"type": "ValueError", "message": message})
    # no rule: the innermost frame, the Add
    assert (error.file, error.line, error.end_line, error.rule) == (
        (str(case), 14, 15, "MSM710") if stride == "[1]" else (str(case), 15, 15, None))


@pytest.mark.slow
@needs_mindspore
@pytest.mark.parametrize("body", list(FIELD_BODIES))
def test_a_field_another_file_builds_fails_to_compile_where_flagged(tmp_path: Path, body: str) -> None:
    refused = "For 'Add', input1.shape and input2.shape need to broadcast. The value of input1.shape[3] or " \
        "input2.shape[3] must be 1 or -1 when they are not the same, but got input1.shape = [2, 2] and " \
        "input2.shape = [2, 3]"
    (tmp_path / "fields.py").write_text(FIELDS, encoding="utf-8")
    assert compile_net(tmp_path, _source(MS_BLOCK, body)) == {
        "pynative": [2, 2], "graph": [2, 2] if FIELD_BODIES[body][1] else refused}
    fields = project_index([tmp_path]).fields
    found = _flagged(graph_findings(_source(MS_BLOCK, body), str(tmp_path / "case.py"),
                                    get_knowledge_base("2.6"), fields))
    assert found == ([("self.args.stride == 1", "Net.construct")] if FIELD_BODIES[body][0] else [])


@pytest.mark.parametrize(("path", "rel", "shown"), [
    ("site/effnet/model.py", "site/effnet/utils.py", "utils.py"),  # a scan: both relative to its root
    ("/home/me/ws/effnet/model.py", "effnet/utils.py", "utils.py"),  # the editor: the document's own path
    ("effnet/model.py", "other/utils.py", "other/utils.py"),
    ("effnet/model.py", "utils.py", "utils.py"),
])
def test_the_file_is_named_from_the_analysed_one(analyze, path: str, rel: str, shown: str) -> None:  # noqa: ANN001
    source = _source(TORCH_BLOCK, "if self.args.stride == 1:")
    (finding,) = [f for f in analyze(source, path, project_fields=(("stride", "list", rel),)).findings
                  if f.rule == "MSM710"]
    assert finding.message_args["file"] == shown


@pytest.mark.slow
@needs_mindspore
def test_the_field_built_as_a_tuple_compiles_with_the_same_result(tmp_path: Path) -> None:
    """What the field variant advises: a tuple never equals a number either, and GRAPH_MODE settles the
    comparison while compiling (the branch is left out, as in Python)."""
    body = "if self.args.filters == 2 and self.args.stride == 1:"
    (tmp_path / "fields.py").write_text(FIELDS.replace("stride=[1]", "stride=(1,)"), encoding="utf-8")
    assert compile_net(tmp_path, _source(MS_BLOCK, body)) == {"pynative": [2, 2], "graph": [2, 2]}
    assert _flagged(graph_findings(_source(MS_BLOCK, body), str(tmp_path / "case.py"),
                                   get_knowledge_base("2.6"), project_index([tmp_path]).fields)) == []
