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
             "    with torch.no_grad():\n        m.weight.copy_(w)\n    return m\n",
    "mindspore": "import mindspore\nfw = mindspore\ntensor = mindspore.Tensor\n\n\ndef set_weight(m, w):\n"
                 "    m.weight.set_data(w)\n    return m\n",
}
