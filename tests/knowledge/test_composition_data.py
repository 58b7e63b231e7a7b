"""The compositions' data (knowledge/compositions): every helper defines what its row names, takes torch's
parameters, uses only the module's imports and the helpers it declares, has check cases and passed them; the
helper module's text (new, extended, never overwriting); the lookup's sentence about a composition."""

from __future__ import annotations

import ast
import builtins
import json
from pathlib import Path

import pytest

from msmigrate.check.composition_cases import composition_cases
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.compositions.adapters import adapter_needs
from msmigrate.knowledge.compositions.catalogue import (
    COMPOSITIONS,
    METHOD,
    composition_for,
    helpers_with_needs,
)
from msmigrate.knowledge.compositions.helper_module import (
    HEADER_DOC,
    IMPORTS,
    BrokenModule,
    missing_helpers,
    module_text,
    template_file,
    updated_text,
)
from msmigrate.knowledge.compositions.verified import composition_check, offered_composition, verified_path
from msmigrate.knowledge.lookup import lookup

ROOT = Path(__file__).resolve().parents[2]
COMPOSITIONS_DIR = ROOT / "server" / "msmigrate" / "knowledge" / "compositions"
TEMPLATES = COMPOSITIONS_DIR / "templates"
HELPERS = sorted({c.helper for c in COMPOSITIONS})
HEADER_IMPORTS = "import math\nimport numpy\nimport mindspore\nfrom mindspore import ops\n"


def _file(helper: str) -> str:
    return (COMPOSITIONS_DIR / template_file(helper)).read_text(encoding="utf-8")


def _definition(helper: str) -> ast.FunctionDef | ast.ClassDef:
    tree = ast.parse(_file(helper))
    assert len(tree.body) == 1, helper
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == helper
    return node


def _parameters(helper: str) -> list[tuple[str, str | None]]:
    """(name, default source) of the helper's parameters (a class: its ``__init__`` without ``self``)."""
    node = _definition(helper)
    if isinstance(node, ast.ClassDef):
        node = next(n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
        positional = node.args.args[1:]
    else:
        positional = node.args.args
    defaults = [None] * (len(positional) - len(node.args.defaults)) + list(node.args.defaults)
    found = [(a.arg, ast.unparse(d) if d is not None else None)
             for a, d in zip(positional, defaults, strict=True)]
    if node.args.vararg is not None:  # ``*values``: torch's inventory lists it as a parameter
        found.append((node.args.vararg.arg, None))
    found += [(a.arg, ast.unparse(d) if d is not None else None)
              for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults, strict=True)]
    return found


def test_every_row_has_a_template_and_every_template_a_row() -> None:
    files = [*TEMPLATES.glob("*.py.txt"), *TEMPLATES.glob("classes/*.py.txt")]
    assert sorted(p.name.removesuffix(".py.txt") for p in files) == HELPERS
    assert all(template_file(helper) == p.relative_to(COMPOSITIONS_DIR).as_posix()
               for helper, p in ((p.name.removesuffix(".py.txt"), p) for p in files))
    assert len({c.torch_api for c in COMPOSITIONS}) == len(COMPOSITIONS)
    for composition in COMPOSITIONS:
        _definition(composition.helper)
        assert set(composition.needs) <= set(HELPERS) | set(adapter_needs())  # adapters: add_module


@pytest.mark.parametrize("helper", HELPERS)
def test_a_helper_uses_only_the_module_imports_and_the_helpers_it_declares(helper: str) -> None:
    tree = ast.parse(_file(helper))
    bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    bound |= {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)}
    bound |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    imported = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom | ast.Import)]
    assert all(isinstance(n, ast.ImportFrom) and n.module.startswith("mindspore.") for n in imported)
    bound |= {a.asname or a.name for n in imported for a in n.names}
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    free = used - bound - set(dir(builtins))
    needs = {name for c in COMPOSITIONS if c.helper == helper for name in c.needs}
    assert free <= {name for _, name, _ in IMPORTS} | needs, free


def _inventory_parameters(torch_api: str) -> list[list[tuple[str, str | None]]]:
    kb = get_knowledge_base("2.6")
    return [[(p["name"], p.get("default")) for p in sig if p["name"] != "self"]
            for sig in kb.torch_signatures(torch_api)]


# torch APIs whose inventory entry has no signature (a class implemented in C): the helper's, as torch
# documents it
WITHOUT_SIGNATURE = {"torch.finfo": [("type", "None")]}


@pytest.mark.parametrize("composition", COMPOSITIONS, ids=lambda c: c.torch_api)
def test_a_helper_takes_the_torch_parameters_in_order_with_torch_defaults(composition) -> None:
    ours = _parameters(composition.helper)
    if composition.form == METHOD:
        assert ours[0] == ("input", None)
        ours = ours[1:]
    ours = [p for p in ours if p[0] not in composition.extra]
    overloads = _inventory_parameters(composition.torch_api)
    if not overloads:
        assert ours == WITHOUT_SIGNATURE[composition.torch_api]
        return

    def fits(torch_params: list[tuple[str, str | None]]) -> bool:
        kept = [p for p in torch_params if p[0] not in composition.refused]
        if [name for name, _ in kept] != [name for name, _ in ours]:
            return False
        # a default torch has must be the helper's; the helper may default one an overload requires
        return all(default is None or ast.literal_eval(default) == ast.literal_eval(mine)
                   for (_, default), (_, mine) in zip(kept, ours, strict=True))

    assert any(fits(params) for params in overloads), (ours, overloads)
    refused = {name for params in overloads for name, _ in params} & set(composition.refused)
    assert refused == set(composition.refused)  # a refused parameter is one of torch's


def test_each_composition_has_at_least_three_check_cases_or_five_dtypes() -> None:
    cases_of = composition_cases()
    assert set(cases_of) == {c.torch_api for c in COMPOSITIONS}
    programs = {api for api, cases in cases_of.items() if [c.compare for c in cases] == ["program"]}
    assert programs == {"torch.nn.ModuleList", "torch.nn.ModuleDict", "torch.nn.Module.modules",
                        "torch.nn.Module.named_parameters"}  # one program each (check/worker_programs)
    assert {api: len(cases) for api, cases in cases_of.items()
            if len(cases) < 3 and api not in programs} == {"torch.unflatten": 2}
    assert len(cases_of["torch.nn.functional.scaled_dot_product_attention"]) == 11
    for cases in cases_of.values():
        assert len({case.name for case in cases}) == len(cases)


def test_every_composition_passed_every_case_on_cpu() -> None:
    data = json.loads(verified_path().read_text(encoding="utf-8"))
    assert (data["device"], data["torch_version"], data["mindspore_version"]) == ("CPU", "2.13.0", "2.10.0")
    assert data["counts"] == {"pass": len(COMPOSITIONS), "fail": 0}
    cases_of = composition_cases()
    for composition in COMPOSITIONS:
        entry = data["compositions"][composition.torch_api]
        assert entry["helper"] == composition.helper and entry["status"] == "pass"
        assert sorted(entry["cases"]) == sorted(case.name for case in cases_of[composition.torch_api])
        assert {case["status"] for case in entry["cases"].values()} == {"pass"}
        check = composition_check(composition.torch_api)
        assert check is not None and check.passed and check.cases == len(cases_of[composition.torch_api])
        assert offered_composition(composition.torch_api) == composition
    assert offered_composition("torch.nn.functional.relu") is None
    assert composition_for("torch.nn.RMSNorm").needs == ("rms_norm",)


def test_needed_helpers_come_first_once() -> None:
    assert helpers_with_needs(["RMSNorm", "rms_norm", "isin"]) == ["finfo", "rms_norm", "RMSNorm", "isin"]


def test_a_new_module_is_the_header_and_the_templates() -> None:
    text = module_text(["RMSNorm"])
    expected = (HEADER_DOC + "\n" + HEADER_IMPORTS + "\n\n"
                + "\n\n".join(_file(name).rstrip("\n") + "\n" for name in ("finfo", "rms_norm", "RMSNorm")))
    assert text == expected
    assert text.startswith('"""PyTorch APIs that MindSpore lacks, composed from MindSpore operators')
    assert "\n\n\nclass finfo:\n" in text and "\n\n\ndef rms_norm(" in text and "\n\n\nclass RMSNorm(" in text
    ast.parse(text)
    assert updated_text(None, ["RMSNorm"]) == text


def test_an_existing_module_only_gets_what_it_lacks_and_keeps_the_users_edits() -> None:
    mine = ('"""My helpers."""\nimport mindspore\n\n\n'
            'def isin(elements, test_elements, *, assume_unique=False, invert=False):\n'
            '    return "edited by me"\n')
    assert missing_helpers(mine, ["isin"]) == []
    assert updated_text(mine, ["isin"]) is None  # never written again
    grown = updated_text(mine, ["isin", "concatenate"])
    assert grown == ('"""My helpers."""\nimport mindspore\nimport math\nimport numpy\n'
                     'from mindspore import ops\n\n\n'
                     'def isin(elements, test_elements, *, assume_unique=False, invert=False):\n'
                     '    return "edited by me"\n\n\n' + _file("concatenate").rstrip("\n") + "\n")
    assert updated_text(grown, ["concatenate", "isin"]) is None


def test_an_existing_module_keeps_its_line_breaks_and_a_missing_final_one_is_added() -> None:
    crlf = "import math\r\nimport numpy\r\nimport mindspore\r\nfrom mindspore import ops\r\nX = 1"
    grown = updated_text(crlf, ["unflatten"])
    assert grown == crlf + "\r\n\r\n\r\n" + _file("unflatten").rstrip("\n").replace("\n", "\r\n") + "\r\n"
    assert "\n" not in grown.replace("\r\n", "")


def test_a_module_that_is_not_python_is_never_touched() -> None:
    with pytest.raises(BrokenModule):
        updated_text("def broken(:\n", ["isin"])


def test_lookup_says_a_verified_composition_exists_in_both_languages() -> None:
    kb = get_knowledge_base("2.6")
    result = lookup("F.scaled_dot_product_attention", kb)
    assert result.status == "missing" and result.advice is None
    note = ("MindSpore has no counterpart, but a composition of MindSpore operators computes the same: the "
            "quick-fix writes ms_compat.scaled_dot_product_attention(...) and adds the helper to the "
            "project's helper module (checked against torch on CPU in 11 cases, MindSpore 2.10.0 / torch "
            "2.13.0).")
    assert note in result.notes("en")
    assert ("MindSpore 没有对应接口，但可用 MindSpore 算子组合实现相同计算：快速修复改写为 "
            "ms_compat.scaled_dot_product_attention(...)，并把该函数加入项目的辅助模块（已在 CPU 上用 "
            "11 组输入与 torch 对比验证，MindSpore 2.10.0 / torch 2.13.0）。") in result.notes("zh")
    assert result.to_json()["composition"] == {"helper": "scaled_dot_product_attention", "cases": 11,
                                               "device": "CPU"}
    method = lookup("torch.Tensor.unfold", kb).notes("en")
    assert any("the quick-fix writes ms_compat.unfold(x, ...) and" in n for n in method)
    assert lookup("torch.nn.functional.relu", kb).to_json()["composition"] is None
