"""Dynamic-shape, sparse and framework-pattern rules on more variants: exact (line, column, rule, fixable)."""

from __future__ import annotations

import pytest

HEADER = (
    "import torch\n"
    "import torch.nn as nn\n"
    "import torch.nn.functional as F\n\n\n"
    "def f(x: torch.Tensor, lengths: torch.Tensor, model, optimizer, device):\n"
)

# name → (function body after HEADER, or a whole module; findings of the MSM3xx–MSM5xx rules)
CASES: dict[str, tuple[str, list[tuple[int, int, str, bool]]]] = {
    "method_nonzero": (
        HEADER + "    return x.nonzero()\n",
        [(7, 14, "MSM301", False)],
    ),
    "unique": (
        HEADER + "    return torch.unique(x, return_counts=True)\n",
        [(7, 12, "MSM301", False)],
    ),
    "unique_consecutive_method": (
        HEADER + "    return x.unique_consecutive()\n",
        [(7, 14, "MSM301", False)],
    ),
    "where_one_arg": (
        HEADER + "    return torch.where(x > 0)\n",
        [(7, 12, "MSM301", False)],
    ),
    "where_three_args": (
        HEADER + "    return torch.where(x > 0, x, 0.0)\n",
        [],
    ),
    "argwhere": (
        HEADER + "    return torch.argwhere(x)\n",
        [(7, 12, "MSM301", False)],
    ),
    "mask_variable": (
        HEADER + "    m = x > 0\n    return x[m]\n",
        [(8, 12, "MSM302", False)],
    ),
    "mask_combined": (
        HEADER + "    m = (x > 0) & (x < 5)\n    return x[~m]\n",
        [(8, 12, "MSM302", False)],
    ),
    "mask_store": (
        HEADER + "    m = x > 0\n    x[m] = 0\n    return x\n",
        [],
    ),
    "mask_isnan": (
        HEADER + "    return x[torch.isnan(x)]\n",
        [(7, 12, "MSM302", False)],
    ),
    "topk_method_variable": (
        HEADER + "    k = lengths.max().item()\n    return x.topk(k)\n",
        [(8, 19, "MSM303", False)],
    ),
    "topk_constant": (
        HEADER + "    return x.topk(3, dim=1)\n",
        [],
    ),
    "slice_variable": (
        HEADER + "    n = int(lengths.max())\n    return x[:, :n]\n",
        [(8, 18, "MSM304", False)],
    ),
    "slice_shape": (
        HEADER + "    return x[:, : x.shape[1] // 2]\n",
        [],
    ),
    "slice_len": (
        HEADER + "    return x[: len(lengths)]\n",
        [],
    ),
    "gather_dynamic": (
        HEADER + "    idx = torch.nonzero(lengths > 2).squeeze(1)\n    return x.index_select(0, idx)\n",
        [(7, 11, "MSM301", False), (8, 30, "MSM305", False)],
    ),
    "gather_masked": (
        HEADER + "    idx = lengths[lengths > 0]\n    return torch.gather(x, 1, idx)\n",
        [(7, 11, "MSM302", False), (8, 31, "MSM305", False)],
    ),
    "gather_static": (
        HEADER + "    idx = torch.arange(3)\n    return x.index_select(0, idx)\n",
        [],
    ),
    "permute_data": (
        HEADER + "    order = lengths.argsort().tolist()\n    return x.permute(order)\n",
        [(8, 22, "MSM306", False)],
    ),
    "transpose_data": (
        HEADER + "    d = int(lengths[0])\n    return x.transpose(0, d)\n",
        [(8, 27, "MSM306", False)],
    ),
    "mean_constant": (
        HEADER + "    return x.mean(dim=(2, 3), keepdim=True)\n",
        [],
    ),
    "while_grow": (
        HEADER + "    out = x[:1]\n    while out.sum() < 10:\n"
        "        out = torch.cat([out, x[:1]])\n    return out\n",
        [(8, 11, "MSM307", False)],
    ),
    "if_none": (
        HEADER + "    if lengths is None:\n        y = torch.masked_select(x, x > 0)\n"
        "    else:\n        y = x\n    return y\n",
        [(8, 13, "MSM301", False)],
    ),
    "if_same_shape": (
        HEADER + "    if x.mean() > 0:\n        y = x * 2\n    else:\n        y = x - 1\n    return y\n",
        [],
    ),
    "if_return": (
        HEADER + "    if (x > 0).any():\n        return x[x > 0]\n    else:\n        return x\n",
        [(7, 8, "MSM307", False), (8, 16, "MSM302", False)],
    ),
    # MSM307 without an else: the name keeps, on that side, the value it had before the if
    "if_slice_no_else": (
        HEADER + "    x = torch.randn(4, 3)\n    if x.sum() > 0:\n        x = x[:2]\n    return x\n",
        [(8, 8, "MSM307", False)],
    ),
    "if_slice_of_parameter_no_else": (
        HEADER + "    if x.sum() > 0:\n        x = x.float()\n        x = x[1:]\n    return x\n",
        [(7, 8, "MSM307", False)],
    ),
    "if_index_drops_a_dimension": (
        HEADER + "    if x.mean() > 0:\n        x = x[0]\n    return x\n",
        [(7, 8, "MSM307", False)],
    ),
    "if_mask_no_else": (
        HEADER + "    if x.sum() > 0:\n        x = x[x > 0]\n    return x\n",
        [(7, 8, "MSM307", False), (8, 13, "MSM302", False)],
    ),
    "if_else_static_shapes": (
        HEADER + "    if x.sum() > 0:\n        y = torch.zeros(2, 3)\n    else:\n"
        "        y = torch.zeros((4, 3))\n    return y\n",
        [(7, 8, "MSM307", False)],
    ),
    "if_slice_of_the_whole_length": (
        HEADER + "    x = torch.randn(4, 3)\n    if x.sum() > 0:\n        x = x[:4, ..., -3:]\n"
        "    return x\n",
        [],
    ),
    "if_elementwise_no_else": (
        HEADER + "    x = torch.randn(4, 3)\n    if x.sum() > 0:\n        x = torch.zeros_like(x) + x * 2\n"
        "    return x\n",
        [],
    ),
    "if_else_same_static_shape": (
        HEADER + "    if x.sum() > 0:\n        y = torch.ones(4, 3)\n    else:\n"
        "        y = torch.randn(4, 3)[:, :]\n    return y\n",
        [],
    ),
    "if_slice_of_a_list": (
        HEADER + "    if x.sum() > 0:\n        model = model[:2]\n    return model\n",
        [],
    ),
    "if_slice_into_a_new_name": (
        HEADER + "    if x.sum() > 0:\n        y = x[:2]\n        print(y)\n    return x\n",
        [],
    ),
    "if_slice_on_a_static_condition": (
        HEADER + "    if x.shape[0] > 2:\n        x = x[:2]\n    return x\n",
        [],
    ),
    "to_sparse": (
        HEADER + "    return x.to_sparse()\n",
        [(7, 14, "MSM401", False)],
    ),
    "to_sparse_csr_layout": (
        HEADER + "    return x.to_sparse(layout=torch.sparse_csr)\n",
        [(7, 14, "MSM401", False)],
    ),
    "to_sparse_csc": (
        HEADER + "    return x.to_sparse_csc()\n",
        [(7, 14, "MSM402", False)],
    ),
    "sparse_csr_tensor": (
        HEADER + "    return torch.sparse_csr_tensor(lengths, lengths, x)\n",
        [(7, 12, "MSM401", False)],
    ),
    "layout_bsr": (
        HEADER + "    return torch.zeros(2, 2, layout=torch.sparse_bsr)\n",
        [(7, 37, "MSM402", False)],
    ),
    "layout_coo_reference": (
        HEADER + "    return x.layout == torch.sparse_coo\n",
        [(7, 24, "MSM401", False)],
    ),
    "top_level_sparse_op": (
        HEADER + "    return torch.hspmm(x, lengths)\n",
        [(7, 12, "MSM403", False)],
    ),
    "sparse_adam": (
        HEADER + "    return torch.optim.SparseAdam(model.parameters())\n",
        [(7, 12, "MSM404", False), (7, 41, "MSM506", True)],  # (MSM506: → model.trainable_params())
    ),
    "embedding_dense": (
        HEADER + "    return nn.Embedding(10, 3, sparse=False)\n",
        [],
    ),
    "dict_values": (
        HEADER + "    table = {'a': 1}\n    return table.values()\n",
        [],
    ),
    "tensor_values": (
        HEADER + "    return x.values()\n",
        [(7, 14, "MSM403", False)],
    ),
    "to_device": (
        HEADER + "    return x.to(device)\n",
        [(7, 14, "MSM504", True)],
    ),
    "to_dtype": (
        HEADER + "    return x.to(torch.float16)\n",
        [],
    ),
    "to_device_and_dtype": (
        HEADER + "    return x.to(device, torch.float16)\n",
        [(7, 14, "MSM504", False)],
    ),
    "cpu_numpy": (
        HEADER + "    return x.cpu().numpy()\n",
        [(7, 14, "MSM504", True)],
    ),
    "model_cuda_statement": (
        HEADER + "    model.cuda()\n    return model\n",
        [(7, 11, "MSM504", True)],
    ),
    "train_false": (
        HEADER + "    model.train(False)\n",
        [(7, 11, "MSM505", True)],
    ),
    "trainer_train": (
        HEADER + "    trainer = object()\n    trainer.train()\n",
        [],
    ),
    "train_flag_variable": (
        HEADER + "    model.train(mode=training)\n",
        [(7, 11, "MSM505", True)],
    ),
    "trainer_train_data": (
        HEADER + "    trainer = object()\n    trainer.train(data)\n",
        [],
    ),
    "autocast": (
        HEADER + "    with torch.autocast('cuda'):\n        return model(x)\n",
        [(7, 10, "MSM509", False)],
    ),
    "ddp": (
        HEADER + "    return nn.parallel.DistributedDataParallel(model)\n",
        [(7, 12, "MSM510", False)],
    ),
    "dataset_class": (
        "import torch\nfrom torch.utils.data import Dataset\n\n\n"
        "class Pairs(Dataset):\n    def __len__(self):\n        return 3\n",
        [(5, 13, "MSM511", False)],
    ),
    "torch_load": (
        HEADER + "    return torch.load('ckpt.pth', map_location='cpu')\n",
        [(7, 12, "MSM512", True)],  # → mindspore.load_checkpoint('ckpt.pth')
    ),
    "param_groups": (
        HEADER + "    for group in optimizer.param_groups:\n        group['lr'] = 0.1\n",
        [(7, 28, "MSM508", False)],
    ),
    "param_groups_update_lr": (
        HEADER + "    for group in optimizer.param_groups:\n        group.update(lr=0.1)\n",
        [(7, 28, "MSM508", False)],
    ),
    # an optimizer's own loop writing other keys of its groups sets no learning rate: no MSM508
    "param_groups_other_keys": (
        HEADER + "    for group in optimizer.param_groups:\n        group.setdefault('foreach', None)\n"
        "        group['step'] = group['lr'] * 2\n",
        [],
    ),
    # the 2.6 table maps Adam to mindspore.mint.optim.Adam, which keeps the name `lr`
    "adam_lr_mint_target": (
        HEADER + "    return torch.optim.Adam(model.parameters(), lr=1e-3)\n",
        [(7, 35, "MSM506", True)],  # model.parameters() → model.trainable_params()
    ),
    # unmapped in 2.6; its catalogued replacement mindspore.experimental.optim.Rprop keeps the name `lr`
    "rprop_lr_unmapped": (
        HEADER + "    return torch.optim.Rprop(model.parameters(), lr=1e-3)\n",
        [(7, 36, "MSM506", True)],
    ),
    # no MindSpore optimizer to switch to: the advice stands, but no rename (it would break the torch call)
    "lbfgs_lr_no_target": (
        HEADER + "    return torch.optim.LBFGS(model.parameters(), lr=1e-3)\n",
        [(7, 50, "MSM508", False)],
    ),
    "sgd_lr_catalogued_replacement": (
        HEADER + "    return torch.optim.SGD(model.parameters(), lr=1e-3)\n",
        [(7, 34, "MSM506", True), (7, 48, "MSM508", True)],
    ),
    "no_grad_decorator": (
        "import torch\n\n\n@torch.no_grad()\ndef evaluate(model, x):\n    return model(x)\n",
        [(4, 2, "MSM507", True)],  # the decorator goes
    ),
    # mixed precision turned off for a block: no mindspore.amp replacement (the block stays as it is)
    "autocast_disabled": (
        HEADER + "    with torch.amp.autocast(device_type='cuda', enabled=False):\n        return model(x)\n",
        [(7, 10, "MSM509", False)],
    ),
    "inference_mode": (
        HEADER + "    with torch.inference_mode():\n        return model(x)\n",
        [(7, 10, "MSM507", True)],  # the block is unwrapped
    ),
    "init_xavier": (
        HEADER + "    nn.init.xavier_uniform_(model.weight)\n",
        [(7, 5, "MSM503", True)],  # → model.weight.set_data(initializer(XavierUniform(), ...))
    ),
    "subclass_of_own_module": (
        "import torch.nn as nn\n\n\nclass Base(nn.Module):\n    pass\n\n\nclass Head(Base):\n"
        "    def forward(self, x):\n        return x\n",
        [(9, 9, "MSM501", True)],
    ),
    "subclass_of_linear": (
        "import torch.nn as nn\n\n\nclass Scaled(nn.Linear):\n"
        "    def forward(self, x):\n        return super().forward(x) * 2\n",
        [(5, 9, "MSM501", True)],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_case(analyze, name):
    source, expected = CASES[name]
    found = [
        (f.line, f.column, f.rule, f.fixable)
        for f in analyze(source).findings
        if f.rule[:4] in ("MSM3", "MSM4", "MSM5")
    ]
    assert found == expected
