"""The comparison as the editor shows it without a webview (``compare/markdown.py``: the Markdown page the
language server writes) and as one line (``report.summary_line``): every mode's figures, the first
divergence in bold, a GRAPH_MODE failure linked to its line, and names from the user's code escaped so
that none can break the table, a code span or a link. No framework is needed: the report is built here."""

from __future__ import annotations

from pathlib import Path

from msmigrate.compare.config import find_config
from msmigrate.compare.graph_errors import GraphError
from msmigrate.compare.markdown import cell_code, code, link_target, render_markdown, text
from msmigrate.compare.report import CompareReport, ModeResult, summary_line


def _row(name: str, status: str, max_abs: float | None, call: int = 0, ms_class: str | None = "Dense",
         alone: float | None = None) -> dict:
    row = {"name": name, "mindspore_name": name, "call": call, "torch_class": "Linear", "shapes": [[2, 3]],
           "status": status, "reason": None, "max_abs": max_abs, "max_rel": max_abs, "detail": None,
           "mindspore_class": ms_class}
    if alone is not None:  # run alone on torch's input (compare/worker_alone.py)
        verdict = "diverge" if status == "diverge" else "match"
        row["alone"] = {"status": verdict, "reason": None, "max_abs": alone, "max_rel": alone, "detail": None}
    return row


def _report(folder: Path) -> CompareReport:
    outputs = {"status": "diverge", "reason": "values", "max_abs": 0.5, "max_rel": 0.25, "detail": None}
    pynative = ModeResult(
        "pynative",
        outputs,
        [
            _row("fc|1", "match", 1e-7),
            _row("act", "accumulated", 3e-4, alone=1e-7),
            _row("`head`", "diverge", 0.5, alone=0.25),
            _row("<b>x</b>", "missing", None, call=1, ms_class=None),
            _row("", "downstream", 0.5),
        ],
        {
            "loss": {"torch": 1.5, "mindspore": 1.25, "status": "diverge", "max_abs": 0.25},
            "gradients": [
                {"torch": "fc.weight", "mindspore": "fc.weight", "status": "match", "max_abs": 1e-8},
                {"torch": "fc.bias", "mindspore": "fc.bias", "status": "diverge", "max_abs": 0.125},
            ],
            "updated": [
                {"torch": "fc.weight", "mindspore": "fc.weight", "status": "match", "max_abs": 2e-8},
            ],
        },
    )
    failure = GraphError("Only support jit_class instance](javascript:alert(1))", "TypeError",
                         str(folder / "my models" / "n(1).py"), 12, 13, "with warnings.catch_warnings():",
                         "MSM702")
    graph = ModeResult("graph", graph_error=failure)
    return CompareReport("tiny | net", f"{folder}/t.py:Net()", f"{folder}/m.py:Net()", ["[2, 3] float32"],
                         None, 1e-4, 1e-4, modes=[pynative, graph])


def test_the_markdown_page_escapes_what_comes_from_the_models(tmp_path: Path) -> None:
    page = render_markdown(_report(tmp_path), "en", base=tmp_path / ".msmigrate")
    assert page.splitlines() == [
        r"# Compare tiny \| net: the models DIFFER",
        "",
        f"- torch model: `{tmp_path}/t.py:Net()`",
        f"- migrated model: `{tmp_path}/m.py:Net()`",
        "- weights: the torch model's initial ones (seeded; normalization statistics randomized), converted; "
        r"inputs: \[2, 3\] float32; eval mode; rtol 0.0001, atol 0.0001",
        "",
        "| mode | outputs | max abs error | max rel error | first layer that differs by its own error | "
        "training step |",
        "| --- | --- | --- | --- | --- | --- |",
        "| PyNative | DIFFER | 5.00e-01 | 2.50e-01 | `` `head` `` | DIFFER |",
        "| GRAPH_MODE | does not compile | - | - | - | - |",
        "",
        "## PyNative",
        "",
        "PyNative: outputs DIFFER (max abs error 5.00e-01, max rel error 2.50e-01)",
        "",
        "training step: DIFFER; loss torch 1.5, MindSpore 1.25; 2 gradients, max abs error 1.25e-01; updated "
        "weights max abs error 2.00e-08",
        "- gradient of `fc.bias`: max abs error 1.25e-01 (DIFFER)",
        "",
        "5 layer outputs compared: 3 differ in the whole model, 1 have no MindSpore cell of that name",
        "",
        r"1 of them differ only through their input \(float32 rounding carried from earlier layers, not a "
        r"divergence\): run alone on torch's input of that call, each is within the tolerance: act \(max abs "
        r"error 3.00e-04, alone 1.00e-07\)",
        "",
        "**first layer that differs by its own error: `` `head` `` (call 1; torch Linear, MindSpore Dense): "
        "max abs error 5.00e-01 in the whole model, 2.50e-01 alone on torch's input (DIFFER)**",
        "",
        "### PyNative: every layer, in the order torch finished them",
        "",
        "| # | layer | torch | MindSpore | max abs | max rel | status |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        r"| 1 | `fc\|1` | Linear | Dense | 1.00e-07 | 1.00e-07 | match |",
        r"| 2 | `act` | Linear | Dense | 3.00e-04 | 3.00e-04 | from its input \(alone 1.00e-07\) |",
        "| **3** | **`` `head` ``** | **Linear** | **Dense** | **5.00e-01** | **5.00e-01** | "
        r"**DIFFER \(alone 2.50e-01\)** ⟵ first divergence |",
        "| 4 | `<b>x</b> #2` | Linear | - | - | - | missing in MindSpore |",
        "| 5 | `(model)` | Linear | Dense | 5.00e-01 | 5.00e-01 | differs, after the first |",
        "",
        "## GRAPH_MODE",
        "",
        r"GRAPH_MODE: the migrated model does not compile: Only support jit\_class instance\]"
        r"\(javascript:alert\(1\)\)",
        "",
        r"- at [n\(1\).py:12](../my%20models/n%281%29.py#L12): `with warnings.catch_warnings():`",
        "- rule MSM702 flags this line statically (msmigrate scan, the editor)",
    ]


def test_a_pipe_inside_a_code_span_of_a_table_row():
    # GitHub-flavoured tables split cells at "|" even inside code spans: the layer cell escapes it
    assert text("a|b") == r"a\|b" and cell_code("a|b") == r"`a\|b`"
    assert code("a`b") == "``a`b``" and code("`x`") == "`` `x` ``"


def test_links_to_files_without_a_base_are_file_uris(tmp_path: Path) -> None:
    assert link_target(str(tmp_path / "a b.py"), 3, None) == (tmp_path / "a b.py").as_uri() + "#L3"
    assert link_target(str(tmp_path / "m.py"), None, tmp_path / ".msmigrate") == "../m.py"


def test_summary_line_in_both_languages(tmp_path: Path) -> None:
    report = _report(tmp_path)
    assert summary_line(report, "en") == (
        "Compare tiny | net: the models DIFFER — PyNative: outputs DIFFER (max abs error 5.00e-01), "
        "first layer that differs by its own error `head`, training step DIFFER; GRAPH_MODE: does not "
        "compile (n(1).py:12)"
    )
    assert summary_line(report, "zh") == (
        "比较 tiny | net：两个模型不一致 —— PyNative：输出不一致（最大绝对误差 5.00e-01），"
        "第一个因自身误差而不一致的层 `head`，训练步骤不一致；GRAPH_MODE：无法编译（n(1).py:12）"
    )
    report.error = ("compare.error.cancelled", {})
    assert summary_line(report, "zh") == "比较 tiny | net：比较未能完成：比较已取消"


def test_find_config_stops_at_the_workspace_folder(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[[tool.msmigrate.compare]]\n", encoding="utf-8")
    inner = tmp_path / "ws" / "src"
    inner.mkdir(parents=True)
    assert find_config(inner) == tmp_path / "pyproject.toml"
    assert find_config(inner, top=tmp_path / "ws") is None
    assert find_config(inner, top=tmp_path / "elsewhere") is None
    (tmp_path / "ws" / "pyproject.toml").write_text("[[tool.msmigrate.compare]]\n", encoding="utf-8")
    assert find_config(inner, top=tmp_path / "ws") == tmp_path / "ws" / "pyproject.toml"
