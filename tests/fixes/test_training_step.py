"""MSM506: the PyTorch training step rewritten with mindspore.value_and_grad (fixes/training_step_fixes.py),
and ``model.parameters()`` given to an optimizer → ``model.trainable_params()``."""

from __future__ import annotations

import pytest

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.api import fix_all, fixes_by_finding
from msmigrate.fixes.safety import is_safe
from msmigrate.fixes.text import apply_edits


def _msm506(source: str, kb) -> list:
    findings = analyze_source(source, "train.py", kb).findings
    return [(f, fix) for f, fix in fixes_by_finding(source, "train.py", findings, kb) if fix.rule == "MSM506"]


def _step_fix(source: str, kb):
    [(finding, fix)] = [(f, x) for f, x in _msm506(source, kb) if f.message_key == "finding.MSM506"]
    return finding, fix


def test_module_level_loop_becomes_value_and_grad(kb24):
    source = (
        "import torch\n\n"
        "for _ in range(2):\n"
        "    out = model(x0)\n"
        "    loss = loss_fn(out, y0)\n"
        "    opt.zero_grad()\n"
        "    loss.backward()\n"
        "    opt.step()\n"
    )
    finding, fix = _step_fix(source, kb24)
    assert (finding.line, finding.column, finding.fixable) == (7, 10, True)
    assert fix.title("en") == "Rewrite the training step with mindspore.value_and_grad"
    assert apply_edits(source, fix.edits) == (
        "import torch\nimport mindspore\n\n"
        "for _ in range(2):\n"
        "    def forward_fn():\n"
        "        out = model(x0)\n"
        "        loss = loss_fn(out, y0)\n"
        "        return loss\n"
        "    grad_fn = mindspore.value_and_grad(forward_fn, None, opt.parameters)\n"
        "    loss, grads = grad_fn()\n"
        "    opt(grads)\n"
    )
    assert not is_safe(finding, kb24)  # it moves code: applied by `msmigrate fix --unsafe-fixes` only


def test_names_read_first_become_parameters_and_names_read_later_come_back(kb24):
    source = (
        "import torch\n\n\n"
        "def train(model, loader, crit, optimizer):\n"
        "    for x, y in loader:\n"
        "        optimizer.zero_grad()\n"
        "        x = x.float()\n"
        "        out = model(x)  # forward\n"
        "        loss = crit(out, y)\n"
        "        acc = (out.argmax(1) == y).float().mean()\n"
        "        loss.backward()\n"
        "        optimizer.step()\n"
        "        print(acc, loss.item(), f'{x.shape}')\n"
    )
    _, fix = _step_fix(source, kb24)
    assert apply_edits(source, fix.edits) == (
        "import torch\nimport mindspore\n\n\n"
        "def train(model, loader, crit, optimizer):\n"
        "    for x, y in loader:\n"
        "        def forward_fn(x):\n"
        "            x = x.float()\n"
        "            out = model(x)  # forward\n"
        "            loss = crit(out, y)\n"
        "            return loss, x, out\n"
        "        grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)\n"
        "        (loss, x, out), grads = grad_fn(x)\n"
        "        acc = (out.argmax(1) == y).float().mean()\n"
        "        optimizer(grads)\n"
        "        print(acc, loss.item(), f'{x.shape}')\n"
    )


def test_with_block_and_zero_grad_after_step(kb24):
    source = (
        "import torch\n\n"
        "hidden = torch.zeros(2)\n"
        "for x in data:\n"
        "    log(x)\n"
        "    with ctx():\n"
        "        hidden = net(x) + hidden\n"
        "        loss = hidden.sum()\n"
        "    loss.backward()\n"
        "    self.opt.step()\n"
        "    self.opt.zero_grad(set_to_none=True)\n"
    )
    _, fix = _step_fix(source, kb24)
    assert apply_edits(source, fix.edits) == (
        "import torch\nimport mindspore\n\n"
        "hidden = torch.zeros(2)\n"
        "for x in data:\n"
        "    log(x)\n"
        "    def forward_fn(hidden):\n"
        "        with ctx():\n"
        "            hidden = net(x) + hidden\n"
        "            loss = hidden.sum()\n"
        "        return loss, hidden\n"
        "    grad_fn = mindspore.value_and_grad(forward_fn, None, self.opt.parameters, has_aux=True)\n"
        "    (loss, hidden), grads = grad_fn(hidden)\n"
        "    self.opt(grads)\n"
    )


@pytest.mark.parametrize(
    ("step", "why"),
    [
        # no zero_grad(): torch accumulates the gradients of successive steps
        ("    loss = crit(net(x), y)\n    loss.backward()\n    opt.step()\n", "optimizer"),
        # zero_grad() and step() of two objects
        ("    loss = crit(net(x), y)\n    a.zero_grad()\n    loss.backward()\n    b.step()\n", "optimizer"),
        # a closure passed to step()
        ("    loss = crit(net(x), y)\n    opt.zero_grad()\n    loss.backward()\n    opt.step(closure)\n",
         "optimizer"),
        # backward() of an expression (loss scaling), or with arguments
        ("    loss = crit(net(x), y)\n    opt.zero_grad()\n    scaler.scale(loss).backward()\n"
         "    opt.step()\n", "loss"),
        ("    loss = crit(net(x), y)\n    opt.zero_grad()\n    loss.backward(retain_graph=True)\n"
         "    opt.step()\n", "loss"),
        # the loss comes from elsewhere
        ("    opt.zero_grad()\n    loss.backward()\n    opt.step()\n", "loss"),
        # control flow among the loss statements
        ("    out = net(x)\n    if out.ndim > 2:\n        out = out.flatten(1)\n    loss = crit(out, y)\n"
         "    opt.zero_grad()\n    loss.backward()\n    opt.step()\n", "statement"),
        ("    if y is None:\n        loss = net(x).sum()\n    opt.zero_grad()\n    loss.backward()\n"
         "    opt.step()\n", "statement"),
        # gradient clipping between backward() and step()
        ("    loss = crit(net(x), y)\n    opt.zero_grad()\n    loss.backward()\n"
         "    torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)\n    opt.step()\n", "between"),
        # statements sharing a line
        ("    loss = crit(net(x), y)\n    opt.zero_grad(); loss.backward(); opt.step()\n", "layout"),
        # the names the rewrite writes are taken
        ("    grads = []\n    loss = crit(net(x), y)\n    opt.zero_grad()\n    loss.backward()\n"
         "    opt.step()\n", "names"),
    ],
)
def test_uncertain_shapes_are_explained_not_rewritten(kb24, step: str, why: str):
    source = "import torch\n\nfor x, y in data:\n" + step
    finding, fix = _step_fix(source, kb24)
    # (at module level the names are looked at by the fix only: the rule reads no other statement)
    assert finding.fixable is (why == "names")
    assert (fix.title_key, fix.edits) == (f"fix.pattern.training_step.{why}", [])
    assert fix.title("zh").startswith("无法自动改写")


def test_names_taken_in_the_function_are_seen_by_the_rule_too(kb24):
    source = (
        "import torch\n\n\ndef train(net, opt, data):\n    for x, y in data:\n"
        "        loss = net(x).sum()\n        opt.zero_grad()\n        loss.backward()\n        opt.step()\n"
        "    return grad_fn\n"
    )
    finding, fix = _step_fix(source, kb24)
    assert (finding.fixable, fix.title_key, fix.edits) == (False, "fix.pattern.training_step.names", [])


def test_zero_grad_and_step_of_a_module_are_no_optimizer(kb24):
    source = (
        "import torch\n\nnet = torch.nn.Linear(2, 2)\nfor x in data:\n"
        "    loss = net(x).sum()\n    net.zero_grad()\n    loss.backward()\n    net.step()\n"
    )
    finding, fix = _step_fix(source, kb24)
    assert (finding.fixable, fix.title_key, fix.edits) == (False, "fix.pattern.training_step.optimizer", [])


def test_parameters_given_to_an_optimizer_become_trainable_params(kb24):
    source = (
        "import torch\n\nmodel = torch.nn.Linear(2, 2)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "opt2 = torch.optim.Adam(params=model.parameters())\n"
        "n = sum(p.numel() for p in model.parameters())\n"
    )
    found = [(f, fix) for f, fix in _msm506(source, kb24)]
    assert [(f.line, f.column, f.message_key, fix.title("en")) for f, fix in found] == [
        (4, 29, "finding.MSM506.params", "Pass trainable_params() to the optimizer"),
        (5, 38, "finding.MSM506.params", "Pass trainable_params() to the optimizer"),
    ]
    fixed, _ = fix_all(source, "train.py", kb24)
    assert fixed == (
        "import mindspore\n\nmodel = mindspore.nn.Dense(2, 2)\n"
        "opt = mindspore.experimental.optim.SGD(model.trainable_params(), lr=0.1)\n"
        "opt2 = mindspore.experimental.optim.Adam(params=model.trainable_params())\n"
        "n = sum(p.numel() for p in model.get_parameters())\n"
    )


def test_sgd_without_lr_gets_torch_default_mindspore_requires(kb24):
    source = "import torch\n\nmodel = torch.nn.Linear(2, 2)\nopt = torch.optim.SGD(model.parameters())\n"
    fixed, _ = fix_all(source, "train.py", kb24)
    assert fixed.splitlines()[-1] == (
        "opt = mindspore.experimental.optim.SGD(model.trainable_params(), lr=0.001)")
    [finding] = [f for f in analyze_source(source, "t.py", kb24).findings if f.torch_api == "torch.optim.SGD"]
    assert finding.message("en") == (
        "torch.optim.SGD → mindspore.experimental.optim.SGD (left out, the default differs: lr: 0.001 vs —).")


def test_fix_all_gives_a_torch_free_training_loop(kb24):
    source = (
        "import torch\n\n"
        "w = torch.nn.Parameter(torch.zeros(3, 2))\n"
        "opt = torch.optim.Adam([w], lr=0.1)\n"
        "for _ in range(2):\n"
        "    out = x @ w\n"
        "    loss = ((out - y) ** 2).mean()\n"
        "    opt.zero_grad()\n"
        "    loss.backward()\n"
        "    opt.step()\n"
    )
    fixed, applied = fix_all(source, "train.py", kb24)
    assert fixed == (
        "import mindspore\n\n"
        "w = mindspore.Parameter(mindspore.ops.zeros((3, 2)))\n"
        "opt = mindspore.experimental.optim.Adam([w], lr=0.1)\n"
        "for _ in range(2):\n"
        "    def forward_fn():\n"
        "        out = x @ w\n"
        "        loss = ((out - y) ** 2).mean()\n"
        "        return loss\n"
        "    grad_fn = mindspore.value_and_grad(forward_fn, None, opt.parameters)\n"
        "    loss, grads = grad_fn()\n"
        "    opt(grads)\n"
    )
    assert "MSM506" in {fix.rule for fix in applied}


def test_tabs_crlf_and_comments_are_kept(kb24):
    source = (
        "import torch\r\n\r\nfor x in data:\r\n\tout = net(\r\n\t\tx)\r\n\tloss = out.sum()\r\n"
        "\topt.zero_grad()\r\n\tloss.backward()  # grads\r\n\topt.step()  # update\r\n"
    )
    _, fix = _step_fix(source, kb24)
    assert apply_edits(source, fix.edits) == (
        "import torch\r\nimport mindspore\r\n\r\nfor x in data:\r\n"
        "\tdef forward_fn():\r\n\t\tout = net(\r\n\t\t\tx)\r\n\t\tloss = out.sum()\r\n\t\treturn loss\r\n"
        "\tgrad_fn = mindspore.value_and_grad(forward_fn, None, opt.parameters)\r\n"
        "\tloss, grads = grad_fn()\r\n\topt(grads)  # update\r\n"
    )


def test_a_name_read_in_an_f_string_after_the_step_comes_back(kb24):
    source = (
        "import torch\n\nfor x in data:\n    out = net(x)\n    loss = out.sum()\n    opt.zero_grad()\n"
        "    loss.backward()\n    opt.step()\n    print(f'{out.shape} # grads')\n"
    )
    _, fix = _step_fix(source, kb24)
    assert apply_edits(source, fix.edits).splitlines()[-4:] == [
        "    grad_fn = mindspore.value_and_grad(forward_fn, None, opt.parameters, has_aux=True)",
        "    (loss, out), grads = grad_fn()",
        "    opt(grads)",
        "    print(f'{out.shape} # grads')",
    ]


def test_two_steps_sharing_a_forward_value_rewrite_the_first_and_explain_the_second(kb24):
    source = (
        "import torch\n\nfor z in data:\n"
        "    fake = gen(z)\n    d_loss = disc(fake.detach()).mean()\n"
        "    opt_d.zero_grad()\n    d_loss.backward()\n    opt_d.step()\n"
        "    g_loss = -disc(fake).mean()\n"
        "    opt_g.zero_grad()\n    g_loss.backward()\n    opt_g.step()\n"
    )
    found = [(f.line, fix.title_key) for f, fix in _msm506(source, kb24)]
    assert found == [(7, "fix.pattern.training_step"), (11, "fix.pattern.training_step.statement")]
    fixed, _ = fix_all(source, "train.py", kb24)
    assert fixed == (
        "import mindspore\n\nfor z in data:\n"
        "    def forward_fn():\n"
        "        fake = gen(z)\n        d_loss = disc(fake.detach()).mean()\n"
        "        return d_loss, fake\n"
        "    grad_fn = mindspore.value_and_grad(forward_fn, None, opt_d.parameters, has_aux=True)\n"
        "    (d_loss, fake), grads = grad_fn()\n"
        "    opt_d(grads)\n"
        "    g_loss = -disc(fake).mean()\n"
        "    opt_g.zero_grad()\n    g_loss.backward()\n    opt_g.step()\n"
    )
