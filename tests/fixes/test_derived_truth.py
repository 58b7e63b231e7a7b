"""Derived mappings whose fix wrote a right mapping wrongly (a Python number where MindSpore takes a Tensor,
a pad mode's spelling, another candidate's renames, renames matched by position), and derived candidates
that compute something else (``derive_exceptions``) or whose result differs in structure (svd: explained,
not rewritten). Each rewritten call below ran against torch in the conversion suite (same values)."""

from __future__ import annotations

import pytest

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.datagen.derive_exceptions import EXCEPTIONS
from msmigrate.fixes.api import fix_all, fixes_by_finding
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.derived import read_json
from msmigrate.paths import data_dir

HEADER = ("import torch\nimport torch.nn.functional as F\n"
          + "".join(f"{name} = torch.zeros(4)  # input\n" for name in ("x", "idx", "lu", "piv", "b")))


def _body(source: str, version: str, device: str = "CPU") -> list[str]:
    new, _applied = fix_all(HEADER + source, "m.py", get_knowledge_base(version), device=device)
    return [line for line in new.splitlines()
            if line and not line.startswith("import ") and not line.endswith("# input")]


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_polygamma_order_is_a_tensor(version):
    assert _body("a = torch.special.polygamma(2, x)\nc = torch.special.polygamma(n, x)\n", version) == [
        "a = mindspore.ops.polygamma(mindspore.tensor(2), x)",
        "c = mindspore.ops.polygamma(mindspore.tensor(n), x)",
    ]


def test_polygamma_of_the_2_6_table_too():
    assert _body("a = torch.polygamma(1, x)\n", "2.6") == [
        "a = mindspore.ops.polygamma(mindspore.tensor(1), x)"]


def test_stft_pad_modes_are_written_in_mindspores_spelling():
    assert _body("a = torch.stft(x, 8, return_complex=True)\n"
                 "c = torch.stft(x, 8, pad_mode='constant', return_complex=True)\n"
                 "d = torch.stft(x, 8, pad_mode='circular', return_complex=True)\n", "2.6") == [
        "a = mindspore.ops.stft(x, 8, return_complex=True)",  # torch's 'reflect' is MindSpore's default
        "c = mindspore.ops.stft(x, 8, pad_mode='CONSTANT', return_complex=True)",
        "d = torch.stft(x, 8, pad_mode='circular', return_complex=True)",  # no such mode: not rewritten
    ]


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_another_candidate_is_written_with_its_own_parameter_names(version):
    # torch.take's first candidate is the method Tensor.take (index → indices); the function written is
    # mint.take, which takes torch's names (it wrote ``indices=idx`` before); on GPU: on CPU mint.take has
    # no kernel (the check's record), so nothing is written there
    source = "a = torch.take(x, idx)\nc = torch.take(x, index=idx)\n"
    assert _body(source, version, "GPU") == [
        "a = mindspore.mint.take(x, idx)", "c = mindspore.mint.take(x, index=idx)"]
    assert _body(source, version) == ["a = torch.take(x, idx)", "c = torch.take(x, index=idx)"]


def test_lu_solve_arguments_go_to_mindspores_parameters():
    assert _body("a = torch.linalg.lu_solve(lu, piv, b)\n", "2.6") == [
        "a = mindspore.ops.lu_solve(LU_data=lu, LU_pivots=piv, b=b)"]
    data = read_json(data_dir() / "derived-2.6.json")
    row = data["mappings"]["torch.linalg.lu_solve"]["candidates"][0]["row"]
    assert row["param_renames"] == {"LU": "LU_data", "pivots": "LU_pivots", "B": "b"}


@pytest.mark.parametrize(("source", "api", "target"), [
    ("a = torch.svd(x)\n", "torch.svd", "mindspore.ops.svd"),
    ("a = x.svd()\n", "torch.Tensor.svd", "mindspore.Tensor.svd"),
])
def test_svd_is_explained_not_rewritten(source, api, target):
    kb = get_knowledge_base("2.6")
    text = HEADER + source
    fixes = [fix for _f, fix in fixes_by_finding(text, "m.py", analyze_source(text, "m.py", kb).findings, kb)
             if fix.title_args.get("torch_api") == api]
    assert [(fix.title_key, fix.edits) for fix in fixes] == [("fix.manual.svd_outputs", [])]
    assert fixes[0].title("en") == (
        f"No automatic fix for {api}: {target} returns (s, u, v) where torch returns (U, S, V), and its "
        "full_matrices is the opposite of torch's some (some=True is full_matrices=False); write "
        f"'s, u, v = {target}(...)' by hand and use u, s, v in torch's order.")
    assert fixes[0].title("zh") == (
        f"{api} 无法自动修复：{target} 返回 (s, u, v)，torch 返回 (U, S, V)；且其 full_matrices "
        "与 torch 的 some 含义相反（some=True 即 full_matrices=False）；请手动改写为 "
        f"'s, u, v = {target}(...)'，并按 torch 的顺序使用 u, s, v。")
    assert _body(source, "2.6") == [source.strip()]


WRONG = [
    ("torch.linalg.vander", "mindspore.ops.vander"),
    ("torch.nn.CosineSimilarity", "mindspore.nn.CosineSimilarity"),
    ("torch.broadcast_tensors", "mindspore.ops.BroadcastTo"),
    ("torch.rms_norm", "mindspore.ops.rms_norm"),
    ("torch.nn.functional.rms_norm", "mindspore.ops.rms_norm"),
    ("torch.rrelu", "mindspore.ops.rrelu"),
    ("torch.nn.functional.rrelu", "mindspore.ops.rrelu"),
    ("torch.poisson", "mindspore.ops.poisson"),
    ("torch.nn.Module.compile", "mindspore.nn.Cell.compile"),
]


@pytest.mark.parametrize(("torch_api", "mindspore_api"), WRONG)
def test_candidates_computing_something_else_are_excluded_with_their_reason(torch_api, mindspore_api):
    data = read_json(data_dir() / "derived-2.6.json")
    candidates = data["mappings"].get(torch_api, {}).get("candidates", [])
    assert mindspore_api not in [c["row"]["mindspore_api"] for c in candidates]
    assert {"mindspore_api": mindspore_api,
            "reason": EXCEPTIONS[(torch_api, mindspore_api)]} in data["excluded"][torch_api]


def test_excluded_candidates_are_not_written():
    assert _body("a = torch.linalg.vander(x)\nc = F.rrelu(x)\nd = torch.rms_norm(x, (4,))\n"
                 "m = torch.nn.CosineSimilarity(dim=1)\n", "2.6") == [
        "a = torch.linalg.vander(x)", "c = F.rrelu(x)", "d = torch.rms_norm(x, (4,))",
        "m = torch.nn.CosineSimilarity(dim=1)"]


def test_module_compile_is_not_cell_compile():
    # timm's TokenDistillationTask: self.teacher.compile(backend=..., mode=...) hands its arguments to
    # torch.compile; MindSpore's Cell.compile takes the network's inputs (2.10: compile(backend=...) raises)
    source = ("import torch\n\n\nclass Task(torch.nn.Module):\n"
              "    def __init__(self, teacher: torch.nn.Module):\n"
              "        super().__init__()\n        self.teacher = teacher\n\n"
              "    def compile(self, backend='inductor'):\n        self.teacher.compile(backend=backend)\n")
    kb = get_knowledge_base("2.6")
    found = [f for f in analyze_source(source, "m.py", kb).findings
             if f.torch_api == "torch.nn.Module.compile"]
    assert [(f.rule, f.line, f.column, f.mindspore_api, f.category.value, f.fixable) for f in found] == [
        ("MSM201", 10, 22, "mindspore.jit", "missing", False)]
    assert found[0].message("en") == (
        "torch.nn.Module.compile has no MindSpore mapping; equivalent replacement: mindspore.jit")
    assert "        self.teacher.compile(backend=backend)" in fix_all(source, "m.py", kb)[0].splitlines()


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_batch_norm_arguments_by_name_without_cudnn_enabled(version):
    # cudnn_enabled picks a kernel, not what is computed: left out whatever its value
    assert _body("a = torch.batch_norm(x, w, b, rm, rv, False, 0.1, 1e-05, True)\n", version) == [
        "a = mindspore.ops.batch_norm(x, weight=w, bias=b, running_mean=rm, running_var=rv, training=False, "
        "momentum=0.1, eps=1e-05)"]
