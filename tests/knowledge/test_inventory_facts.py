"""Facts the committed inventories must hold (read through KnowledgeBase; no torch import)."""

import json

import pytest

from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.paths import data_dir


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase("2.6")


def _names(signature):
    return [p["name"] for p in signature]


def test_headers():
    for package, version in (("torch", "2.13.0"), ("mindspore", "2.10.0")):
        doc = json.loads((data_dir() / f"{package}_inventory.json").read_text(encoding="utf-8"))
        assert (doc["schema_version"], doc["package"], doc["version"]) == (2, package, version)
        assert set(doc) == {"schema_version", "package", "version", "apis", "aliases", "skipped"}


def test_every_entry_follows_the_schema(kb):
    kinds = {"module", "function", "class", "method", "attribute", "tensor_method", "tensor_attribute"}
    param_kinds = {
        "positional_only",
        "positional_or_keyword",
        "var_positional",
        "keyword_only",
        "var_keyword",
    }
    for inventory in (kb.torch_inventory, kb.mindspore_inventory):
        for name, entry in inventory.items():
            assert entry["kind"] in kinds, name
            assert set(entry) <= {"kind", "signatures", "source", "bases"}, name
            assert all(base in inventory for base in entry.get("bases", ())), name
            assert entry.get("source") in (None, "stub", "inspect", "docstring", "mapping_table"), name
            for signature in entry.get("signatures", []):
                for param in signature:
                    assert set(param) <= {"name", "kind", "default"} and param["kind"] in param_kinds, name


def test_torch_add_has_all_overloads(kb):
    sigs = kb.torch_signatures("torch.add")
    assert len(sigs) == 3
    assert sigs[0] == [
        {"name": "input", "kind": "positional_or_keyword"},
        {"name": "other", "kind": "positional_or_keyword"},
        {"name": "alpha", "kind": "keyword_only", "default": "1"},
        {"name": "out", "kind": "keyword_only", "default": "None"},
    ]
    assert _names(sigs[1]) == ["self", "alpha", "other"]
    assert kb.torch_inventory["torch.add"]["source"] == "stub"


def test_tensor_members(kb):
    assert kb.torch_kind("torch.Tensor.view") == "tensor_method"
    assert [_names(s) for s in kb.torch_signatures("torch.Tensor.view")] == [["dtype"], ["size"], ["size"]]
    assert kb.torch_signatures("torch.Tensor.view")[2][0]["kind"] == "var_positional"
    for attribute in ("T", "shape", "dtype", "device", "grad", "is_cuda", "requires_grad", "data", "ndim"):
        assert kb.torch_kind(f"torch.Tensor.{attribute}") == "tensor_attribute", attribute
    # defined in Python (torch/_tensor.py): inspect, with self dropped
    assert kb.torch_signatures("torch.Tensor.split") == [
        [
            {"name": "split_size", "kind": "positional_or_keyword"},
            {"name": "dim", "kind": "positional_or_keyword", "default": "0"},
        ]
    ]
    assert {"view", "reshape", "T", "shape", "backward", "numpy", "item", "to", "cuda"} <= kb.tensor_members
    assert "__add__" not in kb.tensor_members and "_version" not in kb.tensor_members


def test_nn_linear_signature(kb):
    assert kb.torch_kind("torch.nn.Linear") == "class"
    assert kb.torch_signatures("torch.nn.Linear") == [
        [
            {"name": "in_features", "kind": "positional_or_keyword"},
            {"name": "out_features", "kind": "positional_or_keyword"},
            {"name": "bias", "kind": "positional_or_keyword", "default": "True"},
            {"name": "device", "kind": "positional_or_keyword", "default": "None"},
            {"name": "dtype", "kind": "positional_or_keyword", "default": "None"},
        ]
    ]


def test_module_optimizer_and_children(kb):
    assert kb.torch_kind("torch.nn.Module.parameters") == "method"
    assert kb.torch_signatures("torch.nn.Module.parameters") == [
        [{"name": "recurse", "kind": "positional_or_keyword", "default": "True"}]
    ]
    assert {
        "parameters",
        "forward",
        "train",
        "eval",
        "state_dict",
        "to",
        "cuda",
        "zero_grad",
    } <= kb.module_members
    assert {"step", "zero_grad", "state_dict", "load_state_dict", "add_param_group"} <= kb.optimizer_members
    assert "OptimizerPreHook" not in kb.optimizer_members  # a typing alias, not an API
    assert {"Linear", "Conv2d", "Module", "functional", "init"} <= kb.children("torch.nn")
    assert kb.torch_kind("torch.nn.functional") == "module"


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("torch.float32", "attribute"),
        ("torch.pi", "attribute"),
        ("torch.channels_last", "attribute"),  # public, though not in torch.__all__
        ("torch.unique", "function"),
        ("torch.manual_seed", "function"),
        ("torch.backends.cudnn.benchmark", "attribute"),
        ("torch.backends.cudnn.deterministic", "attribute"),
        ("torch.nn.functional.relu", "function"),
        ("torch.nn.init.xavier_uniform_", "function"),
        ("torch.nn.utils.clip_grad_norm_", "function"),
        ("torch.nn.utils.rnn.pad_sequence", "function"),
        ("torch.linalg.vector_norm", "function"),
        ("torch.fft.fft", "function"),
        ("torch.special.erf", "function"),
        ("torch.optim.Adam", "class"),
        ("torch.optim.lr_scheduler.StepLR", "class"),
        ("torch.utils.data.DataLoader", "class"),
        ("torch.distributed.all_reduce", "function"),
        ("torch.cuda.is_available", "function"),
        ("torch.cuda.amp.GradScaler", "class"),
        ("torch.amp.autocast", "class"),
        ("torch.autograd.grad", "function"),
        ("torch.autograd.Function", "class"),
        ("torch.distributions.Normal", "class"),
        ("torch.jit.script", "function"),
        ("torch.nn.SyncBatchNorm.convert_sync_batchnorm", "method"),  # cited by the tables
        ("torchvision.transforms.Resize", "class"),
        ("torch.nn.Module.training", "attribute"),  # declared by annotation only
        ("torch.utils.data.DataLoader.batch_size", "attribute"),
        ("torch.distributed.TCPStore", "class"),  # a C class (torch._C._distributed_c10d)
        ("torch.linalg.LinAlgError", "class"),
    ],
)
def test_torch_kinds(kb, name, kind):
    assert kb.torch_kind(name) == kind


def test_docstring_signature_for_c_builtins(kb):
    entry = kb.torch_inventory["torch.linalg.vector_norm"]
    assert entry["source"] == "docstring"
    assert _names(entry["signatures"][0]) == ["x", "ord", "dim", "keepdim", "dtype", "out"]
    assert entry["signatures"][0][1] == {"name": "ord", "kind": "positional_or_keyword", "default": "2"}


def test_third_party_names_are_marked(kb):
    entry = kb.torch_inventory["torchvision.transforms.Resize"]
    assert entry == {"kind": "class", "signatures": [], "source": "mapping_table"}
    sources = {e.get("source") for n, e in kb.torch_inventory.items() if n.startswith("torchvision.")}
    assert sources == {"mapping_table"}
    assert not any(
        e.get("source") == "mapping_table" for n, e in kb.torch_inventory.items() if n.startswith("torch.")
    )


def test_mindspore_facts(kb):
    dense = kb.mindspore_signatures("mindspore.nn.Dense")
    assert _names(dense[0]) == [
        "in_channels",
        "out_channels",
        "weight_init",
        "bias_init",
        "has_bias",
        "activation",
        "dtype",
    ]
    assert dense[0][4] == {"name": "has_bias", "kind": "positional_or_keyword", "default": "True"}
    assert kb.mindspore_kind("mindspore.mint.nn.Linear") == "class"
    assert _names(kb.mindspore_signatures("mindspore.mint.nn.Linear")[0])[:3] == [
        "in_features",
        "out_features",
        "bias",
    ]
    assert kb.mindspore_kind("mindspore.Tensor.view") == "tensor_method"
    assert kb.mindspore_kind("mindspore.Tensor.shape") == "tensor_attribute"
    assert kb.mindspore_kind("mindspore.nn.Cell.construct") == "method"
    assert kb.mindspore_kind("mindspore.float32") == "attribute"
    assert kb.mindspore_kind("mindspore.ops.Add") == "class"
    # the mint wrappers are (*args, **kwargs): their documented signature is used instead
    assert kb.mindspore_signatures("mindspore.mint.add") == [
        [
            {"name": "input", "kind": "positional_or_keyword"},
            {"name": "other", "kind": "positional_or_keyword"},
            {"name": "alpha", "kind": "keyword_only", "default": "1"},
        ]
    ]
    # ``.. method::`` overload lines of a C method's docstring
    assert [_names(s) for s in kb.mindspore_signatures("mindspore.Tensor.max")][:2] == [
        [],
        ["dim", "keepdim"],
    ]
    for name in (
        "mindspore.ops",
        "mindspore.mint.nn.functional",
        "mindspore.experimental.optim.Adam",
        "mindspore.experimental.optim.lr_scheduler.StepLR",
        "mindspore.dataset.GeneratorDataset",
        "mindspore.dataset.vision.Resize",
        "mindspore.communication.init",
        "mindspore.amp.auto_mixed_precision",
        "mindspore.numpy.array",
        "mindspore.common.initializer.Normal",
        "mindspore.nn.Cell.trainable_params",
    ):
        assert kb.mindspore_has(name), name


def test_no_memory_addresses_or_local_paths():
    for package in ("torch", "mindspore"):
        text = (data_dir() / f"{package}_inventory.json").read_text(encoding="utf-8")
        assert " at 0x" not in text
        assert "site-packages" not in text and "/root/" not in text and "/home/" not in text


def test_functional_reexports_use_the_c_stubs(kb):
    # functional.pyi re-exports C functions (``from torch._C._nn import log_sigmoid as logsigmoid``)
    sdpa = kb.torch_inventory["torch.nn.functional.scaled_dot_product_attention"]
    assert sdpa["source"] == "stub"
    assert _names(sdpa["signatures"][0]) == [
        "query",
        "key",
        "value",
        "attn_mask",
        "dropout_p",
        "is_causal",
        "scale",
        "enable_gqa",
    ]
    assert kb.torch_signatures("torch.nn.functional.logsigmoid") == [
        [{"name": "input", "kind": "positional_or_keyword"}]
    ]


def test_mindspore_names_missing_from_all(kb):
    for name in ("mindspore.grad", "mindspore.value_and_grad", "mindspore.vmap", "mindspore.jvp"):
        assert kb.mindspore_kind(name) == "function", name
    assert _names(kb.mindspore_signatures("mindspore.grad")[0])[:3] == ["fn", "grad_position", "weights"]
