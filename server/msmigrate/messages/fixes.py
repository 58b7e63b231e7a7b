"""Titles and explanations of quick-fixes (``fix.*``)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "fix.device_target": (
        "{base:messages} ({replaced} has no {device} kernel in MindSpore 2.10; this target, from the "
        "{table} table, was verified on {device})",
        "{base:messages}（{replaced} 在 MindSpore 2.10 中没有 {device} 算子实现；该目标来自 {table} "
        "映射表，已在 {device} 上验证）",
    ),
    "fix.device_target_int32_indices": (
        "{base:messages} ({replaced} has no {device} kernel in MindSpore 2.10; this target, from the "
        "{table} table, runs on {device} with the same values but returns int32 indices where torch "
        "returns int64)",
        "{base:messages}（{replaced} 在 MindSpore 2.10 中没有 {device} 算子实现；该目标来自 {table} "
        "映射表，可在 {device} 上运行且数值一致，但返回 int32 索引，而 torch 返回 int64）",
    ),
    "fix.device_target_random_int32": (
        "{base:messages} ({replaced} has no {device} kernel in MindSpore 2.10; this target, from the "
        "{table} table, runs on {device} and samples indices of the same shape, but int32 where torch "
        "returns int64)",
        "{base:messages}（{replaced} 在 MindSpore 2.10 中没有 {device} 算子实现；该目标来自 {table} "
        "映射表，可在 {device} 上运行并采样出形状相同的索引，但为 int32，而 torch 返回 int64）",
    ),
    "fix.in_place_out_of_place": (
        "{base:messages}, then write the result into {tensor} with Tensor.assign_value, which returns it "
        "({replaced} has no {device} kernel in MindSpore 2.10; this out-of-place target was verified on "
        "{device}; unlike torch, a view of another tensor does not update that tensor; PyNative mode only: "
        "assign_value does not compile in GRAPH_MODE or @jit code)",
        "{base:messages}，再用 Tensor.assign_value 将结果写回 {tensor} 并返回它（{replaced} 在 MindSpore "
        "2.10 中没有 {device} 算子实现；该非原地目标已在 {device} 上验证；与 torch 不同，若它是另一张量的"
        "视图，不会更新那个张量；仅适用于 PyNative 模式：assign_value 无法在 GRAPH_MODE 或 @jit 代码中编译）",
    ),
    "fix.device_target_result_form": (
        "{base:messages} ({replaced} has no {device} kernel in MindSpore 2.10; this target runs on "
        "{device}; its check differed only in the result's type, which this fix converts to torch's)",
        "{base:messages}（{replaced} 在 MindSpore 2.10 中没有 {device} 算子实现；该目标可在 {device} "
        "上运行；其检查仅结果的类型不同，本修复已将其转换为 torch 的类型）",
    ),
    "fix.device_target_result_form_unchecked": (
        "{base:messages} ({replaced} has no {device} kernel in MindSpore 2.10; this target runs on "
        "{device}; its check, without the arguments this call passes, differed only in the result's type; "
        "this call's result type was not checked)",
        "{base:messages}（{replaced} 在 MindSpore 2.10 中没有 {device} 算子实现；该目标可在 {device} "
        "上运行；其检查（未传本调用所传参数）仅结果的类型不同；本调用结果的类型未经检查）",
    ),
    "fix.device_target_reason": (
        "{base:messages} ({why:messages})",
        "{base:messages}（{why:messages}）",
    ),
    "fix.device_only.hccl": (
        "{replaced} takes only backend 'hccl', Ascend's collective library, and fails on {device} in "
        "MindSpore 2.10; this target, from the {table} table, initializes the library of the device "
        "MindSpore runs on",
        "{replaced} 只接受 backend 'hccl'（Ascend 的集合通信库），在 MindSpore 2.10 的 {device} 上会失败；"
        "该目标来自 {table} 映射表，初始化 MindSpore 所在设备的通信库",
    ),
    "fix.device_only.reduce": (
        "{replaced} has no {device} kernel in MindSpore 2.10; all_reduce gives every rank the reduced "
        "tensor, dst's included (torch leaves the other ranks' tensors unspecified), so dst is dropped",
        "MindSpore 2.10 的 {replaced} 在 {device} 上没有算子实现；all_reduce 让每个进程都得到归约结果，"
        "包括 dst（torch 对其他进程的张量不作保证），因此去掉 dst 参数",
    ),
    "fix.other_table_target": (
        "{base:messages} ({replaced} is used another way (a class vs a function); this target is from the "
        "{table} table)",
        "{base:messages}（{replaced} 的用法不同（类与函数之别）；该目标来自 {table} 映射表）",
    ),
    "fix.device_target_derived": (
        "{base:messages} ({replaced} has no {device} kernel in MindSpore 2.10; this target, a derived "
        "mapping, was verified on {device})",
        "{base:messages}（{replaced} 在 MindSpore 2.10 中没有 {device} 算子实现；该目标为推导映射，已在 "
        "{device} 上验证）",
    ),
    "fix.device_target_derived_int32": (
        "{base:messages} ({replaced} has no {device} kernel in MindSpore 2.10; this target, a derived "
        "mapping, runs on {device} with the same values but returns int32 where torch returns int64)",
        "{base:messages}（{replaced} 在 MindSpore 2.10 中没有 {device} 算子实现；该目标为推导映射，可在 "
        "{device} 上运行且数值一致，但返回 int32，而 torch 返回 int64）",
    ),
    "fix.remove_torch_imports": (
        "Remove the torch imports that nothing uses any more",
        "删除不再使用的 torch 导入",
    ),
    "fix.replace_api": (
        "Replace {torch_api} with {mindspore_api}",
        "将 {torch_api} 替换为 {mindspore_api}",
    ),
    "fix.replace_api_with_args": (
        "Replace {torch_api} with {mindspore_api} (arguments: {changes})",
        "将 {torch_api} 替换为 {mindspore_api}（参数：{changes}）",
    ),
    "fix.replace_api_review": (
        "Replace {torch_api} with {mindspore_api} (then review the documented differences)",
        "将 {torch_api} 替换为 {mindspore_api}（替换后请核对文档所列差异）",
    ),
    "fix.replace_api_with_args_review": (
        "Replace {torch_api} with {mindspore_api} "
        "(arguments: {changes}; then review the documented differences)",
        "将 {torch_api} 替换为 {mindspore_api}（参数：{changes}；替换后请核对文档所列差异）",
    ),
    "fix.rename_method": (
        "Rename .{torch_name} to .{mindspore_name} ({mindspore_api})",
        "将 .{torch_name} 改为 .{mindspore_name}（{mindspore_api}）",
    ),
    "fix.adapt_method": (
        "Adapt the call of .{torch_name} to {mindspore_api} ({changes})",
        "按 {mindspore_api} 调整 .{torch_name} 的调用（{changes}）",
    ),
    "fix.property_to_method": (
        "Call .{mindspore_name}() ({mindspore_api} is a method; torch's .{torch_name} is a property)",
        "改为调用 .{mindspore_name}()（{mindspore_api} 是方法，而 torch 的 .{torch_name} 是属性）",
    ),
    "fix.fix_all": ("Fix all MindSpore migration issues in this file", "修复本文件中所有可自动迁移的问题"),
    "fix.blocked.out": (
        "No automatic fix for {torch_api}: {mindspore_api} has no 'out' parameter and dropping "
        "out={value} would change the result; assign the return value instead.",
        "{torch_api} 无法自动修复：{mindspore_api} 没有 'out' 参数，删除 out={value} 会改变结果；"
        "请改为接收返回值。",
    ),
    "fix.blocked.requires_grad": (
        "No automatic fix for {torch_api}: dropping requires_grad={value} would change the result; "
        "wrap the tensor in mindspore.Parameter or select it in the gradient function.",
        "{torch_api} 无法自动修复：删除 requires_grad={value} 会改变结果；"
        "请用 mindspore.Parameter 包装该张量，或在求导函数中指定它。",
    ),
    "fix.blocked.layout": (
        "No automatic fix for {torch_api}: MindSpore tensors are dense, so dropping layout={value} "
        "would change the result; use mindspore.COOTensor / CSRTensor instead.",
        "{torch_api} 无法自动修复：MindSpore 张量为稠密存储，删除 layout={value} 会改变结果；"
        "请改用 mindspore.COOTensor / CSRTensor。",
    ),
    "fix.blocked.value": (
        "No automatic fix for {torch_api}: {mindspore_api} has no '{param}' parameter and dropping "
        "{param}={value} would change the result; rewrite it by hand (see the difference page).",
        "{torch_api} 无法自动修复：{mindspore_api} 没有 '{param}' 参数，删除 {param}={value} 会改变结果；"
        "请参照差异说明手动改写。",
    ),
    "fix.blocked.value_type": (
        "No automatic fix for {torch_api}: {mindspore_api} takes another type of value for '{param}'; "
        "rewrite this argument by hand (see the difference page).",
        "{torch_api} 无法自动修复：{mindspore_api} 的参数 '{param}' 取值类型不同，"
        "请参照差异说明手动改写该参数。",
    ),
    "fix.manual.result_returned": (
        "No automatic fix for {torch_api}: torch writes the result into the output tensor(s) passed, "
        "{mindspore_api} takes their shape and returns the result with a handle; write "
        "'output, _ = {mindspore_api}(output.shape, ...)' by hand.",
        "{torch_api} 无法自动修复：torch 将结果写入传入的输出张量，{mindspore_api} 只取其形状，"
        "并返回结果及句柄；请手动改写为 'output, _ = {mindspore_api}(output.shape, ...)'。",
    ),
    "fix.manual.group_name": (
        "No automatic fix for {torch_api}: {mindspore_api} takes the new group's name (a str) first and "
        "returns None; name the group (create_group('group_0_1', rank_ids=[0, 1])) and pass that name "
        "where the torch code passes the group new_group returned.",
        "{torch_api} 无法自动修复：{mindspore_api} 第一个参数为新通信组的名称（str），且返回 None；"
        "请为通信组命名（create_group('group_0_1', rank_ids=[0, 1])），并在 torch 代码传入 new_group "
        "返回值的地方改传该名称。",
    ),
    "fix.blocked.unsupported": (
        "No automatic fix for {torch_api}: {mindspore_api} does not take '{param}'; "
        "rewrite this argument by hand (see the difference page).",
        "{torch_api} 无法自动修复：{mindspore_api} 不支持参数 '{param}'，请参照差异说明手动改写该参数。",
    ),
}
