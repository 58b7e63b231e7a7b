"""Claims the code around a usage decides, beyond the names of the call's arguments.

Read by the resolution (``analysis/resolution.py``) once the target is settled; each fact found is a
message detail the finding states (its category becomes ``differences``) and, where the fix cannot write
the usage, the argument that blocks it:

- a torch Module class used as the base of a class that defines ``forward`` and no ``construct``: a Cell
  runs ``construct`` (MSM501 renames it);
- keywords a call passes through ``**name`` whose keys the same function writes in a dict literal or
  ``dict(...)`` (timm's ``dd = {'device': device, 'dtype': dtype}``), and those of the calls of a name a
  referenced class is assigned to (``layer = norm_layer or nn.LayerNorm`` … ``layer(dim, **dd)``), that the
  written target takes under no name: the fixed call would raise "unexpected keyword argument";
- the reviewed value facts of a pair (``knowledge/pair_facts.py``: MindSpore's ``Tensor.device`` is a str).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field

from msmigrate.analysis.container_forms import unverified_list_form
from msmigrate.i18n import MessageRef, ref
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.knowledge.device_targets import device_failure
from msmigrate.knowledge.pair_facts import (
    DEVICE_ARGUMENTS,
    argument_values,
    device_argument_fact,
    device_form_fact,
    pair_fact,
)
from msmigrate.knowledge.resolution import device_choices
from msmigrate.model.finding import Finding, FindingCategory, UsageKind

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_MAX_ITEMS = 4


@dataclass(slots=True)
class Claims:
    """What the code around one usage adds to its finding."""

    details: list[MessageRef] = field(default_factory=list)
    blocked: tuple[str, str, str] | None = None  # (fix.blocked.* key, parameter, value as written)
    # the difference is another rule's to fix (MSM501 renames forward): the rename's safety stands
    handled_elsewhere: bool = False
    no_kernel: bool = False  # the target does not run for this call on the device
    unverified_form: str = ""  # a resolution.safety.reason: a form of the use its check did not verify


class CodeIndex:
    """Lazily built lookups over one file's tree: the class a base expression belongs to, the innermost
    function holding a node, the dict keys a function writes under a name."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self._bases: dict[int, ast.ClassDef] | None = None
        self._functions: list[tuple[int, int, ast.AST]] | None = None
        self._keys: dict[tuple[int, str], tuple[str, ...] | None] = {}

    def class_of_base(self, node: ast.AST) -> ast.ClassDef | None:
        if self._bases is None:
            self._bases = {id(base): cls for cls in ast.walk(self.tree) if isinstance(cls, ast.ClassDef)
                           for base in cls.bases}
        return self._bases.get(id(node))

    def function_of(self, node: ast.AST) -> ast.AST:
        """The innermost function (or the module) whose body holds ``node``."""
        if self._functions is None:
            self._functions = sorted(
                ((f.lineno, f.end_lineno or f.lineno, f) for f in ast.walk(self.tree)
                 if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)),
                key=lambda item: (item[0], -item[1]))
        line = getattr(node, "lineno", 0)
        found: ast.AST = self.tree
        for start, end, function in self._functions:
            if start > line:
                break
            if line <= end:
                found = function  # later starts are nested deeper
        return found

    def dict_keys(self, scope: ast.AST, name: str) -> tuple[str, ...] | None:
        """The keys of the dict ``scope`` assigns to ``name`` once, as a literal with string keys or
        ``dict(k=…)`` (``None``: not known — assigned otherwise, more than once, or changed)."""
        key = (id(scope), name)
        if key not in self._keys:
            self._keys[key] = _dict_keys(scope, name)
        return self._keys[key]


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's (or module's) own body, not of the functions or classes it defines."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))


def _dict_keys(scope: ast.AST, name: str) -> tuple[str, ...] | None:
    found: tuple[str, ...] | None = None
    count = 0
    for node in _own_nodes(scope):
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            count += 1
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                  for t in node.targets):
            found = _literal_keys(node.value)
        elif (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name
              and not isinstance(node.ctx, ast.Load)):
            return None  # dd['x'] = … changes the keys
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and isinstance(node.func.value, ast.Name) and node.func.value.id == name
              and node.func.attr in ("update", "pop", "setdefault", "clear", "popitem")):
            return None
    return found if count == 1 else None


def _literal_keys(value: ast.expr) -> tuple[str, ...] | None:
    if isinstance(value, ast.Dict):
        keys = [k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        return tuple(keys) if len(keys) == len(value.keys) else None
    if (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict"
            and not value.args and all(k.arg for k in value.keywords)):
        return tuple(k.arg for k in value.keywords if k.arg)
    return None


def var_keyword_keys(index: CodeIndex, call: ast.Call) -> list[tuple[str, str]]:
    """(key, name) of each keyword ``call`` passes through ``**name`` whose keys are known."""
    found = []
    for keyword in call.keywords:
        if keyword.arg is None and isinstance(keyword.value, ast.Name):
            keys = index.dict_keys(index.function_of(call), keyword.value.id)
            found.extend((key, keyword.value.id) for key in keys or ())
    return found


def accepts(kb: KnowledgeBase, target: str, param: str) -> bool:
    signatures = kb.mindspore_signatures(target)
    for signature in signatures:
        for p in signature:
            kind = p.get("kind")
            if kind == "var_keyword" or (p.get("name") == param and kind != "positional_only"):
                return True
    return not signatures  # unknown: not claimed


def claims_of(kb: KnowledgeBase, index: CodeIndex, torch_api: str, usage: UsageKind, target: str | None,
              ref_node: ast.expr | None, call: ast.Call | None, device: str = "CPU",
              replaced: bool = False) -> Claims:
    """The claims the code decides for one mapped usage whose fix writes ``target`` on ``device``
    (``replaced``: the target replaces the mapping's own there)."""
    claims = Claims()
    if not target:
        return claims
    if not replaced:
        failed = device_failure(torch_api, kb.version, device)
        if failed is not None and failed[0] == target:  # no replacement this call can be written with
            claims.details.append(ref("analysis.detail.no_kernel_kept", device=device, mindspore_api=target,
                                      mindspore=kb.derived_table.mindspore_version))
            claims.no_kernel = True
        form = device_form_fact(torch_api, target, device, _passed(kb, torch_api, call))
        if form is not None:
            claims.details.append(ref(form, device=device, mindspore_api=target,
                                      mindspore=kb.derived_table.mindspore_version))
            claims.no_kernel = True
    kernel = _device_argument(kb, torch_api, target, call, device)
    if kernel is not None:
        claims.details.append(ref(kernel[0], device=device, mindspore_api=target, param=kernel[1],
                                  mindspore=kb.derived_table.mindspore_version))
        claims.no_kernel = True
    if usage is UsageKind.BASE_CLASS and ref_node is not None:
        cls = index.class_of_base(ref_node)
        if cls is not None and _runs_forward(cls) and _module_class(kb, torch_api):
            claims.details.append(ref("analysis.detail.base_forward", cls=cls.name, mindspore_api=target))
            claims.handled_elsewhere = True
    if usage is not UsageKind.REFERENCE:  # a type named computes nothing (an annotation keeps CellList)
        claims.unverified_form = unverified_list_form(index.tree, torch_api, call)
    for param, (values, key) in argument_values(torch_api, target).items():
        value = _argument(call, kb.torch_signatures(torch_api), param) if call is not None else None
        if value is not None and not (isinstance(value, ast.Constant) and value.value in values):
            claims.details.append(ref(key, mindspore_api=target, param=param, value=ast.unparse(value)[:40],
                                      values=", ".join(sorted(values))))
            claims.unverified_form = claims.unverified_form or "argument_value"
    calls = [call] if call is not None else _calls_of_assigned(index, ref_node) if ref_node else []
    refused: dict[str, str] = {}
    for one in calls:
        for key, name in var_keyword_keys(index, one):
            if not accepts(kb, target, key):
                refused.setdefault(key, name)
    if refused:
        names = sorted(set(refused.values()))
        claims.details.append(ref("analysis.detail.var_keyword_refused", items=_items(refused),
                                  names=", ".join(f"**{n}" for n in names), mindspore_api=target))
        key, name = next(iter(refused.items()))
        claims.blocked = ("fix.blocked.var_keyword", key, f"**{name}")
    fact = pair_fact(torch_api, target)
    if fact is not None:
        claims.details.append(ref(fact))
    return claims


def _device_argument(kb: KnowledgeBase, torch_api: str, target: str, call: ast.Call | None,
                     device: str) -> tuple[str, str] | None:
    """(message key, parameter) when the call passes a parameter of :data:`DEVICE_ARGUMENTS` as anything but
    ``False`` (by keyword, or by position in torch's signature) to a function target that keeps it: the fix
    writes a call that runs a kernel the device lacks. A class's ``inplace`` is dropped by the fix."""
    if call is None or kb.torch_kind(torch_api) == "class":
        return None
    for parameter, on in DEVICE_ARGUMENTS:
        key = device_argument_fact(parameter, device) if on == device else None
        value = _argument(call, kb.torch_signatures(torch_api), parameter) if key else None
        if value is None or not _keeps(kb, target, parameter):
            continue
        if not (isinstance(value, ast.Constant) and value.value is False):
            return key, parameter  # type: ignore[return-value]
    return None


def _argument(call: ast.Call, signatures: list[list[dict]], name: str) -> ast.expr | None:
    """The expression ``call`` passes for torch's parameter ``name`` (by keyword, or by position where every
    signature puts it at the same place)."""
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    places = set()
    for signature in signatures:
        positional = [p.get("name") for p in signature if p.get("name") != "self"
                      and p.get("kind") in (None, "positional_only", "positional_or_keyword")]
        places.add(positional.index(name) if name in positional else None)
    place = places.pop() if len(places) == 1 else None
    if place is None or place >= len(call.args) or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    return call.args[place]


def _keeps(kb: KnowledgeBase, target: str, parameter: str) -> bool:
    """Whether the MindSpore function ``target`` takes ``parameter`` by name (the fix then writes it)."""
    return kb.mindspore_kind(target) != "class" and any(
        p.get("name") == parameter for signature in kb.mindspore_signatures(target) for p in signature)


def _passed(kb: KnowledgeBase, torch_api: str, call: ast.Call | None) -> frozenset[str] | None:
    from msmigrate.analysis.severity import passed_params

    if call is None:
        return None
    found = passed_params(call, kb.torch_signatures(torch_api))
    return None if found is None else frozenset(found)


def _items(values) -> str:
    values = list(values)
    text = ", ".join(values[:_MAX_ITEMS])
    return text + (", …" if len(values) > _MAX_ITEMS else "")


def _runs_forward(cls: ast.ClassDef) -> bool:
    names = {s.name for s in cls.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)}
    return "forward" in names and "construct" not in names


def _module_class(kb: KnowledgeBase, torch_api: str) -> bool:
    """``torch.nn.Module`` or a Module class of ``torch.nn`` (``nn.Sequential``, ``nn.Linear``)."""
    if torch_api == "torch.nn.Module":
        return True
    owner, _, name = torch_api.rpartition(".")
    return owner == "torch.nn" and name[:1].isupper() and kb.torch_kind(torch_api) == "class"


def _calls_of_assigned(index: CodeIndex, ref_node: ast.expr) -> list[ast.Call]:
    """The calls of the name a referenced class is assigned to in the same function
    (``layer = norm_layer or nn.LayerNorm`` … ``layer(dim, **dd)``)."""
    scope = index.function_of(ref_node)
    name = None
    for node in _own_nodes(scope):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if any(n is ref_node for n in _value_leaves(node.value)):
                name = node.targets[0].id
                break
    if name is None:
        return []
    return [node for node in _own_nodes(scope) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name) and node.func.id == name]


def _value_leaves(value: ast.expr) -> Iterator[ast.expr]:
    """The expressions a value may be: ``a or b``, ``a if c else b``, else the value itself."""
    if isinstance(value, ast.BoolOp):
        for part in value.values:
            yield from _value_leaves(part)
    elif isinstance(value, ast.IfExp):
        yield from _value_leaves(value.body)
        yield from _value_leaves(value.orelse)
    else:
        yield value


_TO_DIFFERENCES = {"analysis.api.consistent": "analysis.api.differences",
                   "analysis.api.derived_consistent": "analysis.api.derived_differences",
                   "analysis.api.consistent_form": "analysis.api.differences"}
_DIFFERENCES = frozenset({"analysis.api.differences", "analysis.api.derived_differences"})


def with_details(key: str, args: dict, details: list[MessageRef]) -> tuple[str, dict] | None:
    """A mapped finding's message (``key``, ``args``) that also states ``details``, as a difference
    (``None``: a message that cannot state them)."""
    if key == "resolution.message":  # the verdict's message and a note on the replaced target
        inner = args.get("message") or ()
        if len(inner) != 1:
            return None
        found = with_details(inner[0][0], dict(inner[0][1]), details)
        return None if found is None else (key, {**args, "message": (ref(found[0], **found[1]),)})
    if key == "resolution.message_write_back":
        return key, {**args, "note": (*details, *args.get("note", ()))}
    if key in _DIFFERENCES:
        known = tuple(args.get("details", ()))
        return key, {**args, "details": (*known, *(d for d in details if d not in known))}
    if key in _TO_DIFFERENCES:
        args = dict(args)
        form = args.pop("form", ())
        return _TO_DIFFERENCES[key], {**args, "details": (*form, *details)}
    return None


def possible_on_device(finding: Finding, kb: KnowledgeBase, device: str) -> None:
    """A possible Tensor API (MSM102) whose target has no kernel on the device: its message says so and
    names what runs there (the out-of-place counterpart, or the device replacement)."""
    out, swaps = device_choices(kb, finding.torch_api or "", finding.mindspore_api, device)
    other = out.row.mindspore_api if out is not None else swaps[0].row.mindspore_api if swaps else None
    if not other:
        return
    note = ref("resolution.note.possible_device", device=device, replaced=finding.mindspore_api or "",
               target=other, mindspore=kb.derived_table.mindspore_version)
    finding.message_args = {**finding.message_args, "message": (ref(finding.message_key,
                                                                    **finding.message_args),),
                            "note": (note,)}
    finding.message_key = "resolution.message"


def state(finding: Finding, details: list) -> None:
    """The finding states ``details`` (facts of this usage): a difference, rule MSM101."""
    found = with_details(finding.message_key, finding.message_args, details)
    if found is None:
        return
    finding.message_key, finding.message_args = found
    finding.message_args["changes_results"] = True
    finding.message_args["call_specific"] = True
    finding.category = FindingCategory.DIFFERENCES
    finding.rule = "MSM101"
