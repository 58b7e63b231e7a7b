"""The worker's check of a container used through a program rather than one call (``loop="program"``).

Each program runs the same Python statements on both sides, with the torch class and its MindSpore
counterpart (the pair's ``mindspore_api``, written the way the fix writes it), and compares the outputs and
the parameter names (a checkpoint is loaded by name: a container that registers its layers under other names
loads no weights):

- ``nn.ModuleList`` / ``CellList``: built in one call from a list (of lists too), iteration (also
  unpacking pairs), indexing (negative too) and ``len`` inside a network (a list changed after it is built
  is not verified: ``analysis/container_forms.py``);
- ``nn.Sequential`` / ``SequentialCell``: from a list (the MSM502 form), from an ``OrderedDict``, a subclass
  calling ``super().__init__(*layers)`` (a base class renamed), indexing, ``len``, iteration, ``append``;
- ``nn.ModuleDict`` / ``CellDict``: from a dict, ``d[k] = v``, ``update``, ``keys/values/items``,
  iteration, ``in``, ``len``, and a container as a value (as ``IntermediateLayerGetter`` holds ResNet's
  ``Sequential`` stages);
- the container compositions ``ms_compat.ModuleList`` / ``ms_compat.ModuleDict`` (``HELPER_PROGRAMS``, run
  by ``msmigrate check --compositions``): the pair's program, then cells added after the call (``append``,
  ``extend``, ``insert``, ``+=``, by index, ``del``, ``pop``, ``update`` with pairs), to a container built
  empty and already held by its network, inside a network later held by another, slices iterated, and a dict
  subclass adding its layers with ``add_module`` (torchvision's ``_DenseBlock``);

The torch network's weights are copied to the MindSpore network by parameter name, then both run on the
same input.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from msmigrate.check.worker_shared import CheckFailure, classify_ms_error, compared_result, exc_text, resolve


class _Side:
    """The classes one framework's program uses."""

    def __init__(self, fw: Any, side: str, container: Any, add_module: Any = None) -> None:
        self.side, self.container, self.np, self.fw = side, container, fw.np, fw
        self.add_module = add_module or (lambda cell, name, module: cell.add_module(name, module))
        if side == "torch":
            nn = fw.torch.nn
            self.base, self.relu, self.sequential_class = nn.Module, nn.ReLU, nn.Sequential
            self.linear = lambda: nn.Linear(4, 4)
            self.tensor = fw.torch.from_numpy
            self.linear_class = nn.Linear
        else:
            nn = fw.ms.nn
            self.base, self.relu, self.sequential_class = nn.Cell, nn.ReLU, nn.SequentialCell
            self.linear = lambda: nn.Dense(4, 4)
            self.tensor = fw.ms.Tensor
            self.linear_class = nn.Dense

    def fill(self, parameter: Any, value: float) -> None:
        """Give every element of ``parameter`` the value ``value``."""
        if self.side == "torch":
            with self.fw.torch.no_grad():
                parameter.fill_(value)
        else:
            parameter.set_data(self.fw.ms.Tensor(self.np.full(parameter.shape, value, self.np.float32)))

    def number(self, value: float) -> Any:
        return self.tensor(self.np.array([value], self.np.float32))

    def network(self, build: Any, run: Any) -> Any:
        side = self

        class Net(self.base):  # type: ignore[misc, name-defined]
            def __init__(self) -> None:
                super().__init__()
                build(self, side)

            def forward(self, x: Any) -> Any:
                return run(self, x, side)

            construct = forward

        return Net()

    def sequential(self, *layers: Any) -> Any:
        """``nn.Sequential(a, b)`` as the fix writes it: ``SequentialCell([a, b])``."""
        cls = self.sequential_class
        return cls(*layers) if self.side == "torch" else cls(list(layers))


# --- the programs: build(net, side) and run(net, x, side) -------------------------------------------------
def _list_build(net: Any, s: _Side) -> None:
    net.blocks = s.container([s.linear() for _ in range(3)])
    net.pairs = s.container([s.container([s.linear(), s.linear()]) for _ in range(2)])
    net.act = s.relu()


def _list_run(net: Any, x: Any, s: _Side) -> Any:
    for block in net.blocks:
        x = net.act(block(x))
    for first, second in net.pairs:
        x = second(first(x)) + x
    return (net.blocks[0](x) + net.blocks[-1](x)) * len(net.blocks) + net.pairs[1][0](x) * len(net.pairs)


class _Subclass:
    """A class deriving from the container, building itself with ``super().__init__(*layers)``."""

    @staticmethod
    def make(s: _Side, *layers: Any) -> Any:
        class Stack(s.container):  # type: ignore[misc, name-defined]
            def __init__(self, *cells: Any) -> None:
                super().__init__(*cells)

        return Stack(*layers)

    @staticmethod
    def block(s: _Side, n: int) -> Any:
        """torchvision's ``_DenseBlock``: a dict subclass adding its layers with ``add_module`` (the fix's
        ``ms_compat.add_module``)."""

        class Block(s.container):  # type: ignore[misc, name-defined]
            def __init__(self) -> None:
                super().__init__()
                for i in range(n):
                    s.add_module(self, f"layer{i + 1}", s.linear())

        return Block()


def _sequential_build(net: Any, s: _Side) -> None:
    net.body = s.sequential(s.linear(), s.relu(), s.linear())
    net.named = s.container(OrderedDict([("fc", s.linear()), ("act", s.relu())]))
    net.derived = _Subclass.make(s, s.linear(), s.relu(), s.linear())
    net.derived.append(s.linear())


def _sequential_run(net: Any, x: Any, s: _Side) -> Any:
    y = net.derived(net.named(net.body(x)))
    for layer in net.body:
        x = layer(x)
    return y + x * len(net.body) + net.body[0](x) + net.body[-1](x) + net.named[0](x)


def _dict_build(net: Any, s: _Side) -> None:
    net.heads = s.container({"a": s.linear(), "b": s.linear()})
    net.heads["c"] = s.linear()
    net.heads.update({"d": s.linear()})
    net.heads["stage"] = s.sequential(s.linear(), s.relu())


def _dict_run(net: Any, x: Any, s: _Side) -> Any:
    total = x * len(net.heads) * ("c" in net.heads)
    for key in net.heads:
        total = total + net.heads[key](x)
    for _key, head in net.heads.items():
        total = total + head(x)
    for head in net.heads.values():
        total = total + head(x)
    return total + net.heads["a"](x) * len(list(net.heads.keys()))


# --- the programs of the container compositions (``ms_compat.ModuleList`` / ``ModuleDict``): the pair's
# program, then cells added after the call, also to a container built empty and already held by a network
def _inner_list_build(net: Any, s: _Side) -> None:
    net.layers = s.container([])
    net.layers.append(s.linear())
    net.layers.append(s.container([s.linear(), s.relu()]))


def _inner_list_run(net: Any, x: Any, s: _Side) -> Any:
    for layer in net.layers[0:1]:
        x = layer(x)
    return net.layers[1][1](net.layers[1][0](x))


def _changed_list_build(net: Any, s: _Side) -> None:
    _list_build(net, s)
    net.grown = s.container([])
    for _ in range(3):
        net.grown.append(s.linear())
    net.pairs.append(s.container([s.linear(), s.linear()]))
    net.inner = s.network(_inner_list_build, _inner_list_run)
    net.more = s.container([s.linear()])
    net.more.extend([s.linear(), s.linear()])
    net.more.insert(1, s.linear())
    net.more += s.container([s.linear()])
    net.more[0] = s.linear()
    del net.more[2]
    net.more.append(s.relu())
    net.more.pop(1)


def _changed_list_run(net: Any, x: Any, s: _Side) -> Any:
    x = _list_run(net, x, s)
    for block in net.grown[:2]:
        x = net.act(block(x)) + x
    for layer in net.more[1:]:
        x = layer(x)
    return net.inner(x) + net.grown[-1](x) + net.more[0](x) * len(net.more)


def _changed_dict_build(net: Any, s: _Side) -> None:
    _dict_build(net, s)
    net.late = s.container()
    net.late["fc"] = s.linear()
    net.late.update([("stage", s.sequential(s.linear(), s.relu())),
                     ("inner", s.container({"fc": s.linear()}))])
    net.heads.pop("b")
    net.block = _Subclass.block(s, 3)


def _changed_dict_run(net: Any, x: Any, s: _Side) -> Any:
    x = _dict_run(net, x, s)
    for _name, layer in net.block.items():
        x = layer(x) + x
    return x + net.late["fc"](x) + net.late["stage"](x) + net.late["inner"]["fc"](x) * len(net.late)


# --- a Cell's modules() and named_parameters() (``container``: torch's unbound method, or the helper)
def _block_build(net: Any, s: _Side) -> None:
    net.fc = s.linear()
    net.layer = s.sequential(s.linear(), s.relu(), s.linear())


def _block_run(net: Any, x: Any, s: _Side) -> Any:
    return net.layer(net.fc(x))


def _walk_build(net: Any, s: _Side) -> None:
    net.block = s.network(_block_build, _block_run)
    net.head = s.linear()


def _modules_run(net: Any, x: Any, s: _Side) -> Any:
    """Each Linear's weight set from its position among the modules (the net itself first)."""
    count = 0
    for i, module in enumerate(s.container(net)):
        count += 1
        if isinstance(module, s.linear_class):
            s.fill(module.weight, 0.05 * (i + 1))
    inner = sum(1 for _ in s.container(net.block.layer))
    return net.head(net.block(x)), s.number(count * 100 + inner)


def _name_code(names: list[str]) -> float:
    """A number that differs when the names or their order differ."""
    return float(sum((i + 1) * ord(c) for i, c in enumerate("|".join(names))))


def _named_run(net: Any, x: Any, s: _Side) -> Any:
    """Each weight set from its position; the names (default, a prefix, not recursing) as a number."""
    codes = []
    for arguments in ((), ("pre",), ("", False)):
        pairs = list(s.container(net.block, *arguments))
        codes.append(_name_code([name for name, _ in pairs]))
    for i, (name, parameter) in enumerate(s.container(net)):
        if name.endswith("weight"):
            s.fill(parameter, 0.02 * (i + 1))
    listed = [name for name, _ in s.container(net.block.layer, prefix="layer", recurse=True)]
    return net.head(net.block(x)), s.number(sum(codes) + _name_code(listed))


def _named_modules_run(net: Any, x: Any, s: _Side) -> Any:
    """``net.named_modules()`` as the fix writes it (no argument, and ``prefix=`` as ``name_prefix=``): each
    Linear's weight set from its position among the pairs (the net itself first, under ""); the names and
    their order, also under a prefix, as a number."""
    names = []
    for i, (name, module) in enumerate(s.container(net)):
        names.append(name)
        if isinstance(module, s.linear_class):
            s.fill(module.weight, 0.05 * (i + 1))
    inner = [name for name, _ in s.container(net.block.layer)]
    keyword = "prefix" if s.side == "torch" else "name_prefix"
    prefixed = [name for name, _ in s.container(net, **{keyword: "top"})]
    return net.head(net.block(x)), s.number(_name_code(names) + _name_code(inner) + 3 * _name_code(prefixed))


def _parameters_run(net: Any, x: Any, s: _Side) -> Any:
    """``net.parameters()`` as the fix writes it (``get_parameters()``, and ``recurse=False`` as
    ``expand=False``): each parameter set from its position, then the block's own ones (not its
    sub-cells') set alike; how many there are of each as a number."""
    count = 0
    for i, parameter in enumerate(s.container(net)):
        count += 1
        s.fill(parameter, 0.01 * (i + 1))
    keyword = "recurse" if s.side == "torch" else "expand"
    own = list(s.container(net.block, **{keyword: False}))
    for i, parameter in enumerate(own):
        s.fill(parameter, 0.2 * (i + 1))
    return net.head(net.block(x)), s.number(count * 100 + len(own))


CONTAINERS: dict[str, tuple[Any, Any]] = {
    "torch.nn.ModuleList": (_list_build, _list_run),
    "torch.nn.Sequential": (_sequential_build, _sequential_run),
    "torch.nn.ModuleDict": (_dict_build, _dict_run),
    "torch.nn.Module.named_modules": (_walk_build, _named_modules_run),  # a method, called on the network
    "torch.nn.Module.parameters": (_walk_build, _parameters_run),
}
PROGRAMS = frozenset(CONTAINERS)
# the composition of a container (``knowledge/compositions/catalogue.py``) → its program
HELPER_PROGRAMS: dict[str, tuple[Any, Any]] = {
    "torch.nn.ModuleList": (_changed_list_build, _changed_list_run),
    "torch.nn.ModuleDict": (_changed_dict_build, _changed_dict_run),
    "torch.nn.Module.modules": (_walk_build, _modules_run),
    "torch.nn.Module.named_parameters": (_walk_build, _named_run),
}


def _failure(status: str, reason: str, exc: BaseException) -> Any:
    return CheckFailure(status, reason if reason else classify_ms_error(exc), exc_text(exc))


def _container(fw: Any, request: dict[str, Any], helper: Any = None) -> dict[str, Any]:
    """Run the program on both sides; ``helper``: the helper module's function of a name (the composition's
    check: its container and ``add_module`` on the MindSpore side)."""
    build, run = (HELPER_PROGRAMS if helper else CONTAINERS)[request["torch_api"]]
    np = fw.np
    x = np.random.default_rng(int(request.get("seed", 0))).standard_normal((2, 4)).astype(np.float32)
    try:
        t_side = _Side(fw, "torch", resolve(request["torch_api"], "torch"))  # a method: unbound
        t_net = t_side.network(build, run).eval()
        t_names = [name for name, _ in t_net.named_parameters()]
        with fw.torch.no_grad():
            t_out = t_net(t_side.tensor(x.copy()))
    except (CheckFailure, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - any torch exception is a result
        raise _failure("error", "torch_error", exc) from exc
    try:
        m_side = _Side(fw, "mindspore", helper(request["helper"]), _add_module(helper)) if helper else \
            _Side(fw, "mindspore", resolve(request["mindspore_api"], "mindspore"))
        m_net = m_side.network(build, run)
        m_net.set_train(False)
        m_params = {p.name: p for p in m_net.get_parameters()}
        if sorted(m_params) != sorted(t_names):
            return {"status": "fail", "reason": "parameter_names",
                    "detail": f"torch {t_names}; MindSpore {sorted(m_params)}"}
        for name, value in t_net.state_dict().items():
            m_params[name].set_data(fw.ms.Tensor(value.detach().cpu().numpy()))
        m_out = m_net(m_side.tensor(x.copy()))
    except (CheckFailure, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001
        raise _failure("error", "", exc) from exc
    return compared_result(request, fw.leaves(t_out, "torch"), fw.leaves(m_out, "mindspore"))


def _add_module(helper: Any) -> Any:
    return lambda cell, name, module: helper("add_module")(cell, name, module)


def run_program(fw: Any, request: dict[str, Any]) -> dict[str, Any]:
    """The result dict of one program check (``request["torch_api"]`` one of :data:`PROGRAMS`)."""
    api = request.get("torch_api")
    if api in CONTAINERS:
        return _container(fw, request)
    raise CheckFailure("error", "bad_request", f"no program for {api}")


def run_helper_program(fw: Any, request: dict[str, Any], helper: Any) -> dict[str, Any]:
    """The result dict of a container composition's check (``request["torch_api"]`` one of
    :data:`HELPER_PROGRAMS`; ``helper(name)``: a helper of the module the fix writes)."""
    if request.get("torch_api") in HELPER_PROGRAMS:
        return _container(fw, request, helper)
    raise CheckFailure("error", "bad_request", f"no program for {request.get('torch_api')}")
