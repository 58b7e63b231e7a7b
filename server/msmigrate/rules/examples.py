"""One short PyTorch example per rule: ``msmigrate rules MSM301`` shows it, and the rule tests check that
each example triggers its rule (and that the counter-example next to it does not).

The table below holds the examples of the API rules the analysis reports itself; every rule module defines
its own, ``EXAMPLES = {rule id: (example, counter-example, [(line, column) of its findings in the
example])}`` (``rules/loader.rule_examples``), and ``CASES`` / ``EXAMPLES`` here include them.
"""

from __future__ import annotations

from functools import cache
from typing import Any

# rule id → (example that triggers the rule, counter-example that does not, [(line, column) of its findings
# in the example])
_CASES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM100": ("import torch\ny = torch.abs(x)\n", "import numpy\ny = numpy.abs(x)\n", [(2, 5)]),
    "MSM101": (
        "import torch.nn as nn\nlayer = nn.Linear(3, 4)\n",
        "import torch.nn as nn\nact = nn.ReLU()\n",
        [(2, 9)],
    ),
    "MSM102": (
        "import torch\n\ndef f(a, m):\n    return a.masked_fill(m, 0)\n",
        "import torch\n\ndef f(a):\n    return a.keys()\n",
        [(4, 14)],
    ),
    "MSM103": (
        "import torch\nlayer = torch.nn.Linaer(3, 4)\n",
        "import torch\nlayer = torch.nn.Linear(3, 4)\n",
        [(2, 9)],
    ),
    "MSM104": (  # (getattr(nn, name) has a rule of its own: MSM520)
        "import importlib\n\nimport torch\n\nnn = importlib.import_module(\"torch.nn\")\n",
        "import importlib\n\nimport torch\n\nnn = importlib.import_module(\"json\")\n",
        [(5, 6)],
    ),
    "MSM200": (
        "import torch\nlow, high = torch.aminmax(x)\n",
        "import torch\nlow = torch.amin(x)\n",
        [(2, 13)],
    ),
    "MSM600": (
        "from torch.utils.data import random_split\nparts = random_split(data, [8, 2])\n",
        "import torch\nparts = torch.split(data, 2)\n",
        [(2, 9)],
    ),
}


@cache
def cases() -> dict[str, tuple[str, str]]:
    """Rule id → (example, counter-example): the table above and the rule modules' ``EXAMPLES``."""
    return {rule: (positive, negative) for rule, (positive, negative, _) in _examples().items()}


@cache
def positions() -> dict[str, list[tuple[int, int]]]:
    """Rule id → the (line, column) of each of its findings in its example."""
    return {rule: list(where) for rule, (_, _, where) in _examples().items()}


@cache
def _examples() -> dict[str, tuple[str, str, list[tuple[int, int]]]]:
    from msmigrate.rules.loader import rule_examples

    found = dict(_CASES)
    for rule, example in rule_examples().items():
        if rule in found:
            raise ValueError(f"two examples for {rule}")
        found[rule] = example
    return dict(sorted(found.items()))


def __getattr__(name: str) -> Any:
    """``CASES`` (rule id → (example, counter-example)) and ``EXAMPLES`` (rule id → example), built on
    first use: the rule modules are imported then."""
    if name == "CASES":
        return cases()
    if name == "EXAMPLES":
        return {rule: positive for rule, (positive, _negative) in cases().items()}
    raise AttributeError(name)
