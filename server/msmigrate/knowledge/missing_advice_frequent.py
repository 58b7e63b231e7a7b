"""Advice for the torch APIs that real code reports "missing" most often and the main catalogue
(``missing_advice.py``) did not answer: data only, read by ``missing_advice`` into its ``CATALOGUE``.

Each group is ``(policy, rows, note)``: ``policy`` as ``missing_advice.Policy`` (1 equivalent,
2 compose, 3 custom operator), ``rows`` one ``torch_api [replacement ...]`` per line, ``note`` the suffix of
the message ``advice.note.<note>`` (``messages/advice_frequent.py``). A finding of one of these APIs says the
note itself (``finding.MSM20x.recipe``): the note is the precise answer, checked against MindSpore 2.10
(``tests/rules/test_missing_advice_frequent.py``). Where MindSpore computes the API, a verified
composition answers it instead (``knowledge/compositions``: ``broadcast_all``, ``neg_``, ``addcdiv_``…).
The frequency list they answer: ``tests/realcode/missing_top50.json``
(``benchmarks/missing_api_frequency.py``).
"""

from __future__ import annotations

# A first replacement that is a MindSpore class renames type references to it (rules/missing/_refine.py): only
# where the class is the counterpart (torch.dtype → mindspore.Type), never a class the note merely names.
GROUPS: tuple[tuple[int, str, str], ...] = (
    (1, "torch.dtype mindspore.Type", "dtype_class"),
    (1, "torch.Size", "size_tuple"),
    (1, "torch.nn.ModuleList.append mindspore.nn.CellList.append", "cell_list_append"),
    (
        1,
        """
        torch.overrides.handle_torch_function
        torch.overrides.has_torch_function
        torch.overrides.has_torch_function_unary
        torch.overrides.has_torch_function_variadic
        """,
        "torch_function_protocol",
    ),
    (1, "torch.ops", "torch_ops"),
    (
        1,
        """
        torch.utils.hooks.RemovableHandle mindspore.common.hook_handle.HookHandle
        torch.utils.hooks.RemovableHandle.id
        """,
        "hook_handle",
    ),
    # no target: a Parameter has the attribute, a plain tensor has none (the call cannot tell which)
    (1, "torch.Tensor.requires_grad", "tensor_requires_grad"),
    (
        1,
        """
        torch.distributions.constraints.real
        torch.distributions.constraints.positive
        torch.distributions.constraints.real_vector
        torch.distributions.constraints.unit_interval
        torch.distributions.constraints.simplex
        torch.distributions.constraints.positive_definite
        torch.distributions.constraints.independent
        torch.distributions.constraints.dependent_property
        torch.distributions.constraints.Constraint
        """,
        "distribution_constraints",
    ),
    (
        1,
        """
        torch.preserve_format
        torch.contiguous_format
        torch.channels_last
        """,
        "memory_format",
    ),
    (1, "torch.distributions.utils.lazy_property", "lazy_property"),
    (1, "torch.distributions.Distribution mindspore.nn.probability.distribution.Distribution",
     "distribution_class"),
    (1, "torch.distributions.Normal mindspore.nn.probability.distribution.Normal", "normal_distribution"),
    (1, "torch.distributions.Categorical mindspore.nn.probability.distribution.Categorical",
     "categorical_distribution"),
    (
        1,
        "torch.distributions.TransformedDistribution "
        "mindspore.nn.probability.distribution.TransformedDistribution",
        "transformed_distribution",
    ),
    (1, "torch.nn.UninitializedParameter", "lazy_parameter"),
    (
        1,
        """
        torch.inf
        torch.nan
        torch.pi
        """,
        "python_constant",
    ),
    (3, "torch.library.Library.impl mindspore.ops.Custom", "library_impl"),
    (3, "torch.library.register_autograd mindspore.ops.Custom", "library_autograd"),
    (1, "torch.nn.Module.register_parameter mindspore.nn.Cell.insert_param_to_cell", "register_parameter"),
    (1, "torch.is_grad_enabled", "grad_enabled"),
    (1, "torch.nn.utils.rnn.PackedSequence", "packed_sequence"),
    (
        1,
        """
        torch.nn.quantized.FloatFunctional mindspore.ops.cat mindspore.ops.add mindspore.ops.mul
        torch.nn.quantized.FloatFunctional.cat mindspore.ops.cat
        """,
        "float_functional",
    ),
    (
        1,
        """
        torch.Tensor.indices
        torch.Tensor.values
        """,
        "result_tuple",
    ),
    (1, "torch.types.Number", "number_type"),
    (1, "torch.typename", "typename"),
    (1, "torch.Generator.manual_seed mindspore.Generator.manual_seed", "generator_seed"),
    (1, "torch.Tensor.is_nested", "is_nested"),
    (1, "torch.broadcast_shapes", "broadcast_shapes"),
    (1, "torch.distributions.AffineTransform mindspore.nn.probability.bijector.ScalarAffine",
     "affine_transform"),
    (1, "torch.distributions.ExpTransform mindspore.nn.probability.bijector.Exp", "exp_transform"),
    (
        1,
        """
        torch.jit.annotations.List
        torch.jit.annotations.Dict
        torch.jit.annotations.Tuple
        """,
        "typing_alias",
    ),
    # reading a device's kind (the catalogue's torch.device advice is about choosing the device)
    (1, "torch.device.type mindspore.get_context", "device_type"),
)


def rows() -> list[tuple[int, str, tuple[str, ...], str]]:
    """``(policy, torch_api, replacements, note)`` for every row of :data:`GROUPS`."""
    found = []
    for policy, text, note in GROUPS:
        for line in text.strip().splitlines():
            torch_api, *replacements = line.split()
            found.append((policy, torch_api, tuple(replacements), note))
    return found


# the notes a finding says as its message (``finding.MSM20x.recipe``)
RECIPE_NOTES: frozenset[str] = frozenset(f"advice.note.{group[2]}" for group in GROUPS)
