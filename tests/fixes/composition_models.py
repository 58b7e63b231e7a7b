"""Small torch modules using each composition, as real model code writes the calls, with the exact source
``msmigrate fix`` (safe fixes) gives and the expression a test runs on both sides (``t``/``b``/``i``/``d``
make tensors from NumPy in the framework running it; ``fw`` is that framework; ``set_weight`` gives a module
its weight). Each module's calls were written from torch's documentation of the API, not msmigrate's output.
"""

from __future__ import annotations

# file name → (torch source, fixed source, expression computing ``result``)
MODELS: dict[str, tuple[str, str, str]] = {
    "model_sdpa.py": (
        "import torch.nn.functional as F\n\n\n"
        "def attend(q, k, v, mask, bias):\n"
        "    return (\n"
        "        F.scaled_dot_product_attention(q, k, v, attn_mask=mask),  # boolean mask\n"
        "        F.scaled_dot_product_attention(q, k, v, bias, 0.0, False, scale=0.3),\n"
        "        F.scaled_dot_product_attention(q, k, v, is_causal=True),\n"
        "    )\n",
        "import ms_compat\n\n\n"
        "def attend(q, k, v, mask, bias):\n"
        "    return (\n"
        "        ms_compat.scaled_dot_product_attention(q, k, v, attn_mask=mask),  # boolean mask\n"
        "        ms_compat.scaled_dot_product_attention(q, k, v, bias, 0.0, False, scale=0.3),\n"
        "        ms_compat.scaled_dot_product_attention(q, k, v, is_causal=True),\n"
        "    )\n",
        "attend(t(2, 3, 4, 8), t(2, 3, 5, 8), t(2, 3, 5, 6), b(4, 5), t(2, 1, 4, 5))",
    ),
    "model_finfo.py": (
        "import torch\n\n\n"
        "def limits(x, half):\n"
        "    return torch.finfo(x.dtype).min, torch.finfo(half).eps, torch.finfo().tiny\n",
        "import ms_compat\n\n\n"
        "def limits(x, half):\n"
        "    return ms_compat.finfo(x.dtype).min, ms_compat.finfo(half).eps, ms_compat.finfo().tiny\n",
        "limits(t(2), fw.float16)",
    ),
    "model_unfold.py": (
        "import torch\n\n\n"
        "def windows(x: torch.Tensor):\n"
        "    return x.unfold(1, 3, 2), (x + 1).unfold(-1, 2, 1)\n",
        "import ms_compat\nimport mindspore\n\n\n"
        "def windows(x: mindspore.Tensor):\n"
        "    return ms_compat.unfold(x, 1, 3, 2), ms_compat.unfold((x + 1), -1, 2, 1)\n",
        "windows(t(3, 7, 2))",
    ),
    "model_pad.py": (
        "from torch.nn.utils.rnn import pad_sequence\n\n\n"
        "def pad(a, b, c):\n"
        "    return pad_sequence([a, b, c], batch_first=True, padding_value=-1.0), pad_sequence([a, b, c])\n",
        "import ms_compat\n\n\n"
        "def pad(a, b, c):\n"
        "    return ms_compat.pad_sequence([a, b, c], batch_first=True, padding_value=-1.0), "
        "ms_compat.pad_sequence([a, b, c])\n",
        "pad(t(3, 2), t(5, 2), t(1, 2))",
    ),
    "model_isin.py": (
        "import torch\n\n\n"
        "def member(x, allowed):\n"
        "    return torch.isin(x, allowed), torch.isin(x, allowed, invert=True)\n",
        "import ms_compat\n\n\n"
        "def member(x, allowed):\n"
        "    return ms_compat.isin(x, allowed), ms_compat.isin(x, allowed, invert=True)\n",
        "member(i(10, 3, 4), i(10, 5))",
    ),
    "model_bucketize.py": (
        "import torch\n\n\n"
        "def buckets(x, edges):\n"
        "    return torch.bucketize(x, edges), torch.bucketize(x, edges, right=True)\n",
        "import ms_compat\n\n\n"
        "def buckets(x, edges):\n"
        "    return ms_compat.bucketize(x, edges), ms_compat.bucketize(x, edges, right=True)\n",
        "buckets(d([[-1.0, -0.5, 0.0], [0.25, 0.5, 2.0]]), d([-0.5, 0.0, 0.5]))",
    ),
    "model_hann.py": (
        "import torch\n\n\n"
        "def window():\n"
        "    return torch.hann_window(16), torch.hann_window(7, periodic=False)\n",
        "import ms_compat\n\n\n"
        "def window():\n"
        "    return ms_compat.hann_window(16), ms_compat.hann_window(7, periodic=False)\n",
        "window()",
    ),
    "model_concatenate.py": (
        "import torch\n\n\n"
        "def join(a, b):\n"
        "    return torch.concatenate([a, b], dim=1), torch.concatenate((a, a), axis=0)\n",
        "import ms_compat\n\n\n"
        "def join(a, b):\n"
        "    return ms_compat.concatenate([a, b], dim=1), ms_compat.concatenate((a, a), axis=0)\n",
        "join(t(3, 2), t(3, 4))",
    ),
    "model_take.py": (
        "import torch\n\n\n"
        "def pick(x, index, flat):\n"
        "    return torch.take_along_dim(x, index, dim=1), torch.take_along_dim(x, flat)\n",
        "import ms_compat\n\n\n"
        "def pick(x, index, flat):\n"
        "    return ms_compat.take_along_dim(x, index, dim=1), ms_compat.take_along_dim(x, flat)\n",
        "pick(t(3, 7, 2), i(7, 3, 2, 2), i(42, 5))",
    ),
    "model_unflatten.py": (
        "import torch\n\n\n"
        "def split(x: torch.Tensor):\n"
        "    return x.unflatten(1, (7, 2)), torch.unflatten(x, -1, (2, -1))\n",
        "import ms_compat\nimport mindspore\n\n\n"
        "def split(x: mindspore.Tensor):\n"
        "    return ms_compat.unflatten(x, 1, (7, 2)), ms_compat.unflatten(x, -1, (2, -1))\n",
        "split(t(3, 14))",
    ),
    "model_solve.py": (
        "import torch\n\n\n"
        "def solve(a, b, c):\n"
        "    return (torch.linalg.solve_triangular(a, b, upper=True),\n"
        "            torch.linalg.solve_triangular(a, c, upper=True, left=False))\n",
        "import ms_compat\n\n\n"
        "def solve(a, b, c):\n"
        "    return (ms_compat.solve_triangular(a, b, upper=True),\n"
        "            ms_compat.solve_triangular(a, c, upper=True, left=False))\n",
        "solve(d([[2.0, 0.5, -1.0], [0.0, 3.0, 0.25], [0.0, 0.0, 1.5]]), t(3, 2), t(4, 3))",
    ),
    "model_rms.py": (
        "import torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
        "def build():\n"
        "    return nn.RMSNorm(4, eps=1e-5)\n\n\n"
        "def normalize(x, weight):\n"
        "    return F.rms_norm(x, (4,), weight)\n",
        "import ms_compat\n\n\n"
        "def build():\n"
        "    return ms_compat.RMSNorm(4, eps=1e-5)\n\n\n"
        "def normalize(x, weight):\n"
        "    return ms_compat.rms_norm(x, (4,), weight)\n",
        "(set_weight(build(), d([0.5, 1.0, 1.5, 2.0]))(x := t(2, 3, 4)),"
        " normalize(x, d([2.0, 1.0, 0.5, 0.25])))",
    ),
    "model_einsum.py": (  # mint.einsum runs on Ascend only
        "import torch\n\n\n"
        "def scores(q, k, heads):\n"
        "    dots = torch.einsum(\"b h i d, b h j d -> b h i j\", q, k)\n"
        "    return torch.einsum(\"bhij,hg->bgij\", dots.softmax(dim=-1), heads)\n",
        "import ms_compat\n\n\n"
        "def scores(q, k, heads):\n"
        "    dots = ms_compat.einsum(\"b h i d, b h j d -> b h i j\", q, k)\n"
        "    return ms_compat.einsum(\"bhij,hg->bgij\", dots.softmax(axis=-1), heads)\n",
        "scores(t(2, 3, 4, 5), t(2, 3, 6, 5), t(3, 2))",
    ),
    "model_conv.py": (  # a subclass reading torch's attributes (efficientnet-pytorch's same padding)
        "import math\n"
        "\n"
        "import torch.nn as nn\n"
        "import torch.nn.functional as F\n"
        "\n"
        "\n"
        "class Conv2dSame(nn.Conv2d):\n"
        "    def __init__(self, in_channels, out_channels, kernel_size, stride=1, dilation=1, groups=1,"
        " bias=True):\n"
        "        super().__init__(in_channels, out_channels, kernel_size, stride, 0, dilation, groups,"
        " bias)\n"
        "\n"
        "    def forward(self, x):\n"
        "        ih, iw = x.shape[-2:]\n"
        "        kh, kw = self.weight.shape[-2:]\n"
        "        sh, sw = self.stride\n"
        "        oh, ow = math.ceil(ih / sh), math.ceil(iw / sw)\n"
        "        pad_h = max((oh - 1) * sh + (kh - 1) * self.dilation[0] + 1 - ih, 0)\n"
        "        pad_w = max((ow - 1) * sw + (kw - 1) * self.dilation[1] + 1 - iw, 0)\n"
        "        x = F.pad(x, [pad_w // 2, pad_w - pad_w // 2, pad_h // 2, pad_h - pad_h // 2])\n"
        "        return F.conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation,"
        " self.groups)\n"
        "\n"
        "\n"
        "def mix(x, w):\n"
        "    return F.conv1d(x, w, None, 1, 1)\n",
        "import math\n"
        "\n"
        "import ms_compat\n"
        "import mindspore\n"
        "\n"
        "\n"
        "class Conv2dSame(ms_compat.Conv2d):\n"
        "    def __init__(self, in_channels, out_channels, kernel_size, stride=1, dilation=1, groups=1,"
        " bias=True):\n"
        "        super().__init__(in_channels, out_channels, kernel_size, stride, 0, dilation, groups,"
        " bias)\n"
        "\n"
        "    def construct(self, x):\n"
        "        ih, iw = x.shape[-2:]\n"
        "        kh, kw = self.weight.shape[-2:]\n"
        "        sh, sw = self.stride\n"
        "        oh, ow = math.ceil(ih / sh), math.ceil(iw / sw)\n"
        "        pad_h = max((oh - 1) * sh + (kh - 1) * self.dilation[0] + 1 - ih, 0)\n"
        "        pad_w = max((ow - 1) * sw + (kw - 1) * self.dilation[1] + 1 - iw, 0)\n"
        "        x = mindspore.ops.pad(x, [pad_w // 2, pad_w - pad_w // 2, pad_h // 2, pad_h - pad_h // 2])\n"
        "        return ms_compat.conv2d(x, self.weight, self.bias, self.stride, self.padding,"
        " self.dilation, self.groups)\n"
        "\n"
        "\n"
        "def mix(x, w):\n"
        "    return ms_compat.conv1d(x, w, None, 1, 1)\n",
        "(set_all(Conv2dSame(3, 4, 3, stride=2))(t(2, 3, 7, 8)), mix(t(2, 3, 9), t(4, 3, 3)))",
    ),
    "model_device.py": (  # on CPU, where mint.nn.LayerNorm and mint.nn.Conv2d have no kernel
        "from functools import partial\n\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
        "class LayerNorm(nn.LayerNorm):\n"
        "    def forward(self, x):\n"
        "        return F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)\n\n\n"
        "class Block(nn.Module):\n"
        "    def __init__(self, dim, padding=1, norm=partial(nn.LayerNorm, eps=1e-6), conv=nn.Conv2d):\n"
        "        super().__init__()\n"
        "        self.conv = conv(dim, dim, 3, 1, padding, groups=dim)\n"
        "        self.proj = nn.Conv2d(dim, dim, (3, 1), padding=(1, 0), bias=False)\n"
        "        self.mix = nn.Conv1d(dim, dim, 3, padding=padding)\n"
        "        self.norm = norm(dim)\n"
        "        self.out_norm = LayerNorm(dim)\n\n"
        "    def forward(self, x):\n"
        "        y = self.proj(self.conv(x)) + x\n"
        "        b, c, h, w = y.shape\n"
        "        y = self.mix(y.reshape(b, c, h * w)).reshape(b, c, h, w)\n"
        "        return self.out_norm(self.norm(y.permute(0, 2, 3, 1)))\n\n\n"
        "def is_norm(cell):\n"
        "    return isinstance(cell, nn.LayerNorm)\n",
        "from functools import partial\n\nimport ms_compat\nimport mindspore\n\n\n"
        "class LayerNorm(ms_compat.LayerNorm):\n"
        "    def construct(self, x):\n"
        "        return ms_compat.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)"
        "\n\n\n"
        "class Block(mindspore.nn.Cell):\n"
        "    def __init__(self, dim, padding=1, norm=partial(ms_compat.LayerNorm, eps=1e-6), "
        "conv=ms_compat.Conv2d):\n"
        "        super().__init__()\n"
        "        self.conv = conv(dim, dim, 3, 1, padding, groups=dim)\n"
        "        self.proj = ms_compat.Conv2d(dim, dim, (3, 1), padding=(1, 0), bias=False)\n"
        "        self.mix = ms_compat.Conv1d(dim, dim, 3, padding=padding)\n"
        "        self.norm = norm(dim)\n"
        "        self.out_norm = LayerNorm(dim)\n\n"
        "    def construct(self, x):\n"
        "        y = self.proj(self.conv(x)) + x\n"
        "        b, c, h, w = y.shape\n"
        "        y = self.mix(y.reshape(b, c, h * w)).reshape(b, c, h, w)\n"
        "        return self.out_norm(self.norm(y.permute(0, 2, 3, 1)))\n\n\n"
        "def is_norm(cell):\n"
        "    return isinstance(cell, ms_compat.LayerNorm)\n",
        "set_all(Block(4))(t(2, 4, 5, 3)), is_norm(set_all(LayerNorm(3)))",
    ),
    "model_activation.py": (  # activation classes passed as values, called with torch's inplace=
        "import torch.nn as nn\n\n\n"
        "class Block(nn.Module):\n"
        "    def __init__(self, activation_layer=nn.ReLU, inplace=True):\n"
        "        super().__init__()\n"
        "        params = {} if inplace is None else {\"inplace\": inplace}\n"
        "        self.act = activation_layer(**params)\n\n"
        "    def forward(self, x):\n"
        "        return self.act(x * 4)\n\n\n"
        "def blocks():\n"
        "    return [Block(), Block(nn.ReLU6), Block(nn.SiLU), Block(nn.Hardswish), "
        "Block(nn.Hardsigmoid, None), Block(nn.GELU, None)]\n",
        "import ms_compat\nimport mindspore\n\n\n"
        "class Block(mindspore.nn.Cell):\n"
        "    def __init__(self, activation_layer=ms_compat.ReLU, inplace=True):\n"
        "        super().__init__()\n"
        "        params = {} if inplace is None else {\"inplace\": inplace}\n"
        "        self.act = activation_layer(**params)\n\n"
        "    def construct(self, x):\n"
        "        return self.act(x * 4)\n\n\n"
        "def blocks():\n"
        "    return [Block(), Block(ms_compat.ReLU6), Block(ms_compat.SiLU), Block(ms_compat.Hardswish), "
        "Block(ms_compat.Hardsigmoid, None), Block(ms_compat.GELU, None)]\n",
        "[block(t(3, 4)) for block in blocks()]",
    ),
    "model_broadcast.py": (
        "from torch.distributions.utils import broadcast_all\n\n\n"
        "def spread(loc, scale):\n"
        "    return broadcast_all(loc, scale) + broadcast_all(loc, 2.0)\n",
        "import ms_compat\n\n\n"
        "def spread(loc, scale):\n"
        "    return ms_compat.broadcast_all(loc, scale) + ms_compat.broadcast_all(loc, 2.0)\n",
        "spread(t(3, 1), t(4))",
    ),
    # an optimizer's update, in place: the tensors returned are the arguments, changed by the calls
    "model_inplace.py": (
        "import torch\n\n\n"
        "def update(param: torch.Tensor, grad: torch.Tensor, avg: torch.Tensor, sq: torch.Tensor,\n"
        "           denom: torch.Tensor):\n"
        "    avg.lerp_(grad, 0.1)\n"
        "    sq.addcmul_(grad, grad, value=0.001)\n"
        "    param.addcdiv_(avg, denom, value=-0.01)\n"
        "    grad.neg_()\n"
        "    denom.sqrt_()\n"
        "    sq.unsqueeze_(0)\n"
        "    return param, grad, avg, sq, denom\n",
        "import ms_compat\nimport mindspore\n\n\n"
        "def update(param: mindspore.Tensor, grad: mindspore.Tensor, avg: mindspore.Tensor, "
        "sq: mindspore.Tensor,\n"
        "           denom: mindspore.Tensor):\n"
        "    ms_compat.lerp_(avg, grad, 0.1)\n"
        "    ms_compat.addcmul_(sq, grad, grad, value=0.001)\n"
        "    ms_compat.addcdiv_(param, avg, denom, value=-0.01)\n"
        "    ms_compat.neg_(grad)\n"
        "    ms_compat.sqrt_(denom)\n"
        "    ms_compat.unsqueeze_(sq, 0)\n"
        "    return param, grad, avg, sq, denom\n",
        "update(t(2, 3), t(2, 3), t(2, 3), t(2, 3), d([[0.5, 1.0, 2.0], [1.5, 0.25, 3.0]]))",
    ),
    "model_mha.py": (  # open_clip's AttentionPool2d: separate q/k/v weights, no attention weights
        "import torch.nn.functional as F\n\n\n"
        "def pool(x, wq, wk, wv, b, wo, bo):\n"
        "    out, _ = F.multi_head_attention_forward(\n"
        "        query=x, key=x, value=x, embed_dim_to_check=x.shape[-1], num_heads=2,\n"
        "        q_proj_weight=wq, k_proj_weight=wk, v_proj_weight=wv, in_proj_weight=None, in_proj_bias=b,\n"
        "        bias_k=None, bias_v=None, add_zero_attn=False, dropout_p=0.,\n"
        "        out_proj_weight=wo, out_proj_bias=bo, use_separate_proj_weight=True,\n"
        "        training=False, need_weights=False,\n"
        "    )\n"
        "    return out[0]\n\n\n"
        "def attend(q, kv, w, b, wo, bo):\n"
        "    return F.multi_head_attention_forward(\n"
        "        q, kv, kv, 8, 2, w, b, None, None, False, 0.0, wo, bo, training=False)\n",
        "import ms_compat\n\n\n"
        "def pool(x, wq, wk, wv, b, wo, bo):\n"
        "    out, _ = ms_compat.multi_head_attention_forward(\n"
        "        query=x, key=x, value=x, embed_dim_to_check=x.shape[-1], num_heads=2,\n"
        "        q_proj_weight=wq, k_proj_weight=wk, v_proj_weight=wv, in_proj_weight=None, in_proj_bias=b,\n"
        "        bias_k=None, bias_v=None, add_zero_attn=False, dropout_p=0.,\n"
        "        out_proj_weight=wo, out_proj_bias=bo, use_separate_proj_weight=True,\n"
        "        training=False, need_weights=False,\n"
        "    )\n"
        "    return out[0]\n\n\n"
        "def attend(q, kv, w, b, wo, bo):\n"
        "    return ms_compat.multi_head_attention_forward(\n"
        "        q, kv, kv, 8, 2, w, b, None, None, False, 0.0, wo, bo, training=False)\n",
        "(pool(x := t(5, 2, 8), t(8, 8), t(8, 8), t(8, 8), t(24), t(6, 8), t(6)),"
        " attend(x, t(3, 2, 8), t(24, 8), t(24), t(8, 8), t(8)))",
    ),
    "model_mha_class.py": (  # torchvision's ViT: mindspore.nn.MultiheadAttention returns (output,) here
        "import torch.nn as nn\n\n\n"
        "class Block(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.attention = nn.MultiheadAttention(8, 2, batch_first=True)\n\n"
        "    def forward(self, x):\n"
        "        x, _ = self.attention(x, x, x, need_weights=False)\n"
        "        return x\n",
        "import ms_compat\nimport mindspore\n\n\n"
        "class Block(mindspore.nn.Cell):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.attention = ms_compat.MultiheadAttention(8, 2, batch_first=True)\n\n"
        "    def construct(self, x):\n"
        "        x, _ = self.attention(x, x, x, need_weights=False)\n"
        "        return x\n",
        "set_all(Block())(t(2, 4, 8))",
    ),
    "model_containers.py": (  # torchvision's DenseNet and init loops, vit-pytorch's layers, open_clip's init
        """\
import torch
import torch.nn as nn


class Block(nn.ModuleDict):
    def __init__(self, width, count):
        super().__init__({"layer%d" % (i + 1): nn.Linear(width, width) for i in range(count)})

    def forward(self, x):
        for layer in self.values():
            x = torch.tanh(layer(x))
        return x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([])
        for _ in range(2):
            pair = nn.ModuleList([nn.Linear(4, 4), nn.ReLU()])
            self.layers.append(pair)
        self.fixed = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
        stage = nn.Sequential(nn.Linear(4, 3))
        self.heads = nn.ModuleDict({"block": Block(4, 2), "stage": stage})

    def positions(self):
        linear = [i for i, m in enumerate(self.modules()) if isinstance(m, nn.Linear)]
        return linear + [len(n) * i for i, (n, _) in enumerate(self.heads.named_parameters())]

    def forward(self, x):
        for fc, act in self.layers:
            x = act(fc(x))
        for fc in self.fixed:
            x = fc(x)
        return self.heads["stage"](self.heads["block"](x))
""",
        """\
import ms_compat
import mindspore


class Block(ms_compat.ModuleDict):
    def __init__(self, width, count):
        super().__init__({"layer%d" % (i + 1): mindspore.mint.nn.Linear(width, width) for i in range(count)})

    def construct(self, x):
        for layer in self.values():
            x = mindspore.mint.tanh(layer(x))
        return x


class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = ms_compat.ModuleList([])
        for _ in range(2):
            pair = mindspore.nn.CellList([mindspore.mint.nn.Linear(4, 4), mindspore.mint.nn.ReLU()])
            self.layers.append(pair)
        self.fixed = mindspore.nn.CellList([mindspore.mint.nn.Linear(4, 4) for _ in range(2)])
        stage = mindspore.nn.SequentialCell([mindspore.mint.nn.Linear(4, 3)])
        self.heads = ms_compat.ModuleDict({"block": Block(4, 2), "stage": stage})

    def positions(self):
        linear = [i for i, m in enumerate(ms_compat.modules(self)) if isinstance(m, mindspore.mint.nn.Linear)]
        return linear + [len(n) * i for i, (n, _) in enumerate(ms_compat.named_parameters(self.heads))]

    def construct(self, x):
        for fc, act in self.layers:
            x = act(fc(x))
        for fc in self.fixed:
            x = fc(x)
        return self.heads["stage"](self.heads["block"](x))
""",
        "(set_all(Net())(t(2, 4)), d(Net().positions()))",
    ),
    # antialias=True (open_clip's resize_pos_embed): ops.ScaleAndTranslate's kernels, written as literals
    "model_interpolate.py": (
        "import torch.nn.functional as F\n\n\n"
        "def resize(x):\n"
        "    return (\n"
        "        F.interpolate(x, size=(9, 5), mode=\"bicubic\", antialias=True),\n"
        "        F.interpolate(x, scale_factor=0.5, mode=\"bilinear\", antialias=True),\n"
        "    )\n",
        "import ms_compat\n\n\n"
        "def resize(x):\n"
        "    return (\n"
        "        ms_compat.interpolate(x, size=(9, 5), mode=\"bicubic\", antialias=True),\n"
        "        ms_compat.interpolate(x, scale_factor=0.5, mode=\"bilinear\", antialias=True),\n"
        "    )\n",
        "resize(t(2, 3, 7, 8))",
    ),
}

# the torch API each module exercises (every composition has one)
EXERCISED: dict[str, tuple[str, ...]] = {
    "model_sdpa.py": ("torch.nn.functional.scaled_dot_product_attention",),
    "model_finfo.py": ("torch.finfo",),
    "model_unfold.py": ("torch.Tensor.unfold",),
    "model_pad.py": ("torch.nn.utils.rnn.pad_sequence",),
    "model_isin.py": ("torch.isin",),
    "model_bucketize.py": ("torch.bucketize",),
    "model_hann.py": ("torch.hann_window",),
    "model_concatenate.py": ("torch.concatenate",),
    "model_take.py": ("torch.take_along_dim",),
    "model_unflatten.py": ("torch.Tensor.unflatten", "torch.unflatten"),
    "model_solve.py": ("torch.linalg.solve_triangular",),
    "model_rms.py": ("torch.nn.RMSNorm", "torch.nn.functional.rms_norm"),
    "model_einsum.py": ("torch.einsum",),
    "model_conv.py": ("torch.conv2d", "torch.conv1d"),
    "model_device.py": ("torch.nn.LayerNorm", "torch.nn.functional.layer_norm", "torch.nn.Conv1d",
                        "torch.nn.Conv2d"),
    "model_activation.py": tuple(f"torch.nn.{name}" for name in ("ReLU", "ReLU6", "SiLU", "Hardswish",
                                                                  "Hardsigmoid", "GELU")),
    "model_broadcast.py": ("torch.distributions.utils.broadcast_all",),
    "model_inplace.py": ("torch.Tensor.lerp_", "torch.Tensor.addcmul_", "torch.Tensor.addcdiv_",
                         "torch.Tensor.neg_", "torch.Tensor.sqrt_", "torch.Tensor.unsqueeze_"),
    "model_mha.py": ("torch.nn.functional.multi_head_attention_forward",),
    "model_mha_class.py": ("torch.nn.MultiheadAttention",),
    "model_interpolate.py": ("torch.nn.functional.interpolate",),
    "model_containers.py": ("torch.nn.ModuleDict", "torch.nn.ModuleList", "torch.nn.Module.modules",
                            "torch.nn.Module.named_parameters"),
}

RUNNER = """
import sys
import numpy as np
sys.path.insert(0, {folder!r})
{setup}
rng = np.random.default_rng(7)


def t(*shape):
    return tensor(rng.standard_normal(shape).astype(np.float32))


def b(*shape):
    return tensor(rng.integers(0, 2, shape).astype(bool))


def i(high, *shape):
    return tensor(rng.integers(0, high, shape).astype(np.int64))


def d(values):
    return tensor(np.asarray(values, dtype=np.float32))


from {module} import *  # noqa: F403
result = {expression}
"""

SETUP = {
    "torch": "import torch\nfw = torch\ntensor = torch.from_numpy\n\n\ndef set_weight(m, w):\n"
             "    with torch.no_grad():\n        m.weight.copy_(w)\n    return m\n\n\n"
             "def set_all(m):\n    with torch.no_grad():\n"
             "        for i, (_, p) in enumerate(sorted(m.named_parameters(), key=lambda item: item[0])):\n"
             "            p.copy_(torch.from_numpy(np.linspace(-1, 1, p.numel(), dtype=np.float32))"
             ".reshape(p.shape) + i / 8)\n    return m\n",
    "mindspore": "import mindspore\nfw = mindspore\ntensor = mindspore.Tensor\n\n\ndef set_weight(m, w):\n"
                 "    m.weight.set_data(w)\n    return m\n\n\n"
                 "def set_all(m):\n"
                 "    for i, (_, p) in enumerate(sorted(m.parameters_and_names(), key=lambda kv: kv[0])):\n"
                 "        p.set_data(mindspore.Tensor(np.linspace(-1, 1, p.size, dtype=np.float32))"
                 ".reshape(p.shape) + i / 8)\n    return m\n",
}
