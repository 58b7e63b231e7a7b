"""Messages of the resolution of a finding (``analysis/resolution.py``, ``knowledge/resolution.py``): the
note on the mapping's own target when another one is written, the safety verdict's reason."""

MESSAGES: dict[str, tuple[str, str]] = {
    "resolution.message": ("{message:messages} {note:messages}", "{message:messages}{note:messages}"),
    "resolution.message_write_back": ("{torch_api} → {mindspore_api}: {note:messages}",
                                      "{torch_api} → {mindspore_api}：{note:messages}"),
    "resolution.note.no_kernel": (
        "On {device}, MindSpore {mindspore} cannot run {target} (no kernel, or no effect) and nothing "
        "checked there replaces it: not rewritten; rewrite it by hand.",
        "在 {device} 上，MindSpore {mindspore} 无法运行 {target}（没有算子实现，或运行无效果），"
        "且没有在该设备上检查通过的替代接口：未改写，请手动改写。",
    ),
    "resolution.note.device": (
        "On {device}, MindSpore {mindspore} has no kernel for {replaced}; {target} ({source:messages}) is "
        "written instead.",
        "在 {device} 上，MindSpore {mindspore} 没有 {replaced} 的算子实现；"
        "改写为 {target}（{source:messages}）。",
    ),
    "resolution.note.device_no_effect": (
        "On {device}, MindSpore {mindspore}'s {replaced} runs without effect (its optimizer step leaves the "
        "weights as they were); {target} ({source:messages}) is written instead.",
        "在 {device} 上，MindSpore {mindspore} 的 {replaced} 运行后没有任何效果（其优化器步骤不改变权重）；"
        "改写为 {target}（{source:messages}）。",
    ),
    "resolution.note.device_reason": (
        "{why:messages}: on {device}, {target} is written instead of {replaced}.",
        "{why:messages}：在 {device} 上改写为 {target}，而非 {replaced}。",
    ),
    "resolution.note.write_back": (
        "On {device}, MindSpore {mindspore} has no kernel for {replaced}; the result is computed with "
        "{target} and written back into {tensor} with Tensor.assign_value.",
        "在 {device} 上，MindSpore {mindspore} 没有 {replaced} 的算子实现；用 {target} 计算结果，再用 "
        "Tensor.assign_value 写回 {tensor}。",
    ),
    "resolution.note.write_back_new_tensor": (
        "{target} returns a new tensor where torch changes {tensor} in place: its result (verified on "
        "{device}) is written back into {tensor} with Tensor.assign_value.",
        "{target} 返回新张量，而 torch 原地修改 {tensor}：其结果（已在 {device} 上验证）用 "
        "Tensor.assign_value 写回 {tensor}。",
    ),
    "resolution.note.candidate": (
        "{replaced} is not used the way {torch_api} is (a class for a function, or the reverse); {target}, "
        "a derived mapping used the same way, is written instead.",
        "{replaced} 的用法与 {torch_api} 不同（类与函数之别）；改写为用法相同的推导映射 {target}。",
    ),
    "resolution.note.other_table": (
        "{replaced} is not used the way {torch_api} is (a class for a function, or the reverse); {target}, "
        "the {table} table's target, is written instead.",
        "{replaced} 的用法与 {torch_api} 不同（类与函数之别）；改写为 {table} 映射表中的目标 {target}。",
    ),
    "resolution.source.table": (
        "the {table} table's mapping, verified on {device}",
        "{table} 映射表中的映射，已在 {device} 上验证",
    ),
    "resolution.source.derived": (
        "a derived mapping verified on {device}",
        "已在 {device} 上验证的推导映射",
    ),
    "resolution.source.same_values": (
        "the {table} table's mapping: the same values on {device}, with int32 indices or a result form the "
        "fix converts",
        "{table} 映射表中的映射：在 {device} 上数值相同，索引为 int32，或结果形式由修复转换",
    ),
    "resolution.safety.safe": ("safe", "安全"),
    "resolution.safety.unsafe": ("unsafe", "不安全"),
    "resolution.safety.by_hand": ("by hand", "需手动处理"),
    "resolution.safety.reason.by_hand": (
        "the fix only explains what to do: an argument or the call cannot be written mechanically",
        "修复只说明需要做什么：某个参数或该调用无法机械改写",
    ),
    "resolution.safety.reason.no_target": ("nothing is mapped to write", "没有可改写的映射"),
    "resolution.safety.reason.no_fix": (
        "no fix writes the target for this usage (the same name already, or no mechanical rewrite)",
        "此处没有修复写入该目标（名称已相同，或无法机械改写）",
    ),
    "resolution.safety.reason.rule": (
        "the rule's own fix decides (framework patterns, missing APIs)",
        "由规则自身的修复决定（框架模式、缺失接口）",
    ),
    "resolution.safety.reason.reference": (
        "a type named, not called: naming it computes nothing",
        "仅引用类型而未调用：不涉及计算",
    ),
    "resolution.safety.reason.write_back": (
        "the result is written back with Tensor.assign_value: a view does not update the tensor it views",
        "结果用 Tensor.assign_value 写回：视图不会更新其所属的张量",
    ),
    "resolution.safety.reason.other_way": (
        "written another way (a function for a Cell, a Primitive taking batched inputs only)",
        "以其他方式改写（用函数代替 Cell，或仅接受批量输入的 Primitive）",
    ),
    "resolution.safety.reason.reviewed_fact": (
        "chosen by a reviewed fact about the device, not by a numeric check",
        "依据对设备的审阅结论选择，未经数值校验",
    ),
    "resolution.safety.reason.verified": (
        "the pair passed the numeric check on {device}",
        "该映射已在 {device} 上通过数值校验",
    ),
    "resolution.safety.reason.check_failed": (
        "the pair's numeric check on {device} found a difference",
        "该映射在 {device} 上的数值校验发现差异",
    ),
    "resolution.safety.reason.no_kernel": (
        "the target does not work on {device}",
        "该目标在 {device} 上无法运行",
    ),
    "resolution.safety.reason.same_parameters": (
        "consistent, and both installed signatures list the same parameters in the same order",
        "功能一致，且两个已安装接口的签名参数相同、顺序一致",
    ),
    "resolution.safety.reason.container_changed": (
        "the list is changed after it is built (append, extend, insert, +=, an item set) or sliced: "
        "MindSpore's CellList then names the parameters of the cells otherwise (checked); the check "
        "verified a list built in one call",
        "该列表在创建后被修改（append、extend、insert、+=、按索引赋值）或被切片："
        "此时 MindSpore 的 CellList 给各层参数的命名与 PyTorch 不同（已验证）；"
        "校验只验证了一次调用即建好的列表",
    ),
    "resolution.safety.reason.argument_value": (
        "the call passes an argument value its check did not run, which MindSpore computes otherwise",
        "调用传入的参数值未经校验，MindSpore 对其计算结果不同",
    ),
    "resolution.safety.reason.not_verified": (
        "not verified on {device}",
        "未在 {device} 上验证",
    ),
    "scan.help.device": (
        "Where the migrated code will run: each finding names the target its fix writes there (a target "
        "without a kernel there is replaced by a verified one).",
        "迁移后代码运行的设备：每条结果给出修复在该设备上写入的目标（若目标算子在该设备上没有实现，则改用已验证可运行的"
        "等价接口）。",
    ),
    "resolution.check.table_target": (
        "Checked what the fix writes on {device}: {target} (the {table} table maps {torch_api} to "
        "{replaced}).",
        "已校验修复在 {device} 上写入的目标：{target}（{table} 映射表将 {torch_api} 映射为 {replaced}）。",
    ),
}
