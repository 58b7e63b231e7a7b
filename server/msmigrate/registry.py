"""The one registry of the modules rules and fixes come from, by name. Nothing is imported here: the layers
that read a kind of module import the ones listed (``tests/core/test_registry.py`` keeps the lists whole).

* :data:`RULE_MODULES` – ``msmigrate/rules/<name>.py``, each defining its rules' ``RULES``, texts
  (``MESSAGES``, read by :func:`msmigrate.i18n.catalogue` from the source, without importing the rule),
  checkers (``CHECKERS``, run by ``analysis/analyzer.py``), fixers (``FIXERS``, ``fixes/registry.py``) and
  examples (``EXAMPLES``, ``rules/examples.py``). The other modules of ``rules/`` are helpers they import.
* :data:`FIX_MODULES` – ``msmigrate/fixes/<name>.py`` whose ``FIXERS`` fix the API findings the analysis
  reports itself (``analysis/api_rules.py``), collected before the rule modules' fixers.

Both lists are in name order, which is the order the checkers run and the fixers are tried in. A listed
module that fails to import raises where it is imported: a broken rule stops the product loudly instead of
silently reporting nothing.
"""

from __future__ import annotations

RULE_MODULES: tuple[str, ...] = (
    "autograd_function",
    "buffers",
    "cell_children",
    "cell_parameters",
    "data_parallel",
    "device_compositions",
    "dynamic_attributes",
    "dynamic_shape",
    "einops_layers",
    "grad_mode",
    "graph_celldict",
    "graph_device",
    "graph_empty_device",
    "graph_helpers",
    "graph_list_compare",
    "graph_mode",
    "init_helpers",
    "inplace_methods",
    "missing_api",
    "numpy_operands",
    "patterns",
    "recompute",
    "sparse",
    "sparse_buffers",
    "torch_checks",
    "torch_types",
    "weights_download",
)

FIX_MODULES: tuple[str, ...] = (
    "add_module_fixes",
    "api_fixes",
    "composition_fixes",
    "construct_super_fixes",
    "container_fixes",
    "derived_fixes",
    "device_default_fixes",
    "graph_form_fixes",
    "init_by_class_fixes",
    "string_annotation_fixes",
)


def rule_module(name: str) -> str:
    """The dotted name of rule module ``name``."""
    return f"msmigrate.rules.{name}"


def fix_module(name: str) -> str:
    """The dotted name of fix module ``name``."""
    return f"msmigrate.fixes.{name}"
