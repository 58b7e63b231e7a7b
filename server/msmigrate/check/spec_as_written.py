"""Input specs of pairs checked as the fix writes them, where the call changes more than a name (merged into
the spec table, ``spec_table.build_table``):

- ``x.size(1)`` / ``x.size()``: the missing-API catalogue's rewrite ``x.shape[1]`` / ``x.shape``
  (``ms_call="subscript"``: the MindSpore member is the property, subscripted by the call's argument when
  given);
- ``nn.Parameter(t)``: the parameter built from a tensor (``ms_call="value"``: both sides are called as
  functions and their results compared; the class's instance is the value, it is not called);
- ``nn.InstanceNorm{1,2,3}d(C)`` → ``mindspore.mint.nn.GroupNorm(C, num_channels=C, affine=…)`` (a CPU
  alternative, ``knowledge/derive_device.OTHER_NAMES``): one group per channel, the constructor's
  arguments as the fix writes them (``param_facts``: the pair's renames, ``DEFAULT_FROM``).
"""

from __future__ import annotations

from msmigrate.check.spec import ApiSpec, T, pair_key

_INSTANCE_INPUTS = {1: T(2, 3, 4), 2: T(2, 3, 4, 4), 3: T(2, 3, 2, 2, 2)}

AS_WRITTEN: dict[str, ApiSpec] = {
    "torch.Tensor.size": ApiSpec(args=(T(2, 3, 4), 1), ms_call="subscript", note="read_as_property"),
    **{name: ApiSpec(args=(T(2, 3),), ms_call="value", note="value_of_class")
       for name in ("torch.nn.Parameter", "torch.nn.parameter.Parameter")},
    **{pair_key(f"torch.nn.InstanceNorm{n}d", "mindspore.mint.nn.GroupNorm"): ApiSpec(
        init_args=(3,), init_kwargs={"affine": True}, ms_init_args=(3,),
        ms_init_kwargs={"num_channels": 3, "affine": True}, args=(shape,), note="group_per_channel")
       for n, shape in _INSTANCE_INPUTS.items()},
}
