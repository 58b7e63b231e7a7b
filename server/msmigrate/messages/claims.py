"""Messages of the claims the code around a usage decides (``analysis/usage_claims.py``,
``knowledge/pair_facts.py``): details of a finding's message."""

MESSAGES: dict[str, tuple[str, str]] = {
    "analysis.api.class_member": (
        "{torch_api} → {mindspore_api}: the {torch_class} this is called on becomes {class_target}, whose "
        "{member} takes this call's arguments as they are written; the call stays as written.",
        "{torch_api} → {mindspore_api}：调用它的 {torch_class} 将改为 {class_target}，其 {member} "
        "按原样接受此调用的参数；此调用保持原样。",
    ),
    "analysis.api.class_member_differs": (
        "{torch_api} → {mindspore_api}: the {torch_class} this is called on becomes {class_target}, which "
        "has {member}; its parameters differ, compare the call with them.",
        "{torch_api} → {mindspore_api}：调用它的 {torch_class} 将改为 {class_target}，后者有 {member}，"
        "但参数不同，请对照检查此调用。",
    ),
    "analysis.api.parameter_member": (
        "{torch_api} → {mindspore_api}: the object is a Parameter here ({evidence}), and mindspore.Parameter "
        "has {member} as torch's has it; the code stays as written.",
        "{torch_api} → {mindspore_api}：此处的对象是 Parameter（{evidence}），"
        "mindspore.Parameter 的 {member} 与 torch 的一致；代码保持原样。",
    ),
    "analysis.api.parameter_member_differs": (
        "{torch_api} → {mindspore_api}: the object is a Parameter here ({evidence}), and mindspore.Parameter "
        "has {member}; its parameters differ, compare the call with them.",
        "{torch_api} → {mindspore_api}：此处的对象是 Parameter（{evidence}），mindspore.Parameter 有 "
        "{member}，但参数不同，请对照检查此调用。",
    ),
    "analysis.detail.call_defaults_unknown": (
        "left out unless {names} passes it, the default differs: {items}",
        "除非 {names} 传入，否则未传入且默认值不同：{items}",
    ),
    "analysis.note.unknown_arguments": (
        "The arguments passed through {names} are not known here: this holds for the arguments written; "
        "check that {mindspore_api} accepts theirs.",
        "此处无法得知通过 {names} 传入的参数：以上结论只针对显式写出的参数；请确认 {mindspore_api} "
        "接受这些参数。",
    ),
    "analysis.note.possible_renames": (
        "{mindspore_api} takes these keywords under other names: {items}.",
        "{mindspore_api} 的这些关键字参数名称不同：{items}。",
    ),
    "analysis.api.return_field": (
        "{torch_api}: torch's {function} returns a named tuple ({fields}); MindSpore's returns a plain tuple "
        "in the same order: read .{field} as [{index}].",
        "{torch_api}：torch 的 {function} 返回具名元组（{fields}）；MindSpore 对应接口返回顺序相同的"
        "普通元组：请将 .{field} 改为 [{index}]。",
    ),
    "resolution.note.possible_device": (
        "On {device}, MindSpore {mindspore} has no kernel for {replaced}; {target} runs there.",
        "在 {device} 上，MindSpore {mindspore} 没有 {replaced} 的算子实现；{target} 可在其上运行。",
    ),
    "analysis.detail.no_kernel_kept": (
        "on {device}, MindSpore {mindspore} has no kernel for {mindspore_api}, and no replacement can be "
        "written for this call (the tensor it changes is a view or an expression): rewrite it by hand",
        "在 {device} 上，MindSpore {mindspore} 没有 {mindspore_api} 的算子实现，且无法为此调用改写为替代接口"
        "（它修改的张量是视图或表达式）：请手动改写",
    ),
    "analysis.detail.argument_value.mode": (
        "{mindspore_api} computes {param}={value} otherwise than torch (MindSpore 2.10: bicubic is up to "
        "0.27 off, linear 2.4e-5); it agrees for {values}",
        "{mindspore_api} 计算 {param}={value} 的结果与 torch 不同（MindSpore 2.10：bicubic 最多相差 0.27，"
        "linear 相差 2.4e-5）；{values} 与 torch 一致",
    ),
    "analysis.detail.device_form.inplace": (
        "on {device}, MindSpore {mindspore} runs {mindspore_api} with {param}=True on an in-place kernel it "
        "does not have there (its check ran it with {param}=False): the call as written fails; computing it "
        "out of place is exact only where nothing reads the input again (MSM533)",
        "在 {device} 上，MindSpore {mindspore} 以 {param}=True 调用 {mindspore_api} 时使用原地算子，"
        "而该设备上没有此算子（其校验以 {param}=False 运行）：按原样写出的调用会失败；"
        "只有在输入不再被读取时，改为非原地计算才完全等价（MSM533）",
    ),
    "analysis.detail.device_form.where_nonzero": (
        "on {device}, MindSpore {mindspore} has no kernel for the one-argument {mindspore_api} (NonZeroExt); "
        "tuple(mindspore.ops.nonzero(condition).T) gives the same index tensors there",
        "在 {device} 上，MindSpore {mindspore} 没有单参数 {mindspore_api} 的算子实现（NonZeroExt）；"
        "可改用 tuple(mindspore.ops.nonzero(condition).T) 得到相同的索引张量",
    ),
    "resolution.note.temporary": (
        "On {device}, MindSpore {mindspore} has no kernel for {replaced}; the tensor it changes is a "
        "temporary nothing else reads, so {target} computes the same result.",
        "在 {device} 上，MindSpore {mindspore} 没有 {replaced} 的算子实现；它修改的张量是没有其他引用的临时"
        "张量，因此 {target} 的结果相同。",
    ),
    "analysis.api.unknown_private": (
        "{torch_api} is a private torch name, outside the public API the inventory lists; MindSpore has no "
        "counterpart: write what it does with public APIs.",
        "{torch_api} 是 torch 的私有名称，不在接口清单收录的公开接口之内；MindSpore 没有对应接口："
        "请用公开接口实现其功能。",
    ),
    "analysis.api.unknown_uncovered": (
        "{torch_api}: the API inventory lists {root} only where a mapping table cites it, and no MindSpore "
        "mapping is known for this name.",
        "{torch_api}：接口清单只收录映射表引用的 {root} 接口，此名称没有已知的 MindSpore 映射。",
    ),
    "analysis.detail.base_forward": (
        "{cls} defines forward, which a Cell does not run: it runs construct (rename forward, MSM501)",
        "{cls} 定义的是 forward，而 Cell 不会调用它：Cell 调用的是 construct"
        "（请将 forward 重命名，见 MSM501）",
    ),
    "analysis.detail.var_keyword_refused": (
        "passes {items} through {names}, which {mindspore_api} does not accept (TypeError: unexpected "
        "keyword argument): leave them out of the dict",
        "通过 {names} 传入了 {mindspore_api} 不接受的 {items}（TypeError：unexpected keyword argument）："
        "请从该字典中去掉这些键",
    ),
    "analysis.detail.pair.device_str": (
        "MindSpore's Tensor.device is a str ('CPU', 'GPU', 'Ascend'), not a device object: .type and .index "
        "fail",
        "MindSpore 的 Tensor.device 是字符串（'CPU'、'GPU'、'Ascend'），不是设备对象：.type 与 .index 会出错",
    ),
    "fix.blocked.var_keyword": (
        "No automatic fix for {torch_api}: {value} passes '{param}', which {mindspore_api} does not accept; "
        "leave it out of the dict.",
        "{torch_api} 无法自动修复：{value} 传入了 {mindspore_api} 不接受的 '{param}'；请从该字典中去掉它。",
    ),
}
