"""One short PyTorch example per rule: ``msmigrate rules MSM301`` shows it, and the rule tests check that
each example triggers its rule (and that the counter-example next to it does not).

The table below holds the examples of rules whose module has none; a rule module may define its own,
``EXAMPLES = {rule id: (example, counter-example, [(line, column) of its findings in the example])}``,
and ``CASES`` / ``EXAMPLES`` here include them.
"""

from __future__ import annotations

from functools import cache
from typing import Any

# rule id → (example that triggers the rule, counter-example that does not)
_CASES: dict[str, tuple[str, str]] = {
    "MSM100": ("import torch\ny = torch.abs(x)\n", "import numpy\ny = numpy.abs(x)\n"),
    "MSM101": (
        "import torch.nn as nn\nlayer = nn.Linear(3, 4)\n",
        "import torch.nn as nn\nact = nn.ReLU()\n",
    ),
    "MSM102": (
        "import torch\n\ndef f(a, m):\n    return a.masked_fill(m, 0)\n",
        "import torch\n\ndef f(a):\n    return a.keys()\n",
    ),
    "MSM103": (
        "import torch\nlayer = torch.nn.Linaer(3, 4)\n",
        "import torch\nlayer = torch.nn.Linear(3, 4)\n",
    ),
    "MSM200": ("import torch\nlow, high = torch.aminmax(x)\n", "import torch\nlow = torch.amin(x)\n"),
    "MSM201": (
        "import torch.nn.functional as F\ny = F.adaptive_max_pool2d(x, 1)\n",
        "import torch.nn.functional as F\ny = F.adaptive_avg_pool2d(x, 1)\n",
    ),
    "MSM202": (
        "import torch\nnorm = torch.nn.RMSNorm(64)\n",
        "import torch\nnorm = torch.nn.LayerNorm(64)\n",
    ),
    "MSM203": (
        "import torch\nout = torch.segment_reduce(data, 'sum', lengths=lengths)\n",
        "import torch\nout = torch.cumsum(data, 0)\n",
    ),
    "MSM204": (
        "import torch\nopt = torch.optim.LBFGS(params)\n",
        "import torch\nopt = torch.optim.Adam(params)\n",
    ),
    "MSM301": (
        "import torch\n\ndef pick(x: torch.Tensor):\n    return torch.masked_select(x, x > 0)\n",
        "import torch\n\ndef pick(x: torch.Tensor):\n    return torch.where(x > 0, x, 0)\n",
    ),
    "MSM302": (
        "import torch\n\ndef pick(x: torch.Tensor):\n    return x[x > 0]\n",
        "import torch\n\ndef pick(x: torch.Tensor):\n    x[x < 0] = 0\n    return x\n",
    ),
    "MSM303": (
        "import torch\n\ndef best(x: torch.Tensor):\n    k = int((x > 0.5).sum())\n"
        "    return torch.topk(x, k)\n",
        "import torch\n\ndef best(x: torch.Tensor):\n    return torch.topk(x, 5)\n",
    ),
    "MSM304": (
        "import torch\n\ndef head(x: torch.Tensor, n: torch.Tensor):\n    return x[: n.item()]\n",
        "import torch\n\ndef head(x: torch.Tensor):\n    return x[: x.shape[0] // 2]\n",
    ),
    "MSM305": (
        "import torch\n\ndef rows(x: torch.Tensor):\n    idx = torch.nonzero(x[:, 0]).squeeze(1)\n"
        "    return torch.index_select(x, 0, idx)\n",
        "import torch\n\ndef rows(x: torch.Tensor):\n    idx = torch.arange(4)\n"
        "    return torch.index_select(x, 0, idx)\n",
    ),
    "MSM306": (
        "import torch\n\ndef reduce(x: torch.Tensor, axis: torch.Tensor):\n"
        "    return torch.sum(x, int(axis))\n",
        "import torch\n\ndef reduce(x: torch.Tensor):\n    return torch.sum(x, -1)\n",
    ),
    "MSM307": (
        "import torch\n\ndef pick(x: torch.Tensor):\n    if x.sum() > 0:\n"
        "        y = torch.masked_select(x, x > 0)\n"
        "    else:\n        y = torch.zeros_like(x)\n    return y\n",
        "import torch\n\ndef pick(x: torch.Tensor):\n    if x.sum() > 0:\n        y = x * 2\n    else:\n"
        "        y = torch.zeros_like(x)\n    return y\n",
    ),
    "MSM401": (
        "import torch\nadj = torch.sparse_coo_tensor(indices, values, (4, 4))\n",
        "import torch\nadj = torch.zeros(4, 4)\n",
    ),
    "MSM402": (
        "import torch\nadj = torch.sparse_csc_tensor(ccol, row, values, (4, 4))\n",
        "import torch\nadj = torch.sparse_csr_tensor(crow, col, values, (4, 4))\n",
    ),
    "MSM403": ("import torch\ny = torch.sparse.mm(adj, x)\n", "import torch\ny = torch.mm(adj, x)\n"),
    "MSM404": (
        "import torch.nn as nn\nemb = nn.Embedding(1000, 64, sparse=True)\n",
        "import torch.nn as nn\nemb = nn.Embedding(1000, 64)\n",
    ),
    "MSM600": (
        "from torch.utils.data import random_split\nparts = random_split(data, [8, 2])\n",
        "import torch\nparts = torch.split(data, 2)\n",
    ),
}



@cache
def cases() -> dict[str, tuple[str, str]]:
    """Rule id → (example, counter-example): the table above and the rule modules' ``EXAMPLES``."""
    from msmigrate.rules.registry import rule_modules

    found = dict(_CASES)
    for module in rule_modules():
        if module.__name__ == __name__:
            continue
        for rule, (positive, negative, _positions) in getattr(module, "EXAMPLES", {}).items():
            if rule in found:
                raise ValueError(f"two examples for {rule}")
            found[rule] = (positive, negative)
    return dict(sorted(found.items()))


def __getattr__(name: str) -> Any:
    """``CASES`` (rule id → (example, counter-example)) and ``EXAMPLES`` (rule id → example), built on
    first use: the rule modules are imported then."""
    if name == "CASES":
        return cases()
    if name == "EXAMPLES":
        return {rule: positive for rule, (positive, _negative) in cases().items()}
    raise AttributeError(name)
