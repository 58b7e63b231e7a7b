"""The importer on small hand-made pages: each messy case of the official sources, one by one."""

from __future__ import annotations

from pathlib import Path

from msmigrate.datagen.importer.align import align
from msmigrate.datagen.importer.build import Inventories, ReleaseSources, build_rows
from msmigrate.datagen.importer.classify import classify
from msmigrate.datagen.importer.diff_page import parse_diff_text
from msmigrate.datagen.importer.facts import facts_from_table, known_rename_pairs
from msmigrate.datagen.importer.mapping_table import parse_mapping_text
from msmigrate.datagen.importer.markdown import split_row
from msmigrate.datagen.importer.signatures import SigParam, parse_signatures
from msmigrate.datagen.importer.urls import diff_page_name, zh_url_from_en
from msmigrate.knowledge.model import MappingCategory

MULTI_API_PAGE = """# Differences with torch.all

The following mapping relationships can be found in this file.

|     PyTorch APIs      |      MindSpore APIs       |
| :-------------------: | :-----------------------: |
|    torch.all     |  mindspore.ops.all   |
|   torch.Tensor.all    |   mindspore.Tensor.all    |

## torch.all

```text
torch.all(input, dim, keepdim=False, *, out=None) -> Tensor
```

## mindspore.ops.all

```text
mindspore.ops.all(x, axis=(), keep_dims=False) -> Tensor
```

## Differences

| Categories | Subcategories| PyTorch | MindSpore |Differences |
| ---- | ----- | ------- | --------- |------------------ |
| Parameters | Parameter 1 | input   | x         | Same function, different parameter names |
|      | Parameter 2 | dim   | axis      | Different types accepted |
|      | Parameter 3 | keepdim   | keep_dims | Same function, different parameter names |
|      | Parameter 4 | out   | -         | MindSpore does not have this parameter |
"""

ZH_PAGE = """# 比较与torch.nn.LayerNorm的差异

## torch.nn.LayerNorm

```text
class torch.nn.LayerNorm(normalized_shape, eps=1e-05, elementwise_affine=True)(input) -> Tensor
```

## mindspore.nn.LayerNorm

```text
class mindspore.nn.LayerNorm(normalized_shape, begin_norm_axis=-1, begin_params_axis=-1, epsilon=1e-7)(x)
```

## 差异对比

| 分类 | 子类  | PyTorch | MindSpore | 差异 |
| ---- | ----- | ------- | --------- | ---- |
| 参数 | 参数1 | normalized_shape | normalized_shape | 无差异 |
|      | 参数2 | eps | epsilon | 功能一致，参数名不同，默认值不同 |
|      | 参数3 | elementwise_affine | - | MindSpore无此参数 |
|      | 参数4 | - | begin_norm_axis | PyTorch无此参数 |
| 输入 | 单输入 | input | x | 功能一致，参数名不同 |
| 输出 | 单输出 | Tensor | Tensor | 一致 |
"""

OLD_HEADER_PAGE = """# Function differences with torch.nn.Dropout

| Classification | Subclass | PyTorch | MindSpore | difference |
| --- | --- | --- | --- | --- |
| Param | Param 1 | p | keep_prob | Different meaning |
| Param | Param 2 | inplace | - | Not in MindSpore |
"""

NO_TABLE_PAGE = """# Function Differences with torch.nn.Linear

## torch.nn.Linear

```python
torch.nn.Linear(
    in_features,
    out_features,
    bias=True
)
```

## mindspore.nn.Dense

```python
class mindspore.nn.Dense(
    in_channels,
    out_channels,
    weight_init='normal',
    has_bias=True,
)(input)
```

## Differences

Prose only, no comparison table.
"""

MALFORMED_PAGE = """# Differences with torchvision.ops.roi_align

| Categories | Subcategories |PyTorch | MindSpore | Difference || --- | ---   | ---   | ---        |---  |
|Parameter | Parameter1 | input   | -  | defined elsewhere |
|     | Parameter2 | output_size | [pooled_height, pooled_width]  | two parameters in MindSpore |
|     | Parameter3 | sampling_ratio | sample_num  | renamed |
|     | Parameter4 | `aligned` | roi_end_mode  | renamed |
|Input | Input1 | -   | features    | extra input |
"""

HEADERLESS_PAGE = """# Differences with torch.distributed.scatter

## Differences

|Parameters | Parameters 1 | tensor | tensor |No difference |
| | Parameters 2 | scatter_list | - | MindSpore does not have this parameter|
| | Parameters 3 | src | src |No difference|
"""

TWO_TABLE_PAGE = """# Differences with lr_scheduler.StepLR and lr_scheduler.MultiStepLR

## torch.optim.lr_scheduler.StepLR

```text
torch.optim.lr_scheduler.StepLR(optimizer, step_size, gamma=0.1, last_epoch=-1, verbose=False)
```

## mindspore.nn.piecewise_constant_lr

```text
mindspore.nn.piecewise_constant_lr(milestone, learning_rates)
```

## Differences

PyTorch (torch.optim.lr_scheduler.StepLR): a fixed step.

MindSpore (mindspore.nn.piecewise_constant_lr): a list of steps.

| Categories | Subcategories  | PyTorch | MindSpore | Differences |
| ---- | ----- | ------- | --------- | ----------- |
| Parameter  | Parameter 1 | optimizer   |        | MindSpore does not have this Parameter  |
|      | Parameter 2 | step_size |   milestone   | different meaning |
|      | Parameter 3 |  | verbose | written in the wrong column |

PyTorch (torch.optim.lr_scheduler.MultiStepLR): a list of milestones.

MindSpore (mindspore.nn.piecewise_constant_lr): a list of steps.

| Categories | Subcategories  | PyTorch | MindSpore | Differences |
| ---- | ----- | ------- | --------- | ----------- |
| Parameter  | Parameter 1 | optimizer   |   -    | MindSpore does not have this Parameter  |
|      | Parameter 2 | milestones |   milestone   | same function, different name |
"""


def test_multi_api_page_lists_its_mappings_and_facts() -> None:
    page = parse_diff_text(MULTI_API_PAGE, "all")
    assert page.title_api == "torch.all"
    assert page.mappings == [("torch.all", "mindspore.ops.all"), ("torch.Tensor.all", "mindspore.Tensor.all")]
    torch_sig = page.signature("torch.all")
    ms_sig = page.signature("mindspore.ops.all")
    facts = facts_from_table(page.tables[0], "torch.all", torch_sig, ms_sig, torch_sig)
    assert facts.param_renames == {"input": "x", "dim": "axis", "keepdim": "keep_dims"}
    assert facts.param_renames_source == "diff_page"
    assert facts.torch_only == ["out"]
    # the Tensor method shares the page, but its ``input`` is the tensor itself
    tensor = facts_from_table(page.tables[0], "torch.Tensor.all", torch_sig, None, None)
    assert tensor.param_renames == {"dim": "axis", "keepdim": "keep_dims"}
    assert tensor.torch_only == ["out"]


def test_chinese_headers_and_default_values_from_signatures() -> None:
    page = parse_diff_text(ZH_PAGE, "LayerNorm")
    assert len(page.tables) == 1
    kinds = [(f.kind, f.torch, f.mindspore) for f in page.tables[0].facts]
    assert kinds == [
        ("param", "normalized_shape", "normalized_shape"),
        ("param", "eps", "epsilon"),
        ("param", "elementwise_affine", None),
        ("param", None, "begin_norm_axis"),
        ("input", "input", "x"),
        ("output", "Tensor", "Tensor"),
    ]
    torch_sig = page.signature("torch.nn.LayerNorm")
    ms_sig = page.signature("mindspore.nn.LayerNorm")
    assert [p.kind for p in ms_sig][-1] == "call_input"
    facts = facts_from_table(page.tables[0], "torch.nn.LayerNorm", torch_sig, ms_sig, torch_sig)
    assert facts.param_renames == {"eps": "epsilon"}
    assert facts.input_renames == {"input": "x"}
    assert facts.torch_only == ["elementwise_affine"]
    assert facts.mindspore_only == ["begin_norm_axis"]
    assert facts.defaults == {"eps": ("1e-05", "1e-7")}


def test_older_header_spelling() -> None:
    page = parse_diff_text(OLD_HEADER_PAGE, "Dropout")
    facts = facts_from_table(page.tables[0], "torch.nn.Dropout", None, None)
    assert facts.param_renames == {"p": "keep_prob"}
    assert facts.torch_only == ["inplace"]


def test_page_without_table_falls_back_to_its_signatures(tmp_path: Path) -> None:
    page = parse_diff_text(NO_TABLE_PAGE, "Dense")
    assert page.tables == []
    assert [p.name for p in page.signature("torch.nn.Linear")] == ["in_features", "out_features", "bias"]
    release = _release(
        tmp_path,
        "| [torch.nn.Linear](https://pytorch.org/docs/1.5.0/nn.html#torch.nn.Linear) | "
        "[mindspore.nn.Dense](https://mindspore.cn/docs/en/r1.10/api_python/nn/mindspore.nn.Dense.html) | "
        "[diff](https://www.mindspore.cn/docs/en/r1.10/note/api_mapping/pytorch_diff/Dense.html) |",
        {"Dense": NO_TABLE_PAGE},
    )
    known = {"in_features": ["in_channels"], "out_features": ["out_channels"]}
    (row,) = build_rows(release, Inventories(), known)
    assert row["category"] == "diff_page"
    assert row["param_renames"] == {
        "in_features": "in_channels",
        "out_features": "out_channels",
        "bias": "has_bias",
    }
    assert row["param_renames_source"] == "derived"
    assert row["mindspore_only_params"] == ["weight_init"]
    assert row["torch_only_params"] == []


def test_malformed_cells_and_glued_header() -> None:
    page = parse_diff_text(MALFORMED_PAGE, "roi_align")
    (table,) = page.tables
    assert table.malformed_cells == 1  # "[pooled_height, pooled_width]" names no single parameter
    facts = facts_from_table(table, "torchvision.ops.roi_align", None, None)
    assert facts.param_renames == {"sampling_ratio": "sample_num", "aligned": "roi_end_mode"}
    assert facts.torch_only == ["input"]
    assert facts.input_renames == {}
    assert facts.mindspore_only == []  # an extra *input* is not a constructor parameter


def test_table_without_header_row() -> None:
    page = parse_diff_text(HEADERLESS_PAGE, "distributed.scatter")
    (table,) = page.tables
    assert [(f.torch, f.mindspore) for f in table.facts] == [
        ("tensor", "tensor"),
        ("scatter_list", None),
        ("src", "src"),
    ]
    facts = facts_from_table(table, "torch.distributed.scatter", None, None)
    assert facts.torch_only == ["scatter_list"]
    assert facts.param_renames == {}


def test_two_tables_on_one_page_are_told_apart() -> None:
    page = parse_diff_text(TWO_TABLE_PAGE, "PiecewiseConstantLR")
    assert len(page.tables) == 2
    step = page.table_for("torch.optim.lr_scheduler.StepLR", "mindspore.nn.piecewise_constant_lr")
    multi = page.table_for("torch.optim.lr_scheduler.MultiStepLR", "mindspore.nn.piecewise_constant_lr")
    assert step is page.tables[0] and multi is page.tables[1]
    torch_sig = page.signature("torch.optim.lr_scheduler.StepLR")
    ms_sig = page.signature("mindspore.nn.piecewise_constant_lr")
    facts = facts_from_table(step, "torch.optim.lr_scheduler.StepLR", torch_sig, ms_sig, torch_sig)
    assert facts.param_renames == {"step_size": "milestone"}
    # "verbose" sits in the MindSpore column but only the PyTorch signature has it
    assert facts.torch_only == ["optimizer", "verbose"]
    assert facts.mindspore_only == []


MS = "https://www.mindspore.cn/docs/en/r2.4.10"
MAPPING_TABLE = f"""# Table

## General Difference Parameter Table

| Parameter Names | Functions | Descriptions |
| :-: | :-: | :-: |
| out | output | - |
| layout | memory layout | - |

## torch

| PyTorch 1.8.1 APIs | MindSpore APIs | Descriptions |
| --- | --- | --- |
| [torch.abs()](https://pytorch.org/abs.html) | [mindspore.ops.abs]({MS}/abs.html) | Consistent |
| [torch.nn.Softmax2d](https://pt.org/sm) | [mindspore.nn.Softmax2d]( {MS}/sm.html) | Consistent]({MS}) |
| [](https://example.org) | [mindspore.mint.x]({MS}/x.html) | Unique to MindSpore |
| [Variable](https://pytorch.org/a.html#torch.autograd.Variable) | None | [diff]({MS}/pytorch_diff/V.html) |
| [torch.a](https://pt.org/a.html), [torch.b](https://pt.org/b.html) | [mindspore.ops.ab]({MS}/ab) | |
"""


def test_mapping_table_rows_sections_and_general_parameters() -> None:
    doc = parse_mapping_text(MAPPING_TABLE)
    assert doc.general_difference_params == ("out", "layout")
    assert doc.pytorch_doc_version == "1.8.1"
    assert [(r.torch_api, r.mindspore_api, r.section) for r in doc.rows] == [
        ("torch.abs", "mindspore.ops.abs", "torch"),
        ("torch.nn.Softmax2d", "mindspore.nn.Softmax2d", "torch"),
        ("torch.autograd.Variable", None, "torch"),  # link text differs from the API: the URL anchor
        ("torch.a", "mindspore.ops.ab", "torch"),
        ("torch.b", "mindspore.ops.ab", "torch"),
    ]
    softmax = doc.rows[1]
    assert softmax.mindspore_url == f"{MS}/sm.html"  # "]( https://..." with a space
    assert classify(softmax.description, False, True).category is MappingCategory.CONSISTENT
    assert doc.rows[2].diff_url == f"{MS}/pytorch_diff/V.html"


def test_description_classification() -> None:
    def cat(text: str, diff: bool = False, mapped: bool = True) -> MappingCategory:
        return classify(text, diff, mapped).category

    assert cat("") is MappingCategory.CONSISTENT
    assert cat("", diff=True) is MappingCategory.DIFF_PAGE
    assert cat("diff", diff=True) is MappingCategory.DIFF_PAGE
    assert cat("差异对比", diff=True) is MappingCategory.DIFF_PAGE
    assert cat("Consistent") is MappingCategory.CONSISTENT
    assert cat("一致") is MappingCategory.CONSISTENT
    assert cat("The functions are consistent") is MappingCategory.CONSISTENT
    assert cat("The functiions are consistent, but the parameter names are inconsistent.") is (
        MappingCategory.PARAM_NAMES
    )
    assert cat("功能一致，参数名不同") is MappingCategory.PARAM_NAMES
    assert cat("The functions are consistent, but the parameter data types are inconsistent", diff=True) is (
        MappingCategory.DATA_TYPES
    )
    assert cat("The functions are consistent, but the number or sequence of parameters is inconsistent.") is (
        MappingCategory.PARAM_COUNT_ORDER
    )
    assert cat('Set reduction to "add" in mindspore.ops.tensor_scatter_elements.') is (
        MappingCategory.OTHER_DIFFERENCE
    )
    assert cat("anything", mapped=False) is MappingCategory.UNSUPPORTED

    verbose = classify(
        "No `verbose` and `momentum` related input params, other functions are consistent", False, True
    )
    assert (verbose.category, verbose.torch_only, verbose.torch_only_hints) == (
        MappingCategory.NO_VERBOSE,
        ["verbose"],
        ["momentum"],
    )
    inplace = classify("Consistent functions, MindSpore does not contain the parameter inplace.", False, True)
    assert (inplace.category, inplace.torch_only) == (MappingCategory.NO_INPLACE, ["inplace"])
    default = classify(
        "The functions are consistent, but the default value of dim is different.", False, True
    )
    assert (default.category, default.default_params) == (MappingCategory.DEFAULT_VALUES, ["dim"])
    extra = classify(
        "Consistent function, MindSpore has two different parameters: "
        "weight_init = None and bias_init = None.",
        False,
        True,
    )
    assert (extra.category, extra.mindspore_only) == (
        MappingCategory.PARAM_COUNT_ORDER,
        ["weight_init", "bias_init"],
    )
    zh_extra = classify("功能一致，MindSpore多dim和keepdim两个参数", False, True)
    assert zh_extra.mindspore_only == ["dim", "keepdim"]
    antialias = classify("Consistent functions, MindSpore has no parameter antialias.", False, True)
    assert (antialias.category, antialias.torch_only) == (MappingCategory.PARAM_COUNT_ORDER, ["antialias"])
    split = classify(
        "The functions are consistent, but the parameter names are inconsistent. "
        "The split_size parameter is split_size_or_sections in MindSpore.",
        False,
        True,
    )
    assert split.renames == {"split_size": "split_size_or_sections"}


def test_urls() -> None:
    en = "https://www.mindspore.cn/docs/en/r2.4.10/note/api_mapping/pytorch_diff/all.html"
    assert (
        zh_url_from_en(en)
        == "https://www.mindspore.cn/docs/zh-CN/r2.4.10/note/api_mapping/pytorch_diff/all.html"
    )
    tutorial = "https://www.mindspore.cn/tutorials/en/r1.10/beginner/autograd.html#stop-gradient"
    assert (
        zh_url_from_en(tutorial)
        == "https://www.mindspore.cn/tutorials/zh-CN/r1.10/beginner/autograd.html#stop-gradient"
    )
    assert diff_page_name("https://x/pytorch_diff/ReduceMean%26std_mean.html") == "ReduceMean&std_mean"
    assert diff_page_name("https://x/api_python/ops/mindspore.ops.all.html") is None


def test_split_row_keeps_pipes_inside_links_and_code() -> None:
    assert split_row("| [ab](http://x/y|z) | `x | y` | c |") == ["[ab](http://x/y|z)", "`x | y`", "c"]
    assert split_row("| `unbalanced | b |") == ["`unbalanced", "b"]


def test_signature_parsing() -> None:
    sigs = parse_signatures(
        "torch.max(input, dim, keepdim=False, *, out=None) -> (Tensor, LongTensor)\n"
        "class torchtext.datasets.AG_NEWS(root: str = '.data',\n"
        "    split: Union[List[str], str] = ('train', 'test'))\n"
        "mindspore.ops.Sort(axis=-1, descending=False)(x)\n"
    )
    assert [(p.name, p.default, p.kind) for p in sigs["torch.max"][0]] == [
        ("input", None, "positional"),
        ("dim", None, "positional"),
        ("keepdim", "False", "positional"),
        ("out", "None", "keyword_only"),
    ]
    assert [(p.name, p.default) for p in sigs["torchtext.datasets.AG_NEWS"][0]] == [
        ("root", "'.data'"),
        ("split", "('train', 'test')"),
    ]
    assert [(p.name, p.kind) for p in sigs["mindspore.ops.Sort"][0]] == [
        ("axis", "positional"),
        ("descending", "positional"),
        ("x", "call_input"),
    ]


def test_alignment_trusted_and_untrusted() -> None:
    torch_params = [
        SigParam("input"),
        SigParam("dim"),
        SigParam("keepdim", "False"),
        SigParam("out", "None", "keyword_only"),
    ]
    ms_params = [SigParam("x"), SigParam("axis"), SigParam("keep_dims", "False")]
    trusted = align(torch_params, ms_params, {}, skip=["out"])
    assert trusted.renames == {"input": "x", "dim": "axis", "keepdim": "keep_dims"}
    assert trusted.torch_only == ["out"]
    # signatures that are not known to correspond: only similar names pair up
    untrusted = align(torch_params, ms_params, {}, skip=["out"], trust_positions=False)
    assert untrusted.renames == {"keepdim": "keep_dims"}
    known = align(
        torch_params, ms_params, {"dim": ["axis"], "input": ["x"]}, skip=["out"], trust_positions=False
    )
    assert known.renames == {"dim": "axis", "input": "x", "keepdim": "keep_dims"}


def test_known_pairs_are_counted_across_tables() -> None:
    tables = parse_diff_text(MULTI_API_PAGE).tables + parse_diff_text(ZH_PAGE).tables
    pairs = known_rename_pairs(tables)
    assert pairs["input"] == ["x"]  # seen twice (a parameter row and an input row)
    assert pairs["eps"] == ["epsilon"]


def _release(tmp_path: Path, row: str, pages: dict[str, str]) -> ReleaseSources:
    folder = tmp_path / "r1.10"
    (folder / "en" / "pytorch_diff").mkdir(parents=True)
    (folder / "en" / "pytorch_api_mapping.md").write_text(
        "## torch.nn\n\n| PyTorch 1.5.0 APIs | MindSpore APIs | Description |\n| --- | --- | --- |\n"
        + row
        + "\n",
        encoding="utf-8",
    )
    for name, text in pages.items():
        (folder / "en" / "pytorch_diff" / f"{name}.md").write_text(text, encoding="utf-8")
    return ReleaseSources(folder)


INPUT_FILED_PAGE = """# Differences with torch.linspace

```text
torch.linspace(start, end, steps=100, *, out=None, dtype=None) -> Tensor
```

```text
mindspore.ops.linspace(start, end, steps) -> Tensor
```

| Categories | Subcategories | PyTorch | MindSpore | Difference |
|------------|---------------|---------|-----------|------------|
| input      | input 1       | start   | start     | types differ |
|            | input 2       | out     | -         | general difference |
|            | input 3       | dtype   | -         | MindSpore follows start |
"""


def test_function_arguments_filed_under_input_are_parameters() -> None:
    page = parse_diff_text(INPUT_FILED_PAGE, "linspace")
    assert [f.kind for f in page.tables[0].facts] == ["input", "input", "input"]
    torch_sig = page.signature("torch.linspace")
    facts = facts_from_table(
        page.tables[0], "torch.linspace", torch_sig, page.signature("mindspore.ops.linspace"), torch_sig
    )
    assert facts.torch_only == ["out", "dtype"]
    assert facts.input_renames == {}


def test_a_letter_case_typo_names_the_one_torch_api_of_that_spelling() -> None:
    from msmigrate.datagen.importer.names import names_by_lower, torch_spelling_for
    from msmigrate.knowledge.inventory_index import InventoryIndex

    inventory = InventoryIndex.from_apis(
        {"torch.nn.SELU": {"kind": "class"}, "torch.optim.Adamax": {"kind": "class"},
         "torch.optim.adamax": {"kind": "module"}, "torch.Tensor.log_normal_": {"kind": "tensor_method"},
         "torch.foo": {"kind": "function"}, "torch.Foo": {"kind": "class"}},
        {"torch.nn.modules.activation.SELU": "torch.nn.SELU"},
    )
    by_lower = names_by_lower(inventory)
    assert torch_spelling_for("torch.nn.SeLU", inventory, by_lower) == "torch.nn.SELU"
    # the class, not the module torch.optim.adamax
    assert torch_spelling_for("torch.optim.AdaMax", inventory, by_lower) == "torch.optim.Adamax"
    assert torch_spelling_for("torch.nn.SELU", inventory, by_lower) is None  # torch has it
    assert torch_spelling_for("torch.Tensor.log_normal", inventory, by_lower) is None  # not a case typo
    assert torch_spelling_for("torch.FOO", inventory, by_lower) is None  # two candidates
    assert torch_spelling_for("torch.nn.SeLU", InventoryIndex.empty(), {}) is None  # no inventory: as written
