"""The complete inventories: every spelling of a torch / MindSpore API resolves to its canonical name."""

import json

import pytest

from msmigrate.datagen.inventory.writer import document, dumps
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.knowledge.inventory_index import InventoryIndex
from msmigrate.knowledge.lookup import lookup
from msmigrate.paths import data_dir


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase("2.6")


@pytest.mark.parametrize(
    ("spelling", "canonical"),
    [
        ("torch.functional.split", "torch.split"),
        ("torch.nn.modules.loss.L1Loss", "torch.nn.L1Loss"),
        ("torch.nn.modules.module.Module.to", "torch.nn.Module.to"),
        ("torch.nn.Linear.to", "torch.nn.Module.to"),  # inherited from a public base
        ("torch.nn.parameter.Parameter", "torch.nn.Parameter"),
        ("torch.optim.adam.Adam", "torch.optim.Adam"),
        ("torch.utils.data.dataloader.DataLoader", "torch.utils.data.DataLoader"),
        ("torch.FloatTensor.view", "torch.Tensor.view"),  # legacy tensor types share Tensor's members
        ("F.relu", "torch.nn.functional.relu"),
        ("nn.Linear", "torch.nn.Linear"),
        ("torch.jit.is_scripting", "torch.jit.is_scripting"),
        ("torch.distributed.rpc.remote", "torch.distributed.rpc.remote"),
    ],
)
def test_torch_spellings_resolve(kb, spelling, canonical):
    assert kb.canonical(spelling) == canonical
    assert kb.is_torch_api(kb.canonical(spelling))


@pytest.mark.parametrize(
    "name",
    [
        "torch.jit.is_scripting",
        "torch.accelerator",
        "torch.accelerator.is_available",
        "torch.testing.assert_close",
        "torch.multiprocessing.spawn",
        "torch.fx.symbolic_trace",
        "torch.distributed.rpc.remote",
        "torch.signal.windows.hann",
        "torch.distributions.Normal",
        "torch.distributions.Normal.log_prob",
        "torch.nn.attention.sdpa_kernel",
        "torch.nn.attention.SDPBackend",
    ],
)
def test_public_torch_apis_are_listed(kb, name):
    assert name in kb.torch_inventory


def test_kinds_and_bases(kb):
    assert kb.torch_kind("torch.functional.split") == "function"
    assert kb.torch_kind("torch.nn.modules.module.Module.to") == "method"
    assert kb.torch_kind("torch.multiprocessing.spawn") == "function"  # not the module of the same name
    assert kb.torch_inventory["torch.nn.Linear"]["bases"] == ["torch.nn.Module"]
    assert kb.torch_inventory["torch.distributions.Normal"]["bases"] == [
        "torch.distributions.ExponentialFamily", "torch.distributions.Distribution"]
    # the signature of the canonical object, whatever the spelling
    assert kb.torch_signatures("torch.nn.modules.linear.Linear") == kb.torch_signatures("torch.nn.Linear")


@pytest.mark.parametrize(
    "name", ["torch.nn.Linaer", "torch.sofmax", "torch.jit.is_scriptin", "torch.nn.Linear.foo"]
)
def test_names_torch_does_not_have(kb, name):
    assert not kb.is_torch_api(name)
    assert kb.resolve_torch(name) is None


def test_mindspore_names(kb):
    for name in ("mindspore.mint.nn.Linear", "mindspore.mint.nn.functional.relu", "mindspore.ops.matmul",
                 "mindspore.nn.Dense", "mindspore.Tensor.view", "mindspore.nn.Cell.construct",
                 "mindspore.communication.get_rank", "mindspore.float32", "mindspore.dtype.float32"):
        assert kb.mindspore_has(name), name
    assert kb.mindspore_canonical("mindspore.dtype.float32") == "mindspore.common.dtype.float32"
    dense_params = kb.mindspore_canonical("mindspore.nn.Dense.trainable_params")
    assert dense_params == "mindspore.nn.Cell.trainable_params"
    assert not kb.mindspore_has("mindspore.nn.Hswish")
    assert _param_names(kb.mindspore_signatures("mindspore.nn.Dense"))[:2] == ["in_channels", "out_channels"]


def _param_names(signatures):
    return [p["name"] for p in signatures[0]]


def test_inventory_sizes():
    """Floors measured on torch 2.13.0 (22,306 names) and MindSpore 2.10.0 (16,791 names)."""
    for package, floor in (("torch", 22_000), ("mindspore", 16_500)):
        doc = json.loads((data_dir() / f"{package}_inventory.json").read_text(encoding="utf-8"))
        assert len(doc["apis"]) >= floor, package
        assert all(target in doc["apis"] for target in doc["aliases"].values()), package
        assert not set(doc["aliases"]) & set(doc["apis"]), package


def test_index_reads_the_writer_layout_and_resolves():
    apis = {"p": {"kind": "module"}, "p.Base": {"kind": "class"}, "p.Base.run": {"kind": "method"},
            "p.Sub": {"kind": "class", "bases": ["p.Base"]}, "p.f": {"kind": "function", "signatures": [[]]}}
    aliases = {"p.impl": "p", "p.impl.g": "p.f", "p.impl.Sub": "p.Sub"}
    skipped = {"p.tests": "tests or entry point"}
    index = InventoryIndex.parse(dumps(document("p", "1", apis, aliases, skipped)))
    assert dict(index) == apis and index.aliases == aliases
    assert index.header == {"package": "p", "schema_version": 2, "skipped": skipped, "version": "1"}
    assert index.resolve("p.impl.g") == "p.f"
    assert index.resolve("p.impl.Sub.run") == "p.Base.run"  # alias of the class, then its base's member
    assert index.resolve("p.Sub.run") == "p.Base.run"
    assert index.resolve("p.Sub.walk") is None
    assert index.resolve("p.impl.Base") == "p.Base"  # a module alias spells every name of its target
    assert index.resolve("p.impl.nothing") is None
    assert index.all_members("p.Sub") == frozenset({"run"})


def test_lookup_accepts_any_spelling(kb):
    result = lookup("torch.functional.split", kb)
    assert (result.query, result.torch_api, result.row.mindspore_api) == (
        "torch.functional.split", "torch.split", "mindspore.mint.split")
    assert lookup("torch.nn.modules.loss.L1Loss", kb).torch_api == "torch.nn.L1Loss"
