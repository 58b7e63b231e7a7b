"""How a ``torch.nn.init`` call's arguments are written for its MindSpore initializer (MindSpore 2.10
signatures of ``mindspore.common.initializer``); used by the MSM503 quick-fix."""

from __future__ import annotations

INITIALIZER_MODULE = "mindspore.common.initializer"
# torch.nn.init.<name>(tensor, …): torch parameter → initializer keyword, and the initializer keywords
# whose MindSpore default differs from torch's (value to pass).
INIT_ARGUMENTS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "kaiming_normal_": ({"a": "negative_slope", "mode": "mode", "nonlinearity": "nonlinearity"}, {}),
    "kaiming_uniform_": ({"a": "negative_slope", "mode": "mode", "nonlinearity": "nonlinearity"}, {}),
    "xavier_normal_": ({"gain": "gain"}, {}),
    "xavier_uniform_": ({"gain": "gain"}, {}),
    "constant_": ({"val": "value"}, {}),
    "zeros_": ({}, {}),
    "ones_": ({}, {}),
    "eye_": ({}, {}),
    "normal_": ({"mean": "mean", "std": "sigma"}, {"sigma": "1.0"}),
    "trunc_normal_": ({"mean": "mean", "std": "sigma", "a": "a", "b": "b"}, {"sigma": "1.0"}),
    "orthogonal_": ({"gain": "gain"}, {}),
    "dirac_": ({"groups": "groups"}, {}),
    "sparse_": ({"sparsity": "sparsity", "std": "sigma"}, {}),
    "uniform_": ({}, {}),  # only with bounds -x and x (SYMMETRIC)
}
# torch.nn.init.<name> whose bounds (low, high) are one initializer keyword when low is -high:
# Uniform(scale) is U(-scale, scale), torch's uniform_ is U(a, b).
SYMMETRIC: dict[str, tuple[str, str, str]] = {"uniform_": ("a", "b", "scale")}

# torch.nn.init function → the MindSpore initializer class (mindspore.common.initializer) it becomes
INITIALIZERS = {
    "kaiming_normal_": "HeNormal",
    "kaiming_uniform_": "HeUniform",
    "xavier_uniform_": "XavierUniform",
    "xavier_normal_": "XavierNormal",
    "constant_": "Constant",
    "zeros_": "Zero",
    "ones_": "One",
    "normal_": "Normal",
    "trunc_normal_": "TruncatedNormal",
    "uniform_": "Uniform",
    "orthogonal_": "Orthogonal",
    "eye_": "Identity",
    "dirac_": "Dirac",
    "sparse_": "Sparse",
}
