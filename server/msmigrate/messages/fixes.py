"""Titles and explanations of quick-fixes (``fix.*``)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "fix.device_target": (
        "{base:messages} ({replaced} has no {device} kernel in MindSpore 2.10; this target, from the "
        "{table} table, was verified on {device})",
        "{base:messages}（{replaced} 在 MindSpore 2.10 中没有 {device} 算子实现；该目标来自 {table} "
        "映射表，已在 {device} 上验证）",
    ),
    "fix.device_target_no_effect": (
        "{base:messages} ({replaced} runs on {device} in MindSpore 2.10 but changes nothing: its optimizer "
        "step leaves the weights as they were, without an error; this target, from the {table} table, was "
        "verified on {device})",
        "{base:messages}（{replaced} 在 MindSpore 2.10 的 {device} 上可以运行但没有任何效果："
        "其优化器步骤不报错，权重却保持不变；该目标来自 {table} 映射表，已在 {device} 上验证）",
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
    "fix.in_place_new_tensor": (
        "{base:messages}, then write the result into {tensor} with Tensor.assign_value, which returns it "
        "({replaced} returns a new tensor where torch changes the tensor in place; it was verified on "
        "{device}; unlike torch, a view of another tensor does not update that tensor; PyNative mode only: "
        "assign_value does not compile in GRAPH_MODE or @jit code)",
        "{base:messages}，再用 Tensor.assign_value 将结果写回 {tensor} 并返回它（{replaced} 返回新张量，"
        "而 torch 原地修改张量；它已在 {device} 上验证；与 torch 不同，若它是另一张量的视图，"
        "不会更新那个张量；仅适用于 PyNative 模式：assign_value 无法在 GRAPH_MODE 或 @jit 代码中编译）",
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
    "fix.call_forms": (
        "{base:messages}; at the calls of the instance (line: argument): {changes}",
        "{base:messages}；在该实例的调用处（行：参数）：{changes}",
    ),
    "fix.call_forms_by_hand.class_indices": (
        "{base:messages}; {mindspore_api} takes the {param} of its call as int32 class indices (int64 "
        "raises a TypeError) or as float class probabilities: {where:messages}, write {param}.int() where "
        "they are class indices",
        "{base:messages}；{mindspore_api} 的调用只接受 int32 类别索引（int64 会抛出 TypeError）或浮点类别概率"
        "作为 {param}：{where:messages}，若其为类别索引，请写作 {param}.int()",
    ),
    "fix.call_forms.lines": (
        "at the call of the instance on line {lines}, whose argument this fix cannot adapt",
        "第 {lines} 行对该实例的调用处（本修复无法转换其参数）",
    ),
    "fix.call_forms.unseen": (
        "where the instance is called (its calls are not all visible here)",
        "在调用该实例之处（此处看不到它的全部调用）",
    ),
    "fix.device_target_checked_form": (
        "{base:messages} ({replaced} has no {device} kernel in MindSpore 2.10; this target, with its result "
        "written in torch's form as this fix does, was verified on {device})",
        "{base:messages}（{replaced} 在 MindSpore 2.10 中没有 {device} 算子实现；该目标按本修复的写法将结果"
        "转换为 torch 的形式后，已在 {device} 上验证）",
    ),
    "fix.device_target_form_not_written": (
        "{replaced} has no {device} kernel in MindSpore 2.10; {mindspore_api} runs there and matches torch "
        "only with its result converted to torch's form (e.g. sorted unique values), which this call's "
        "arguments do not allow (e.g. return_inverse, return_counts, dim): not rewritten, adapt it by hand",
        "{replaced} 在 MindSpore 2.10 中没有 {device} 算子实现；{mindspore_api} 可在该设备上运行，但只有将其"
        "结果转换为 torch 的形式（如对去重结果排序）后才与 torch 一致，而本调用的参数不允许这样转换（如 "
        "return_inverse、return_counts、dim）：未改写，请手动调整",
    ),
    "fix.no_kernel": (
        "No automatic fix for {torch_api} on {device}: the checks found that {mindspore_api} does not run "
        "there with MindSpore 2.10 (no {device} kernel, or no effect) and no MindSpore API checked on "
        "{device} computes it; rewrite it by hand with operators that run there, or fix for another device "
        "(--device)",
        "{torch_api} 在 {device} 上无法自动修复：检查发现 {mindspore_api} 在 MindSpore 2.10 中无法在该设备上"
        "运行（没有 {device} 算子实现，或运行无效果），且没有在 {device} 上检查通过的 MindSpore 接口可以"
        "计算它；请用能在该设备上运行的算子手动改写，或为其他设备修复（--device）",
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
    "fix.device_only.einsum": (
        "MindSpore 2.10 runs einsum on one device only: mindspore.mint.einsum on Ascend, "
        "mindspore.ops.einsum on GPU, neither on CPU; {replaced} fails on {device}, this target, from the "
        "{table} table, runs there",
        "MindSpore 2.10 的 einsum 只在一种设备上运行：mindspore.mint.einsum 仅 Ascend，"
        "mindspore.ops.einsum 仅 GPU，二者都不支持 CPU；{replaced} 在 {device} 上会失败，"
        "该目标来自 {table} 映射表，可在该设备上运行",
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
    "fix.device_target_derived_no_effect": (
        "{base:messages} ({replaced} runs on {device} in MindSpore 2.10 but changes nothing: its optimizer "
        "step leaves the weights as they were, without an error; this target, a derived mapping, was "
        "verified on {device})",
        "{base:messages}（{replaced} 在 MindSpore 2.10 的 {device} 上可以运行但没有任何效果："
        "其优化器步骤不报错，权重却保持不变；该目标为推导映射，已在 {device} 上验证）",
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
    "fix.class_as_partial": (
        "Write the {torch_api} instance as functools.partial({mindspore_api}, …), the function with the "
        "constructor's arguments bound by keyword (arguments: {changes}); it is called as the module was, "
        "also in GRAPH_MODE, but it is no Cell: it cannot go in a SequentialCell or CellList",
        "将 {torch_api} 实例写为 functools.partial({mindspore_api}, …)，即以关键字绑定构造参数的函数"
        "（参数：{changes}）；其调用方式与原模块相同，GRAPH_MODE 下亦可，但它不是 Cell：不能放入 "
        "SequentialCell 或 CellList",
    ),
    "fix.output_shape_primitive": (
        "Write {torch_api} as the Primitive {mindspore_api}, built from the call's numbers and called with "
        "its tensors and the output shape torch computes (the input must be batched: N, C, H, W)",
        "将 {torch_api} 写为原语 {mindspore_api}：以调用中的数值构造，并以其张量及 torch 计算出的输出形状"
        "调用（输入须带批维度：N, C, H, W）",
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
    "fix.manual.svd_outputs": (
        "No automatic fix for {torch_api}: {mindspore_api} returns (s, u, v) where torch returns (U, S, V), "
        "and its full_matrices is the opposite of torch's some (some=True is full_matrices=False); write "
        "'s, u, v = {mindspore_api}(...)' by hand and use u, s, v in torch's order.",
        "{torch_api} 无法自动修复：{mindspore_api} 返回 (s, u, v)，torch 返回 (U, S, V)；且其 full_matrices "
        "与 torch 的 some 含义相反（some=True 即 full_matrices=False）；请手动改写为 "
        "'s, u, v = {mindspore_api}(...)'，并按 torch 的顺序使用 u, s, v。",
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
