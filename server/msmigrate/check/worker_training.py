"""The worker's check of an optimizer (spec ``loop="training_step"``): training steps of a linear model.

Both sides train the same model, ``out = inputs @ w + b``, ``loss = ((out - targets) ** 2).mean()``, for
:data:`STEPS` steps from the same weights, as real code does: torch with ``zero_grad()``, ``backward()``,
``step()``; MindSpore as the MSM506 fix writes it (``mindspore.value_and_grad(forward_fn, None,
opt.parameters)``, then ``opt(grads)``). The updated weight and bias are compared. An optimizer whose steps
leave MindSpore's weights exactly as they were while torch's move (2.6 ``mint.optim.Adam`` on CPU with
MindSpore 2.10: no error, no update) fails with reason ``no_effect``: the target does not work on the
device, which ``knowledge/device_targets.py`` reads as it reads a missing kernel.
"""

from __future__ import annotations

from typing import Any

from msmigrate.check.worker_shared import CheckFailure, classify_ms_error, decode, exc_text, resolve

STEPS = 2


def _ms_error(exc: BaseException) -> Any:
    return CheckFailure("error", classify_ms_error(exc), exc_text(exc))


def run_training_step(fw: Any, request: dict[str, Any], t_tensors: dict[str, Any],
                      m_tensors: dict[str, Any]) -> dict[str, Any]:
    """The result dict of one optimizer check (``request["torch"]["args"]``: inputs, targets, weight,
    bias; ``init_args``/``init_kwargs``: the optimizer's arguments after its parameters)."""
    from msmigrate.check.worker_compare import compare_outputs, result_fields

    torch, ms, np = fw.torch, fw.ms, fw.np

    def side(name: str, tensors: dict[str, Any], dtype_of: Any) -> tuple[list[Any], list[Any], dict]:
        call = request[name]
        args = decode(call.get("args", []), tensors, dtype_of)
        if len(args) != 4:
            raise CheckFailure("error", "bad_request", f"training step: 4 tensors expected, got {len(args)}")
        init_args = decode(call.get("init_args", []), tensors, dtype_of)
        init_kwargs = {k: decode(v, tensors, dtype_of) for k, v in call.get("init_kwargs", {}).items()}
        return args, init_args, init_kwargs

    args, init_args, init_kwargs = side("torch", t_tensors, lambda n: getattr(torch, n))
    start = [args[2].detach().cpu().numpy().copy(), args[3].detach().cpu().numpy().copy()]
    try:
        inputs, targets = args[0], args[1]
        w = torch.nn.Parameter(args[2].clone())
        b = torch.nn.Parameter(args[3].clone())
        opt = resolve(request["torch_api"], "torch")([w, b], *init_args, **init_kwargs)
        for _ in range(STEPS):
            loss = ((inputs @ w + b - targets) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        t_leaves = fw.leaves([w, b], "torch")
    except (CheckFailure, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - any torch exception is a result
        raise CheckFailure("error", "torch_error", exc_text(exc)) from exc

    args, init_args, init_kwargs = side("mindspore", m_tensors, lambda n: getattr(ms, n))
    try:
        inputs, targets = args[0], args[1]
        w = ms.Parameter(args[2], name="weight")
        b = ms.Parameter(args[3], name="bias")
        opt = resolve(request["mindspore_api"], "mindspore")([w, b], *init_args, **init_kwargs)
        for _ in range(STEPS):

            def forward_fn() -> Any:
                return ((inputs @ w + b - targets) ** 2).mean()

            grad_fn = ms.value_and_grad(forward_fn, None, opt.parameters)
            _loss, grads = grad_fn()
            opt(grads)
        m_leaves = fw.leaves([w, b], "mindspore")
    except (CheckFailure, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001
        raise _ms_error(exc) from exc

    cmp = compare_outputs(t_leaves, m_leaves, request.get("rtol"), request.get("atol"))
    result = result_fields(cmp, t_leaves, m_leaves)
    torch_moved = max(float(np.abs(leaf.value - s).max()) for leaf, s in zip(t_leaves, start, strict=True))
    unchanged = all(np.array_equal(leaf.value, s) for leaf, s in zip(m_leaves, start, strict=True))
    if cmp.status != "pass" and unchanged and torch_moved > 0:
        result.update(status="fail", reason="no_effect",
                      detail=f"{STEPS} optimizer steps left the weights unchanged (torch's moved by up to "
                             f"{torch_moved:.3g})")
    return result
