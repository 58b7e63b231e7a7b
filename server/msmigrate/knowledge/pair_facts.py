"""Reviewed facts of mapped pairs whose names and parameters match but whose values differ in kind.

Each entry is ``(torch API, MindSpore API): message key`` of an ``analysis.detail.pair.*`` text that the
finding states (its category becomes ``differences``). Add one only after running both APIs (MindSpore
2.10 on CPU); a pair whose target is another API altogether belongs in ``derive_exceptions.py``.
"""

from __future__ import annotations

PAIR_FACTS: dict[tuple[str, str], str] = {
    # MindSpore 2.10: Tensor.device is 'CPU' (a str); torch's is a torch.device (x.device.type, .index)
    ("torch.Tensor.device", "mindspore.Tensor.device"): "analysis.detail.pair.device_str",
}


# (torch API, MindSpore API, device) → (the torch parameters a call passes, message key): an overload of the
# pair that does not run on the device (run on MindSpore 2.10 CPU: mint.where(cond) and ops.nonzero(…,
# as_tuple=True) raise "The kernel NonZeroExt unregistered"; ops.nonzero(cond) runs and gives one
# (N, ndim) tensor)
DEVICE_FORMS: dict[tuple[str, str, str], tuple[frozenset[str], str]] = {
    ("torch.where", "mindspore.mint.where", "CPU"): (frozenset({"condition"}),
                                                     "analysis.detail.device_form.where_nonzero"),
}


# (parameter, device) → message key: a MindSpore function that takes this parameter, called with it set to
# anything but False, runs another kernel than its numeric check ran (the parameter left False). Run on
# MindSpore 2.10 CPU (tests/knowledge/test_device_arguments.py): every function of mint.nn.functional and
# mindspore.ops taking ``inplace`` (relu, relu6, silu, elu, hardtanh, threshold, dropout, dropout2d;
# ops.relu) raises "The kernel Inplace<Op> unregistered" (or has no CPU kernel at all) with inplace=True.
DEVICE_ARGUMENTS: dict[tuple[str, str], str] = {
    ("inplace", "CPU"): "analysis.detail.device_form.inplace",
}


# (torch API, MindSpore API, parameter) → (the literal values the pair computes as torch does, message key): a
# call passing another value, or one not written as a literal, computes otherwise than the numeric check ran
# the pair (the parameter at its default). Run on MindSpore 2.10 CPU (tests/fixes/test_device_arguments.py):
# ops.interpolate's bicubic is 0.27 off torch's (align_corners False; 0.003 with True), linear 2.4e-5 off;
# nearest, bilinear, trilinear and area agree within 1.6e-6.
ARGUMENT_VALUES: dict[tuple[str, str, str], tuple[frozenset[str], str]] = {
    ("torch.nn.functional.interpolate", "mindspore.ops.interpolate", "mode"): (
        frozenset({"nearest", "bilinear", "trilinear", "area"}), "analysis.detail.argument_value.mode"),
}


def argument_values(torch_api: str, mindspore_api: str) -> dict[str, tuple[frozenset[str], str]]:
    """Parameter → (the literal values computed as torch does, message key) of the pair."""
    return {param: found for (api, target, param), found in ARGUMENT_VALUES.items()
            if (api, target) == (torch_api, mindspore_api)}


def pair_fact(torch_api: str, mindspore_api: str | None) -> str | None:
    return PAIR_FACTS.get((torch_api, mindspore_api or ""))


def device_form_fact(torch_api: str, mindspore_api: str, device: str,
                     passed: frozenset[str] | None) -> str | None:
    """The message key of an overload of the pair that does not run on ``device``, when the call passes
    exactly that overload's parameters (``passed``: None when it cannot be told)."""
    found = DEVICE_FORMS.get((torch_api, mindspore_api, device))
    return found[1] if found is not None and passed == found[0] else None


def device_argument_fact(parameter: str, device: str) -> str | None:
    """The message key of ``parameter`` set to anything but False selecting a kernel ``device`` lacks."""
    return DEVICE_ARGUMENTS.get((parameter, device))
