"""What a module's top-level imports bind (analysis/import_names.py), read by the graph rules and MSM529."""

from __future__ import annotations

import ast

from msmigrate.analysis.import_names import (
    imported_name,
    module_imports,
    names_of,
    package_imports,
    package_name,
)

SOURCE = """\
import numpy as np
import numpy
import os.path
import mindspore.ops as ops
from mindspore import nn, Tensor as T
from . import local
import jax.numpy as jnp

def f():
    import torch
"""


def test_the_names_top_level_imports_bind():
    imports = module_imports(ast.parse(SOURCE))
    assert imports == {"np": "numpy", "numpy": "numpy", "os": "os", "ops": "mindspore.ops",
                       "nn": "mindspore.nn", "T": "mindspore.Tensor", "jnp": "jax.numpy"}
    assert names_of(imports, "numpy") == frozenset({"np", "numpy"})
    assert names_of(imports, "torch") == frozenset()


def test_a_later_import_of_a_name_replaces_the_earlier_one():
    imports = module_imports(ast.parse("import numpy as np\nimport jax.numpy as np\n"))
    assert imports == {"np": "jax.numpy"}
    assert names_of(imports, "numpy") == frozenset()


def test_the_dotted_name_an_expression_is_through_the_imports():
    imports = module_imports(ast.parse(SOURCE))

    def name(text: str) -> str | None:
        return imported_name(ast.parse(text, mode="eval").body, imports)

    assert name("ops.exp") == "mindspore.ops.exp"
    assert name("T") == "mindspore.Tensor"
    assert name("np.linalg.norm") == "numpy.linalg.norm"
    assert name("torch.ones") is None  # imported inside a function only
    assert name("f(x).y") is None  # not a name or attribute chain


TORCH = """\
import os
import torch.nn
import torch as th
from torch.nn import functional as F

def f():
    import torch.utils.data as data
"""


def test_the_names_bound_to_one_package_and_its_first_name():
    tree = ast.parse(TORCH)
    assert package_imports(tree, "torch") == {"torch": "torch", "th": "torch", "F": "torch.nn.functional"}
    assert package_imports(tree, "torch", everywhere=True) == {
        "torch": "torch", "th": "torch", "F": "torch.nn.functional", "data": "torch.utils.data"}
    assert package_name(tree, "torch") == "torch"  # import torch.nn binds torch first
    assert package_name(ast.parse("import torch as th\nimport torch\n"), "torch") == "th"
    assert package_name(ast.parse("import torch.nn as nn\n"), "torch") is None
    assert package_name(ast.parse("def f():\n    import torch\n"), "torch") is None
