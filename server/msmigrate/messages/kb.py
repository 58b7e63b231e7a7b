"""Messages of the knowledge base: `msmigrate data …` and `msmigrate lookup`."""

MESSAGES: dict[str, tuple[str, str]] = {
    "kb.build.no_sources": (
        "No mapping sources found in {path}: expected <release>/en/pytorch_api_mapping.md folders "
        "such as r2.4.10/.",
        "在 {path} 中找不到映射表源文件：应包含 r2.4.10/ 等 <版本>/en/pytorch_api_mapping.md 目录。",
    ),
    "kb.build.failed": ("Could not build the mapping data: {detail}", "无法生成映射数据：{detail}"),
    "kb.build.wrote": ("Wrote {path}", "已写入 {path}"),
    "kb.stats.title": ("Mapping data", "映射数据"),
    "kb.stats.version": ("MindSpore version", "MindSpore 版本"),
    "kb.stats.rows": ("Rows", "行数"),
    "kb.stats.diff_pages": ("Difference pages", "差异对比页"),
    "kb.stats.param_renames": ("Parameter renames", "参数改名"),
    "kb.stats.unsupported_params": ("Unsupported parameters", "不支持的参数"),
    "kb.stats.inventories": (
        "API inventories: {torch} torch names, {mindspore} MindSpore names.",
        "API 清单：torch 接口 {torch} 个，MindSpore 接口 {mindspore} 个。",
    ),
}

MESSAGES.update(
    {
        # categories
        "kb.category.consistent": ("Consistent", "一致"),
        "kb.category.param_names": ("Parameter names differ", "参数名不同"),
        "kb.category.default_values": ("Default values differ", "默认值不同"),
        "kb.category.data_types": ("Parameter data types differ", "参数数据类型不同"),
        "kb.category.param_count_order": ("Number or order of parameters differs", "参数个数或顺序不同"),
        "kb.category.no_verbose": ("MindSpore has no verbose parameter", "MindSpore 无 verbose 参数"),
        "kb.category.no_inplace": ("MindSpore has no inplace parameter", "MindSpore 无 inplace 参数"),
        "kb.category.other_difference": ("Other differences", "其他差异"),
        "kb.category.diff_page": ("Differences documented on a comparison page", "差异见对比页面"),
        "kb.category.unsupported": ("No MindSpore equivalent in the table", "映射表中无 MindSpore 对应接口"),
        # lookup: headings and labels
        "kb.lookup.title": (
            "{torch_api} → {mindspore_api} (MindSpore {version})",
            "{torch_api} → {mindspore_api}（MindSpore {version}）",
        ),
        "kb.lookup.category": ("Category", "类别"),
        "kb.lookup.params_title": ("Parameter differences", "参数差异"),
        "kb.lookup.col_pytorch": ("PyTorch", "PyTorch"),
        "kb.lookup.col_mindspore": ("MindSpore", "MindSpore"),
        "kb.lookup.col_kind": ("Difference", "差异"),
        "kb.lookup.kind_rename": ("renamed", "改名"),
        "kb.lookup.kind_input_rename": ("input renamed", "输入改名"),
        "kb.lookup.kind_torch_only": ("not supported by MindSpore", "MindSpore 不支持"),
        "kb.lookup.kind_mindspore_only": ("MindSpore only", "仅 MindSpore 有"),
        "kb.lookup.kind_default": ("default differs", "默认值不同"),
        "kb.lookup.kind_default_same_meaning": (
            "same default, values mean otherwise", "默认行为相同，取值含义不同"
        ),
        "kb.lookup.absent": ("—", "—"),
        "kb.lookup.links": ("Documentation", "文档"),
        "kb.lookup.link_torch": ("PyTorch documentation", "PyTorch 文档"),
        "kb.lookup.link_mindspore": ("MindSpore documentation", "MindSpore 文档"),
        "kb.lookup.link_diff": ("Difference comparison", "差异对比"),
        "kb.lookup.notes": ("Notes", "说明"),
        "kb.lookup.no_param_differences": (
            "No parameter-level differences are recorded.",
            "未记录参数层面的差异。",
        ),
        # lookup: notes generated from the facts
        "kb.note.consistent": (
            "The MindSpore API behaves the same for the same arguments: replacing the name is enough.",
            "MindSpore 接口在相同参数下行为一致，只需替换接口名。",
        ),
        "kb.note.diff_page": (
            "The behaviour differs in ways listed on the difference comparison page; review it before "
            "replacing the call.",
            "行为差异列在差异对比页面中，替换调用前请先查看。",
        ),
        "kb.note.rename_rejected_keep": (
            "The table renames {torch_name} to {mindspore_name}, but the installed MindSpore takes "
            "{torch_name}: keep the name.",
            "映射表将 {torch_name} 改名为 {mindspore_name}，但已安装的 MindSpore 接受 {torch_name}："
            "保留原名即可。",
        ),
        "kb.note.rename_rejected_use": (
            "Parameter {torch_name} is called {name} in the installed MindSpore (the table says "
            "{mindspore_name}, which it rejects).",
            "参数 {torch_name} 在已安装的 MindSpore 中名为 {name}"
            "（映射表写作 {mindspore_name}，该名不被接受）。",
        ),
        "kb.note.rename_rejected_drop": (
            "The table renames {torch_name} to {mindspore_name}, a parameter the installed MindSpore does "
            "not have: the rename does not apply.",
            "映射表将 {torch_name} 改名为 {mindspore_name}，但已安装的 MindSpore 没有该参数：此改名不适用。",
        ),
        "kb.note.rename": (
            "Parameter {torch_name} is called {mindspore_name} in MindSpore.",
            "参数 {torch_name} 在 MindSpore 中名为 {mindspore_name}。",
        ),
        "kb.note.input_rename": (
            "Input {torch_name} is called {mindspore_name} in MindSpore.",
            "输入 {torch_name} 在 MindSpore 中名为 {mindspore_name}。",
        ),
        "kb.note.torch_only": (
            "MindSpore does not support the PyTorch parameter(s) {names}.",
            "MindSpore 不支持 PyTorch 参数 {names}。",
        ),
        "kb.note.mindspore_only": (
            "MindSpore has extra parameter(s) {names} that PyTorch does not have.",
            "MindSpore 多出 PyTorch 没有的参数 {names}。",
        ),
        "kb.note.default_same_meaning": (
            "Default of {param}: PyTorch {torch_default}, MindSpore {mindspore_default}, the same behaviour: "
            "MindSpore means its values otherwise (a value passed is converted by the quick-fix).",
            "参数 {param} 的默认值：PyTorch 为 {torch_default}，MindSpore 为 {mindspore_default}，行为相同："
            "MindSpore 对取值的含义不同（快速修复会转换传入的值）。",
        ),
        "kb.note.default_values": (
            "Default of {param} differs: PyTorch {torch_default}, MindSpore {mindspore_default}.",
            "参数 {param} 的默认值不同：PyTorch 为 {torch_default}，MindSpore 为 {mindspore_default}。",
        ),
        "kb.note.default_unknown": (
            "Default of {param} differs between PyTorch and MindSpore; pass it explicitly.",
            "参数 {param} 的默认值在 PyTorch 与 MindSpore 中不同，请显式传入。",
        ),
        "kb.note.data_types": (
            "Some parameters accept different data types in MindSpore.",
            "部分参数在 MindSpore 中接受的数据类型不同。",
        ),
        "kb.note.param_count_order": (
            "The number or order of parameters differs: pass arguments by keyword.",
            "参数个数或顺序不同：请使用关键字传参。",
        ),
        "kb.note.other_difference": (
            "The mapping table states a difference for this pair; check both documentation pages.",
            "映射表指出这对接口存在差异，请查看两边的文档。",
        ),
        "kb.note.derived": (
            "The renames were derived by comparing the two signatures, not stated by the official table.",
            "参数改名由对比两个接口签名推得，并非来自官方映射表。",
        ),
        "kb.note.general_params": (
            "General difference parameter(s) {names}: MindSpore has no counterpart (framework mechanism).",
            "通用差异参数 {names}：MindSpore 中没有对应参数（框架机制不同）。",
        ),
        "kb.note.alternatives": (
            "The table also maps it to: {names}.",
            "映射表还将其映射到：{names}。",
        ),
        "kb.note.unsupported": (
            "The MindSpore {version} mapping table lists {torch_api} but names no MindSpore API for it.",
            "MindSpore {version} 映射表列出了 {torch_api}，但没有给出对应的 MindSpore 接口。",
        ),
        "kb.note.missing": (
            "{torch_api} is a PyTorch API, but the MindSpore {version} mapping table has no equivalent.",
            "{torch_api} 是 PyTorch 接口，但 MindSpore {version} 映射表中没有对应接口。",
        ),
        "kb.note.missing_hint": (
            "Replace it with an equivalent computation, compose it from mapped APIs, or write a custom "
            "operator.",
            "可用等价计算替换、用已映射接口组合实现，或开发自定义算子。",
        ),
        "kb.note.device_target": (
            "MindSpore {mindspore} has no {device} kernel for {replaced}: on {device} the quick-fix writes "
            "{target} instead ({source}).",
            "MindSpore {mindspore} 在 {device} 上没有 {replaced} 的算子实现：在 {device} 上快速修复改写为 "
            "{target}（{source}）。",
        ),
        "kb.note.device_write_back": (
            "MindSpore {mindspore} has no {device} kernel for {replaced}: on {device} the quick-fix computes "
            "the result with {target} (verified on {device}) and writes it back into the tensor with "
            "Tensor.assign_value, which returns it (not a safe fix: a view does not update the tensor it "
            "views, and assign_value runs in PyNative mode only).",
            "MindSpore {mindspore} 在 {device} 上没有 {replaced} 的算子实现：在 {device} 上快速修复用 "
            "{target}（已在 {device} 上验证）计算结果，再用 Tensor.assign_value 写回该张量并返回它"
            "（非安全修复：视图不会更新其所属的张量，且 assign_value 只能在 PyNative 模式下运行）。",
        ),
        "kb.note.write_back_new_tensor": (
            "{target} returns a new tensor where torch changes the tensor in place: the quick-fix writes its "
            "result (verified on {device}) back into the tensor with Tensor.assign_value, which returns it "
            "(not a safe fix: a view does not update the tensor it views, and assign_value runs in PyNative "
            "mode only).",
            "{target} 返回新张量，而 torch 原地修改张量：快速修复将其结果（已在 {device} 上验证）用 "
            "Tensor.assign_value 写回该张量并返回它（非安全修复：视图不会更新其所属的张量，且 assign_value "
            "只能在 PyNative 模式下运行）。",
        ),
        "kb.note.device_target_no_effect": (
            "MindSpore {mindspore}'s {replaced} runs on {device} but changes nothing (its optimizer step "
            "leaves the weights as they were, without an error): on {device} the quick-fix writes {target} "
            "instead ({source}).",
            "MindSpore {mindspore} 的 {replaced} 在 {device} 上可以运行但没有任何效果（其优化器步骤不报错，"
            "权重却保持不变）：在 {device} 上快速修复改写为 {target}（{source}）。",
        ),
        "kb.note.device_target_reason": (
            "{why:messages}: on {device} the quick-fix writes {target} instead of {replaced}.",
            "{why:messages}：在 {device} 上快速修复改写为 {target}，而非 {replaced}。",
        ),
        "kb.device_source.table": (
            "the mapping of the MindSpore {table} table, verified on {device}",
            "MindSpore {table} 映射表中的映射，已在 {device} 上验证",
        ),
        "kb.device_source.derived": (
            "a derived mapping verified on {device}",
            "已在 {device} 上验证的推导映射",
        ),
        "kb.device_source.same_values": (
            "the mapping of the MindSpore {table} table: the same values, with int32 indices",
            "MindSpore {table} 映射表中的映射：数值相同，索引为 int32",
        ),
        "kb.note.no_kernel": (
            "MindSpore {mindspore} has no {device} kernel for {replaced}, and no replacement verified on "
            "{device} is known: the call will fail there.",
            "MindSpore {mindspore} 在 {device} 上没有 {replaced} 的算子实现，"
            "也没有已在 {device} 上验证的替代：该调用在此设备上会失败。",
        ),
        "kb.note.no_effect": (
            "MindSpore {mindspore}'s {replaced} runs on {device} but changes nothing (its optimizer step "
            "leaves the weights as they were, without an error), and no replacement verified on {device} is "
            "known.",
            "MindSpore {mindspore} 的 {replaced} 在 {device} 上可以运行但没有任何效果（其优化器步骤不报错，"
            "权重却保持不变），也没有已在 {device} 上验证的替代。",
        ),
        "kb.note.no_kernel_device_only": (
            "MindSpore {mindspore} runs {replaced} on {devices} only, and {other} (the {table} table's "
            "target) on {other_devices} only: no MindSpore API computes it on {device}, the call will fail "
            "there (write it with other operators by hand).",
            "MindSpore {mindspore} 仅在 {devices} 上运行 {replaced}，{other}（{table} 映射表的目标）仅在 "
            "{other_devices} 上运行：没有 MindSpore 接口能在 {device} 上计算它，该调用在此设备上会失败"
            "（请用其他算子手工改写）。",
        ),
        "kb.note.other_versions": (
            "Mapped in other MindSpore versions: {versions}.",
            "在其他 MindSpore 版本中有映射：{versions}。",
        ),
        "kb.note.not_found": (
            "{name} is not a known PyTorch API.",
            "{name} 不是已知的 PyTorch 接口。",
        ),
        "kb.note.mindspore_name": (
            "{name} is a MindSpore API; the table maps these PyTorch APIs to it: {names}.",
            "{name} 是 MindSpore 接口；映射表中对应它的 PyTorch 接口有：{names}。",
        ),
        "kb.note.suggestions": ("Did you mean: {names}?", "您是否要找：{names}？"),
        "kb.note.alias": ("{query} was read as {torch_api}.", "已将 {query} 解析为 {torch_api}。"),
        "kb.lookup.bad_version": (
            "Unknown MindSpore version {version}; choose one of {choices} or auto.",
            "未知的 MindSpore 版本 {version}；请选择 {choices} 或 auto。",
        ),
        "kb.lookup.empty_name": (
            "Give the name of a PyTorch API, e.g. torch.nn.Linear or F.relu.",
            "请给出 PyTorch 接口名，例如 torch.nn.Linear 或 F.relu。",
        ),
    }
)
