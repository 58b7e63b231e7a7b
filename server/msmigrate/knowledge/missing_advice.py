"""What to do about a torch API that has no MindSpore mapping: the four policies, as data.

The seeds name four ways to handle a missing API, tried in order: (1) an equivalent replacement,
(2) a composition of existing APIs, (3) a custom operator, (4) asking the community. ``CATALOGUE``
records, for the torch APIs most often met in real code that have no row in the mapping table, which
policy applies, the MindSpore APIs to use, a note (``advice.note.<id>`` in ``messages/rules_advice.py``),
a MindSpore snippet written for this project and the quick-fix kind, if the rewrite can be exact.

Two facts are derived rather than listed: a ``torch.Tensor`` method whose function form
(``x.squeeze(1)`` → ``torch.squeeze(x, 1)``) is mapped, and an API that another bundled table version
maps. ``advice_for`` combines them; hover, ``lookup`` and the ``MSM2xx`` rules show its result.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from msmigrate.i18n import normalize_lang, t
from msmigrate.knowledge.missing_advice_frequent import rows as _frequent
from msmigrate.knowledge.model import MappingCategory
from msmigrate.knowledge.snippets import SNIPPETS

if TYPE_CHECKING:
    from msmigrate.knowledge.base import KnowledgeBase


class Policy(IntEnum):
    EQUIVALENT = 1  # an equivalent replacement exists
    COMPOSE = 2  # compose it from mapped APIs
    CUSTOM_OPERATOR = 3  # write a mindspore.ops.Custom operator
    COMMUNITY = 4  # ask the MindSpore community


RULE_FOR_POLICY: dict[Policy, str] = {
    Policy.EQUIVALENT: "MSM201",
    Policy.COMPOSE: "MSM202",
    Policy.CUSTOM_OPERATOR: "MSM203",
    Policy.COMMUNITY: "MSM204",
}

COMMUNITY_NEW_ISSUE = "https://gitee.com/mindspore/mindspore/issues/new"
POLICY_DOC = "https://www.mindspore.cn/docs/{lang}/r2.5.0/migration_guide/missing_api_processing_policy.html"
CUSTOM_OP_DOC = "https://www.mindspore.cn/docs/{lang}/r2.5.0/model_train/custom_program/op_custom.html"
THIRD_PARTY_OP_DOC = "https://www.mindspore.cn/docs/{lang}/r2.5.0/migration_guide/use_third_party_op.html"
CUSTOM_API_DOC = "https://www.mindspore.cn/docs/{lang}/r2.6.0/api_python/ops/mindspore.ops.Custom.html"

# Tensor methods whose function form takes its arguments differently (never rewritten mechanically).
_NOT_FUNCTION_FORM = frozenset({"where", "type", "to", "view", "size", "expand", "repeat", "new_empty"})
# Methods that accept their sizes as separate arguments (``x.permute(0, 2, 1)``) while the function
# takes one tuple (``torch.permute(x, (0, 2, 1))``).
NAME_FIX = "mindspore_name"  # the reference itself is replaced by the MindSpore name (dtypes)
# ``x.detach()`` → ``mindspore.ops.stop_gradient(x)``: the receiver passed to the MindSpore function
# (fixes/receiver_function_fixes.py)
RECEIVER_FUNCTION = "receiver_function"

VARARG_METHODS = frozenset({"permute", "flip", "reshape", "tile", "broadcast_to"})


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    torch_api: str
    policy: Policy
    replacements: tuple[str, ...]  # MindSpore APIs, best first
    note: str  # message key suffix: advice.note.<note>
    snippet: str | None = None  # key of SNIPPETS
    fix: str | None = None  # fixer kind: a rewrite of fixes/rewrites.py, NAME_FIX or RECEIVER_FUNCTION
    pattern_rule: str | None = None  # the framework-pattern rule that explains the idiom (MSM5xx)


def _rows(
    policy: Policy,
    rows: str,
    note: str,
    *,
    snippet: str | None = None,
    fix: str | None = None,
    rule: str | None = None,
) -> list[CatalogueEntry]:
    """Entries for one note: ``rows`` holds ``torch_api [mindspore_api ...]`` per line."""
    found = []
    for line in rows.strip().splitlines():
        torch_api, *replacements = line.split()
        found.append(CatalogueEntry(torch_api, policy, tuple(replacements), note, snippet, fix, rule))
    return found


E, C, X, Q = Policy.EQUIVALENT, Policy.COMPOSE, Policy.CUSTOM_OPERATOR, Policy.COMMUNITY

_ENTRIES: list[CatalogueEntry] = [
    # --- shapes and views ------------------------------------------------------------------------
    *_rows(E, "torch.Tensor.view mindspore.Tensor.reshape mindspore.Tensor.view", "view", fix="reshape"),
    *_rows(E, "torch.Tensor.size mindspore.Tensor.shape", "size", fix="shape"),
    *_rows(E, "torch.Tensor.shape mindspore.Tensor.shape", "same_attribute"),
    *_rows(E, "torch.Tensor.contiguous mindspore.Tensor.contiguous", "contiguous", fix="drop_call"),
    *_rows(
        E,
        """
        torch.Tensor.expand mindspore.Tensor.expand mindspore.Tensor.broadcast_to
        torch.Tensor.repeat mindspore.Tensor.tile mindspore.ops.tile
        torch.Tensor.dim mindspore.Tensor.ndim
        torch.Tensor.ndim mindspore.Tensor.ndim
        torch.Tensor.numel mindspore.Tensor.size
        torch.Tensor.nelement mindspore.Tensor.size
        torch.Tensor.T mindspore.Tensor.T
    """,
        "shape_member",
    ),
    *_rows(
        E,
        """
        torch.nn.AdaptiveMaxPool1d mindspore.nn.AdaptiveMaxPool1d
        torch.nn.AdaptiveMaxPool2d mindspore.nn.AdaptiveMaxPool2d
        torch.nn.AdaptiveMaxPool3d mindspore.nn.AdaptiveMaxPool3d
    """,
        "adaptive_max_module",
    ),
    *_rows(
        E,
        """
        torch.nn.functional.adaptive_max_pool1d mindspore.ops.adaptive_max_pool1d mindspore.mint.amax
        torch.nn.functional.adaptive_max_pool2d mindspore.ops.adaptive_max_pool2d mindspore.mint.amax
        torch.nn.functional.adaptive_max_pool3d mindspore.ops.adaptive_max_pool3d mindspore.mint.amax
    """,
        "adaptive_max_function",
        fix="adaptive_pool_1",
    ),
    *_rows(
        E,
        "torch.nn.functional.adaptive_avg_pool3d mindspore.ops.adaptive_avg_pool3d mindspore.mint.mean",
        "adaptive_avg_function",
        fix="adaptive_pool_1",
    ),
    *_rows(
        E,
        """
        torch.nn.MaxPool1d mindspore.nn.MaxPool1d
        torch.nn.MaxPool2d mindspore.nn.MaxPool2d mindspore.ops.MaxPoolWithArgmaxV2
        torch.nn.MaxPool3d mindspore.nn.MaxPool3d
        torch.nn.functional.max_pool1d mindspore.nn.MaxPool1d
        torch.nn.functional.max_pool3d mindspore.ops.max_pool3d
        torch.nn.functional.max_pool2d_with_indices mindspore.mint.nn.functional.max_pool2d
    """,
        "max_pool",
    ),
    *_rows(E, "torch.msort mindspore.mint.sort mindspore.ops.topk", "msort", fix="msort"),
    *_rows(E, "torch.argwhere mindspore.mint.nonzero mindspore.ops.argwhere", "argwhere", fix="argwhere"),
    *_rows(E, "torch.take mindspore.ops.gather", "take", fix="take"),
    *_rows(E, "torch.take_along_dim mindspore.ops.gather_elements", "take_along_dim"),
    *_rows(
        E,
        """
        torch.clamp_min mindspore.mint.clamp
        torch.Tensor.clamp_min mindspore.Tensor.clamp
        torch.Tensor.clamp_max mindspore.Tensor.clamp
    """,
        "clamp_bound",
        fix="clamp_bound",
    ),
    # --- conversions, copies, devices ------------------------------------------------------------
    *_rows(
        E,
        """
        torch.float32 mindspore.float32
        torch.float mindspore.float32
        torch.float16 mindspore.float16
        torch.half mindspore.float16
        torch.bfloat16 mindspore.bfloat16
        torch.float64 mindspore.float64
        torch.double mindspore.float64
        torch.int64 mindspore.int64
        torch.long mindspore.int64
        torch.int32 mindspore.int32
        torch.int mindspore.int32
        torch.int16 mindspore.int16
        torch.int8 mindspore.int8
        torch.uint8 mindspore.uint8
        torch.bool mindspore.bool_
        torch.complex64 mindspore.complex64
    """,
        "dtype",
        fix="mindspore_name",
    ),
    *_rows(
        E,
        """
        torch.softmax mindspore.mint.softmax
        torch.log_softmax mindspore.ops.log_softmax
        torch.relu mindspore.ops.relu
        torch.dropout mindspore.mint.nn.functional.dropout
    """,
        "same_function",
    ),
    *_rows(E, "torch.Tensor.numpy mindspore.Tensor.asnumpy", "numpy"),
    *_rows(E, "torch.Tensor.tolist mindspore.Tensor.tolist", "same_method"),
    *_rows(E, "torch.Tensor.to mindspore.Tensor.astype", "to_method", rule="MSM504"),
    *_rows(
        E,
        """
        torch.Tensor.cuda mindspore.set_device
        torch.Tensor.cpu mindspore.set_device
        torch.Tensor.pin_memory mindspore.set_device
    """,
        "device_move",
        rule="MSM504",
    ),
    *_rows(
        E,
        """
        torch.Tensor.double mindspore.Tensor.astype
        torch.Tensor.bfloat16 mindspore.Tensor.astype
        torch.Tensor.type mindspore.Tensor.astype
        torch.Tensor.type_as mindspore.Tensor.type_as
    """,
        "cast",
    ),
    *_rows(E, "torch.Tensor.detach mindspore.ops.stop_gradient", "detach", fix=RECEIVER_FUNCTION),
    *_rows(E, "torch.Tensor.clone mindspore.mint.clone mindspore.Tensor.copy", "clone"),
    *_rows(
        E,
        """
        torch.Tensor.new_full mindspore.mint.full
        torch.Tensor.new_tensor mindspore.tensor
        torch.Tensor.new_zeros mindspore.Tensor.new_zeros
        torch.Tensor.new_ones mindspore.Tensor.new_ones
    """,
        "new_tensor",
    ),
    *_rows(
        E,
        """
        torch.Tensor.zero_ mindspore.Tensor.zero_
        torch.Tensor.fill_ mindspore.Tensor.fill_
        torch.Tensor.copy_ mindspore.Tensor.copy_ mindspore.ops.assign
        torch.Tensor.add_ mindspore.Tensor.add_
        torch.Tensor.mul_ mindspore.mint.mul
        torch.Tensor.sub_ mindspore.mint.sub
        torch.Tensor.div_ mindspore.mint.div
        torch.Tensor.masked_fill_ mindspore.Tensor.masked_fill
        torch.Tensor.uniform_ mindspore.Tensor.uniform_ mindspore.common.initializer.Uniform
        torch.Tensor.normal_ mindspore.Tensor.normal_ mindspore.common.initializer.Normal
        torch.Tensor.scatter_ mindspore.ops.tensor_scatter_elements
        torch.Tensor.scatter_add_ mindspore.ops.tensor_scatter_elements
        torch.Tensor.index_add_ mindspore.ops.index_add
        torch.Tensor.index_put_ mindspore.Tensor.index_put
    """,
        "inplace",
    ),
    *_rows(E, "torch.Tensor.requires_grad_ mindspore.Parameter", "requires_grad"),
    *_rows(
        E,
        """
        torch.Tensor.grad mindspore.value_and_grad
        torch.Tensor.grad_fn mindspore.value_and_grad
        torch.Tensor.retain_grad mindspore.value_and_grad
    """,
        "tensor_grad",
        rule="MSM506",
    ),
    *_rows(E, "torch.Tensor.backward mindspore.value_and_grad", "backward", rule="MSM506"),
    *_rows(
        E,
        "torch.Tensor.register_hook mindspore.Tensor.register_hook mindspore.ops.HookBackward",
        "tensor_hook",
    ),
    *_rows(E, "torch.Tensor.data mindspore.Parameter.set_data", "tensor_data"),
    *_rows(E, "torch.Tensor.dtype mindspore.Tensor.dtype", "same_attribute"),
    *_rows(
        E,
        "torch.Tensor.is_cuda mindspore.get_context",
        "device_attribute",
        rule="MSM504",
    ),
    *_rows(E, "torch.Tensor.device mindspore.Tensor.device", "tensor_device", rule="MSM504"),
    *_rows(E, "torch.nn.Module.register_buffer mindspore.Parameter", "buffer"),
    *_rows(
        E,
        """
        torch.Tensor.data_ptr mindspore.Tensor.asnumpy
        torch.Tensor.storage mindspore.Tensor.asnumpy
        torch.Tensor.element_size mindspore.Tensor.itemsize
        torch.Tensor.stride mindspore.Tensor.strides
        torch.Tensor.is_contiguous mindspore.Tensor.is_contiguous
    """,
        "memory_layout",
    ),
    *_rows(E, "torch.from_numpy mindspore.Tensor.from_numpy mindspore.tensor", "tensor_create"),
    *_rows(E, "torch.tensor mindspore.tensor mindspore.Tensor", "tensor_create"),
    *_rows(E, "torch.as_tensor mindspore.tensor mindspore.Tensor", "tensor_create"),
    # --- runtime: seeds, devices, determinism, graph compilation ------------------------------
    *_rows(
        E,
        """
        torch.manual_seed mindspore.set_seed
        torch.cuda.manual_seed mindspore.set_seed
        torch.cuda.manual_seed_all mindspore.set_seed
    """,
        "seed",
    ),
    *_rows(
        E,
        """
        torch.cuda.is_available mindspore.hal.is_available
        torch.cuda.device_count mindspore.hal.device_count
        torch.cuda.current_device mindspore.get_context
    """,
        "device_query",
    ),
    *_rows(
        E,
        """
        torch.cuda.synchronize mindspore.runtime.synchronize
        torch.cuda.empty_cache mindspore.runtime.empty_cache
    """,
        "runtime",
    ),
    *_rows(
        E,
        """
        torch.cuda.set_device mindspore.set_device
        torch.device mindspore.set_device
    """,
        "set_device",
        rule="MSM504",
    ),
    *_rows(E, "torch.use_deterministic_algorithms mindspore.set_deterministic", "deterministic"),
    *_rows(
        E,
        """
        torch.set_default_dtype mindspore.tensor
        torch.get_default_dtype mindspore.float32
    """,
        "default_dtype",
    ),
    *_rows(
        E,
        """
        torch.jit.script mindspore.jit
        torch.jit.trace mindspore.jit
        torch.compile mindspore.jit
    """,
        "graph_compile",
    ),
    *_rows(
        E,
        """
        torch.no_grad mindspore.ops.stop_gradient
        torch.enable_grad mindspore.value_and_grad
        torch.set_grad_enabled mindspore.value_and_grad
        torch.inference_mode mindspore.nn.Cell.set_train
    """,
        "grad_mode",
        rule="MSM507",
    ),
    *_rows(
        E,
        """
        torch.save mindspore.save_checkpoint
        torch.load mindspore.load_checkpoint mindspore.load_param_into_net
    """,
        "checkpoint_io",
        rule="MSM512",
    ),
    # --- autograd and training utilities --------------------------------------------------------
    *_rows(
        E,
        """
        torch.autograd.grad mindspore.grad mindspore.ops.GradOperation
        torch.autograd.backward mindspore.value_and_grad
    """,
        "autograd",
    ),
    *_rows(C, "torch.autograd.Function mindspore.nn.Cell", "custom_backward", snippet="custom_backward"),
    *_rows(E, "torch.nn.utils.clip_grad_norm_ mindspore.ops.clip_by_global_norm", "clip_grad"),
    *_rows(E, "torch.nn.utils.clip_grad_value_ mindspore.ops.clip_by_value", "clip_grad"),
    *_rows(
        C,
        """
        torch.nn.utils.parameters_to_vector mindspore.ops.cat
        torch.nn.utils.vector_to_parameters mindspore.Parameter.set_data
    """,
        "compose",
        snippet="parameters_to_vector",
    ),
    *_rows(
        C,
        "torch.nn.utils.rnn.pad_sequence mindspore.ops.pad mindspore.ops.stack",
        "pad_sequence",
        snippet="pad_sequence",
    ),
    *_rows(
        E,
        """
        torch.nn.utils.rnn.pack_padded_sequence mindspore.nn.LSTM
        torch.nn.utils.rnn.pad_packed_sequence mindspore.nn.LSTM
        torch.nn.utils.rnn.pack_sequence mindspore.nn.LSTM
    """,
        "rnn_packing",
    ),
    *_rows(C, "torch.nn.utils.weight_norm mindspore.ops.norm", "compose", snippet="weight_norm"),
    *_rows(Q, "torch.nn.utils.spectral_norm", "community"),
    # --- layers and functions -------------------------------------------------------------------
    *_rows(E, "torch.nn.Module mindspore.nn.Cell", "module_class", rule="MSM501"),
    *_rows(E, "torch.nn.Sequential mindspore.nn.SequentialCell", "cell_container", rule="MSM502"),
    *_rows(
        E,
        """
        torch.nn.ModuleList mindspore.nn.CellList
        torch.nn.ModuleDict mindspore.nn.CellDict
        torch.nn.ParameterList mindspore.ParameterTuple
    """,
        "cell_container",
    ),
    *_rows(E, "torch.nn.Parameter mindspore.Parameter", "parameter"),
    *_rows(
        E,
        """
        torch.nn.LazyLinear mindspore.nn.Dense
        torch.nn.LazyConv2d mindspore.nn.Conv2d
    """,
        "lazy_module",
    ),
    *_rows(
        E,
        """
        torch.nn.UpsamplingNearest2d mindspore.mint.nn.functional.interpolate
        torch.nn.UpsamplingBilinear2d mindspore.mint.nn.functional.interpolate
    """,
        "upsample_module",
    ),
    *_rows(
        E,
        """
        torch.nn.functional.upsample mindspore.mint.nn.functional.interpolate
        torch.nn.functional.upsample_nearest mindspore.mint.nn.functional.interpolate
        torch.nn.functional.upsample_bilinear mindspore.mint.nn.functional.interpolate
    """,
        "upsample_function",
        fix="interpolate",
    ),
    *_rows(
        E,
        """
        torch.nn.Softplus mindspore.ops.softplus
        torch.nn.CosineSimilarity mindspore.ops.cosine_similarity
        torch.nn.CircularPad2d mindspore.ops.pad
    """,
        "function_as_cell",
    ),
    *_rows(
        E,
        """
        torch.nn.ChannelShuffle mindspore.nn.ChannelShuffle
        torch.nn.PixelUnshuffle mindspore.nn.PixelUnshuffle
        torch.nn.functional.pixel_unshuffle mindspore.ops.pixel_unshuffle
        torch.nn.functional.layer_norm mindspore.ops.layer_norm
        torch.nn.functional.group_norm mindspore.ops.group_norm
        torch.nn.functional.dropout1d mindspore.ops.dropout1d
        torch.nn.functional.gaussian_nll_loss mindspore.ops.gaussian_nll_loss
        torch.nn.functional.huber_loss mindspore.ops.huber_loss
        torch.cartesian_prod mindspore.ops.cartesian_prod
        torch.tensordot mindspore.ops.tensor_dot
        torch.det mindspore.ops.det
        torch.pinverse mindspore.ops.pinv
        torch.svd mindspore.ops.svd
        torch.stft mindspore.ops.stft
    """,
        "same_function",
    ),
    *_rows(
        E,
        """
        torch.linalg.solve mindspore.ops.matrix_solve
        torch.linalg.svd mindspore.ops.svd
        torch.linalg.qr mindspore.ops.qr
        torch.linalg.cholesky mindspore.ops.cholesky
        torch.linalg.eigh mindspore.scipy.linalg.eigh
        torch.linalg.det mindspore.ops.det
        torch.linalg.pinv mindspore.ops.pinv
    """,
        "linalg",
    ),
    *_rows(
        E,
        """
        torch.fft.fft mindspore.ops.fft
        torch.fft.ifft mindspore.ops.ifft
        torch.fft.rfft mindspore.ops.rfft
        torch.fft.irfft mindspore.ops.irfft
        torch.fft.fft2 mindspore.ops.fft2
    """,
        "fft",
    ),
    *_rows(C, "torch.kthvalue mindspore.ops.sort", "compose", snippet="kthvalue"),
    *_rows(
        C,
        """
        torch.nn.RMSNorm mindspore.ops.rsqrt mindspore.ops.mean
        torch.nn.functional.rms_norm mindspore.ops.rsqrt mindspore.ops.mean
    """,
        "compose",
        snippet="rms_norm",
    ),
    *_rows(C, "torch.nn.PairwiseDistance mindspore.ops.norm", "compose", snippet="pairwise_distance"),
    *_rows(
        C,
        """
        torch.nn.EmbeddingBag mindspore.ops.gather mindspore.ops.mean
        torch.nn.functional.embedding_bag mindspore.ops.gather mindspore.ops.mean
    """,
        "compose",
        snippet="embedding_bag",
    ),
    *_rows(
        C,
        "torch.nn.functional.poisson_nll_loss mindspore.ops.exp mindspore.ops.log",
        "compose",
        snippet="poisson_nll_loss",
    ),
    *_rows(
        X,
        """
        torch.nn.functional.fractional_max_pool2d mindspore.ops.Custom
        torch.Tensor.as_strided mindspore.ops.Custom
        torch.Tensor.index_reduce_ mindspore.ops.Custom
        torch.segment_reduce mindspore.ops.Custom
        torch.histogramdd mindspore.ops.Custom
    """,
        "custom_op",
    ),
    *_rows(
        Q,
        """
        torch.Tensor.map_
        torch.Tensor.apply_
    """,
        "python_callback",
    ),
    # --- sparse ---------------------------------------------------------------------------------
    *_rows(
        E,
        """
        torch.sparse_coo_tensor mindspore.COOTensor
        torch.sparse_csr_tensor mindspore.CSRTensor
        torch.Tensor.to_sparse mindspore.Tensor.to_coo
        torch.Tensor.to_sparse_csr mindspore.Tensor.to_csr
        torch.Tensor.to_dense mindspore.COOTensor.to_dense mindspore.CSRTensor.to_dense
        torch.Tensor.coalesce mindspore.COOTensor.coalesce
        torch.sparse.mm mindspore.ops.csr_mm
        torch.sparse.sum mindspore.ops.sum
        torch.sparse.softmax mindspore.ops.softmax
        torch.sparse.addmm mindspore.ops.csr_mm
    """,
        "sparse",
    ),
    *_rows(
        Q,
        """
        torch.sparse_csc_tensor
        torch.sparse_bsr_tensor
    """,
        "sparse_layout",
    ),
    # --- cells, optimizers, training loop -------------------------------------------------------
    *_rows(
        E,
        """
        torch.nn.Module.parameters mindspore.nn.Cell.trainable_params mindspore.nn.Cell.get_parameters
        torch.nn.Module.state_dict mindspore.nn.Cell.parameters_dict
        torch.nn.Module.named_modules mindspore.nn.Cell.cells_and_names
        torch.nn.Module.named_children mindspore.nn.Cell.name_cells
        torch.nn.Module.register_forward_hook mindspore.nn.Cell.register_forward_hook
        torch.nn.Module.half mindspore.nn.Cell.to_float
        torch.nn.Module.float mindspore.nn.Cell.to_float
    """,
        "cell_method",
    ),
    *_rows(E, "torch.nn.Module.modules mindspore.nn.Cell.cells_and_names", "cell_method", fix="cell_values"),
    *_rows(E, "torch.nn.Module.children mindspore.nn.Cell.cells", "cell_method", fix="cells"),
    *_rows(E, "torch.nn.Module.named_parameters mindspore.nn.Cell.parameters_and_names", "cell_method",
           fix="cell_parameters"),
    *_rows(
        E, "torch.nn.Module.load_state_dict mindspore.load_param_into_net", "checkpoint_io", rule="MSM512"
    ),
    *_rows(
        E,
        """
        torch.nn.Module.train mindspore.nn.Cell.set_train
        torch.nn.Module.eval mindspore.nn.Cell.set_train
    """,
        "set_train",
        rule="MSM505",
    ),
    *_rows(
        E,
        """
        torch.nn.Module.to mindspore.set_device
        torch.nn.Module.cuda mindspore.set_device
        torch.nn.Module.cpu mindspore.set_device
    """,
        "device_move",
        rule="MSM504",
    ),
    *_rows(E, "torch.nn.Module.requires_grad_ mindspore.Parameter", "requires_grad"),
    *_rows(
        E,
        """
        torch.nn.Module.zero_grad mindspore.value_and_grad
        torch.optim.Optimizer.zero_grad mindspore.value_and_grad
        torch.optim.Optimizer.step mindspore.nn.Optimizer
    """,
        "optimizer_step",
        rule="MSM506",
    ),
    *_rows(
        E,
        """
        torch.optim.Optimizer.state_dict mindspore.save_checkpoint
        torch.optim.Optimizer.load_state_dict mindspore.load_param_into_net
    """,
        "optimizer_state",
    ),
    *_rows(E, "torch.optim.Optimizer.add_param_group mindspore.nn.Optimizer", "param_groups"),
    *_rows(
        E,
        """
        torch.optim.SGD mindspore.nn.SGD mindspore.nn.Momentum
        torch.optim.RMSprop mindspore.nn.RMSProp
        torch.optim.Adagrad mindspore.nn.Adagrad
    """,
        "optimizer_class",
    ),
    *_rows(Q, "torch.optim.LBFGS", "community"),
    *_rows(
        C,
        "torch.optim.lr_scheduler.OneCycleLR mindspore.nn.piecewise_constant_lr",
        "lr_list",
        snippet="one_cycle_lr",
    ),
    *_rows(
        E,
        """
        torch.cuda.amp.GradScaler mindspore.amp.DynamicLossScaler
        torch.amp.GradScaler mindspore.amp.DynamicLossScaler
        torch.cuda.amp.autocast mindspore.amp.auto_mixed_precision
        torch.autocast mindspore.amp.auto_mixed_precision
        torch.amp.autocast mindspore.amp.auto_mixed_precision
    """,
        "amp",
        rule="MSM509",
    ),
    *_rows(E, "torch.distributed.is_initialized mindspore.mint.distributed.is_initialized", "same_function"),
    # TorchScript-only decorators: nothing to replace them with (no replacement: "remove it")
    *_rows(
        E,
        """
        torch.jit.ignore
        torch.jit.unused
        torch.jit.export
    """,
        "jit_decorator",
    ),
    *_rows(E, "torch.distributed.destroy_process_group mindspore.communication.release", "same_function"),
    *_rows(E, "torch.distributed.ReduceOp mindspore.ops.ReduceOp", "reduce_op"),
    *_rows(E, "torch.optim.lr_scheduler.LRScheduler.step mindspore.nn.Optimizer", "lr_schedule_step"),
    *_rows(
        E,
        """
        torch.nn.parallel.DistributedDataParallel mindspore.set_auto_parallel_context
        torch.nn.DataParallel mindspore.set_auto_parallel_context
    """,
        "data_parallel",
        rule="MSM510",
    ),
    *_rows(
        E,
        """
        torch.nn.init.kaiming_normal_ mindspore.common.initializer.HeNormal
        torch.nn.init.kaiming_uniform_ mindspore.common.initializer.HeUniform
        torch.nn.init.xavier_uniform_ mindspore.common.initializer.XavierUniform
        torch.nn.init.xavier_normal_ mindspore.common.initializer.XavierNormal
        torch.nn.init.constant_ mindspore.common.initializer.Constant
        torch.nn.init.zeros_ mindspore.common.initializer.Zero
        torch.nn.init.ones_ mindspore.common.initializer.One
        torch.nn.init.normal_ mindspore.common.initializer.Normal
        torch.nn.init.trunc_normal_ mindspore.common.initializer.TruncatedNormal
        torch.nn.init.orthogonal_ mindspore.common.initializer.Orthogonal
    """,
        "initializer",
        rule="MSM503",
    ),
]

# the most frequent missing APIs of real code (data: missing_advice_frequent.py)
_ENTRIES += [CatalogueEntry(api, Policy(policy), replacements, note)
             for policy, api, replacements, note in _frequent()]
CATALOGUE: dict[str, CatalogueEntry] = {entry.torch_api: entry for entry in _ENTRIES}


@dataclass(slots=True)
class MissingAdvice:
    """The advice for one unmapped torch API (see :func:`advice_for`)."""

    torch_api: str
    mindspore_version: str
    policy: Policy | None  # None: not catalogued, every policy is open
    replacements: tuple[str, ...] = ()
    note_key: str = "advice.note.uncatalogued"
    note_args: dict[str, Any] = field(default_factory=dict)
    snippet: str | None = None  # MindSpore code written by this project
    fix: str | None = None
    pattern_rule: str | None = None
    other_versions: dict[str, str] = field(default_factory=dict)  # table version → MindSpore API

    @property
    def rule(self) -> str:
        return RULE_FOR_POLICY[self.policy] if self.policy else "MSM200"

    def community_url(self) -> str:
        title = f"[Feature] Support an equivalent of {self.torch_api}"
        return f"{COMMUNITY_NEW_ISSUE}?title={quote(title, safe='')}"

    def links(self, lang: str = "en") -> list[tuple[str, str]]:
        """(label, url) pairs: the policy page, custom operators where relevant, the community."""
        site = "zh-CN" if normalize_lang(lang) == "zh" else "en"
        found = [(t("advice.link.policy", lang), POLICY_DOC.format(lang=site))]
        if self.policy in (None, Policy.CUSTOM_OPERATOR):
            found.append((t("advice.link.custom_op", lang), CUSTOM_OP_DOC.format(lang=site)))
            found.append((t("advice.link.custom_api", lang), CUSTOM_API_DOC.format(lang=site)))
            found.append((t("advice.link.third_party_op", lang), THIRD_PARTY_OP_DOC.format(lang=site)))
        found.append((t("advice.link.community", lang), self.community_url()))
        return found

    def headline(self, lang: str = "en") -> str:
        key = f"advice.policy.{int(self.policy)}" if self.policy else "advice.policy.none"
        return t(key, lang)

    def note(self, lang: str = "en") -> str:
        return t(self.note_key, lang, **self.note_args)

    def extra_lines(self, lang: str = "en") -> list[str]:
        """The custom-operator route and the pattern rule (other table versions are shown by lookup)."""
        lines = []
        if self.policy in (None, Policy.CUSTOM_OPERATOR):
            lines.append(t("advice.custom_op_route", lang))
        if self.pattern_rule:
            lines.append(t("advice.see_rule", lang, rule=self.pattern_rule))
        return lines

    def render_text(self, lang: str = "en") -> str:
        parts = [
            f"{self.headline(lang)} ({self.rule})",
            t("advice.unmapped", lang, torch_api=self.torch_api, version=self.mindspore_version),
            self.note(lang),
        ]
        if self.replacements:
            parts.append(t("advice.replacements", lang, apis=", ".join(self.replacements)))
        parts.extend(self.extra_lines(lang))
        if self.snippet:
            parts.append(t("advice.snippet", lang))
            parts.append(_indent(SNIPPETS[self.snippet]))
        parts.extend(f"{label}: {url}" for label, url in self.links(lang))
        return "\n".join(parts)

    def render_markdown(self, lang: str = "en") -> str:
        parts = [
            f"**{_md_escape(self.headline(lang))}** ({self.rule})",
            "",
            _md_escape(t("advice.unmapped", lang, torch_api=self.torch_api, version=self.mindspore_version)),
            "",
            _md_escape(self.note(lang)),
        ]
        if self.replacements:
            apis = ", ".join(f"`{api}`" for api in self.replacements)
            parts += ["", t("advice.replacements", lang, apis=apis)]
        for line in self.extra_lines(lang):
            parts += ["", _md_escape(line)]
        if self.snippet:
            parts += ["", t("advice.snippet", lang), "", "```python", SNIPPETS[self.snippet].rstrip(), "```"]
        parts += ["", " · ".join(f"[{_md_escape(label)}]({url})" for label, url in self.links(lang))]
        return "\n".join(parts)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {
            "torch_api": self.torch_api,
            "policy": int(self.policy) if self.policy else None,
            "rule": self.rule,
            "title": self.headline(lang),
            "note": self.note(lang),
            "mindspore_apis": list(self.replacements),
            "other_versions": dict(self.other_versions),
            "snippet": SNIPPETS[self.snippet] if self.snippet else None,
            "links": [{"label": label, "url": url} for label, url in self.links(lang)],
        }


def _indent(code: str) -> str:
    return "\n".join("    " + line if line else line for line in code.rstrip().splitlines())


def _md_escape(text: str) -> str:
    """Escape the characters that would start Markdown markup in plain text (backticks stay: code)."""
    return "".join("\\" + ch if ch in "*_[]<>#|" else ch for ch in text)


def same_name_method(torch_api: str, kb: KnowledgeBase) -> str | None:
    """``mindspore.Tensor.X`` for an unmapped tensor method ``torch.Tensor.X`` that MindSpore has as a
    tensor method of the same name (preferred to a function form whose differences only a difference
    page tells, ``torch.flatten`` → ``ops.flatten``)."""
    prefix = "torch.Tensor."
    if not torch_api.startswith(prefix) or kb.torch_kind(torch_api) != "tensor_method":
        return None
    name = "mindspore.Tensor." + torch_api[len(prefix):]
    entry = kb.mindspore_inventory.get(name)
    return name if entry is not None and entry.get("kind") == "tensor_method" else None


def function_form(torch_api: str, kb: KnowledgeBase) -> str | None:
    """``torch.X`` when ``torch.Tensor.X`` is unmapped, ``torch.X`` is mapped (by the table or a derived
    mapping: ``x.relu()`` → ``torch.relu(x)`` → ``ops.relu(x)``) and takes the tensor first."""
    prefix = "torch.Tensor."
    if not torch_api.startswith(prefix):
        return None
    method = torch_api[len(prefix) :]
    if method in _NOT_FUNCTION_FORM or method.endswith("_") or method.startswith("_"):
        return None
    function = f"torch.{method}"
    if (
        kb.row(torch_api) is None
        and (kb.row(function) is not None or kb.derived(function) is not None)
        and kb.torch_kind(torch_api) == "tensor_method"
    ):
        return function
    return None


@cache
def _other_versions(torch_api: str, version: str) -> dict[str, str]:
    from msmigrate.knowledge.base import VERSIONS, get_knowledge_base

    found: dict[str, str] = {}
    for other in VERSIONS:
        if other == version:
            continue
        kb = get_knowledge_base(other)
        row = kb.row(torch_api)
        if row is not None and row.mindspore_api and row.mindspore_api != kb.gone_target(torch_api):
            found[other] = row.mindspore_api
    return found


def _catalogue_by_canonical(kb: KnowledgeBase) -> dict[str, CatalogueEntry]:
    """The catalogue under the canonical names of its entries (``torch.nn.functional.pixel_unshuffle``
    is the same function as ``torch.pixel_unshuffle``)."""
    found = _BY_CANONICAL.get(kb)
    if found is None:
        found = _BY_CANONICAL[kb] = {}
        for name, entry in CATALOGUE.items():
            found.setdefault(kb.canonical(name), entry)
    return found


_BY_CANONICAL: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def advice_for(torch_api: str, kb: KnowledgeBase) -> MissingAdvice | None:
    """Advice for a real torch API without a row in ``kb``'s table; ``None`` when it is mapped or unknown."""
    written = kb.expand(torch_api)
    torch_api = kb.canonical(torch_api)
    if kb.row(torch_api) is not None or not kb.is_torch_api(torch_api) or kb.is_data_processing(torch_api):
        return None
    if kb.derived(torch_api) is not None:
        return None  # a derived mapping answers it (never "no mapping; equivalent replacement …")
    others = _other_versions(torch_api, kb.version)
    entry = CATALOGUE.get(written) or _catalogue_by_canonical(kb).get(torch_api)
    owner = torch_api.rpartition(".")[0]
    if entry is None and kb.torch_kind(torch_api) == "attribute" and kb.torch_kind(owner) == "class":
        entry = _catalogue_by_canonical(kb).get(owner)  # ``ReduceOp.SUM``: the advice for ``ReduceOp``
    if entry is not None:
        return MissingAdvice(
            torch_api=torch_api,
            mindspore_version=kb.version,
            policy=entry.policy,
            replacements=entry.replacements,
            note_key=f"advice.note.{entry.note}",
            note_args=_note_args(torch_api, entry.replacements),
            snippet=entry.snippet,
            fix=entry.fix,
            pattern_rule=entry.pattern_rule,
            other_versions=others,
        )
    function = function_form(torch_api, kb)
    same = same_name_method(torch_api, kb)
    function_row = kb.row(function) if function is not None else None
    if same is not None and (function_row is None or function_row.category is MappingCategory.DIFF_PAGE):
        # ``x.flatten(1)``: mindspore.Tensor.flatten, not ops.flatten (whose parameters differ)
        return MissingAdvice(
            torch_api=torch_api,
            mindspore_version=kb.version,
            policy=Policy.EQUIVALENT,
            replacements=(same,),
            note_key="advice.note.same_name_method",
            note_args=_note_args(torch_api, (same,)),
            other_versions=others,
        )
    if function is not None:
        row = function_row
        replacement = row.mindspore_api if row and row.mindspore_api else function
        return MissingAdvice(
            torch_api=torch_api,
            mindspore_version=kb.version,
            policy=Policy.EQUIVALENT,
            replacements=(replacement,),
            note_key="advice.note.function_form",
            note_args={
                "function": function,
                "method": torch_api.rsplit(".", 1)[1],
                "mindspore_api": replacement,
            },
            fix="function_form",
            other_versions=others,
        )
    if others:
        newest = max(others, key=lambda v: tuple(int(p) for p in v.split(".")))
        return MissingAdvice(
            torch_api=torch_api,
            mindspore_version=kb.version,
            policy=Policy.EQUIVALENT,
            replacements=(others[newest],),
            note_key="advice.note.other_version",
            note_args={"version": newest, "mindspore_api": others[newest]},
            other_versions=others,
        )
    return MissingAdvice(torch_api=torch_api, mindspore_version=kb.version, policy=None)


def _note_args(torch_api: str, replacements: tuple[str, ...]) -> dict[str, Any]:
    first = replacements[0] if replacements else ""
    return {
        "torch_api": torch_api,
        "name": torch_api.rsplit(".", 1)[1],
        "replacement": first,
        "short": first.rsplit(".", 1)[1] if first else "",
    }
