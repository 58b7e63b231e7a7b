"""``net.add_module(name, cell)`` → ``ms_compat.add_module(net, name, cell)`` (an adapter of the project's
helper module, ``knowledge/compositions/adapters/add_module.py.txt``).

The mapping's target, ``Cell.insert_child_to_cell``, adds the child without naming its parameters: a
parameter's name (the checkpoint key ``load_param_into_net`` matches) is given when its cell is set as an
attribute. With ``insert_child_to_cell`` the layers added in a loop keep names such as ``norm1.gamma``, the
same in every layer (torchvision's DenseNet), so a converted checkpoint cannot load; and a child added to a
``SequentialCell`` is never run (its ``construct`` runs ``cell_list``). The helper names the parameters by
their path in the network and refreshes ``cell_list``, as torch's ``add_module`` registers the child.

In a subclass of ``nn.Sequential``, a module set as an attribute in ``__init__`` (torchvision's DenseNet
``_Transition``: ``self.norm = nn.BatchNorm2d(n)``) is one of the layers torch runs; a ``SequentialCell``
runs only the cells of its ``cell_list``, built by its own ``__init__``. Such an assignment becomes
``ms_compat.add_module(self, "norm", nn.BatchNorm2d(n))`` (the attribute still reads the cell).
"""

from __future__ import annotations

import ast

from msmigrate.fixes.composition_fixes import import_edit
from msmigrate.fixes.compositions import CompatModule, binds_otherwise
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding

HELPER = "add_module"
APIS = frozenset({"torch.nn.Module.add_module", "torch.nn.Module.register_module"})
ADD_MODULE_KEY = "finding.MSM521.add_module"  # the finding (rules/framework/_add_module.py)
_PARAMETERS = ("name", "module")


def fits(call: ast.Call) -> bool:
    """The call passes the name and the module, by position or keyword, and nothing else."""
    if len(call.args) > 2 or any(isinstance(a, ast.Starred) for a in call.args) \
            or any(k.arg not in _PARAMETERS for k in call.keywords):
        return False
    bound = {*_PARAMETERS[:len(call.args)], *(k.arg for k in call.keywords)}
    return bound == set(_PARAMETERS) and len(call.args) + len(call.keywords) == 2


def add_module(ctx: FixContext, finding: Finding) -> Fix | None:
    if finding.message_key != ADD_MODULE_KEY:
        return None
    call = ctx.call_of(finding)
    if call is None or not isinstance(call.func, ast.Attribute) or not fits(call):
        return None
    compat = ctx.compat or CompatModule.beside(ctx.path)
    statement = compat.import_statement(ctx.path)
    if statement is None or binds_otherwise(ctx.tree, compat.local, statement):
        return None
    first = min([*call.args, *call.keywords], key=lambda node: (node.lineno, node.col_offset))
    line, column, _, _ = ctx.node_range(first)
    edits = [TextEdit(*ctx.node_range(call.func), f"{compat.local}.{HELPER}"),
             TextEdit(line, column, line, column, f"{ctx.text(call.func.value)}, ")]
    return Fix("MSM521", "fix.add_module_helper", [*edits, *import_edit(ctx, statement)],
               {"module": compat.name}, helpers=(HELPER,))


_NOT_MODULES = frozenset({"torch.nn.Parameter", "torch.nn.Buffer", "torch.nn.UninitializedParameter",
                          "torch.nn.UninitializedBuffer"})


def sequential_attribute(ctx: FixContext, finding: Finding) -> Fix | None:
    """``self.norm = nn.BatchNorm2d(n)`` in ``__init__`` of an ``nn.Sequential`` subclass (the finding is
    the class called) → ``ms_compat.add_module(self, "norm", nn.BatchNorm2d(n))``."""
    api = finding.torch_api or ""
    if not api.startswith("torch.nn.") or api in _NOT_MODULES or ctx.kb.torch_kind(api) != "class":
        return None
    call = ctx.call_of(finding)
    statement = ctx.parents.get(id(call)) if call is not None else None
    if not isinstance(statement, ast.Assign) or statement.value is not call or len(statement.targets) != 1:
        return None
    target = statement.targets[0]
    if not isinstance(target, ast.Attribute) or not isinstance(target.value, ast.Name) \
            or target.value.id != "self":
        return None
    method = ctx.parents.get(id(statement))
    owner = ctx.parents.get(id(method)) if isinstance(method, ast.FunctionDef) else None
    if not isinstance(method, ast.FunctionDef) or method.name != "__init__" \
            or not isinstance(owner, ast.ClassDef) or not _sequential_subclass(ctx, owner):
        return None
    compat = ctx.compat or CompatModule.beside(ctx.path)
    statement_text = compat.import_statement(ctx.path)
    if statement_text is None or binds_otherwise(ctx.tree, compat.local, statement_text):
        return None
    line, column, _, _ = ctx.node_range(target)
    value_line, value_column, end_line, end_column = ctx.node_range(call)
    head = f'{compat.local}.{HELPER}(self, "{target.attr}", '
    edits = [TextEdit(line, column, value_line, value_column, head),
             TextEdit(end_line, end_column, end_line, end_column, ")")]
    return Fix(finding.rule, "fix.sequential_attribute", [*edits, *import_edit(ctx, statement_text)],
               {"module": compat.name}, helpers=(HELPER,))


def _sequential_subclass(ctx: FixContext, owner: ast.ClassDef) -> bool:
    """A base of ``owner`` is ``torch.nn.Sequential`` (a finding on it says so)."""
    spans = [ctx.node_range(base) for base in owner.bases]
    return any(f.torch_api == "torch.nn.Sequential" and any(
        (f.line, f.column) >= span[:2] and (f.end_line, f.end_column) <= span[2:] for span in spans)
        for f in ctx.findings)


FIXERS = {"MSM100": sequential_attribute, "MSM101": sequential_attribute}  # MSM521: its rule module
