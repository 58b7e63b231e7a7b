"""The cases each composition is checked on: several calls per torch API (masks, options, shapes), each run
by torch's API and by the helper the fix writes, on the same inputs (``check/compositions.py``).

Values use the input-spec encoding of ``check/spec.py`` (``T`` random tensor, ``B`` boolean, ``I`` integer,
``D`` fixed values, ``DT`` a dtype, ``TUP`` a tuple). For a ``method`` composition ``args[0]`` is the
tensor; for a class, ``init_*`` build the module (its parameters get random values, copied to the Cell) and
``args`` are the forward inputs. ``read``: attributes of the result compared (``finfo``); ``compare``:
``values``, ``shape_dtype`` (random results: dropout) or ``program`` (a container: the program of
``check/worker_programs.HELPER_PROGRAMS``, outputs and parameter names).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from msmigrate.check.spec import DT, B, D, I, P, T

Value = Any


@dataclass(frozen=True, slots=True)
class Case:
    name: str
    args: tuple[Value, ...] = ()
    kwargs: dict[str, Value] = field(default_factory=dict)
    init_args: tuple[Value, ...] = ()
    init_kwargs: dict[str, Value] = field(default_factory=dict)
    compare: str = "values"
    read: tuple[str, ...] = ()
    rtol: float = 1e-5
    atol: float = 1e-6


_Q, _K, _V = T(2, 3, 4, 8), T(2, 3, 5, 8), T(2, 3, 5, 6)
# multi_head_attention_forward: (L, N, E) = (4, 2, 8) queries, 5 keys, 2 heads; packed weights and biases,
# then the output projection
_MHA_IN = (T(4, 2, 8), T(5, 2, 8), T(5, 2, 8), 8, 2, T(24, 8), T(24), None, None, False, 0.0, T(8, 8), T(8))
_MHA_EVAL = {"training": False}
_PADDING = D([[False, False, True, False, True], [False, True, False, False, False]], dtype="bool")
_KEY_MASK = D([[False, True, False, False, False], [False, False, False, True, True],
               [True, False, False, False, False], [False, False, True, False, False]], dtype="bool")
_FINFO = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution")
_WINDOW = D([[0.5, -1.0, 0.25, 2.0], [0.0, 1.5, -0.5, 0.75]])

CASES: dict[str, tuple[Case, ...]] = {
    "torch.nn.functional.scaled_dot_product_attention": (
        Case("plain", (_Q, _K, _V)),
        Case("bool_mask", (_Q, _K, _V), {"attn_mask": B(4, 5)}),
        Case("bool_mask_broadcast", (_Q, _K, _V), {"attn_mask": B(2, 1, 1, 5)}),
        Case("float_mask", (_Q, _K, _V), {"attn_mask": T(2, 1, 4, 5)}),
        Case("causal", (_Q, _K, _V), {"is_causal": True}),
        Case("causal_square", (T(1, 2, 6, 4), T(1, 2, 6, 4), T(1, 2, 6, 4)), {"is_causal": True}),
        Case("scale", (_Q, _K, _V), {"scale": 0.3}),
        Case("positional_options", (_Q, _K, _V, None, 0.0, True), {"scale": 0.5}),
        Case("three_dims", (T(3, 4, 8), T(3, 5, 8), T(3, 5, 6))),
        Case("gqa", (_Q, T(2, 1, 5, 8), T(2, 1, 5, 6)), {"enable_gqa": True}),
        Case("dropout", (_Q, _K, _V), {"dropout_p": 0.5}, compare="shape_dtype"),
    ),
    "torch.nn.functional.multi_head_attention_forward": (
        Case("packed_weights", _MHA_IN, _MHA_EVAL),
        Case("attention_pool", (T(5, 2, 8), T(5, 2, 8), T(5, 2, 8)), {
            "embed_dim_to_check": 8, "num_heads": 2, "q_proj_weight": T(8, 8), "k_proj_weight": T(8, 8),
            "v_proj_weight": T(8, 8), "in_proj_weight": None, "in_proj_bias": T(24), "bias_k": None,
            "bias_v": None, "add_zero_attn": False, "dropout_p": 0.0, "out_proj_weight": T(6, 8),
            "out_proj_bias": T(6), "use_separate_proj_weight": True, "training": False,
            "need_weights": False}),
        Case("masks", _MHA_IN, {**_MHA_EVAL, "attn_mask": _KEY_MASK, "key_padding_mask": _PADDING}),
        Case("float_mask_heads", _MHA_IN,
             {**_MHA_EVAL, "attn_mask": T(4, 4, 5), "average_attn_weights": False}),
        Case("bias_kv_zero_attn", (*_MHA_IN[:7], T(1, 1, 8), T(1, 1, 8), True, *_MHA_IN[10:]),
             {**_MHA_EVAL, "attn_mask": T(4, 5), "key_padding_mask": _PADDING}),
        Case("unbatched_causal", (T(4, 8), T(4, 8), T(4, 8), *_MHA_IN[3:]), {
            **_MHA_EVAL, "attn_mask": D([[0.0 if j <= i else -math.inf for j in range(4)] for i in range(4)]),
            "is_causal": True}),
        Case("dropout", (*_MHA_IN[:10], 0.5, *_MHA_IN[11:]), compare="shape_dtype"),
    ),
    "torch.nn.MultiheadAttention": (
        Case("batch_first_no_weights", (T(2, 4, 8), T(2, 4, 8), T(2, 4, 8)), {"need_weights": False},
             init_args=(8, 2), init_kwargs={"batch_first": True}),
        Case("weights", (T(4, 2, 8), T(5, 2, 8), T(5, 2, 8)), init_args=(8, 2)),
        Case("masks_heads", (T(4, 2, 8), T(5, 2, 8), T(5, 2, 8)),
             {"key_padding_mask": _PADDING, "attn_mask": _KEY_MASK, "average_attn_weights": False},
             init_args=(8, 2)),
        Case("no_bias_bias_kv", (T(4, 2, 8), T(5, 2, 8), T(5, 2, 8)), {"need_weights": False},
             init_args=(8, 2), init_kwargs={"bias": False, "add_bias_kv": True}),
    ),
    "torch.finfo": (
        Case("default", (), read=_FINFO, rtol=0.0, atol=0.0),
        Case("float16", (DT("float16"),), read=_FINFO, rtol=0.0, atol=0.0),
        Case("float32", (DT("float32"),), read=_FINFO, rtol=0.0, atol=0.0),
        Case("float64", (DT("float64"),), read=_FINFO, rtol=0.0, atol=0.0),
        Case("bfloat16", (DT("bfloat16"),), read=_FINFO, rtol=0.0, atol=0.0),
    ),
    "torch.Tensor.unfold": (
        Case("middle", (T(3, 7, 2), 1, 3, 2)),
        Case("last_single", (T(3, 7, 2), -1, 1, 1)),
        Case("overlapping", (T(2, 10), 1, 4, 1)),
        Case("keywords", (T(5, 3),), {"dimension": 0, "size": 2, "step": 3}),
    ),
    "torch.nn.utils.rnn.pad_sequence": (
        Case("time_first", ([T(3, 2), T(5, 2), T(1, 2)],)),
        Case("batch_first_left", ([T(3, 2), T(5, 2), T(1, 2)],),
             {"batch_first": True, "padding_value": -1.0, "padding_side": "left"}),
        Case("integers", ([I(3, high=9), I(5, high=9), I(1, high=9)], True, 7)),
        Case("one_dim_tensors", ([T(2), T(4)],)),
    ),
    "torch.isin": (
        Case("tensors", (I(3, 4, high=10), I(5, high=10))),
        Case("invert", (I(3, 4, high=10), I(5, high=10)), {"invert": True}),
        Case("scalar_test", (I(3, 4, high=10), 3)),
        Case("float_values", (D([[1.0, 2.5], [3.0, -1.0]]), D([2.5, 3.0, 7.0]))),
    ),
    "torch.bucketize": (
        Case("left", (D([[-1.0, -0.5, 0.0], [0.25, 0.5, 2.0]]), D([-0.5, 0.0, 0.5]))),
        Case("right_int32", (D([[-1.0, -0.5, 0.0], [0.25, 0.5, 2.0]]), D([-0.5, 0.0, 0.5])),
             {"right": True, "out_int32": True}),
        Case("random", (T(4, 5), D([-0.6, -0.2, 0.1, 0.7]))),
    ),
    "torch.hann_window": (
        Case("periodic", (8,)),
        Case("symmetric", (8, False)),
        Case("one", (1,)),
        Case("float64", (400,), {"dtype": DT("float64")}),
        Case("odd", (5, False)),
    ),
    "torch.concatenate": (
        Case("dim", ([T(3, 2), T(3, 4)], 1)),
        Case("default_dim", ([T(2, 3), T(1, 3), T(4, 3)],)),
        Case("axis", ([T(2, 3), T(2, 1)],), {"axis": -1}),
    ),
    "torch.take_along_dim": (
        Case("dim", (T(3, 7, 2), I(3, 2, 2, high=7)), {"dim": 1}),
        Case("flattened", (T(3, 7, 2), I(5, high=42))),
        Case("broadcast", (T(3, 7, 2), I(1, 7, 3, high=2), 2)),
        Case("argsort", (_WINDOW, D([[3, 0], [1, 2]], "int64"), -1)),
    ),
    "torch.Tensor.unflatten": (
        Case("sizes", (T(3, 14), 1, (7, 2))),
        Case("inferred", (T(3, 14), -1, (-1, 2))),
        Case("keywords", (T(6, 2),), {"dim": 0, "sizes": (2, 3)}),
    ),
    "torch.unflatten": (
        Case("sizes", (T(3, 14), 1, (7, 2))),
        Case("inferred", (T(2, 12, 3), 1, (2, -1))),
    ),
    "torch.linalg.solve_triangular": (
        Case("upper", (D([[2.0, 0.5, -1.0], [0.0, 3.0, 0.25], [0.0, 0.0, 1.5]]), T(3, 2)), {"upper": True}),
        Case("lower", (D([[2.0, 0.0, 0.0], [0.5, 3.0, 0.0], [-1.0, 0.25, 1.5]]), T(3, 2)), {"upper": False}),
        Case("right", (D([[2.0, 0.5, -1.0], [0.0, 3.0, 0.25], [0.0, 0.0, 1.5]]), T(4, 3)),
             {"upper": True, "left": False}),
        Case("unitriangular", (D([[2.0, 0.5, -1.0], [0.0, 3.0, 0.25], [0.0, 0.0, 1.5]]), T(3, 1)),
             {"upper": True, "unitriangular": True}),
        Case("batch", (D([[[2.0, 0.5], [0.0, 1.0]], [[1.5, -1.0], [0.0, 3.0]]]), T(2, 2, 3)),
             {"upper": True}),
    ),
    "torch.nn.functional.rms_norm": (
        Case("weight", (T(2, 3, 4), (4,), P(4))),
        Case("two_dims_eps", (T(2, 3, 4), [3, 4]), {"eps": 1e-3}),
        Case("list_shape", (T(5, 6), [6], D([0.5, 1.0, 1.5, 2.0, -1.0, 0.25]))),
    ),
    "torch.nn.RMSNorm": (
        Case("affine", (T(2, 3, 4),), init_args=(4,)),
        Case("eps_two_dims", (T(2, 3, 4),), init_args=((3, 4),), init_kwargs={"eps": 1e-4}),
        Case("no_affine", (T(2, 5),), init_args=(5,), init_kwargs={"elementwise_affine": False}),
    ),
    "torch.nn.functional.layer_norm": (
        Case("last_dim", (T(2, 3, 4), (4,))),
        Case("two_dims_affine", (T(2, 3, 4), [3, 4], P(3, 4), T(3, 4)), {"eps": 1e-3}),
        Case("list_shape_weight_only", (T(5, 6), [6], P(6))),
    ),
    "torch.nn.LayerNorm": (
        Case("int_shape", (T(2, 3, 4),), init_args=(4,)),
        Case("two_dims_eps", (T(2, 3, 4),), init_args=((3, 4),), init_kwargs={"eps": 1e-3}),
        Case("no_affine", (T(2, 5),), init_args=(5,), init_kwargs={"elementwise_affine": False}),
        Case("no_bias", (T(2, 5),), init_args=([5],), init_kwargs={"bias": False}),
    ),
    "torch.nn.Conv1d": (
        Case("padding", (T(2, 3, 9),), init_args=(3, 4, 3), init_kwargs={"padding": 1}),
        Case("same_even_kernel", (T(2, 3, 9),), init_args=(3, 4, 4), init_kwargs={"padding": "same"}),
        Case("valid_stride_groups", (T(2, 4, 9),), init_args=(4, 6, 3, 2),
             init_kwargs={"padding": "valid", "groups": 2, "bias": False}),
        Case("circular_dilation", (T(2, 3, 11),), init_args=(3, 4, 3),
             init_kwargs={"padding": 2, "dilation": 2, "padding_mode": "circular"}),
    ),
    "torch.nn.Conv2d": (
        Case("padding", (T(2, 3, 9, 8),), init_args=(3, 4, 3), init_kwargs={"padding": 1}),
        Case("padding_pair_stride", (T(2, 3, 9, 8),), init_args=(3, 4, (3, 2), 2),
             init_kwargs={"padding": (2, 1)}),
        Case("same_even_kernel_dilation", (T(2, 3, 9, 8),), init_args=(3, 4, 4),
             init_kwargs={"padding": "same", "dilation": 2, "bias": False}),
        Case("reflect_groups", (T(2, 3, 9, 8),), init_args=(3, 6, 3),
             init_kwargs={"padding": 1, "padding_mode": "reflect", "groups": 3}),
        Case("valid", (T(1, 2, 7, 7),), init_args=(2, 4, 3, 1, "valid")),
        Case("stride_list_of_one", (T(1, 2, 9, 8),), init_args=(2, 4, 3),
             init_kwargs={"stride": [2], "padding": 1}),
    ),
    **{f"torch.nn.{name}": (
        Case("default", (T(2, 3, 4),)),
        Case("inplace", (T(2, 3, 4),), init_kwargs={"inplace": True}),
        Case("positional_inplace", (T(5, 6),), init_args=(True,)),
    ) for name in ("ReLU", "ReLU6", "SiLU", "Hardswish", "Hardsigmoid")},
    "torch.nn.GELU": (
        Case("default", (T(2, 3, 4),)),
        Case("tanh", (T(2, 3, 4),), init_kwargs={"approximate": "tanh"}),
        Case("none_by_position", (D([[-3.0, -0.5, 0.0, 0.7, 2.5]]),), init_args=("none",)),
    ),
    "torch.einsum": (
        Case("attention_scores", ("b h i d, b h j d -> b h i j", T(2, 3, 4, 5), T(2, 3, 6, 5))),
        Case("heads_mix", ("bhij,hg->bgij", T(2, 3, 4, 4), T(3, 2))),
        Case("relative_positions", ("bhwc,hkc->bhwk", T(2, 4, 3, 5), T(4, 6, 5))),
        Case("ellipsis_broadcast", ("...ij,jk->...ik", T(2, 3, 4, 5), T(5, 2))),
        Case("implicit_output", ("ij,jk", T(3, 4), T(4, 2))),
        Case("operand_list_sum", ("ijk->j", [T(2, 3, 4)])),
    ),
    "torch.conv1d": (
        Case("positional", (T(2, 3, 9), T(4, 3, 3), T(4), 2, 1, 1, 1)),
        Case("same_even_kernel", (T(2, 3, 9), T(4, 3, 4)), {"padding": "same"}),
        Case("groups_dilation", (T(2, 4, 11), T(6, 2, 3)), {"groups": 2, "dilation": 2, "padding": 2}),
    ),
    "torch.conv2d": (
        Case("positional", (T(2, 3, 9, 8), T(4, 3, 3, 3), T(4), 1, 1, 1, 1)),
        Case("pair_stride_padding", (T(2, 3, 9, 8), T(4, 3, 3, 2)), {"stride": (2, 1), "padding": (2, 0)}),
        Case("same_even_kernel_dilation", (T(2, 3, 9, 8), T(4, 3, 4, 4)), {"padding": "same", "dilation": 2}),
        Case("valid_groups", (T(2, 4, 7, 7), T(6, 2, 3, 3), T(6)), {"padding": "valid", "groups": 2}),
    ),
    "torch.distributions.utils.broadcast_all": (
        Case("tensors", (T(3, 1), T(4))),
        Case("numbers", (T(2, 3), 0.5, T(3))),
        Case("only_numbers", (1.5, 2)),
        Case("float64", (D([1.0, 2.0], "float64"), 3.0)),
    ),
    "torch.Tensor.neg_": (
        Case("matrix", (T(3, 4),)),
        Case("vector", (T(5),)),
        Case("integers", (I(2, 3, high=9),)),
    ),
    "torch.Tensor.addcdiv_": (
        Case("default_value", (T(3, 4), T(3, 4), P(3, 4))),
        Case("value", (T(3, 4), T(3, 4), P(3, 4)), {"value": -0.3}),
        Case("broadcast", (T(3, 4), T(4), P(3, 1)), {"value": 2.0}),
    ),
    "torch.Tensor.addcmul_": (
        Case("default_value", (T(3, 4), T(3, 4), T(3, 4))),
        Case("value", (T(3, 4), T(3, 4), T(3, 4)), {"value": 0.7}),
        Case("broadcast", (T(3, 4), T(4), T(3, 1)), {"value": -1}),
    ),
    "torch.Tensor.sqrt_": (
        Case("matrix", (P(3, 4),)),
        Case("vector", (P(7),)),
        Case("float64", (P(2, 3, dtype="float64"),)),
    ),
    "torch.Tensor.unsqueeze_": (
        Case("first", (T(3, 4), 0)),
        Case("last", (T(3, 4), -1)),
        Case("keyword", (T(2, 3, 4),), {"dim": 1}),
    ),
    "torch.Tensor.lerp_": (
        Case("scalar_weight", (T(3, 4), T(3, 4), 0.1)),
        Case("tensor_weight", (T(3, 4), T(3, 4), T(3, 4))),
        Case("large_weight", (T(2, 5), T(2, 5), 0.9)),
    ),
    "torch.nn.ModuleList": (Case("program", compare="program"),),
    "torch.nn.ModuleDict": (Case("program", compare="program"),),
    "torch.nn.Module.modules": (Case("program", compare="program"),),
    "torch.nn.Module.named_parameters": (Case("program", compare="program"),),
}
