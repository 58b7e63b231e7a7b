"""Compositions for missing APIs, fixed (issue 24, item 4): ``msmigrate fix`` rewrites each call to the
verified helper, writes one helper module per project (created once, then only extended), imports it in each
file; the fixed code runs in MindSpore, where torch cannot be imported, and computes what torch computes."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from composition_models import EXERCISED, MODELS, RUNNER, SETUP

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.api import fix_all
from msmigrate.fixes.compositions import CompatModule
from msmigrate.fixes.project import FixOptions, fix_paths
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.compositions.catalogue import COMPOSITIONS
from msmigrate.knowledge.compositions.helper_module import template_file
from msmigrate.scan import ConfigError

ROOT = Path(__file__).resolve().parents[2]
COMPOSITIONS_DIR = ROOT / "server" / "msmigrate" / "knowledge" / "compositions"
HEADER = (
    '"""PyTorch APIs that MindSpore lacks, composed from MindSpore operators (written by msmigrate;\n'
    "each was checked against torch on CPU). msmigrate only adds helpers here and never changes one\n"
    "that exists: edit them freely.\n"
    "MindSpore 缺少的 PyTorch 接口，用 MindSpore 算子组合实现（由 msmigrate 生成，\n"
    "均已在 CPU 上与 torch 对比验证）。msmigrate 只会在此添加函数，不会修改已有的函数，可放心修改。\n"
    '"""\n\n'
    "import math\nimport numpy\nimport mindspore\nfrom mindspore import ops\n\n\n"
)
SDPA = "torch.nn.functional.scaled_dot_product_attention"


def _module(*helpers: str) -> str:
    """The helper module msmigrate writes for ``helpers``, in this order."""
    sources = ((COMPOSITIONS_DIR / template_file(h)).read_text(encoding="utf-8") for h in helpers)
    return HEADER + "\n\n".join(source.rstrip("\n") + "\n" for source in sources)


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir(parents=True)
    for name, (source, _, _) in MODELS.items():
        (project / name).write_text(source, encoding="utf-8")
    return project


ALL_HELPERS = ("Conv1d", "Conv2d", "GELU", "Hardsigmoid", "Hardswish", "layer_norm", "LayerNorm",
               "parameter_prefix", "add_module", "ModuleDict", "ModuleList", "MultiheadAttention", "finfo",
               "rms_norm", "RMSNorm", "ReLU", "ReLU6", "SiLU", "addcdiv_", "addcmul_", "broadcast_all",
               "bucketize", "concatenate", "conv1d", "conv2d", "einsum", "hann_window", "interpolate", "isin",
               "lerp_", "modules", "multi_head_attention_forward", "named_parameters", "neg_", "pad_sequence",
               "scaled_dot_product_attention", "solve_triangular", "sqrt_", "take_along_dim", "unflatten",
               "unfold", "unsqueeze_")


def test_the_models_exercise_every_composition() -> None:
    exercised = sorted(api for apis in EXERCISED.values() for api in apis)
    assert exercised == sorted(c.torch_api for c in COMPOSITIONS)
    assert set(EXERCISED) == set(MODELS)


def test_msmigrate_fix_rewrites_every_composition_and_writes_one_helper_module(tmp_path: Path) -> None:
    project = _project(tmp_path)
    result = fix_paths([str(project)], FixOptions(mindspore_version="2.6"))  # safe fixes only
    for name, (_, fixed, _) in MODELS.items():
        assert (project / name).read_text(encoding="utf-8") == fixed, name
    assert {f.rel: f.status.value for f in result.files} == {name: "fixed" for name in MODELS}
    assert all(f.unsafe_skipped == 0 for f in result.files)
    assert (project / "ms_compat.py").read_text(encoding="utf-8") == _module(*ALL_HELPERS)
    helper = result.to_json()["helper_module"]
    assert helper == {"path": "ms_compat.py", "status": "created", "helpers": list(ALL_HELPERS),
                      "error": None}
    assert result.fixes_by_rule()["MSM202"] == 38  # every call of the modules
    # uses nn.LayerNorm/Conv2d cannot take, einsum/conv* on CPU, six activation classes passed as values,
    # ModuleDict (a base class, a call), the ModuleList appended to, interpolate with antialias=True (2)
    assert result.fixes_by_rule()["MSM205"] == 24
    again = fix_paths([str(project)], FixOptions(mindspore_version="2.6"))  # nothing left: nothing rewritten
    assert again.helper_module.status == "unchanged" and not any(f.applied for f in again.files)


def _leaves(path: Path) -> list[np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        return [data[f"arr_{i}"] for i in range(len(data.files))]


needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="needs torch and mindspore (pip install -e '.[check]')",
)


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_models_compute_what_torch_computes_without_torch(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "conversion"))
    try:
        import harness
    finally:
        sys.path.remove(str(ROOT / "tests" / "conversion"))
    original = _project(tmp_path / "torch")
    fixed = _project(tmp_path / "mindspore")
    fix_paths([str(fixed)], FixOptions(mindspore_version="2.6"))
    outcomes = {}
    for framework, folder in (("torch", original), ("mindspore", fixed)):
        programs = [(name[:-3], RUNNER.format(folder=str(folder), setup=SETUP[framework], module=name[:-3],
                                              expression=expr))
                    for name, (_, _, expr) in MODELS.items()]
        outcomes[framework] = harness.run_programs(framework, programs, tmp_path / f"run-{framework}")
    for name in MODELS:
        pid = name.removesuffix(".py")
        assert outcomes["torch"][pid]["ok"], outcomes["torch"][pid]
        assert outcomes["mindspore"][pid]["ok"], outcomes["mindspore"][pid]  # torch cannot be imported there
        expected = _leaves(tmp_path / "run-torch" / f"{pid}.npz")
        actual = _leaves(tmp_path / "run-mindspore" / f"{pid}.npz")
        assert len(actual) == len(expected) >= 1, pid
        for want, got in zip(expected, actual, strict=True):
            assert got.shape == want.shape and got.dtype == want.dtype, (pid, got.dtype, want.dtype)
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=pid)  # the tolerance
        assert any(np.size(leaf) > 1 and np.std(leaf) > 0 for leaf in expected) or pid == "model_finfo", pid


SDPA_FILE = ("import torch\nimport torch.nn.functional as F\n\n\n"
             "def encode(q, k, v):\n    return F.scaled_dot_product_attention(q, k, v, is_causal=True)\n")
SDPA_FIXED = ("import ms_compat\n\n\n"
              "def encode(q, k, v):\n"
              "    return ms_compat.scaled_dot_product_attention(q, k, v, is_causal=True)\n")


def test_two_files_using_sdpa_share_one_helper_module_and_both_import_it(tmp_path: Path) -> None:
    (tmp_path / "encoder.py").write_text(SDPA_FILE, encoding="utf-8")
    (tmp_path / "decoder.py").write_text(SDPA_FILE.replace("encode", "decode"), encoding="utf-8")
    result = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6"))
    assert (tmp_path / "encoder.py").read_text(encoding="utf-8") == SDPA_FIXED
    assert (tmp_path / "decoder.py").read_text(encoding="utf-8") == SDPA_FIXED.replace("encode", "decode")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["decoder.py", "encoder.py", "ms_compat.py"]
    assert (tmp_path / "ms_compat.py").read_text(encoding="utf-8") == _module("scaled_dot_product_attention")
    assert result.helper_module.status == "created"
    # a later run with another composition extends the module; the user's edit of the helper stays
    written = (tmp_path / "ms_compat.py").read_text(encoding="utf-8")
    edited = written.replace("    length, source", "    # mine\n    length, source")
    (tmp_path / "ms_compat.py").write_text(edited, encoding="utf-8")
    lookup = "import torch\n\n\ndef known(x, ids):\n    return torch.isin(x, ids)\n"
    (tmp_path / "lookup.py").write_text(lookup, encoding="utf-8")
    later = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6"))
    assert (tmp_path / "lookup.py").read_text(encoding="utf-8") == (
        "import ms_compat\n\n\ndef known(x, ids):\n    return ms_compat.isin(x, ids)\n")
    isin = (COMPOSITIONS_DIR / "templates" / "isin.py.txt").read_text(encoding="utf-8")
    assert (tmp_path / "ms_compat.py").read_text(encoding="utf-8") == edited + "\n\n" + isin
    assert (later.helper_module.status, later.helper_module.added) == ("extended", ["isin"])


def test_diff_mode_shows_the_module_to_create_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "encoder.py").write_text(SDPA_FILE, encoding="utf-8")
    result = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6", write=False))
    assert result.helper_module.status == "would_create"
    assert result.helper_module.diff.startswith("--- a/ms_compat.py\n+++ b/ms_compat.py\n@@ -0,0 +1,")
    assert not (tmp_path / "ms_compat.py").exists()
    assert (tmp_path / "encoder.py").read_text(encoding="utf-8") == SDPA_FILE


def test_a_package_root_imports_the_module_relatively(tmp_path: Path) -> None:
    package = tmp_path / "models"
    (package / "blocks").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "blocks" / "__init__.py").write_text("", encoding="utf-8")
    (package / "attn.py").write_text(SDPA_FILE, encoding="utf-8")
    (package / "blocks" / "deep.py").write_text(SDPA_FILE, encoding="utf-8")
    fix_paths([str(package)], FixOptions(mindspore_version="2.6"))
    assert (package / "attn.py").read_text(encoding="utf-8") == SDPA_FIXED.replace(
        "import ms_compat", "from . import ms_compat")
    assert (package / "blocks" / "deep.py").read_text(encoding="utf-8") == SDPA_FIXED.replace(
        "import ms_compat", "from .. import ms_compat")
    assert (package / "ms_compat.py").is_file()


def test_the_module_name_comes_from_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.msmigrate]\ncompat-module = "utils.ms_compat"\n',
                                             encoding="utf-8")
    (tmp_path / "encoder.py").write_text(SDPA_FILE, encoding="utf-8")
    fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6"))
    assert (tmp_path / "encoder.py").read_text(encoding="utf-8") == SDPA_FIXED.replace(
        "import ms_compat", "from utils import ms_compat")
    assert (tmp_path / "utils" / "ms_compat.py").read_text(encoding="utf-8") == _module(
        "scaled_dot_product_attention")
    (tmp_path / "pyproject.toml").write_text('[tool.msmigrate]\ncompat-module = "2fast"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6"))
    assert raised.value.key == "scan.error.bad_compat_module"


def test_a_helper_module_that_is_not_python_turns_compositions_off(tmp_path: Path) -> None:
    (tmp_path / "ms_compat.py").write_text("def broken(:\n", encoding="utf-8")
    (tmp_path / "encoder.py").write_text(SDPA_FILE, encoding="utf-8")
    result = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6"))
    assert (tmp_path / "encoder.py").read_text(encoding="utf-8") == SDPA_FILE
    assert (tmp_path / "ms_compat.py").read_text(encoding="utf-8") == "def broken(:\n"
    error = result.to_json("en")["helper_module"]["error"]
    assert error == ("the helper module ms_compat.py cannot take the compositions (it is not valid Python: "
                     "invalid syntax (<unknown>, line 1)): calls of APIs MindSpore lacks are left as they "
                     "are")
    zh = result.to_json("zh")["helper_module"]["error"]
    assert zh.startswith("辅助模块 ms_compat.py 无法写入组合实现（它不是合法的 Python 代码：")


def _fixed(source: str, tmp_path: Path) -> str:
    path = tmp_path / "snippet.py"
    kb = get_knowledge_base("2.6")
    return fix_all(source, str(path), kb, compat=CompatModule(tmp_path))[0]


@pytest.mark.parametrize(("source", "fixed"), [
    # the call's comments and layout stay; a function named, not called, is renamed too
    ("import torch.nn.functional as F\nattn = F.scaled_dot_product_attention\n"
     "y = F.scaled_dot_product_attention(\n    q, k, v,  # inputs\n    dropout_p=0.1)\n",
     "import ms_compat\nattn = ms_compat.scaled_dot_product_attention\n"
     "y = ms_compat.scaled_dot_product_attention(\n    q, k, v,  # inputs\n    dropout_p=0.1)\n"),
    # a method of a parenthesized tensor across lines
    ("import torch\n\n\ndef f(a: torch.Tensor, b: torch.Tensor):\n"
     "    return (a + b) \\\n        .unfold(0, 2, 1)\n",
     "import ms_compat\nimport mindspore\n\n\ndef f(a: mindspore.Tensor, b: mindspore.Tensor):\n"
     "    return ms_compat.unfold((a + b) \\\n        , 0, 2, 1)\n"),  # the line break stays
    # out= is refused: left alone (the torch import stays)
    ("import torch\ntorch.isin(a, b, out=c)\n", "import torch\ntorch.isin(a, b, out=c)\n"),
    # **kwargs of a helper that refuses nothing pass through; an unknown keyword does not
    ("import torch.nn.functional as F\nF.scaled_dot_product_attention(q, k, v, **options)\n",
     "import ms_compat\nms_compat.scaled_dot_product_attention(q, k, v, **options)\n"),
    ("import torch.nn.functional as F\nF.scaled_dot_product_attention(q, k, v, causal=True)\n",
     "import torch.nn.functional as F\nF.scaled_dot_product_attention(q, k, v, causal=True)\n"),
    # the file names something else ms_compat: no rewrite
    ("import torch.nn.functional as F\nms_compat = 1\nF.scaled_dot_product_attention(q, k, v)\n",
     "import torch.nn.functional as F\nms_compat = 1\nF.scaled_dot_product_attention(q, k, v)\n"),
    # the import goes after the leading imports, next to the one other fixes add
    ('"""Doc."""\nimport torch\nimport torch.nn.functional as F\nx = torch.abs(y)\n'
     "z = F.scaled_dot_product_attention(x, x, x)\n",
     '"""Doc."""\nimport ms_compat\nimport mindspore\nx = mindspore.mint.abs(y)\n'
     "z = ms_compat.scaled_dot_product_attention(x, x, x)\n"),
])
def test_rewritten_calls(source: str, fixed: str, tmp_path: Path) -> None:
    assert _fixed(source, tmp_path) == fixed


def test_a_composition_fix_is_safe_and_names_its_helper(tmp_path: Path) -> None:
    kb = get_knowledge_base("2.6")
    findings = analyze_source(SDPA_FILE, "encoder.py", kb).findings
    sdpa = next(f for f in findings if f.torch_api == SDPA)
    assert (sdpa.rule, sdpa.fixable, sdpa.severity.value) == ("MSM202", True, "warning")
    assert sdpa.message("en") == (
        "torch.nn.functional.scaled_dot_product_attention has no MindSpore counterpart; "
        "scaled_dot_product_attention, a composition of MindSpore operators checked against torch, computes "
        "the same: the quick-fix calls it from the project's helper module")
    assert sdpa.message("zh").startswith(
        "torch.nn.functional.scaled_dot_product_attention 在 MindSpore 中没有对应接口；")
    assert is_safe(sdpa, kb)
    _, applied = fix_all(SDPA_FILE, str(tmp_path / "encoder.py"), kb, compat=CompatModule(tmp_path))
    composed = [fix for fix in applied if fix.helpers]
    assert [(f.rule, f.helpers, f.title("en")) for f in composed] == [
        ("MSM202", ("scaled_dot_product_attention",),
         "Call scaled_dot_product_attention of ms_compat (a composition checked against torch)")]
    tree = ast.parse(SDPA_FIXED)
    assert isinstance(tree.body[0], ast.Import)


def test_a_member_read_on_a_composition_result_points_to_the_call(tmp_path: Path) -> None:
    source = "import torch\n\n\ndef f(x, dtype):\n    return x.masked_fill(x > 0, torch.finfo(dtype).min)\n"
    findings = analyze_source(source, "m.py", get_knowledge_base("2.6")).findings
    member = next(f for f in findings if f.torch_api == "torch.finfo.min")
    assert (member.rule, member.fixable, member.column) == ("MSM202", False, 52)  # at "min"
    assert member.message("en") == ("torch.finfo.min is read on the result of torch.finfo, whose composition "
                                    "finfo has it too: the quick-fix of torch.finfo rewrites both")
    assert _fixed(source, tmp_path) == ("import ms_compat\n\n\ndef f(x, dtype):\n"
                                        "    return x.masked_fill(x > 0, ms_compat.finfo(dtype).min)\n")


def test_the_finding_names_the_catalogued_api_only_when_the_helper_calls_it() -> None:
    kb = get_knowledge_base("2.6")
    source = ("import torch\nfrom torch.nn.utils.rnn import pad_sequence\n\n\n"
              "def f(x: torch.Tensor, seqs):\n    return pad_sequence(seqs), x.unfold(0, 2, 1)\n")
    found = {f.torch_api: f for f in analyze_source(source, "m.py", kb).findings if f.rule == "MSM202"}
    assert found["torch.nn.utils.rnn.pad_sequence"].mindspore_api == "mindspore.ops.pad"  # the helper pads
    # the catalogue names mindspore.Tensor.unfold, which extracts image patches: the helper does not call it
    assert found["torch.Tensor.unfold"].mindspore_api is None
