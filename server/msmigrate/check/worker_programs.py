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

The torch network's weights are copied to the MindSpore network by parameter name, then both run on the
same input.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from msmigrate.check.worker_shared import CheckFailure, classify_ms_error, exc_text, resolve


class _Side:
    """The classes one framework's program uses."""

    def __init__(self, fw: Any, side: str, container: Any) -> None:
        self.side, self.container, self.np = side, container, fw.np
        if side == "torch":
            nn = fw.torch.nn
            self.base, self.relu, self.sequential_class = nn.Module, nn.ReLU, nn.Sequential
            self.linear = lambda: nn.Linear(4, 4)
            self.tensor = fw.torch.from_numpy
        else:
            nn = fw.ms.nn
            self.base, self.relu, self.sequential_class = nn.Cell, nn.ReLU, nn.SequentialCell
            self.linear = lambda: nn.Dense(4, 4)
            self.tensor = fw.ms.Tensor

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


CONTAINERS: dict[str, tuple[Any, Any]] = {
    "torch.nn.ModuleList": (_list_build, _list_run),
    "torch.nn.Sequential": (_sequential_build, _sequential_run),
    "torch.nn.ModuleDict": (_dict_build, _dict_run),
}
PROGRAMS = frozenset(CONTAINERS)


def _failure(status: str, reason: str, exc: BaseException) -> Any:
    return CheckFailure(status, reason if reason else classify_ms_error(exc), exc_text(exc))


def _container(fw: Any, request: dict[str, Any]) -> dict[str, Any]:
    build, run = CONTAINERS[request["torch_api"]]
    np = fw.np
    x = np.random.default_rng(int(request.get("seed", 0))).standard_normal((2, 4)).astype(np.float32)
    try:
        t_side = _Side(fw, "torch", resolve(request["torch_api"], "torch"))
        t_net = t_side.network(build, run).eval()
        t_names = [name for name, _ in t_net.named_parameters()]
        with fw.torch.no_grad():
            t_out = t_net(t_side.tensor(x.copy()))
    except (CheckFailure, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - any torch exception is a result
        raise _failure("error", "torch_error", exc) from exc
    try:
        m_side = _Side(fw, "mindspore", resolve(request["mindspore_api"], "mindspore"))
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
    return _compared(fw, request, t_out, m_out)


def _compared(fw: Any, request: dict[str, Any], t_out: Any, m_out: Any) -> dict[str, Any]:
    from msmigrate.check.worker_compare import compare_outputs, result_fields

    t_leaves, m_leaves = fw.leaves(t_out, "torch"), fw.leaves(m_out, "mindspore")
    cmp = compare_outputs(t_leaves, m_leaves, request.get("rtol"), request.get("atol"))
    return result_fields(cmp, t_leaves, m_leaves)


def run_program(fw: Any, request: dict[str, Any]) -> dict[str, Any]:
    """The result dict of one program check (``request["torch_api"]`` one of :data:`PROGRAMS`)."""
    api = request.get("torch_api")
    if api in CONTAINERS:
        return _container(fw, request)
    raise CheckFailure("error", "bad_request", f"no program for {api}")
