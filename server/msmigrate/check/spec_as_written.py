"""Input specs of pairs checked as the fix writes them, where the call changes more than a name (merged into
the spec table, ``spec_table.build_table``):

- ``x.size(1)`` / ``x.size()``: the missing-API catalogue's rewrite ``x.shape[1]`` / ``x.shape``
  (``ms_call="subscript"``: the MindSpore member is the property, subscripted by the call's argument when
  given);
- ``nn.Parameter(t)``: the parameter built from a tensor (``ms_call="value"``: both sides are called as
  functions and their results compared; the class's instance is the value, it is not called);
- ``nn.InstanceNorm{1,2,3}d(C)`` → ``mindspore.mint.nn.GroupNorm(C, num_channels=C, affine=…)`` (a CPU
  alternative, ``knowledge/derive_device.OTHER_NAMES``): one group per channel, the constructor's
  arguments as the fix writes them (``param_facts``: the pair's renames, ``DEFAULT_FROM``);
- the containers (``nn.ModuleList/Sequential/ModuleDict``): a program run alike on both sides
  (``loop="program"``, ``check/worker_programs.py``).
"""

from __future__ import annotations

from msmigrate.check.spec import ApiSpec, T, pair_key

_INSTANCE_INPUTS = {1: T(2, 3, 4), 2: T(2, 3, 4, 4), 3: T(2, 3, 2, 2, 2)}

_SIZE = ApiSpec(args=(T(2, 3, 4), 1), ms_call="subscript", note="read_as_property")
_PARAMETER = ApiSpec(args=(T(2, 3),), ms_call="value", note="value_of_class")
# (its input: the conversion suite's program calls the empty container on it, as the generic spec did)
_PROGRAM = ApiSpec(args=(T(2, 3, 4),), loop="program")
_PROGRAMS = {"torch.nn.ModuleList": "mindspore.nn.CellList", "torch.nn.ModuleDict": "mindspore.nn.CellDict",
             "torch.nn.Sequential": "mindspore.nn.SequentialCell"}

# under the torch name (a table row) and the pair (a derived candidate, whose checks drop the MindSpore-side
# fields of a spec not written for it: check/derived.py)
AS_WRITTEN: dict[str, ApiSpec] = {
    "torch.Tensor.size": _SIZE,
    pair_key("torch.Tensor.size", "mindspore.Tensor.shape"): _SIZE,
    **{name: _PARAMETER for name in ("torch.nn.Parameter", "torch.nn.parameter.Parameter",
                                     pair_key("torch.nn.Parameter", "mindspore.Parameter"))},
    # (no note: a pair's note would stand for the torch API's other candidates too)
    **{pair_key(f"torch.nn.InstanceNorm{n}d", "mindspore.mint.nn.GroupNorm"): ApiSpec(
        init_args=(3,), init_kwargs={"affine": True}, ms_init_args=(3,),
        ms_init_kwargs={"num_channels": 3, "affine": True}, args=(shape,))
       for n, shape in _INSTANCE_INPUTS.items()},
    **{key: _PROGRAM for torch_api, ms_api in _PROGRAMS.items()
       for key in (torch_api, pair_key(torch_api, ms_api))},
}
