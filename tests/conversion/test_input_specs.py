"""Input specs (knowledge/facts/check_specs.toml) of APIs whose generic inputs cannot run: their torch
programs run, and the APIs a single-process CPU program cannot call are skipped with a precise reason."""

from __future__ import annotations

import importlib.util

import harness
import pytest

from msmigrate.knowledge.base import get_knowledge_base

needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs torch")

# APIs that had no program (a required parameter without a rule) or a torch program that failed
# (wrong rank or shape, a value that must be 0-dim, a missing size …) before their table entries
RUNNABLE = """
torch.Tensor.addmm_ torch.Tensor.cholesky_inverse torch.cholesky_inverse torch.cov torch.Tensor.cov
torch.Tensor.fill_ torch.Tensor.diagonal_scatter torch.diagonal_scatter torch.Tensor.index_add_
torch.Tensor.index_copy_ torch.Tensor.index_fill_ torch.Tensor.index_put_ torch.Tensor.masked_fill_
torch.Tensor.masked_scatter_ torch.Tensor.put_ torch.Tensor.scatter_add_ torch.Tensor.set_
torch.Tensor.resize torch.Tensor.resize_ torch.triangular_solve torch.Tensor.triangular_solve
torch.slice_scatter torch.select_scatter torch.quantile torch.nanquantile torch.matrix_exp
torch.linalg.matrix_exp torch.linalg.cross torch.linalg.matmul torch.linalg.eig torch.linalg.svd
torch.tensordot torch.pdist torch.tensor torch.is_tensor torch.promote_types torch.clamp_
torch.nn.init.constant_ torch.adaptive_max_pool1d torch.max_pool2d torch.max_pool3d torch.bilinear
torch.conv1d torch.conv_tbc torch.pixel_shuffle torch.channel_shuffle torch.threshold torch.dropout
torch.embedding torch.group_norm torch.layer_norm torch.rms_norm torch.batch_norm torch.stft
torch.lu_solve torch.linalg.lu_solve torch.lu_unpack torch.orgqr torch.ormqr torch.Tensor.type
torch.cosine_embedding_loss torch.margin_ranking_loss torch.triplet_margin_loss torch.ctc_loss
torch.nn.functional.ctc_loss torch.nn.CTCLoss torch.nn.TripletMarginWithDistanceLoss
torch.nn.UpsamplingBilinear2d torch.nn.UpsamplingNearest2d torch.nn.FractionalMaxPool2d
torch.nn.functional.fractional_max_pool3d torch.nn.MultiheadAttention torch.nn.Transformer
torch.nn.TransformerEncoderLayer torch.nn.TransformerDecoderLayer
""".split()


@needs_torch
def test_specified_apis_get_torch_programs_that_run(tmp_path) -> None:
    # every listed API, mapped or not by a table (a derived mapping whose check fails is not offered, but
    # its input spec stays)
    kb = get_knowledge_base("2.6")
    programs = [harness.program_for(api, getattr(kb.mapping(api), "mindspore_api", "") or "", kb)
                for api in RUNNABLE]
    assert [p.torch_api for p in programs if p.skip] == []
    runs = harness.run_programs("torch", [(p.id, p.source) for p in programs], tmp_path)
    failed = {p.torch_api: runs[p.id].get("error", "")[-120:] for p in programs if not runs[p.id]["ok"]}
    assert failed == {}


def test_in_place_fill_values_are_scalars() -> None:
    programs = {p.torch_api: p for p in harness.programs_for_table("2.6")}
    assert programs["torch.Tensor.fill_"].source.splitlines()[-1] == "result = x0.fill_(0.5)"
    masked_fill = programs["torch.Tensor.masked_fill_"].source.splitlines()[-1]
    assert masked_fill == "result = x0.masked_fill_(x1, 0.5)"


def test_apis_that_cannot_run_in_one_cpu_process_keep_a_precise_reason() -> None:
    programs = {p.torch_api: p for p in harness.programs_for_table("2.6")}
    # the distributed APIs with a process-group program run in one (group_programs.py); the others keep it
    assert programs["torch.distributed.new_group"].skip == "not_op: needs_process_group"
    all_reduce = programs["torch.distributed.all_reduce"]
    assert (all_reduce.skip, all_reduce.world) == (None, 2)
    assert programs["torch.batch_norm_stats"].skip == "unsupported_on_device: cuda_only"
    assert programs["torch.nn.Module.state_dict"].skip == "no_input_rule: needs_instance"
    assert programs["torch.vmap"].skip == "no_input_rule: needs_callable"


def test_a_row_naming_an_api_torch_lacks_says_so() -> None:
    # the 2.4 table maps torch.Tensor.log_normal; torch has log_normal_ only (no letter-case typo to read)
    programs = {p.torch_api: p for p in harness.programs_for_table("2.4")}
    assert programs["torch.Tensor.log_normal"].skip == "no_torch_api: not in the torch inventory"
    assert programs["torch.nn.SELU"].skip is None  # the table's torch.nn.SeLU, read as torch's SELU
