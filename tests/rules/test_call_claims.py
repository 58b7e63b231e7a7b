"""Rule findings whose claim the call decides (issue 23, item 2): autocast turned off for a block, a
learning rate written (or not) through param_groups."""

from __future__ import annotations

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.knowledge.base import get_knowledge_base

AMP = """\
import torch
from torch.amp import autocast


@autocast('cuda', enabled=False)
def f(x):
    with torch.amp.autocast(device_type='cuda', enabled=False):
        y = x * 2
    with torch.autocast(device_type='cuda'):
        return y * 2
"""


def test_autocast_turned_off_names_no_replacement():
    result = analyze_source(AMP, "s.py", get_knowledge_base("2.6"), AnalysisOptions(use_jedi=False))
    found = [(f.line, f.column, f.rule, f.torch_api, f.mindspore_api) for f in result.findings]
    assert found == [
        (5, 2, "MSM509", "torch.amp.autocast", None),
        (7, 10, "MSM509", "torch.amp.autocast", None),
        (9, 10, "MSM509", "torch.autocast", "mindspore.amp.auto_mixed_precision"),
    ]
    assert result.findings[1].message() == (
        "torch.amp.autocast(enabled=False) turns mixed precision off for its block: MindSpore has no region "
        "autocast, so drop the with (or decorator) and keep the block as it is")
    assert result.findings[2].message() == (
        "torch.autocast: use mindspore.amp (auto_mixed_precision, DynamicLossScaler)")


def _rules(source: str) -> list[tuple[int, int, str]]:
    result = analyze_source(source, "s.py", get_knowledge_base("2.6"), AnalysisOptions(use_jedi=False))
    return [(f.line, f.column, f.rule) for f in result.findings if f.rule.startswith("MSM3")]


SHAPES = """\
import torch
from torch import nn
from typing import Tuple


class Block(nn.Module):
    def forward(self, x, size: Tuple[int, int], drop_ratio=None, lengths=None):
        H, W = size
        if W % 7 > 0:
            x = x[:, :H]
        keep = max(1, int(x.shape[1] * (1 - drop_ratio)))
        top = x.topk(keep, dim=-1)
        return x[:, : int(lengths.max())], top
"""


def test_shapes_from_python_values_are_static():
    # size is annotated as a tuple of ints; drop_ratio is a forward parameter whose type nothing shows
    # (whether it is tensor data is not known); lengths.max() is a tensor's value: dynamic
    assert _rules(SHAPES) == [(13, 23, "MSM304")]


HOST = """\
import torch


def transcribe(model, tokens: torch.Tensor):
    out = model.decode(tokens)
    last = out[-1].item()
    return tokens[tokens.nonzero().flatten()], last


def select(scores: torch.Tensor):
    return scores[scores.nonzero().flatten()]
"""


def test_host_code_driving_a_model_has_no_graph_mode_shapes():
    # transcribe calls the model and reads values back (.item()): eager host code; select may be graph code
    assert _rules(HOST) == [(11, 26, "MSM301")]


def _messages(source: str, prefix: str) -> list[tuple[int, int, str, str]]:
    result = analyze_source(source, "s.py", get_knowledge_base("2.6"), AnalysisOptions(use_jedi=False))
    return [(f.line, f.column, f.rule, f.message()) for f in result.findings if f.rule.startswith(prefix)]


def test_a_distributed_sampler_and_a_device_move_that_casts():
    source = ("import torch\nfrom torch.utils.data.distributed import DistributedSampler\n\n"
              "def f(ds, x: torch.Tensor, device):\n    s = DistributedSampler(ds)\n"
              "    return s, x.to(device, dtype=torch.float16)\n")
    found = _messages(source, "MSM5")
    assert found[0][:3] == (5, 9, "MSM510")
    assert found[0][3].startswith(
        "torch.utils.data.distributed.DistributedSampler: use mindspore.dataset.DistributedSampler("
        "num_shards=get_group_size(), shard_id=get_rank()) and give it to the dataset as sampler=")
    assert found[1][:3] == (6, 17, "MSM504")
    assert found[1][3].startswith(
        ".to() moves data between devices and casts to torch.float16: keep the cast "
        "(.astype(torch.float16)); MindSpore uses the device set once with mindspore.set_device. Also: ")


def test_an_initializer_rewrite_states_no_argument_plan_of_the_class():
    # torch.nn.init.constant_(w, 1) is rewritten as w.set_data(initializer(Constant(1), …)) (MSM503): the
    # function's arguments are not Constant's, so no "passes val, which MindSpore does not accept"
    source = ("import torch\nimport torch.nn as nn\nw = nn.Parameter(torch.zeros(3))\n"
              "nn.init.constant_(w, 1)\n")
    (line, column, rule, message) = _messages(source, "MSM503")[0]
    assert (line, column, rule) == (4, 1, "MSM503")
    assert "does not accept" not in message and "land on other" not in message


def test_torch_save_of_python_objects_is_pickled_data():
    source = ("import torch\nimport torch.nn as nn\nm = nn.Linear(2, 2)\n"
              "torch.save((['a'], {'b': 1}), 'meta.pt')\ntorch.save(m.state_dict(), 'w.pt')\n")
    result = analyze_source(source, "s.py", get_knowledge_base("2.6"), AnalysisOptions(use_jedi=False))
    found = [(f.line, f.column, f.rule, f.mindspore_api) for f in result.findings
             if f.torch_api == "torch.save"]
    assert found == [(4, 1, "MSM512", None), (5, 1, "MSM512", "mindspore.save_checkpoint")]
    [meta] = [f for f in result.findings if f.line == 4]
    assert meta.message() == (
        "torch.save saves Python objects here ((['a'], {'b': 1})), not weights: mindspore.save_checkpoint "
        "stores only parameters, so keep pickle (or json) for them")


def test_a_coo_tensor_says_its_indices_are_transposed_in_mindspore():
    # run on MindSpore 2.10: COOTensor(indices [N, ndim], values, shape); torch's indices are [ndim, N]
    source = ("import torch\ni = torch.tensor([[0, 1], [1, 2]])\n"
              "s = torch.sparse_coo_tensor(i, torch.ones(2), (3, 4))\n")
    [(line, column, rule, message)] = _messages(source, "MSM4")
    assert (line, column, rule) == (3, 5, "MSM401")
    assert message.startswith(
        "torch.sparse_coo_tensor creates a COO sparse tensor; mindspore.COOTensor(indices, values, shape) "
        "takes the indices as [N, ndim] where torch takes [ndim, N]: transpose them (indices.T)")


def test_lr_of_an_optimizer_whose_target_takes_lr_is_no_finding():
    # torch.optim.SGD → mindspore.experimental.optim.SGD (derived): lr stays lr; no "called learning_rate"
    source = "import torch\nm = torch.nn.Linear(2, 2)\nopt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
    assert _messages(source, "MSM508") == []
