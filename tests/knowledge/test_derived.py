"""Derived mappings below the official tables: generation, evidence, checks, and what users see."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.analysis.categorize import _categorize
from msmigrate.datagen.derive import derive_all
from msmigrate.datagen.derive_candidates import counterpart_names
from msmigrate.datagen.derive_signature import compare_signatures
from msmigrate.knowledge.base import VERSIONS, get_knowledge_base
from msmigrate.knowledge.derived import NO_KERNEL, load_derived
from msmigrate.knowledge.lookup import lookup
from msmigrate.knowledge.missing_advice import advice_for
from msmigrate.knowledge.model import DefaultDifference, MappingCategory
from msmigrate.knowledge.stats import derived_stats
from msmigrate.model.finding import FindingCategory
from msmigrate.paths import data_dir

VIEW_PROVENANCE = (
    "Not in the MindSpore 2.6 mapping table; derived: in the official mapping of MindSpore 2.4, 2.3, 1.10; "
    "counterpart in MindSpore 2.10 with the same parameters; verified on CPU."
)


def test_regeneration_is_byte_identical(tmp_path: Path) -> None:
    written = derive_all(tmp_path)
    assert [p.name for p in written] == [f"derived-{v}.json" for v in VERSIONS]
    for path in written:
        assert path.read_bytes() == (data_dir() / path.name).read_bytes(), path.name


def test_tensor_view_is_derived_under_2_6() -> None:
    kb = get_knowledge_base("2.6")
    assert kb.row("torch.Tensor.view") is None
    derived = kb.derived("torch.Tensor.view")
    assert derived is not None
    assert (derived.mindspore_api, derived.tables, derived.by_name, derived.signature, derived.check) == (
        "mindspore.Tensor.view",
        ("2.4", "2.3", "1.10"),
        True,
        "same",
        "pass",
    )
    assert kb.mapping("torch.Tensor.view") is derived.row
    verdict = _categorize("torch.Tensor.view", kb)
    assert (verdict.category, verdict.rule, verdict.mindspore_api) == (
        FindingCategory.CONSISTENT,
        "MSM100",
        "mindspore.Tensor.view",
    )


def test_nn_module_is_no_longer_missing_under_2_6() -> None:
    kb = get_knowledge_base("2.6")
    verdict = _categorize("torch.nn.Module", kb)
    assert (verdict.category, verdict.rule, verdict.mindspore_api, verdict.message_key) == (
        FindingCategory.CONSISTENT,
        "MSM100",
        "mindspore.nn.Cell",
        "analysis.api.derived_consistent",
    )
    assert advice_for("torch.nn.Module", kb) is None  # no "has no mapping; equivalent replacement" advice
    result = analyze_source("import torch\n\nclass Net(torch.nn.Module):\n    pass\n", "m.py", kb)
    module = [f for f in result.findings if f.torch_api == "torch.nn.Module"]
    assert [(f.rule, f.mindspore_api) for f in module] == [("MSM100", "mindspore.nn.Cell")]
    assert module[0].message("en") == (
        "torch.nn.Module → mindspore.nn.Cell: same behaviour; replacing the name is enough. Not in the "
        "MindSpore 2.6 mapping table; derived: in the official mapping of MindSpore 1.10; counterpart in "
        "MindSpore 2.10 with the same parameters."
    )


def _write_derived(folder: Path, checks: dict[str, dict[str, str]]) -> None:
    def candidate(target: str, signature: str = "same") -> dict:
        row = {"torch_api": "torch.foo", "mindspore_api": target, "category": "consistent"}
        return {"row": row, "tables": [], "by_name": True, "signature": signature}

    document = {
        "schema_version": 1,
        "mapping_table": "2.6",
        "mindspore_version": "2.10.0",
        "mappings": {
            "torch.foo": {"replaces": None, "candidates": [candidate("mindspore.mint.foo"),
                                                           candidate("mindspore.ops.foo")]},
            "torch.bar": {"replaces": "mindspore.nn.Bar", "candidates": []},
        },
        "excluded": {},
    }
    (folder / "derived-2.6.json").write_text(json.dumps(document), encoding="utf-8")
    (folder / "verified-derived-CPU.json").write_text(
        json.dumps({"counts": {"pass": 1, "fail": 1}, "results": checks}), encoding="utf-8"
    )


def test_a_candidate_failing_the_numeric_check_is_not_offered(tmp_path: Path) -> None:
    failed = {"status": "fail", "reason": "value_mismatch"}
    _write_derived(tmp_path, {"torch.foo -> mindspore.mint.foo": failed,
                              "torch.foo -> mindspore.ops.foo": {"status": "pass"}})
    table = load_derived("2.6", tmp_path)
    offered = table.offered("torch.foo")
    assert offered is not None and (offered.mindspore_api, offered.check) == ("mindspore.ops.foo", "pass")
    _write_derived(tmp_path, {"torch.foo -> mindspore.mint.foo": {"status": "fail"},
                              "torch.foo -> mindspore.ops.foo": {"status": "fail"}})
    assert load_derived("2.6", tmp_path).offered("torch.foo") is None
    assert derived_stats("2.6", tmp_path)["not_offered_failed_check"] == 1
    assert table.gone_target("torch.bar") == "mindspore.nn.Bar" and table.offered("torch.bar") is None


def test_failing_candidate_in_the_committed_data_is_not_offered() -> None:
    """``torch.linalg.inv`` → ``mindspore.ops.inv`` (a reciprocal, not a matrix inverse) fails on CPU."""
    checks = json.loads((data_dir() / "verified-derived-CPU.json").read_text(encoding="utf-8"))["results"]
    assert checks["torch.linalg.inv -> mindspore.ops.inv"]["status"] == "fail"
    kb = get_knowledge_base("2.4")
    entry = kb.derived_table.entry("torch.linalg.inv")
    assert entry is not None and "mindspore.ops.inv" in [c.mindspore_api for c in entry.candidates]
    offered = kb.derived("torch.linalg.inv")
    assert offered is None or offered.mindspore_api != "mindspore.ops.inv"


def test_gone_target_points_to_its_derived_replacement() -> None:
    kb = get_knowledge_base("2.4")
    assert kb.row("torch.nn.Hardswish").mindspore_api == "mindspore.nn.Hswish"
    assert kb.gone_target("torch.nn.Hardswish") == "mindspore.nn.Hswish"
    verdict = _categorize("torch.nn.Hardswish", kb)
    assert verdict.mindspore_api == "mindspore.mint.nn.Hardswish"
    result = lookup("nn.Hardswish", kb)
    assert result.gone_target == "mindspore.nn.Hswish" and result.to_json()["source"] == "derived"
    assert result.notes("en")[1] == (
        "The MindSpore 2.4 mapping table maps it to mindspore.nn.Hswish, which MindSpore 2.10 no longer "
        "has; derived replacement: in the official mapping of MindSpore 2.6; counterpart in MindSpore 2.10, "
        "parameters differ; verified on CPU."
    )


def test_a_target_mindspore_has_as_an_alias_is_not_gone() -> None:
    """``mindspore.mint.abs`` is an alias of the canonical ``mindspore.ops.abs`` in the inventory: the
    table's row stays the mapping (the generator once tested canonical names only and replaced it)."""
    kb = get_knowledge_base("2.6")
    assert "mindspore.mint.abs" not in kb.mindspore_inventory and kb.mindspore_has("mindspore.mint.abs")
    data = json.loads((data_dir() / "derived-2.6.json").read_text(encoding="utf-8"))
    assert (data["counts"]["gone_targets"], "torch.abs" in data["mappings"]) == (0, False)
    assert (kb.gone_target("torch.abs"), kb.derived("torch.abs")) == (None, None)
    assert kb.mapping("torch.abs").mindspore_api == "mindspore.mint.abs"


def test_table_target_spelled_by_an_alias_is_not_gone() -> None:
    # MindSpore 2.10 lists mindspore.mint.nn.Linear as an alias of mindspore.nn.Linear: the 2.6 row stands
    kb = get_knowledge_base("2.6")
    assert kb.mindspore_inventory.aliases["mindspore.mint.nn.Linear"] == "mindspore.nn.Linear"
    assert kb.gone_target("torch.nn.Linear") is None
    verdict = _categorize("torch.nn.Linear", kb)
    assert verdict.mindspore_api == "mindspore.mint.nn.Linear"


def test_call_of_a_derived_mapping_keeps_its_renames_and_provenance() -> None:
    from msmigrate.fixes.api import fix_all
    from msmigrate.i18n import t

    kb = get_knowledge_base("2.6")
    source = "import torch\n\ny = torch.dsplit(x, sections=2)\n"
    [finding] = analyze_source(source, "t.py", kb).findings
    assert (finding.rule, finding.mindspore_api, finding.message_key) == (
        "MSM101", "mindspore.ops.dsplit", "analysis.api.derived_differences")
    assert t(finding.message_key, "en", **finding.message_args) == (
        "torch.dsplit → mindspore.ops.dsplit (keywords to rename: sections→indices_or_sections). Not in "
        "the MindSpore 2.6 mapping table; derived: counterpart in MindSpore 2.10, parameters differ; "
        "verified on CPU."
    )
    fixed = fix_all(source, "t.py", kb)[0]
    assert fixed == "import mindspore\n\ny = mindspore.ops.dsplit(x, indices_or_sections=2)\n"


def test_gone_target_without_replacement_is_marked_missing() -> None:
    kb = get_knowledge_base("2.4")
    assert kb.gone_target("torch.nn.MultiLabelMarginLoss") == "mindspore.nn.MultiLabelMarginLoss"
    assert kb.derived("torch.nn.MultiLabelMarginLoss") is None
    verdict = _categorize("torch.nn.MultiLabelMarginLoss", kb)
    assert (verdict.category, verdict.mindspore_api, verdict.message_key) == (
        FindingCategory.MISSING,
        None,
        "analysis.api.gone_target",
    )
    result = lookup("torch.nn.MultiLabelMarginLoss", kb)
    assert result.status == "missing"
    assert result.notes("en") == [
        "The MindSpore 2.4 mapping table maps it to mindspore.nn.MultiLabelMarginLoss, which MindSpore 2.10 "
        "no longer has."
    ]


def test_provenance_in_lookup_and_hover() -> None:
    kb = get_knowledge_base("2.6")
    result = lookup("Tensor.view", kb)
    assert result.status == "mapped" and result.row is not None
    assert result.notes("en")[1] == VIEW_PROVENANCE
    assert result.notes("zh")[1] == (
        "MindSpore 2.6 映射表中没有此接口；推导得出：MindSpore 2.4, 2.3, 1.10 官方映射表中有此映射；"
        "MindSpore 2.10 中有参数相同的对应接口；已在 CPU 上验证。"
    )
    assert result.to_json()["derived"] == {
        "source": "derived",
        "mindspore_api": "mindspore.Tensor.view",
        "tables": ["2.4", "2.3", "1.10"],
        "by_name": True,
        "signature": "same",
        "check": "pass",
        "check_reason": None,
        "replaces": None,
    }
    assert VIEW_PROVENANCE in result.render_text("en", width=400)
    from msmigrate.lsp.hover import hover_markdown

    source = "import torch\nx = torch.zeros(2, 3)\ny = x.view(3, 2)\n"
    findings = analyze_source(source, "v.py", kb).findings
    finding = next(f for f in findings if f.torch_api == "torch.Tensor.view")
    text = hover_markdown(finding, kb, "en")
    assert "**torch.Tensor.view → mindspore.Tensor.view (MindSpore 2.6)**" in text.replace("\\", "")
    assert "- " + VIEW_PROVENANCE.replace("\\", "") in text.replace("\\", "")
    assert "has no MindSpore" not in text and "no mapping" not in text


def test_counterpart_namespaces() -> None:
    assert counterpart_names("torch.Tensor.view") == ["mindspore.Tensor.view"]
    assert counterpart_names("torch.nn.Module.apply") == ["mindspore.nn.Cell.apply"]
    assert counterpart_names("torch.nn.MaxPool2d") == [
        "mindspore.mint.nn.MaxPool2d",
        "mindspore.nn.MaxPool2d",
    ]
    assert counterpart_names("torch.nn.functional.relu") == [
        "mindspore.mint.nn.functional.relu",
        "mindspore.ops.relu",
    ]
    assert counterpart_names("torch.float32") == ["mindspore.mint.float32", "mindspore.ops.float32",
                                                   "mindspore.float32"]
    assert counterpart_names("torch.nn.Module") == ["mindspore.nn.Cell"]
    assert counterpart_names("torch.nn.utils.clip_grad_norm_") == []
    assert counterpart_names("torch._C") == []


def _entry(*params: tuple[str, str, str | None]) -> dict:
    signature = []
    for name, kind, default in params:
        param = {"name": name, "kind": kind}
        if default is not None:
            param["default"] = default
        signature.append(param)
    return {"kind": "function", "signatures": [signature]}


PK = "positional_or_keyword"


def test_signature_comparison_facts() -> None:
    same = compare_signatures(_entry(("input", PK, None), ("dim", PK, "-1")),
                              _entry(("input", PK, None), ("dim", PK, "-1.0")))
    assert (same.signature, same.category) == ("same", MappingCategory.CONSISTENT)
    renamed = compare_signatures(_entry(("input", PK, None), ("dim", PK, None)),
                                 _entry(("input", PK, None), ("axis", PK, None)))
    assert (renamed.signature, renamed.category, renamed.param_renames) == (
        "differs", MappingCategory.PARAM_NAMES, {"dim": "axis"})
    defaults = compare_signatures(_entry(("input", PK, None), ("approximate", PK, "'none'")),
                                  _entry(("input", PK, None), ("approximate", PK, "'tanh'")))
    assert (defaults.category, defaults.default_differences) == (
        MappingCategory.DEFAULT_VALUES, (DefaultDifference("approximate", "'none'", "'tanh'"),))
    torch_only = compare_signatures(_entry(("input", PK, None), ("out", "keyword_only", "None")),
                                    _entry(("input", PK, None)))
    assert torch_only.torch_only_params == ("out",)
    assert torch_only.category is MappingCategory.PARAM_COUNT_ORDER
    order = compare_signatures(_entry(("a", PK, None), ("b", PK, None)),
                               _entry(("b", PK, None), ("a", PK, None)))
    assert order.category is MappingCategory.PARAM_COUNT_ORDER
    attribute = compare_signatures({"kind": "attribute"}, {"kind": "attribute"})
    assert (attribute.signature, attribute.category) == ("none", MappingCategory.CONSISTENT)


@pytest.mark.parametrize("version", VERSIONS)
def test_derived_files_hold_no_api_the_table_maps(version: str) -> None:
    kb = get_knowledge_base(version)
    for torch_api, entry in kb.derived_table.entries.items():
        row = kb.row(torch_api)
        assert row is None or entry.replaces == row.mindspore_api, torch_api
        for candidate in entry.candidates:
            assert kb.mindspore_has(candidate.mindspore_api), (torch_api, candidate.mindspore_api)


def test_a_table_target_listed_as_an_alias_is_not_gone() -> None:
    """The MindSpore inventory lists ``mindspore.mint.abs`` as an alias of ``mindspore.ops.abs``: the 2.6
    table's row stands, with no derived replacement."""
    kb = get_knowledge_base("2.6")
    assert kb.mindspore_inventory.aliases["mindspore.mint.abs"] == "mindspore.ops.abs"
    assert kb.row("torch.abs").mindspore_api == "mindspore.mint.abs"
    assert (kb.derived_table.entry("torch.abs"), kb.gone_target("torch.abs")) == (None, None)


def test_reviewed_exceptions_are_not_offered_and_keep_their_reason() -> None:
    from msmigrate.datagen.derive_exceptions import EXCEPTIONS

    kb = get_knowledge_base("2.6")
    assert kb.row("torch.cond") is None and kb.derived("torch.cond") is None  # ops.cond is a matrix norm
    data = json.loads((data_dir() / "derived-2.6.json").read_text(encoding="utf-8"))
    assert data["excluded"]["torch.cond"] == [
        {"mindspore_api": "mindspore.ops.cond", "reason": EXCEPTIONS[("torch.cond", "mindspore.ops.cond")]}
    ]
    assert all(reason.strip() for reason in EXCEPTIONS.values())


def test_check_targets_cover_every_candidate_and_skip_values() -> None:
    from msmigrate.check.derived import derived_targets
    from msmigrate.check.request import precheck

    targets = {(t.torch_api, t.mindspore_api): t for t in derived_targets()}
    view = targets[("torch.Tensor.view", "mindspore.Tensor.view")]
    assert (view.kind, view.row.section) == ("tensor_method", "derived")
    dtype = targets[("torch.float32", "mindspore.float32")]  # checked by a cast to it
    assert precheck(dtype) is None and dtype.spec.loop == "dtype"
    skipped = precheck(targets[("torch.Tensor.device", "mindspore.Tensor.device")])  # a device object
    assert skipped is not None and skipped.reason == "not_op"
    for version in VERSIONS:
        for entry in get_knowledge_base(version).derived_table.entries.values():
            for candidate in entry.candidates:
                assert (candidate.torch_api, candidate.mindspore_api) in targets


@pytest.mark.parametrize(
    ("before", "after"),
    [("x.size()", "x.shape"), ("x.size(1)", "x.shape[1]"), ("x.size(dim=-1)", "x.shape[-1]")],
)
def test_derived_member_of_another_shape_keeps_the_catalogue_rewrite(before: str, after: str) -> None:
    """``torch.Tensor.size`` is derived (→ ``mindspore.Tensor.shape``, an attribute) under 2.6: the
    catalogue's exact rewrite is offered for it."""
    from msmigrate.fixes.api import fixes_for
    from msmigrate.fixes.text import apply_edits

    kb = get_knowledge_base("2.6")
    source = f"import torch\n\n\ndef f(x: torch.Tensor):\n    return {before}\n"
    findings = analyze_source(source, "s.py", kb).findings
    size = next(f for f in findings if f.torch_api == "torch.Tensor.size")
    assert (size.rule, size.mindspore_api) == ("MSM101", "mindspore.Tensor.shape")
    (fix,) = [fix for fix in fixes_for(source, "s.py", [size], kb) if fix.edits]
    assert fix.title_key == "fix.pattern.shape"
    assert apply_edits(source, fix.edits).splitlines()[-1] == f"    return {after}"


def test_a_candidate_mindspore_rejected_yields_to_a_working_one(tmp_path: Path) -> None:
    rejected = {"status": "error", "reason": "mindspore_error"}
    _write_derived(tmp_path, {"torch.foo -> mindspore.mint.foo": rejected,
                              "torch.foo -> mindspore.ops.foo": {"status": "skipped", "reason": "not_op"}})
    assert load_derived("2.6", tmp_path).offered("torch.foo").mindspore_api == "mindspore.ops.foo"
    _write_derived(tmp_path, {"torch.foo -> mindspore.mint.foo": rejected,
                              "torch.foo -> mindspore.ops.foo": {"status": "fail"}})
    assert load_derived("2.6", tmp_path).offered("torch.foo").mindspore_api == "mindspore.mint.foo"
    _write_derived(tmp_path, {"torch.foo -> mindspore.mint.foo": {"status": "error", "reason": NO_KERNEL},
                              "torch.foo -> mindspore.ops.foo": {"status": "pass"}})
    assert load_derived("2.6", tmp_path).offered("torch.foo").mindspore_api == "mindspore.mint.foo"


def test_stats_count_derived_mappings_by_evidence(tmp_path: Path) -> None:
    _write_derived(tmp_path, {"torch.foo -> mindspore.mint.foo": {"status": "error", "reason": NO_KERNEL},
                              "torch.foo -> mindspore.ops.foo": {"status": "pass"}})
    assert derived_stats("2.6", tmp_path) == {
        "mappings": 1,
        "from_other_tables": 0,
        "by_name": 1,
        "by_name_same_signature": 1,
        "verified_cpu": 0,  # the offered candidate (mint.foo) has no CPU kernel
        "consistent": 1,
        "candidates": 2,
        "candidate_checks": {"pass": 1, "fail": 0, "error": 0, "no_kernel": 1, "skipped": 0, "unchecked": 0},
        "not_offered_failed_check": 0,
        "gone_targets": 1,
        "gone_targets_replaced": 0,
        "cpu_alternatives": 0,
        "cpu_alternatives_verified": 0,
    }


def test_reports_say_the_provenance(tmp_path: Path) -> None:
    from msmigrate.reports import render
    from msmigrate.scan import scan_paths
    from msmigrate.scan.options import ScanOptions

    (tmp_path / "m.py").write_text("import torch\n\ny = torch.zeros(2).view(2, 1)\n", encoding="utf-8")
    report = scan_paths([tmp_path], ScanOptions(use_cache=False, jobs=1, mindspore_version="2.6"))
    text = render(report, "text", "en")
    assert f"torch.Tensor.view → mindspore.Tensor.view  {VIEW_PROVENANCE}  [MSM100" in text
    data = json.loads(render(report, "json", "en"))
    (view,) = [f for f in data["files"][0]["findings"] if f["torch_api"] == "torch.Tensor.view"]
    assert view["message"] == (
        "torch.Tensor.view → mindspore.Tensor.view: same behaviour; replacing the name is enough. "
        + VIEW_PROVENANCE
    )
    zh = render(report, "text", "zh")
    assert "MindSpore 2.6 映射表中没有此接口；推导得出：" in zh
