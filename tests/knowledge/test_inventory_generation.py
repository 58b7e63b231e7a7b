"""The inventory generator: stub parsing, signature sources, serialisation, determinism, import hygiene."""

import enum
import importlib.util
import inspect
import json
import subprocess
import sys
import textwrap

import pytest

from msmigrate.datagen.inventory.introspect import Inventory, ModuleWalker, callable_signatures
from msmigrate.datagen.inventory.params import from_inspect, stable_repr
from msmigrate.datagen.inventory.stubs import parse_stub
from msmigrate.datagen.inventory.table_names import _markdown_pairs, guessed_kind
from msmigrate.datagen.inventory.writer import document, dumps
from msmigrate.paths import data_dir

STUB = textwrap.dedent(
    """
    from typing import overload
    import sys

    @overload
    def add(input: Tensor, other: Tensor, *, alpha: Number = 1, out: Tensor | None = None) -> Tensor: ...
    @overload
    def add(self: Tensor, alpha: Number, other: Tensor) -> Tensor: ...
    @overload
    def add(self: Tensor, alpha: Number, other: Tensor) -> Tensor: ...
    if sys.version_info >= (3, 10):
        def guarded(x, /, y=..., *rest, **extra) -> None: ...

    class TensorBase:
        shape: Size
        T = None
        def view(self, *size: int) -> Tensor: ...
        @overload
        def sum(self, *, dtype=None) -> Tensor: ...
        @overload
        def sum(self, dim, keepdim: bool = False) -> Tensor: ...
        @property
        def is_cuda(self) -> bool: ...
        @staticmethod
        def make(a, b=2) -> Tensor: ...
        def __init__(self, data) -> None: ...
    """
)


def test_parse_stub_keeps_every_overload(tmp_path):
    path = tmp_path / "mod.pyi"
    path.write_text(STUB, encoding="utf-8")
    stub = parse_stub(path)
    assert stub.functions["add"] == [
        [
            {"name": "input", "kind": "positional_or_keyword"},
            {"name": "other", "kind": "positional_or_keyword"},
            {"name": "alpha", "kind": "keyword_only", "default": "1"},
            {"name": "out", "kind": "keyword_only", "default": "None"},
        ],
        [
            {"name": "self", "kind": "positional_or_keyword"},
            {"name": "alpha", "kind": "positional_or_keyword"},
            {"name": "other", "kind": "positional_or_keyword"},
        ],
    ]
    assert stub.functions["guarded"] == [
        [
            {"name": "x", "kind": "positional_only"},
            {"name": "y", "kind": "positional_or_keyword", "default": "..."},
            {"name": "rest", "kind": "var_positional"},
            {"name": "extra", "kind": "var_keyword"},
        ]
    ]
    tensor = stub.classes["TensorBase"]
    assert tensor.attributes == {"shape", "T", "is_cuda"}
    assert tensor.methods["view"] == [[{"name": "size", "kind": "var_positional"}]]
    assert [[p["name"] for p in s] for s in tensor.methods["sum"]] == [["dtype"], ["dim", "keepdim"]]
    assert tensor.methods["make"] == [
        [
            {"name": "a", "kind": "positional_or_keyword"},
            {"name": "b", "kind": "positional_or_keyword", "default": "2"},
        ]
    ]
    assert tensor.init == [[{"name": "data", "kind": "positional_or_keyword"}]]
    assert "__init__" not in tensor.methods


def test_parse_stub_rejects_broken_stub(tmp_path):
    path = tmp_path / "bad.pyi"
    path.write_text("def f(:\n", encoding="utf-8")
    with pytest.raises(SyntaxError):
        parse_stub(path)


class _Color(enum.Enum):
    RED = 1


class _Opaque:
    pass


_OPAQUE = _Opaque()


def _defaults(a, b=_OPAQUE, c=_Color.RED, d=json, e="x" * 500, *, f=None):
    return a


def test_stable_repr_removes_addresses_and_paths():
    sig = from_inspect(inspect.signature(_defaults))
    assert sig[0] == {"name": "a", "kind": "positional_or_keyword"}
    assert sig[1]["default"] == f"<{__name__}._Opaque>"
    assert sig[2]["default"] == "<_Color.RED: 1>"
    assert sig[3]["default"] == "<module 'json'>"
    assert len(sig[4]["default"]) == 120 and sig[4]["default"].endswith("...")
    assert sig[5] == {"name": "f", "kind": "keyword_only", "default": "None"}
    assert (
        stable_repr(lambda: 0)
        == f"<function {test_stable_repr_removes_addresses_and_paths.__name__}.<locals>.<lambda>>"
    )


class _BrokenRepr:
    def __repr__(self):
        raise RuntimeError("boom")


def test_stable_repr_survives_broken_repr():
    assert stable_repr(_BrokenRepr()) == "<_BrokenRepr>"


def _wrapper(*args, **kwargs):
    """add(input, other, *, alpha=1) -> Tensor

    Adds.

    .. function:: add(input, other, out) -> Tensor
    """


def _undocumented(*args, **kwargs):
    """Does something."""


def test_signature_sources():
    # a (*args, **kwargs) wrapper falls back to its documented signature lines
    sigs, source = callable_signatures(_wrapper, "add")
    assert source == "docstring"
    assert [[p["name"] for p in s] for s in sigs] == [["input", "other", "alpha"], ["input", "other", "out"]]
    assert sigs[0][2] == {"name": "alpha", "kind": "keyword_only", "default": "1"}
    # the documented name must match, else the generic signature is kept
    sigs, source = callable_signatures(_wrapper, "sub")
    assert (source, sigs) == (
        "inspect",
        [[{"name": "args", "kind": "var_positional"}, {"name": "kwargs", "kind": "var_keyword"}]],
    )
    # stubs win over a generic wrapper; a real Python signature wins over stubs
    stub = [[{"name": "x", "kind": "positional_or_keyword"}]]
    assert callable_signatures(_undocumented, "f", stub) == (stub, "stub")
    assert callable_signatures(_defaults, "f", stub)[1] == "inspect"
    # C builtins without a text signature and with an unparsable docstring line: nothing recorded
    assert callable_signatures(max, "max") == ([], None)


class _Thing:
    """A class with every member shape."""

    limit = 3

    def __init__(self, size, flag=True):
        self.size = size

    def run(self, steps, *, fast=False):
        return steps

    @staticmethod
    def make(a):
        return a

    @classmethod
    def build(cls, b=1):
        return cls(b)

    @property
    def area(self):
        return 1

    def _private(self):
        return 0


def test_walk_members_kinds_and_self_dropping():
    walker = ModuleWalker(Inventory())
    walker.walk_members("pkg.Thing", _Thing, own_only=True)
    apis = walker.inventory.apis
    assert sorted(apis) == [
        "pkg.Thing.area",
        "pkg.Thing.build",
        "pkg.Thing.limit",
        "pkg.Thing.make",
        "pkg.Thing.run",
    ]
    assert apis["pkg.Thing.area"] == {"kind": "attribute"}
    assert apis["pkg.Thing.limit"] == {"kind": "attribute"}
    assert apis["pkg.Thing.run"]["signatures"] == [
        [
            {"name": "steps", "kind": "positional_or_keyword"},
            {"name": "fast", "kind": "keyword_only", "default": "False"},
        ]
    ]
    assert apis["pkg.Thing.make"]["signatures"] == [[{"name": "a", "kind": "positional_or_keyword"}]]
    assert apis["pkg.Thing.build"]["signatures"] == [
        [{"name": "b", "kind": "positional_or_keyword", "default": "1"}]
    ]
    walker.add_object("pkg.Thing", "Thing", _Thing)
    assert apis["pkg.Thing"]["kind"] == "class"
    assert [p["name"] for p in apis["pkg.Thing"]["signatures"][0]] == ["size", "flag"]


def test_dumps_is_sorted_one_api_per_line_and_round_trips():
    apis = {"b.f": {"kind": "function", "signatures": [[]], "source": "inspect"}, "a": {"kind": "module"}}
    text = dumps(document("pkg", "1.0", apis, {"a.g": "b.f"}, {"a.tests": "tests or entry point"}))
    assert text.splitlines() == [
        "{",
        '"aliases":{',
        '"a.g":"b.f"',
        "},",
        '"apis":{',
        '"a":{"kind":"module"},',
        '"b.f":{"kind":"function","signatures":[[]],"source":"inspect"}',
        "},",
        '"package":"pkg",',
        '"schema_version":2,',
        '"skipped":{"a.tests":"tests or entry point"},',
        '"version":"1.0"',
        "}",
    ]
    doc = json.loads(text)
    assert doc == {"schema_version": 2, "package": "pkg", "version": "1.0", "apis": apis,
                   "aliases": {"a.g": "b.f"}, "skipped": {"a.tests": "tests or entry point"}}
    assert dumps(doc) == text and text.endswith("}\n")


def test_markdown_pairs_and_guessed_kind():
    text = (
        "| PyTorch APIs | MindSpore APIs | Descriptions |\n| --- | --- | --- |\n"
        "| [torch.abs](https://x/torch.abs.html) | [mindspore.mint.abs](https://y) | Consistent |\n"
        "| [torchvision.transforms.Resize](u) | [mindspore.dataset.vision.Resize](v) | diff |\n"
        "| [torch.Tensor.foo](u) | | None |\n"
        "| not a row |\n"
    )
    assert _markdown_pairs(text) == {
        ("torch.abs", "mindspore.mint.abs"),
        ("torchvision.transforms.Resize", "mindspore.dataset.vision.Resize"),
        ("torch.Tensor.foo", None),
    }
    assert guessed_kind("torchvision.transforms.Resize") == "class"
    assert guessed_kind("torchvision.io.read_image") == "function"


def test_core_imports_do_not_load_frameworks():
    code = (
        "import msmigrate.knowledge, msmigrate.knowledge.base, msmigrate.datagen.inventory, "
        "msmigrate.knowledge.consistency, msmigrate.cli.data_inventory_cmd, sys; "
        "from msmigrate.knowledge.base import KnowledgeBase; kb = KnowledgeBase('2.6'); "
        "assert 'view' in kb.tensor_members; "
        "assert 'torch' not in sys.modules and 'mindspore' not in sys.modules, 'framework imported'"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def _installed(package: str) -> bool:
    return importlib.util.find_spec(package) is not None


@pytest.mark.parametrize("package", ["torch", "mindspore"])
def test_regeneration_is_byte_identical(tmp_path, package):
    if not _installed(package):
        pytest.skip(f"{package} is not installed; its inventory cannot be regenerated here")
    # a subprocess, so torch / MindSpore never enter this test process
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "msmigrate",
            "data",
            "inventory",
            "--package",
            package,
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert f"{package}_inventory.json" in result.stdout
    generated = (tmp_path / f"{package}_inventory.json").read_bytes()
    committed = (data_dir() / f"{package}_inventory.json").read_bytes()
    assert generated == committed, (
        f"mapping_data/{package}_inventory.json is stale: run `msmigrate data inventory`"
    )


def test_inventory_command_without_torch_says_so(tmp_path):
    code = (
        "import sys; sys.modules['torch'] = None; from msmigrate.cli import main; "
        f"main(['data', 'inventory', '--package', 'torch', '--out', {str(tmp_path)!r}])"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert "torch is not installed in this Python environment" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "torch_inventory.json").exists()
