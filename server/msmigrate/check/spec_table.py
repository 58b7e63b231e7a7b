"""The per-API input-spec table; ``msmigrate check --write-specs`` turns it into input_specs.json.

Keys are full torch names, or ``"<torch api> -> <mindspore api>"`` for a spec that applies to one
pair only (when two tables map the same torch API to MindSpore APIs with different signatures).
``note`` values are ids of ``check.note.<id>`` messages (bilingual, in messages/check.py).
Each tensor-method entry reuses the function's arguments: ``args[0]`` is the receiver.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from msmigrate.check.spec import (
    ARG,
    DT,
    TUP,
    ApiSpec,
    B,
    D,
    I,
    P,
    T,
    pair_key,
    render_specs_json,
    specs_path,
)
from msmigrate.check.spec_as_written import AS_WRITTEN

X = T(2, 3, 4)
Y = T(2, 3, 4)
SPD = D([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]])  # symmetric positive definite
WELL = D([[2.0, 0.5, 0.1], [0.3, 3.0, 0.2], [0.1, 0.4, 2.5]])  # well-conditioned square matrix
SIGNS = D([[1.0, -1.0, 1.0, -1.0], [-1.0, 1.0, 1.0, -1.0]])
SPECS: dict[str, ApiSpec] = {}


def S(**fields: Any) -> ApiSpec:
    """An ApiSpec whose tuple fields may be given as lists."""
    for name in ("args", "init_args", "ms_args", "ms_init_args", "outputs", "ms_outputs"):
        if name in fields and fields[name] is not None:
            fields[name] = tuple(fields[name])
    return ApiSpec(**fields)


def add(names: str, **fields: Any) -> None:
    """Register one spec under several torch names (``torch.sum torch.Tensor.sum``)."""
    spec = S(**fields)
    for name in names.split():
        SPECS[name] = spec


def add_pair(torch_api: str, mindspore_api: str, **fields: Any) -> None:
    SPECS[pair_key(torch_api, mindspore_api)] = S(**fields)


def fn_and_method(short: str) -> str:
    return f"torch.{short} torch.Tensor.{short}"


# --- reductions and scans ---------------------------------------------------------------------
for _name in (
    "sum",
    "mean",
    "prod",
    "amax",
    "amin",
    "nansum",
    "logsumexp",
    "cumsum",
    "cumprod",
    "argmax",
    "argmin",
    "max",
    "min",
    "count_nonzero",
    "median",
    "nanmedian",
    "cummax",
    "cummin",
):
    add(fn_and_method(_name), args=[X, 1])
add(fn_and_method("all") + " " + fn_and_method("any"), args=[B(2, 3, 4), 1])
for _name in ("std", "var", "std_mean", "var_mean"):
    add(fn_and_method(_name), args=[X, 1])
    for _torch in fn_and_method(_name).split():
        for _ms in (f"mindspore.ops.{_name}", f"mindspore.Tensor.{_name}"):
            add_pair(
                _torch, _ms, args=[X, 1], ms_args=[ARG(0), 1], ms_kwargs={"ddof": 1}, note="unbiased_default"
            )
add(fn_and_method("sort"), args=[X], kwargs={"dim": 1})
add_pair("torch.sort", "mindspore.ops.sort", args=[X, 1])
add(fn_and_method("argsort"), args=[X, 1])
add(fn_and_method("topk"), args=[X, 2])
add(fn_and_method("kthvalue"), args=[X, 2, 1])
add(fn_and_method("mode"), args=[I(2, 3, 4, high=3), 1], outputs=[0])
add("torch.unique torch.Tensor.unique", args=[I(12, high=5)])
add_pair("torch.unique", "mindspore.ops.unique", args=[I(12, high=5)], note="unique_order")
add("torch.unique_consecutive torch.Tensor.unique_consecutive", args=[D([1, 1, 2, 2, 3, 1, 1], "int64")])
add(fn_and_method("norm"), args=[X])
add("torch.linalg.norm torch.linalg.vector_norm", args=[X])
add("torch.linalg.matrix_norm", args=[T(2, 3, 4)])
add(fn_and_method("histc"), args=[X, 4])
add(fn_and_method("bincount"), args=[I(10, high=5)])
add("torch.searchsorted", args=[D([-0.5, 0.0, 0.25, 0.75]), X])
add("torch.bucketize", args=[X, D([-0.5, 0.0, 0.25, 0.75])])
add(fn_and_method("diff"), args=[X])
add(fn_and_method("renorm"), args=[X, 2, 0, 1.0])

# --- elementwise ------------------------------------------------------------------------------
add(fn_and_method("clamp") + " " + fn_and_method("clip") + " torch.Tensor.clamp_", args=[X, -0.5, 0.5])
add(fn_and_method("pow"), args=[P(2, 3, 4), Y])
add(fn_and_method("float_power"), args=[P(2, 3, 4), Y])
add(fn_and_method("lerp"), args=[X, Y, 0.3])
add(fn_and_method("addcdiv") + " " + fn_and_method("addcmul"), args=[X, Y, P(2, 3, 4)])
for _name in ("bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm"):
    add(fn_and_method(_name), args=[I(2, 3, 4, low=1, high=16), I(2, 3, 4, low=1, high=16)])
add(fn_and_method("bitwise_not"), args=[I(2, 3, 4, high=16)])
add(
    fn_and_method("bitwise_left_shift") + " " + fn_and_method("bitwise_right_shift"),
    args=[I(2, 3, 4, high=16), I(2, 3, 4, high=3)],
)
add(fn_and_method("heaviside"), args=[X, Y])
add(fn_and_method("polar"), args=[P(2, 3, 4), Y])
add(fn_and_method("mvlgamma"), args=[P(2, 3, 4, low=2.0, high=3.0), 2])
add("torch.polygamma", args=[1, P(2, 3, 4)])
for _api in ("torch.polygamma", "torch.special.polygamma"):
    add_pair(_api, "mindspore.ops.polygamma", args=[1, P(2, 3, 4)], ms_args=[D(1, "int64"), ARG(1)],
             note="order_as_tensor")
add(fn_and_method("xlogy"), args=[P(2, 3, 4), P(2, 3, 4)])
add("torch.special.xlogy", args=[P(2, 3, 4), P(2, 3, 4)])
add(fn_and_method("angle"), args=[T(2, 3, dtype="complex64")])
add(
    "torch.real torch.imag torch.view_as_real torch.Tensor.real torch.Tensor.imag",
    args=[T(2, 3, dtype="complex64")],
)
add("torch.Tensor.H torch.Tensor.mT torch.Tensor.mH torch.Tensor.T", args=[T(3, 4)])
add(fn_and_method("is_nonzero"), args=[T(1)])
# a predicate on objects: called on a tensor and on a list (which is none)
add("torch.is_tensor", args=[X, [1.0, 2.0]], loop="per_argument")
add("torch.Tensor.item", args=[T(1)])

# --- indexing -----------------------------------------------------------------------------------
add(fn_and_method("index_select"), args=[X, 1, D([0, 2], "int64")])
add(fn_and_method("gather"), args=[X, 1, I(2, 3, 4, high=3)])
add(fn_and_method("scatter") + " torch.Tensor.scatter_", args=[X, 1, I(2, 1, 4, high=3), T(2, 1, 4)])
add(fn_and_method("scatter_add"), args=[X, 1, I(2, 3, 4, high=3), Y])
add(fn_and_method("masked_fill"), args=[X, B(2, 3, 4), 0.5])
add(fn_and_method("masked_select"), args=[X, B(2, 3, 4)])
add(fn_and_method("masked_scatter"), args=[X, B(2, 3, 4), Y])
add("torch.where", args=[B(2, 3, 4), X, Y])
add("torch.Tensor.where", args=[X, B(2, 3, 4), Y])
add(fn_and_method("index_add"), args=[X, 1, D([0, 2], "int64"), T(2, 2, 4)])
add(fn_and_method("index_fill"), args=[X, 1, D([0, 2], "int64"), 0.5])
add(fn_and_method("take"), args=[X, D([0, 5, 23], "int64")])
add(fn_and_method("narrow"), args=[X, 1, 0, 2])
add(fn_and_method("select"), args=[X, 1, 1])
add("torch.Tensor.fill_diagonal_", args=[T(3, 3), 0.5])
add(
    "torch.Tensor.index_put torch.index_put",
    args=[T(3, 4), TUP(D([0, 1], "int64"), D([1, 2], "int64")), T(2)],
)
# factorization results given as fixed data: an LU factorization with identity pivots, Householder
# reflectors (any matrix and scales are valid inputs of orgqr / ormqr)
LU = D([[2.0, 0.5, 0.1], [0.25, 1.5, 0.2], [0.1, 0.3, 1.2]])
PIVOTS = D([1, 2, 3], "int32")
add(fn_and_method("lu_solve"), args=[T(3, 2), LU, PIVOTS])
add("torch.linalg.lu_solve", args=[LU, PIVOTS, T(3, 2)])
add_pair("torch.linalg.lu_solve", "mindspore.ops.lu_solve", args=[LU, PIVOTS, T(3, 2)],
         ms_args=[ARG(2), ARG(0), ARG(1)], note="lu_solve_argument_order")
add("torch.lu_unpack", args=[LU, PIVOTS])
add(fn_and_method("orgqr"), args=[T(3, 3), T(2)])
add(fn_and_method("ormqr"), args=[T(3, 3), T(3), T(3, 2)])
add(fn_and_method("nonzero"), args=[B(2, 3, 4)])
add("torch.nn.functional.one_hot", args=[I(2, 3, high=4), 4])

# --- shapes -------------------------------------------------------------------------------------
add(fn_and_method("reshape"), args=[X, TUP(4, 6)])
add("torch.Tensor.view", args=[X, 4, 6])
add(fn_and_method("broadcast_to") + " torch.Tensor.expand", args=[T(3, 1), TUP(2, 3, 4)])
add(fn_and_method("permute"), args=[X, TUP(2, 0, 1)])
add(
    fn_and_method("transpose") + " " + fn_and_method("swapaxes") + " " + fn_and_method("swapdims"),
    args=[X, 0, 2],
)
add(fn_and_method("moveaxis") + " " + fn_and_method("movedim"), args=[X, 0, 2])
add(fn_and_method("flip"), args=[X, [0, 2]])
add(fn_and_method("roll"), args=[X, 1, 1])
add(fn_and_method("rot90"), args=[X, 1, [0, 1]])
add(fn_and_method("tile"), args=[X, TUP(2, 1, 1)])
add("torch.Tensor.repeat", args=[X, 2, 1, 1])
add_pair(
    "torch.Tensor.repeat",
    "mindspore.Tensor.tile",
    args=[X, 2, 1, 1],
    ms_args=[ARG(0), TUP(2, 1, 1)],
    note="multiples_tuple",
)
add(fn_and_method("squeeze"), args=[T(2, 1, 4), 1])
add(fn_and_method("unsqueeze"), args=[X, 1])
add(fn_and_method("chunk"), args=[X, 2, 2])
add(fn_and_method("split"), args=[X, 2, 2])
add(fn_and_method("tensor_split"), args=[X, 2, 2])
add(fn_and_method("hsplit"), args=[T(2, 4, 3), 2])
add(fn_and_method("vsplit"), args=[T(4, 3), 2])
add(fn_and_method("dsplit"), args=[X, 2])
add("torch.cat torch.concat torch.concatenate", args=[[X, Y], 1])
add("torch.stack", args=[[X, Y], 1])
add("torch.hstack torch.vstack torch.dstack torch.column_stack torch.row_stack", args=[[T(2, 3), T(2, 3)]])
add("torch.atleast_1d torch.atleast_2d torch.atleast_3d", args=[X])
add("torch.block_diag", args=[T(2, 2), T(3, 3)])
add("torch.cartesian_prod", args=[T(2), T(3)])
add("torch.meshgrid", args=[T(3), T(4)], kwargs={"indexing": "ij"})
add(fn_and_method("combinations"), args=[T(4)])
add(fn_and_method("vander"), args=[T(4)])
add("torch.flatten torch.Tensor.flatten torch.ravel torch.Tensor.ravel", args=[X])
add_pair(
    "torch.flatten", "mindspore.ops.flatten", args=[X], ms_kwargs={"start_dim": 0}, note="flatten_start_dim"
)
add(fn_and_method("t") + " " + fn_and_method("trace") + " " + fn_and_method("diag"), args=[T(3, 4)])
add(fn_and_method("tril") + " " + fn_and_method("triu"), args=[T(3, 4)])
add("torch.tril_indices torch.triu_indices", args=[3, 4])
add(fn_and_method("expand_as") + " torch.view_as", args=[T(3, 1), T(2, 3, 4)])
add("torch.Tensor.view_as", args=[X, T(4, 6)])
add("torch.Tensor.sum_to_size", args=[X, TUP(1, 3, 1)])
add("torch.Tensor.new_ones torch.Tensor.new_zeros", args=[X, TUP(2, 3)])
add("torch.Tensor.new_full", args=[X, TUP(2, 3), 1.5])
add("torch.Tensor.new_empty", args=[X, TUP(2, 3)], compare="shape_dtype", note="uninitialized_values")

# --- creation -----------------------------------------------------------------------------------
add("torch.zeros torch.ones", args=[TUP(2, 3)])
add("torch.empty", args=[TUP(2, 3)], compare="shape_dtype", note="uninitialized_values")
add("torch.empty_like", args=[X], compare="shape_dtype", note="uninitialized_values")
add("torch.full", args=[TUP(2, 3), 1.5])
# the CPU alternative infers int32 from an int fill value (a float one gives float32, as torch)
add_pair("torch.full", "mindspore.numpy.full", args=[TUP(2, 3), 2], note="int32_default_int")
add("torch.full_like", args=[X, 1.5])
add("torch.arange", args=[0, 10, 2])
add("torch.range", args=[0, 10, 2])
add("torch.linspace torch.logspace", args=[0.0, 1.0, 5])
add("torch.eye", args=[3, 4])
for _name in ("bartlett_window", "blackman_window", "hamming_window", "hann_window", "kaiser_window"):
    add(f"torch.{_name}", args=[8])

# --- linear algebra ---------------------------------------------------------------------------
add(fn_and_method("mm"), args=[T(3, 4), T(4, 5)])
add(fn_and_method("bmm"), args=[T(2, 3, 4), T(2, 4, 5)])
add(fn_and_method("matmul"), args=[T(2, 3, 4), T(4, 5)])
add(fn_and_method("mv"), args=[T(3, 4), T(4)])
add(fn_and_method("dot") + " " + fn_and_method("inner") + " " + fn_and_method("vdot"), args=[T(4), T(4)])
add(fn_and_method("outer") + " " + fn_and_method("ger"), args=[T(3), T(4)])
add(fn_and_method("addmm"), args=[T(3, 5), T(3, 4), T(4, 5)])
add(fn_and_method("addbmm"), args=[T(3, 5), T(2, 3, 4), T(2, 4, 5)])
add(fn_and_method("baddbmm"), args=[T(2, 3, 5), T(2, 3, 4), T(2, 4, 5)])
add(fn_and_method("addmv"), args=[T(3), T(3, 4), T(4)])
add(fn_and_method("addr"), args=[T(3, 4), T(3), T(4)])
add(fn_and_method("cross"), args=[X, Y, 1])
add("torch.einsum", args=["ij,jk->ik", T(3, 4), T(4, 5)])
add("torch.cdist", args=[T(2, 3, 4), T(2, 5, 4)])
add(
    fn_and_method("inverse")
    + " torch.linalg.inv "
    + fn_and_method("det")
    + " torch.linalg.det "
    + fn_and_method("logdet")
    + " "
    + fn_and_method("slogdet")
    + " torch.linalg.slogdet",
    args=[WELL],
)
add(fn_and_method("cholesky") + " torch.linalg.cholesky", args=[SPD])
add(fn_and_method("cholesky_solve"), args=[T(3, 2), D([[2.0, 0.0, 0.0], [0.5, 1.5, 0.0], [0.25, 0.1, 1.2]])])
add(fn_and_method("svd"), args=[T(3, 4)], outputs=[1], note="singular_vectors_sign")
add_pair(
    "torch.svd", "mindspore.ops.svd", args=[T(3, 4)], outputs=[1], ms_outputs=[0], note="svd_output_order"
)
add_pair(
    "torch.Tensor.svd",
    "mindspore.Tensor.svd",
    args=[T(3, 4)],
    outputs=[1],
    ms_outputs=[0],
    note="svd_output_order",
)
add("torch.linalg.eigvals", args=[WELL], compare="sorted", note="eigenvalue_order")
add("torch.linalg.cond", args=[WELL])
add(fn_and_method("pinverse") + " torch.linalg.pinv", args=[T(3, 4)])
add(fn_and_method("matrix_power"), args=[WELL, 3])
add("torch.linalg.matrix_power", args=[WELL, 3])
add(fn_and_method("kron"), args=[T(2, 2), T(2, 3)])
add(fn_and_method("trapz") + " torch.trapezoid", args=[X])

# --- neural-network functions ------------------------------------------------------------------
F = "torch.nn.functional."
add(
    F + "softmax " + F + "log_softmax " + F + "softmin torch.special.log_softmax torch.special.softmax",
    args=[X, 1],
)
add(F + "leaky_relu", args=[X, 0.2])
add(F + "threshold", args=[X, 0.1, 20.0])
add(F + "linear", args=[X, T(5, 4), T(5)])
add(F + "bilinear", args=[T(2, 4), T(2, 3), T(5, 4, 3), T(5)])
add(F + "conv1d", args=[T(1, 3, 8), T(4, 3, 3)])
add(F + "conv2d", args=[T(1, 3, 8, 8), T(4, 3, 3, 3)])
add(F + "conv3d", args=[T(1, 2, 5, 5, 5), T(3, 2, 3, 3, 3)])
add(F + "conv_transpose1d", args=[T(1, 3, 5), T(3, 4, 3)])
add(F + "conv_transpose2d", args=[T(1, 3, 5, 5), T(3, 4, 3, 3)])
add(F + "conv_transpose3d", args=[T(1, 2, 4, 4, 4), T(2, 3, 3, 3, 3)])
# the CPU alternative of mint's conv_transpose2d: the Primitive Conv2DTranspose called with the output shape
# torch computes, (H - 1) * stride - 2 * padding + dilation * (kH - 1) + output_padding + 1 (the fix writes
# it: value_forms.OUTPUT_SHAPE_PRIMITIVES), every number other than its default
# (input, weight, bias, stride, padding, output_padding, groups, dilation)
add_pair(F + "conv_transpose2d", "mindspore.ops.Conv2DTranspose",
         args=[T(2, 4, 5, 6), T(4, 3, 3, 2), None, TUP(2, 1), TUP(1, 0), TUP(1, 0), 2, TUP(1, 2)],
         ms_init_args=[4, TUP(3, 2)],
         ms_init_kwargs={"pad_mode": "pad", "pad": TUP(1, 1, 0, 0), "stride": TUP(2, 1),
                         "dilation": TUP(1, 2), "group": 2},
         ms_args=[ARG(0), ARG(1), TUP(2, 6, 10, 8)], note="output_shape_primitive")
add(F + "avg_pool1d " + F + "max_pool1d", args=[T(1, 3, 8), 2])
add(F + "avg_pool2d " + F + "max_pool2d", args=[T(1, 3, 8, 8), 2])
add(F + "avg_pool3d " + F + "max_pool3d", args=[T(1, 2, 4, 4, 4), 2])
add(F + "lp_pool1d", args=[T(1, 3, 8), 2.0, 2])
add(F + "lp_pool2d", args=[T(1, 3, 8, 8), 2.0, 2])
add(F + "adaptive_avg_pool1d " + F + "adaptive_max_pool1d", args=[T(1, 3, 8), 4])
add(F + "adaptive_avg_pool2d " + F + "adaptive_max_pool2d", args=[T(1, 3, 8, 8), TUP(4, 4)])
add(F + "adaptive_avg_pool3d " + F + "adaptive_max_pool3d", args=[T(1, 2, 4, 4, 4), TUP(2, 2, 2)])
add(F + "max_unpool1d", args=[T(1, 1, 2), D([[[1, 2]]], "int64"), 2])
add(F + "max_unpool2d", args=[T(1, 1, 2, 2), D([[[[0, 3], [9, 14]]]], "int64"), 2])
add(F + "max_unpool3d", args=[T(1, 1, 1, 1, 1), D([[[[[5]]]]], "int64"), 2])
add(F + "pad", args=[X, TUP(1, 1)])
add(
    F + "interpolate " + F + "upsample",
    args=[T(1, 3, 4, 4)],
    kwargs={"size": TUP(8, 8), "mode": "bilinear", "align_corners": False},
)
add(F + "grid_sample", args=[T(1, 3, 4, 4), T(1, 5, 5, 2)], kwargs={"align_corners": False})
add(F + "affine_grid", args=[T(1, 2, 3), TUP(1, 3, 4, 4)], kwargs={"align_corners": False})
add(F + "batch_norm", args=[T(2, 3, 4), T(3), P(3), T(3), T(3)])
add(F + "layer_norm", args=[X, TUP(4)])
add(F + "group_norm", args=[T(2, 4, 3), 2])
add(F + "instance_norm", args=[T(2, 3, 4)])
add(F + "local_response_norm", args=[T(1, 4, 3, 3), 2])
add(F + "normalize", args=[X])
# L2Normalize's epsilon bounds the sum of squares where torch's eps bounds the norm (VALUE_MEANINGS):
# torch's eps 0.9 is 0.81 (some of the norms are below it); p=2, dim=2 (input, p, dim, eps by position)
add_pair(F + "normalize", "mindspore.ops.L2Normalize", args=[X, 2, 2, 0.9], ms_args=[ARG(0)],
         ms_init_kwargs={"axis": 2, "epsilon": 0.81})
add(F + "unfold", args=[T(1, 2, 4, 4), 2])
add(F + "fold", args=[T(1, 8, 9), TUP(4, 4), 2])
add(F + "pixel_shuffle", args=[T(1, 8, 3, 3), 2])
add(F + "pixel_unshuffle", args=[T(1, 2, 4, 4), 2])
add(F + "prelu", args=[X, T(1)])
add(F + "embedding", args=[I(2, 3, high=5), T(5, 4)])
add(F + "cosine_similarity", args=[X, Y])
add(F + "pairwise_distance", args=[T(3, 4), T(3, 4)])
add(F + "pdist", args=[T(4, 3)])
add(F + "dropout", args=[X, 0.5, False], note="eval_identity")
add(F + "dropout1d", args=[T(2, 3, 4), 0.5, False], note="eval_identity")
add(F + "dropout2d", args=[T(2, 3, 4, 4), 0.5, False], note="eval_identity")
add(F + "dropout3d", args=[T(2, 3, 2, 2, 2), 0.5, False], note="eval_identity")
add(F + "alpha_dropout " + F + "feature_alpha_dropout", args=[X, 0.5, False], note="eval_identity")
# losses: each loss function and its loss layer (forward inputs) take the same inputs
_PROB = P(2, 3, 4, low=0.1, high=0.9)
LOSS_INPUTS = (
    ("l1_loss mse_loss smooth_l1_loss huber_loss", "L1Loss MSELoss SmoothL1Loss HuberLoss", [X, Y]),
    ("binary_cross_entropy", "BCELoss", [_PROB, P(2, 3, 4, low=0.0, high=1.0)]),
    ("binary_cross_entropy_with_logits", "BCEWithLogitsLoss", [X, P(2, 3, 4, low=0.0, high=1.0)]),
    ("cross_entropy", "CrossEntropyLoss", [T(2, 5), I(2, high=5)]),
    ("nll_loss", "NLLLoss", [T(2, 5, low=-3.0, high=-0.1), I(2, high=5)]),
    ("kl_div", "KLDivLoss", [T(2, 5, low=-3.0, high=-0.1), P(2, 5, low=0.05, high=1.0)]),
    ("poisson_nll_loss", "PoissonNLLLoss", [X, P(2, 3, 4)]),
    ("gaussian_nll_loss", "GaussianNLLLoss", [X, Y, P(2, 3, 4)]),
    ("hinge_embedding_loss soft_margin_loss", "HingeEmbeddingLoss SoftMarginLoss", [T(2, 4), SIGNS]),
    ("cosine_embedding_loss", "CosineEmbeddingLoss", [T(2, 4), T(2, 4), D([1.0, -1.0])]),
    ("margin_ranking_loss", "MarginRankingLoss", [T(4), T(4), D([1.0, -1.0, 1.0, -1.0])]),
    ("triplet_margin_loss", "TripletMarginLoss", [T(2, 4), T(2, 4), T(2, 4)]),
    ("multi_margin_loss", "MultiMarginLoss", [T(2, 5), I(2, high=5)]),
    ("multilabel_margin_loss", "MultiLabelMarginLoss", [T(2, 4), D([[3, 0, -1, 1], [1, 2, -1, 0]], "int64")]),
    (
        "multilabel_soft_margin_loss",
        "MultiLabelSoftMarginLoss",
        [T(2, 4), D([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 1.0, 0.0]])],
    ),
)
for _functions, _layers, _args in LOSS_INPUTS:
    add(" ".join(F + _name for _name in _functions.split()), args=_args)
add(F + "ctc_loss", skip="no_input_rule", note="ctc_inputs")

# --- nn layers (constructor args in init_args, forward inputs in args) ----------------------------
N = "torch.nn."
add(N + "Softmax " + N + "LogSoftmax " + N + "Softmin", init_args=[1], args=[X])
add(N + "LeakyReLU", init_args=[0.2], args=[X])
add(N + "Threshold", init_args=[0.1, 20.0], args=[X])
add(N + "GELU", args=[X])
add_pair(
    N + "GELU", "mindspore.nn.GELU", args=[X], ms_init_kwargs={"approximate": False}, note="gelu_approximate"
)
add(N + "Linear", init_args=[4, 5], args=[X])
add(N + "Bilinear", init_args=[4, 3, 5], args=[T(2, 4), T(2, 3)])
for _t, _m, _init, _x in (
    ("Conv1d", "Conv1d", [3, 4, 3], T(1, 3, 8)),
    ("Conv2d", "Conv2d", [3, 4, 3], T(1, 3, 8, 8)),
    ("Conv3d", "Conv3d", [2, 3, 3], T(1, 2, 5, 5, 5)),
    ("ConvTranspose1d", "Conv1dTranspose", [3, 4, 3], T(1, 3, 5)),
    ("ConvTranspose2d", "Conv2dTranspose", [3, 4, 3], T(1, 3, 5, 5)),
    ("ConvTranspose3d", "Conv3dTranspose", [2, 3, 3], T(1, 2, 4, 4, 4)),
):
    add(N + _t, init_args=_init, args=[_x])
    add_pair(
        N + _t,
        "mindspore.nn." + _m,
        init_args=_init,
        args=[_x],
        ms_init_kwargs={"pad_mode": "valid", "has_bias": True},
        note="conv_pad_mode_bias",
    )
add(N + "BatchNorm1d", init_args=[3], args=[T(2, 3, 4)])
add(N + "BatchNorm2d " + N + "SyncBatchNorm", init_args=[3], args=[T(2, 3, 4, 4)])
add(N + "BatchNorm3d", init_args=[3], args=[T(2, 3, 2, 2, 2)])
add(N + "InstanceNorm1d", init_args=[3], init_kwargs={"affine": True}, args=[T(2, 3, 4)])
add(N + "InstanceNorm2d", init_args=[3], init_kwargs={"affine": True}, args=[T(2, 3, 4, 4)])
add(N + "InstanceNorm3d", init_args=[3], init_kwargs={"affine": True}, args=[T(2, 3, 2, 2, 2)])
add(N + "GroupNorm", init_args=[2, 4], args=[T(2, 4, 3)])
add(N + "LayerNorm", init_args=[TUP(4)], args=[X])
add_pair(
    N + "LayerNorm",
    "mindspore.nn.LayerNorm",
    init_args=[TUP(4)],
    args=[X],
    ms_init_kwargs={"epsilon": 1e-5},
    note="layernorm_epsilon",
)
add(N + "LocalResponseNorm", init_args=[2], args=[T(1, 4, 3, 3)])
add(N + "Embedding", init_args=[5, 4], args=[I(2, 3, high=5)])
add(N + "AvgPool1d " + N + "MaxPool1d", init_args=[2], args=[T(1, 3, 8)])
add(N + "AvgPool2d " + N + "MaxPool2d", init_args=[2], args=[T(1, 3, 8, 8)])
add(N + "AvgPool3d " + N + "MaxPool3d", init_args=[2], args=[T(1, 2, 4, 4, 4)])
add(N + "LPPool1d", init_args=[2.0, 2], args=[T(1, 3, 8)])
add(N + "LPPool2d", init_args=[2.0, 2], args=[T(1, 3, 8, 8)])
add(N + "AdaptiveAvgPool1d " + N + "AdaptiveMaxPool1d", init_args=[4], args=[T(1, 3, 8)])
add(N + "AdaptiveAvgPool2d " + N + "AdaptiveMaxPool2d", init_args=[TUP(4, 4)], args=[T(1, 3, 8, 8)])
add(N + "AdaptiveAvgPool3d " + N + "AdaptiveMaxPool3d", init_args=[TUP(2, 2, 2)], args=[T(1, 2, 4, 4, 4)])
add(N + "MaxUnpool1d", init_args=[2], args=[T(1, 1, 2), D([[[1, 2]]], "int64")])
add(N + "MaxUnpool2d", init_args=[2], args=[T(1, 1, 2, 2), D([[[[0, 3], [9, 14]]]], "int64")])
add(N + "MaxUnpool3d", init_args=[2], args=[T(1, 1, 1, 1, 1), D([[[[[5]]]]], "int64")])
add(N + "ConstantPad1d", init_args=[1, 0.5], args=[T(1, 2, 4)])
add(N + "ConstantPad2d", init_args=[1, 0.5], args=[T(1, 2, 4, 4)])
add(N + "ConstantPad3d", init_args=[1, 0.5], args=[T(1, 2, 3, 3, 3)])
for _kind in ("ReflectionPad", "ReplicationPad", "ZeroPad", "CircularPad"):
    add(N + _kind + "1d", init_args=[1], args=[T(1, 2, 4)])
    add(N + _kind + "2d", init_args=[1], args=[T(1, 2, 4, 4)])
    add(N + _kind + "3d", init_args=[1], args=[T(1, 2, 3, 3, 3)])
for _n, _shape in ((1, (1, 2, 4)), (2, (1, 2, 4, 4)), (3, (1, 2, 3, 3, 3))):
    # the CPU alternative of mint's ZeroPad*: constant padding with the value 0 (a companion the fix adds)
    add_pair(f"{N}ZeroPad{_n}d", f"mindspore.nn.ConstantPad{_n}d", init_args=[1], args=[T(*_shape)],
             ms_init_args=[1, 0])
add(N + "Fold", init_args=[TUP(4, 4), 2], args=[T(1, 8, 9)])
add(N + "Unfold", init_args=[2], args=[T(1, 2, 4, 4)])
# the CPU alternatives of mint's Fold / Unfold: the function with the constructor's arguments bound by
# keyword (param_facts.CLASS_AS_PARTIAL; the fix writes functools.partial), non-default ones included
add_pair(N + "Fold", "mindspore.ops.fold", init_args=[TUP(5, 6), TUP(2, 3)],
         init_kwargs={"padding": 1, "stride": 2}, args=[T(2, 12, 9)], ms_call="function",
         ms_args=[ARG(0)], ms_kwargs={"output_size": D([5, 6], "int64"), "kernel_size": TUP(2, 3),
                                      "padding": 1, "stride": 2}, note="class_as_partial")
add_pair(N + "Unfold", "mindspore.ops.unfold", init_args=[TUP(2, 3)],
         init_kwargs={"dilation": TUP(1, 2), "padding": 1, "stride": 2}, args=[T(2, 3, 6, 7)],
         ms_call="function", ms_args=[ARG(0)],
         ms_kwargs={"kernel_size": TUP(2, 3), "dilation": TUP(1, 2), "padding": 1, "stride": 2},
         note="class_as_partial")
add(N + "Flatten", args=[X])
add_pair(
    N + "Flatten",
    "mindspore.mint.flatten",
    args=[X],
    ms_call="function",
    ms_args=[ARG(0)],
    ms_kwargs={"start_dim": 1},
    note="class_to_function",
)
add(N + "Unflatten", init_args=[1, TUP(3, 1)], args=[X])
add(N + "Upsample", init_kwargs={"size": TUP(8, 8), "mode": "nearest"}, args=[T(1, 3, 4, 4)])
add(N + "PixelShuffle", init_args=[2], args=[T(1, 8, 3, 3)])
add(N + "PixelUnshuffle", init_args=[2], args=[T(1, 2, 4, 4)])
add(N + "ChannelShuffle", init_args=[2], args=[T(1, 4, 2, 2)])
# modules whose forward depends on the training mode (a torch module is created training, a MindSpore
# Cell is not): run in inference mode (exact values) and in training mode (random: shapes and dtypes)
TRAIN_RANDOM = {"train_compare": "shape_dtype"}
add(N + "Dropout " + N + "AlphaDropout " + N + "FeatureAlphaDropout", args=[X], note="eval_identity",
    **TRAIN_RANDOM)
add(N + "Dropout1d", args=[T(2, 3, 4)], note="eval_identity", **TRAIN_RANDOM)
add(N + "Dropout2d", args=[T(2, 3, 4, 4)], note="eval_identity", **TRAIN_RANDOM)
add(N + "Dropout3d", args=[T(2, 3, 2, 2, 2)], note="eval_identity", **TRAIN_RANDOM)
add(N + "RReLU", args=[X], note="rrelu_eval_slope", **TRAIN_RANDOM)
add(N + "PReLU", args=[X])
add(N + "CosineSimilarity " + N + "PairwiseDistance", args=[T(3, 4), T(3, 4)])
add(N + "RNNCell " + N + "GRUCell", init_args=[4, 5], args=[T(2, 4), T(2, 5)])
add(N + "LSTMCell", init_args=[4, 5], args=[T(2, 4), TUP(T(2, 5), T(2, 5))])
add(N + "RNN " + N + "GRU " + N + "LSTM", init_args=[4, 5], init_kwargs={"batch_first": True}, args=[X])
for _name in (
    "MultiheadAttention",
    "Transformer",
    "TransformerEncoder",
    "TransformerDecoder",
    "TransformerEncoderLayer",
    "TransformerDecoderLayer",
):
    add(N + _name, skip="no_input_rule", note="composite_layer")
# loss layers: forward inputs as for the functions
for _functions, _layers, _args in LOSS_INPUTS:
    add(" ".join(N + _name for _name in _layers.split()), args=_args)
add(N + "CTCLoss", skip="no_input_rule", note="ctc_inputs")

# --- pairs whose MindSpore signature differs (mostly mindspore.ops / mindspore.nn of older tables) ----
add("torch.repeat_interleave torch.Tensor.repeat_interleave", args=[X, 2, 1])
for _name, _x in (
    ("MaxPool1d", T(1, 3, 8)),
    ("MaxPool2d", T(1, 3, 8, 8)),
    ("AvgPool1d", T(1, 3, 8)),
    ("AvgPool2d", T(1, 3, 8, 8)),
    ("MaxPool3d", T(1, 2, 4, 4, 4)),
    ("AvgPool3d", T(1, 2, 4, 4, 4)),
):
    add_pair(
        N + _name,
        "mindspore.nn." + _name,
        init_args=[2],
        args=[_x],
        ms_init_args=[2],
        ms_init_kwargs={"stride": 2},
        note="pool_stride_default",
    )
for _name, _x in (
    ("avg_pool1d", T(1, 3, 8)),
    ("avg_pool2d", T(1, 3, 8, 8)),
    ("avg_pool3d", T(1, 2, 4, 4, 4)),
):
    add_pair(
        F + _name, "mindspore.ops." + _name, args=[_x, 2], ms_args=[ARG(0), 2, 2], note="pool_stride_default"
    )
add_pair(
    F + "smooth_l1_loss",
    "mindspore.ops.smooth_l1_loss",
    args=[X, Y],
    ms_kwargs={"reduction": "mean"},
    note="loss_reduction_default",
)
add_pair(
    N + "SmoothL1Loss",
    "mindspore.nn.SmoothL1Loss",
    args=[X, Y],
    ms_init_kwargs={"reduction": "mean"},
    note="loss_reduction_default",
)
for _name in ("bartlett_window", "blackman_window"):
    add_pair(
        f"torch.{_name}",
        f"mindspore.ops.{_name}",
        args=[8],
        ms_args=[D(8, "int64")],
        note="window_length_tensor",
    )
add_pair(
    "torch.Tensor.scatter_",
    "mindspore.ops.tensor_scatter_elements",
    args=[X, 1, I(2, 1, 4, high=3), T(2, 1, 4)],
    ms_args=[ARG(0), ARG(2), ARG(3)],
    ms_kwargs={"axis": 1},
    note="scatter_argument_order",
)
for _api in ("torch.scatter_add", "torch.Tensor.scatter_add"):
    add_pair(
        _api,
        "mindspore.ops.tensor_scatter_elements",
        args=[X, 1, I(2, 3, 4, high=3), Y],
        ms_args=[ARG(0), ARG(2), ARG(3)],
        ms_kwargs={"axis": 1, "reduction": "add"},
        note="scatter_argument_order",
    )
add_pair(
    "torch.dot",
    "mindspore.ops.tensor_dot",
    args=[T(4), T(4)],
    ms_args=[ARG(0), ARG(1), 1],
    note="tensor_dot_axes",
)
add_pair(
    F + "fold",
    "mindspore.ops.fold",
    args=[T(1, 8, 9), TUP(4, 4), 2],
    ms_args=[ARG(0), D([4, 4], "int32"), 2],
    note="fold_output_size_tensor",
)
# MindSpore's nn.CrossEntropyLoss takes class-index labels as int32 only (int64 raises a TypeError at the
# call): checked with the labels in the form the fix writes at the instance's calls (value_forms.CALL_FORMS)
add_pair(
    N + "CrossEntropyLoss",
    "mindspore.nn.CrossEntropyLoss",
    args=[T(2, 5), D([1, 3], "int64")],
    ms_args=[ARG(0), D([1, 3], "int32")],
    note="int32_labels_call_form",
)
# documented findings of failing pairs (see check.note.* messages)
_NOTES = {
    "torch.Tensor.log_normal": "torch_name_typo",  # torch has log_normal_ only
    "torch.nn.Hardsigmoid -> mindspore.nn.Hsigmoid": "ms_api_removed",
    "torch.nn.Hardswish -> mindspore.nn.Hswish": "ms_api_removed",
    "torch.nn.MultiLabelMarginLoss -> mindspore.nn.MultiLabelMarginLoss": "ms_api_removed",
    "torch.diag -> mindspore.ops.diag": "diag_semantics",
    "torch.Tensor.diag -> mindspore.Tensor.diag": "diag_semantics",
    "torch.full -> mindspore.ops.full": "full_dtype_inference",
    "torch.range -> mindspore.ops.range": "range_end",
    "torch.unique -> mindspore.ops.unique": "unique_order",
    "torch.nn.LocalResponseNorm -> mindspore.nn.LRN": "lrn_parameters",
    "torch.nn.Unfold -> mindspore.nn.Unfold": "unfold_signature",
}
_INT32 = ("argmin", "argmax", "argsort", "sort", "topk", "cummin", "cummax", "count_nonzero", "bucketize")
for _name in _INT32:
    for _api in (f"torch.{_name}", f"torch.Tensor.{_name}"):
        for _ms in (f"mindspore.ops.{_name}", f"mindspore.Tensor.{_name}"):
            _NOTES[pair_key(_api, _ms)] = "int32_indices"
for _name in ("index_add", "index_fill"):
    _NOTES[f"torch.Tensor.{_name} -> mindspore.Tensor.{_name}"] = "int32_index_required"
_NOTES[F + "multilabel_margin_loss -> mindspore.ops.multilabel_margin_loss"] = "int32_index_required"
for _name in ("bincount",):
    _NOTES[f"torch.{_name} -> mindspore.ops.{_name}"] = "bincount_float_output"
    _NOTES[f"torch.Tensor.{_name} -> mindspore.Tensor.{_name}"] = "bincount_float_output"
for _name in ("hann_window", "kaiser_window"):
    _NOTES[f"torch.{_name} -> mindspore.ops.{_name}"] = "window_float64_output"
_NOTES[F + "dropout2d -> mindspore.mint.nn.functional.dropout2d"] = "ms_eval_dropout2d"
_NOTES["torch.Tensor.H -> mindspore.Tensor.H"] = "ms_property_error"


def _with_note(key: str, note: str) -> None:
    base = SPECS.get(key) or SPECS.get(key.split(" -> ")[0]) or S(args=[X])
    SPECS[key] = replace(base, note=note)


for _key, _note in _NOTES.items():
    if " -> " in _key and _key in SPECS and SPECS[_key].note:
        continue
    _with_note(_key, _note)

# --- random and tensor conversions --------------------------------------------------------------
for _name in (
    "rand",
    "randn",
    "randint",
    "randperm",
    "rand_like",
    "randn_like",
    "randint_like",
    "normal",
    "bernoulli",
    "multinomial",
    "poisson",
):
    add(f"torch.{_name} torch.Tensor.{_name}", skip="random")
# the random functions: values differ by design, so shapes and dtypes are compared (a call that runs on the
# device with the right shape and dtype is what a device-aware fix target needs to know)
RANDOM = {"compare": "shape_dtype", "note": "random_values"}
add("torch.rand torch.randn", args=[2, 3], **RANDOM)
add("torch.randint", args=[0, 5, TUP(2, 3)], **RANDOM)
add("torch.randperm", args=[6], **RANDOM)
add("torch.rand_like torch.randn_like", args=[X], **RANDOM)
add("torch.randint_like", args=[X, 5], **RANDOM)
add("torch.normal", args=[X, P(2, 3, 4)], **RANDOM)
add("torch.bernoulli torch.Tensor.bernoulli", args=[P(2, 3, 4, low=0.1, high=0.9)], **RANDOM)
add("torch.multinomial torch.Tensor.multinomial", args=[P(2, 4), 2], **RANDOM)
# numpy.array_equal returns a bool tensor of shape () (torch: a Python bool; the fix writes bool(…))
add_pair("torch.equal", "mindspore.numpy.array_equal", args=[X, X], note="bool_tensor_result")
add_pair("torch.multinomial", "mindspore.ops.multinomial", args=[P(2, 4), 2], compare="shape_dtype",
         note="random_int32_indices")
add("torch.poisson", args=[P(2, 3, 4)], **RANDOM)
add("torch.nn.init.kaiming_normal_ torch.nn.init.kaiming_uniform_ torch.nn.init.xavier_normal_ "
    "torch.nn.init.xavier_uniform_ torch.nn.init.normal_ torch.nn.init.trunc_normal_ torch.nn.init.uniform_ "
    "torch.nn.init.orthogonal_", args=[X], **RANDOM)
add(F + "gumbel_softmax", args=[X], **RANDOM)
add(" ".join(f"torch.Tensor.{_name}_" for _name in
             "bernoulli cauchy exponential log_normal normal random uniform".split()), args=[X], **RANDOM)
add("torch.Tensor.geometric_", args=[X, 0.5], **RANDOM)
# APIs used through the random state, not by one call: the program real code writes with them (seed,
# draw, seed again, draw again: the same values), so what is compared is what the state is for
_DRAW_TWICE = ("a = torch.rand(4)", "{reset}", "b = torch.rand(4)", "result = a == b")


def _draw_twice(before: str, reset: str) -> tuple[str, ...]:
    return (before, *(line.format(reset=reset) for line in _DRAW_TWICE))


STATE = {"note": "random_state_program"}
# found: on CPU, MindSpore 2.10's random operators that have kernels there (ops.rand …) follow set_seed, not
# the default generator these APIs drive (whose mint operators have no CPU kernel): the draws differ
CPU_STATE = {"note": "default_generator_cpu"}
add("torch.manual_seed", program=_draw_twice("torch.manual_seed(7)", "torch.manual_seed(7)"), **CPU_STATE)
add("torch.seed", program=_draw_twice("s = torch.seed()", "torch.manual_seed(s)"), **CPU_STATE)
add("torch.get_rng_state torch.set_rng_state",
    program=_draw_twice("state = torch.get_rng_state()", "torch.set_rng_state(state)"), **CPU_STATE)
add("torch.initial_seed", program=("torch.manual_seed(7)", "result = torch.initial_seed()"), **STATE)
add("torch.Generator", program=("g = torch.Generator()", "g.manual_seed(7)", "result = g.initial_seed()"),
    **STATE)
add("torch.Tensor.to", args=[X, DT("float16")])

# --- in-place methods and APIs whose generic inputs have the wrong rank, shape or kind --------------
UPPER = D([[2.0, 0.5, 0.25], [0.0, 1.5, 0.1], [0.0, 0.0, 1.2]])  # well-conditioned upper triangular
LOWER = D([[2.0, 0.0, 0.0], [0.5, 1.5, 0.0], [0.25, 0.1, 1.2]])
add("torch.Tensor.addmm_", args=[T(3, 5), T(3, 4), T(4, 5)])
add(fn_and_method("cholesky_inverse"), args=[LOWER])
add(fn_and_method("cov") + " " + fn_and_method("corrcoef"), args=[T(3, 5)])
add("torch.Tensor.fill_", args=[X, 0.5])
add(fn_and_method("diagonal_scatter"), args=[T(3, 3), T(3)])
add("torch.Tensor.index_add_", args=[X, 1, D([0, 2], "int64"), T(2, 2, 4)])
add("torch.Tensor.index_copy_ " + fn_and_method("index_copy"), args=[X, 1, D([0, 2], "int64"), T(2, 2, 4)])
add("torch.Tensor.index_fill_", args=[X, 1, D([0, 2], "int64"), 0.5])
add("torch.Tensor.index_put_", args=[T(3, 4), TUP(D([0, 1], "int64"), D([1, 2], "int64")), T(2)])
add("torch.Tensor.masked_fill_", args=[X, B(2, 3, 4), 0.5])
add("torch.Tensor.masked_scatter_", args=[X, B(2, 3, 4), Y])
add("torch.Tensor.put_ torch.Tensor.put", args=[X, D([0, 5, 23], "int64"), T(3)])
add("torch.Tensor.scatter_add_", args=[X, 1, I(2, 3, 4, high=3), Y])
add("torch.Tensor.set_", args=[X, Y])
add("torch.Tensor.resize torch.Tensor.resize_", args=[X, 4, 6])
add(fn_and_method("triangular_solve"), args=[T(3, 2), UPPER])
add(fn_and_method("slice_scatter"), args=[T(4, 3), T(2, 3)], kwargs={"start": 0, "end": 2})
add(fn_and_method("select_scatter"), args=[T(3, 4), T(4), 0, 1])
add(fn_and_method("quantile") + " " + fn_and_method("nanquantile"), args=[X, 0.5])
add(fn_and_method("matrix_exp") + " torch.linalg.matrix_exp", args=[WELL])
add("torch.linalg.cross", args=[T(2, 3), T(2, 3)])
add("torch.linalg.matmul", args=[T(2, 3, 4), T(4, 5)])
add("torch.linalg.diagonal", args=[T(3, 4)])
add("torch.linalg.eig", args=[WELL], compare="sorted", note="eigenvalue_order", outputs=[0])
add("torch.linalg.lstsq", args=[WELL, T(3, 2)], outputs=[0])
add("torch.linalg.qr", args=[T(4, 3)])
add("torch.linalg.svd", args=[T(3, 4)], outputs=[1], note="singular_vectors_sign")
add("torch.tensordot", args=[T(3, 4, 5), T(4, 5, 2)])
add("torch.pdist", args=[T(4, 3)])
add("torch.tensor", args=[[1.0, 2.0, 3.0]])
add("torch.promote_types", args=[DT("float32"), DT("int64")])
add("torch.clamp_", args=[X, -0.5, 0.5])
add("torch.nn.init.constant_", args=[X, 0.5])
# the torch.* aliases of the neural-network functions take the inputs of their functional spelling
add("torch.adaptive_max_pool1d", args=[T(1, 3, 8), 4])
add("torch.max_pool2d", args=[T(1, 3, 8, 8), 2])
add("torch.max_pool3d", args=[T(1, 2, 4, 4, 4), 2])
add("torch.bilinear", args=[T(2, 4), T(2, 3), T(5, 4, 3), T(5)])
add("torch.conv1d", args=[T(1, 3, 8), T(4, 3, 3)])
add("torch.conv_transpose2d", args=[T(1, 3, 5, 5), T(3, 4, 3, 3)])
add("torch.conv_tbc", args=[T(5, 2, 3), T(3, 3, 4), T(4)])
add("torch.pixel_shuffle", args=[T(1, 8, 3, 3), 2])
add("torch.pixel_unshuffle", args=[T(1, 2, 4, 4), 2])
add("torch.channel_shuffle", args=[T(1, 4, 2, 2), 2])
add("torch.threshold", args=[X, 0.1, 20.0])
add("torch.dropout", args=[X, 0.5, False], note="eval_identity")
add("torch.embedding", args=[T(5, 4), I(2, 3, high=5)])
add("torch.group_norm", args=[T(2, 4, 3), 2])
add("torch.layer_norm torch.rms_norm " + F + "rms_norm", args=[X, TUP(4)])
add("torch.batch_norm", args=[T(2, 3, 4), T(3), T(3), T(3), P(3), False, 0.1, 1e-5, False])
add_pair("torch.batch_norm", "mindspore.ops.batch_norm",
         args=[T(2, 3, 4), T(3), T(3), T(3), P(3), False, 0.1, 1e-5, False],
         ms_args=[ARG(0), ARG(3), ARG(4), ARG(1), ARG(2), ARG(5), ARG(6), ARG(7)],
         note="batch_norm_argument_order")
add("torch.batch_norm_elemt", args=[T(2, 3, 4), T(3), T(3), T(3), P(3), 1e-5])
add("torch.batch_norm_stats", args=[T(2, 3, 4), 1e-5])
add(
    "torch.batch_norm_gather_stats_with_counts",
    args=[T(2, 3, 4), T(2, 3), P(2, 3), T(3), P(3), 0.1, 1e-5, D([4.0, 4.0])],
)
add("torch.stft", args=[T(16), 8], kwargs={"return_complex": True})
for _functions, _layers, _args in LOSS_INPUTS:  # torch.* aliases of some loss functions
    for _name in ("cosine_embedding_loss", "margin_ranking_loss", "triplet_margin_loss"):
        if _name in _functions.split():
            add(f"torch.{_name}", args=_args)
# CTC: log-probabilities (time, batch, classes), targets (batch, length), input and target lengths
CTC_INPUTS = [T(5, 2, 4, low=-3.0, high=-0.1), D([[1, 2], [1, 3]], "int64"), D([5, 5], "int64"),
              D([2, 2], "int64")]
add(F + "ctc_loss torch.ctc_loss " + N + "CTCLoss", args=CTC_INPUTS)
add(N + "TripletMarginWithDistanceLoss", args=[T(2, 4), T(2, 4), T(2, 4)])
add(
    N + "UpsamplingBilinear2d " + N + "UpsamplingNearest2d",
    init_kwargs={"size": TUP(8, 8)},
    args=[T(1, 3, 4, 4)],
)
# fractional max pooling samples its regions at random: shapes and dtypes are compared
add(N + "FractionalMaxPool2d", init_args=[2], init_kwargs={"output_size": TUP(3, 3)}, args=[T(1, 3, 8, 8)],
    **RANDOM)
add(N + "FractionalMaxPool3d", init_args=[2], init_kwargs={"output_size": TUP(2, 2, 2)},
    args=[T(1, 2, 6, 6, 6)], **RANDOM)
add(F + "fractional_max_pool2d", args=[T(1, 3, 8, 8), 2], kwargs={"output_size": TUP(3, 3)}, **RANDOM)
add(F + "fractional_max_pool3d", args=[T(1, 2, 6, 6, 6), 2], kwargs={"output_size": TUP(2, 2, 2)}, **RANDOM)

add("torch.Tensor.type", args=[X, DT("float64")])
add(N + "MultiheadAttention", init_args=[4, 2], args=[T(2, 3, 4), T(2, 3, 4), T(2, 3, 4)])
_LAYER = {"dim_feedforward": 8, "dropout": 0.0}
add(N + "TransformerEncoderLayer", init_args=[4, 2], init_kwargs=_LAYER, args=[T(2, 3, 4)])
add(N + "TransformerDecoderLayer", init_args=[4, 2], init_kwargs=_LAYER, args=[T(2, 3, 4), T(2, 3, 4)])
add(
    N + "Transformer",
    init_args=[4, 2, 1, 1],
    init_kwargs=_LAYER,
    args=[T(2, 3, 4), T(2, 3, 4)],
)

# --- optimizers: two training steps of a linear model with fixed weights, the weights compared ----------
# args: inputs (4, 3), targets (4, 2), weight (3, 2), bias (2,); init_kwargs: the optimizer's hyperparameters
_TRAINING_DATA = [T(4, 3), T(4, 2), T(3, 2), T(2)]
for _name, _hyper in (
    ("SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.01}),
    ("Adam", {"lr": 0.1, "weight_decay": 0.01}),
    ("AdamW", {"lr": 0.1}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01}),
    ("Adadelta", {}),
    ("Adamax", {"lr": 0.1}),
    ("ASGD", {"lr": 0.1}),
    ("NAdam", {"lr": 0.1}),
    ("RAdam", {"lr": 0.1}),
    ("RMSprop", {"lr": 0.01, "alpha": 0.9}),
    ("Rprop", {"lr": 0.1}),
):
    add(f"torch.optim.{_name}", args=_TRAINING_DATA, init_kwargs=_hyper, loop="training_step")
# learning-rate schedulers: the same loop with torch.optim.SGD(lr=0.1, momentum=0.9), three steps, the
# scheduler stepped after each; init_kwargs: the scheduler's arguments after the optimizer
for _name, _args in (
    ("StepLR", {"step_size": 1, "gamma": 0.5}),
    ("MultiStepLR", {"milestones": [1, 2], "gamma": 0.5}),
    ("ExponentialLR", {"gamma": 0.5}),
    ("ConstantLR", {"factor": 0.5, "total_iters": 2}),
    ("LinearLR", {"start_factor": 0.5, "total_iters": 2}),
    ("PolynomialLR", {"total_iters": 3, "power": 2.0}),
    ("CosineAnnealingLR", {"T_max": 3}),
    ("CosineAnnealingWarmRestarts", {"T_0": 2}),
    ("CyclicLR", {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 1}),  # (momentum cycled by torch only)
):
    add(f"torch.optim.lr_scheduler.{_name}", args=_TRAINING_DATA, init_kwargs=_args, loop="lr_scheduler")

# --- APIs a single-process CPU program cannot call (they keep a precise reason) -------------------
add(
    "torch.batch_norm_elemt torch.batch_norm_stats torch.batch_norm_gather_stats_with_counts "
    "torch.cuda.set_device",
    skip="unsupported_on_device",
    note="cuda_only",
)
_DISTRIBUTED = (
    "P2POp TCPStore all_gather all_gather_into_tensor all_gather_object all_reduce all_to_all "
    "all_to_all_single barrier batch_isend_irecv broadcast broadcast_object_list destroy_process_group "
    "gather gather_object get_backend get_global_rank get_group_rank get_process_group_ranks get_rank "
    "get_world_size init_process_group irecv isend new_group recv recv_object_list reduce reduce_scatter "
    "reduce_scatter_tensor scatter scatter_object_list send send_object_list"
)
add(
    " ".join(f"torch.distributed.{_name}" for _name in _DISTRIBUTED.split()),
    skip="not_op",
    note="needs_process_group",
)
_MODULE_METHODS = (
    "add_module buffers children compile get_buffer get_extra_state load_state_dict named_buffers "
    "named_children named_modules parameters register_backward_hook register_buffer register_forward_hook "
    "register_forward_pre_hook register_load_state_dict_post_hook register_load_state_dict_pre_hook "
    "register_state_dict_post_hook register_state_dict_pre_hook set_extra_state state_dict to to_empty train"
)
add(
    " ".join(f"{N}Module.{_name}" for _name in _MODULE_METHODS.split())
    + " torch.optim.Optimizer.step torch.nn.SyncBatchNorm.convert_sync_batchnorm",
    skip="no_input_rule",
    note="needs_instance",
)
# Module.apply: a small network whose layers an init function sets (its values are then comparable)
add(
    N + "Module.apply",
    args=[T(2, 4)],
    program=(
        "def init(module):",
        "    if isinstance(module, torch.nn.Linear):",
        "        torch.nn.init.constant_(module.weight, 0.5)",
        "        torch.nn.init.zeros_(module.bias)",
        "",
        "",
        "m = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))",
        "m.apply(init)",
        "result = m(x0)",
    ),
    note="module_program",
)
add(
    "torch.Tensor.register_hook torch.vmap torch.utils.checkpoint.checkpoint torch.autograd.grad "
    "torch.autograd.backward",
    skip="no_input_rule",
    note="needs_callable",
)

def build_table() -> dict[str, ApiSpec]:
    return {**SPECS, **AS_WRITTEN}


def write_specs_file(path: Path | None = None) -> Path:
    """Write ``input_specs.json`` (byte-identical for the same table)."""
    from msmigrate.check.spec import load_specs

    path = path or specs_path()
    path.write_text(render_specs_json(build_table()), encoding="utf-8")
    load_specs.cache_clear()
    return path
