"""Argument forms at the call of a class instance (``value_forms.CALL_FORMS``, ``fixes/instance_calls.py``):
MindSpore's ``nn.CrossEntropyLoss`` takes class-index labels as int32 only (int64 raises a TypeError at the
call) and float class probabilities as they are, so the fix that writes it adapts the labels at the calls
of the instance it sees: ``.int()`` for integer labels, nothing for float ones, a cast of integers only for
labels of a dtype the source does not show. Both forms were run on CPU with MindSpore 2.10 (the conversion
suite for int64 labels; float probabilities give torch's loss)."""

from __future__ import annotations

import ast

from msmigrate.fixes.api import fix_all
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.instance_calls import dtype_class, instance_calls, parents
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.value_forms import CLASS_INDICES, call_forms, class_indices_wrapping

KB = {version: get_knowledge_base(version) for version in ("2.4", "2.6")}


def _fixed(source: str, version: str = "2.4", device: str = "CPU") -> str:
    return fix_all(source, "m.py", KB[version], device=device)[0]


def _titles(source: str, version: str = "2.4", lang: str = "en") -> list[str]:
    fixes = fix_all(source, "m.py", KB[version])[1]
    return [fix.title(lang) for fix in fixes if "call_forms" in fix.title_key]


MODULE_ATTRIBUTE = '''\
import torch.nn as nn


class Trainer(nn.Module):
    def __init__(self):
        super().__init__()
        self.criterion = nn.CrossEntropyLoss()

    def step(self, out, y):
        return self.criterion(out, y)
'''


def test_module_attribute_labels_of_unknown_dtype_cast_when_integer():
    assert _fixed(MODULE_ATTRIBUTE) == '''\
import mindspore


class Trainer(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.criterion = mindspore.nn.CrossEntropyLoss()

    def step(self, out, y):
        return self.criterion(out, y if y.is_floating_point() else y.int())
'''


def test_2_6_on_cpu_writes_the_verified_class_with_the_form_and_mint_elsewhere():
    # mint.nn.CrossEntropyLoss has no CPU kernel (LogSoftmaxExt); nn.CrossEntropyLoss passed with int32 labels
    assert _fixed(MODULE_ATTRIBUTE, "2.6").splitlines()[6:10] == [
        "        self.criterion = mindspore.nn.CrossEntropyLoss()",
        "",
        "    def step(self, out, y):",
        "        return self.criterion(out, y if y.is_floating_point() else y.int())",
    ]
    assert _fixed(MODULE_ATTRIBUTE, "2.6", device="GPU").splitlines()[6:10] == [
        "        self.criterion = mindspore.mint.nn.CrossEntropyLoss()",
        "",
        "    def step(self, out, y):",
        "        return self.criterion(out, y)",
    ]


def test_local_name_integer_labels_get_int_and_float_labels_nothing():
    source = '''\
import torch


def loss(out):
    criterion = torch.nn.CrossEntropyLoss()
    labels = torch.tensor([1, 3])
    probs = torch.tensor([[0.2, 0.8], [0.5, 0.5]])
    a = criterion(out, labels)
    b = criterion(out, probs)
    c = criterion(out, torch.softmax(out, 1))
    d = criterion(out, labels.long())
    return a + b + c + d
'''
    assert _fixed(source) == '''\
import mindspore


def loss(out):
    criterion = mindspore.nn.CrossEntropyLoss()
    labels = mindspore.tensor([1, 3])
    probs = mindspore.tensor([[0.2, 0.8], [0.5, 0.5]])
    a = criterion(out, labels.int())
    b = criterion(out, probs)
    c = criterion(out, mindspore.mint.softmax(out, 1))
    d = criterion(out, labels.long().int())
    return a + b + c + d
'''


def test_reassigned_name_gets_no_form_and_the_title_says_what_to_do():
    source = '''\
import torch


def loss(out, y):
    criterion = torch.nn.CrossEntropyLoss()
    criterion = torch.nn.CrossEntropyLoss(label_smoothing=0.1)
    return criterion(out, y)
'''
    assert _fixed(source).splitlines()[3:7] == [
        "def loss(out, y):",
        "    criterion = mindspore.nn.CrossEntropyLoss()",
        "    criterion = mindspore.nn.CrossEntropyLoss(label_smoothing=0.1)",
        "    return criterion(out, y)",
    ]
    assert _titles(source)[0] == (
        "Replace torch.nn.CrossEntropyLoss with mindspore.nn.CrossEntropyLoss (then review the documented "
        "differences); mindspore.nn.CrossEntropyLoss takes the labels of its call as int32 class indices "
        "(int64 raises a TypeError) or as float class probabilities: where the instance is called (its calls "
        "are not all visible here), write labels.int() where they are class indices")
    assert _titles(source, lang="zh")[0].endswith(
        "在调用该实例之处（此处看不到它的全部调用），若其为类别索引，请写作 labels.int()")


def test_labels_the_fix_cannot_read_twice_are_left_with_their_line_in_the_title():
    source = '''\
import torch

criterion = torch.nn.CrossEntropyLoss()


def step(out, y):
    return criterion(out, y.view(-1)) + criterion(out, y)
'''
    assert _fixed(source).splitlines()[-1] == (
        "    return criterion(out, y.view(-1)) + criterion(out, y if y.is_floating_point() else y.int())")
    assert _titles(source) == [
        "Replace torch.nn.CrossEntropyLoss with mindspore.nn.CrossEntropyLoss (then review the documented "
        "differences); at the calls of the instance (line: argument): 7: y → y if y.is_floating_point() "
        "else y.int(); mindspore.nn.CrossEntropyLoss takes the labels of its call as int32 class indices "
        "(int64 raises a TypeError) or as float class probabilities: at the call of the instance on line 7, "
        "whose argument this fix cannot adapt, write labels.int() where they are class indices"]


def test_a_partial_context_does_not_adapt_the_calls_of_a_module_level_name():
    source = ("import torch\ncriterion = torch.nn.CrossEntropyLoss()\n\n\n"
              "def f(o, y):\n    return criterion(o, y)\n")
    tree = ast.parse(source)
    constructor = tree.body[1].value
    assert [c.lineno for c in instance_calls(tree, constructor)] == [6]
    assert instance_calls(tree, constructor, whole=False) is None
    partial = FixContext.of_statements(source, "m.py", KB["2.4"], ast.Module(tree.body[:2], []), [])
    assert partial.partial and not FixContext.build(source, "m.py", KB["2.4"], []).partial


def test_instance_calls_follow_scopes():
    source = '''\
def a(o, y):
    crit = Loss()
    def inner(y):
        return crit(o, y)
    def shadow(crit):
        return crit(o, y)
    return crit(o, y) + inner(y)


def b():
    crit = Loss()
    for crit in []:
        pass
    return crit(1, 2)


def c():
    loss = Loss()(1, 2)
    return loss
'''
    tree = ast.parse(source)
    up = parents(tree)
    constructors = [n for n in ast.walk(tree)
                    if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "Loss"]
    by_line = {c.lineno: instance_calls(tree, c, up=up) for c in constructors}
    assert [call.lineno for call in by_line[2]] == [4, 7]  # not the parameter of shadow()
    assert by_line[11] is None  # the loop rebinds it
    assert by_line[18] is None  # not bound to a name


def test_dtype_class_from_what_the_source_shows():
    def kind(text: str) -> str | None:
        return dtype_class(ast.parse(text, mode="eval").body)

    assert kind("torch.tensor([1, 3], dtype=torch.int64)") == "int"
    assert kind("torch.tensor([1, -3])") == "int"
    assert kind("torch.tensor([[0.5, 1]])") == "float"
    assert kind("y.long()") == "int"
    assert kind("y.to(torch.long)") == "int"
    assert kind("y.float()") == "float"
    assert kind("torch.randint(0, 5, (4,))") == "int"
    assert kind("logits.argmax(1)") == "int"
    assert kind("F.softmax(t, 1)") == "float"
    assert kind("y") is None
    assert kind("y.to(device)") is None


def test_class_indices_form_and_data():
    assert call_forms("mindspore.nn.CrossEntropyLoss") == {"labels": CLASS_INDICES}
    assert call_forms("mindspore.mint.nn.CrossEntropyLoss") == {}  # takes int64 labels
    node = ast.parse("y", mode="eval").body
    assert class_indices_wrapping("y", node, "int", True) == ("", ".int()")
    assert class_indices_wrapping("y", node, "float", True) == ("", "")
    assert class_indices_wrapping("y", node, None, True) == ("y if y.is_floating_point() else ", ".int()")
    assert class_indices_wrapping("y", node, None, False) is None


def test_a_fix_leaving_labels_to_adapt_by_hand_is_applied_only_with_unsafe_fixes():
    from msmigrate.fixes.project import FixOptions, fix_source

    passed = "import torch.nn as nn\n\n\ndef build():\n    return nn.CrossEntropyLoss()\n"
    seen = ("import torch.nn as nn\n\n\ndef loss(o, y):\n"
            "    crit = nn.CrossEntropyLoss()\n    return crit(o, y)\n")
    # 2.6 on CPU: the verified replacement nn.CrossEntropyLoss; safe only where its calls were adapted
    kept, _record = fix_source(passed.encode(), "m.py", KB["2.6"], FixOptions(mindspore_version="2.6"))
    assert kept is None  # unchanged
    unsafe, _record = fix_source(passed.encode(), "m.py", KB["2.6"],
                                 FixOptions(mindspore_version="2.6", unsafe=True))
    assert unsafe.decode().splitlines()[-1] == "    return mindspore.nn.CrossEntropyLoss()"
    fixed, _record = fix_source(seen.encode(), "m.py", KB["2.6"], FixOptions(mindspore_version="2.6"))
    assert fixed.decode().splitlines()[-2:] == [
        "    crit = mindspore.nn.CrossEntropyLoss()",
        "    return crit(o, y if y.is_floating_point() else y.int())"]


def test_a_constructor_moved_to_a_device_is_the_same_instance():
    source = ("import torch\n\n\ndef loss(o, y, device):\n"
              "    crit = torch.nn.CrossEntropyLoss().to(device)\n    return crit(o, y)\n")
    assert _fixed(source).splitlines()[-2:] == [
        "    crit = mindspore.nn.CrossEntropyLoss()",
        "    return crit(o, y if y.is_floating_point() else y.int())"]


def test_the_finding_says_what_the_instance_call_takes():
    from msmigrate.analysis.analyzer import analyze_source

    source = "import torch\nloss = torch.nn.CrossEntropyLoss()\n"
    finding = next(f for f in analyze_source(source, "m.py", KB["2.4"]).findings
                   if f.torch_api == "torch.nn.CrossEntropyLoss")
    assert finding.message("en") == (
        "torch.nn.CrossEntropyLoss → mindspore.nn.CrossEntropyLoss (mindspore.nn.CrossEntropyLoss takes the "
        "labels of its instance's call as int32 class indices (int64 raises a TypeError) or as float class "
        "probabilities: the fix writes labels.int() for integer labels at the calls of the instance it sees; "
        "elsewhere cast them by hand; see the difference page).")
    assert finding.message_args["changes_results"] is True
    from msmigrate.analysis.options import AnalysisOptions

    on_ascend = analyze_source(source, "m.py", KB["2.6"], AnalysisOptions(device="Ascend")).findings
    mint = next(f for f in on_ascend if f.torch_api == "torch.nn.CrossEntropyLoss")
    assert "class indices" not in mint.message("en")  # mint.nn.CrossEntropyLoss takes torch's labels
    on_cpu = next(f for f in analyze_source(source, "m.py", KB["2.6"]).findings
                  if f.torch_api == "torch.nn.CrossEntropyLoss")  # mint's has no CPU kernel: 2.4's is written
    assert on_cpu.mindspore_api == "mindspore.nn.CrossEntropyLoss" and "class indices" in on_cpu.message("en")


def test_an_instance_passed_on_or_stored_elsewhere_is_called_out_of_sight():
    source = '''\
def a(o, y):
    crit = Loss()
    run(crit)
    return crit(o, y)


def b(o, y):
    crit = Loss()
    crit.cuda()
    return crit(o, y), crit.weight


class M:
    def __init__(self):
        self.crit = Loss()
        self.fn = self.crit

    def f(self, o, y):
        return self.crit(o, y)


class N:
    def __init__(self):
        self.crit = Loss()

    def f(self, o, y):
        return self.crit.forward(o, y)
'''
    tree = ast.parse(source)
    up = parents(tree)
    constructors = [n for n in ast.walk(tree)
                    if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "Loss"]
    by_line = {c.lineno: instance_calls(tree, c, up=up) for c in constructors}
    assert by_line[2] is None  # passed to run()
    assert [call.lineno for call in by_line[8]] == [10]  # crit.cuda(), crit.weight: members read
    assert by_line[15] is None  # stored under another name
    assert by_line[24] is None  # forward() is its call, written otherwise
