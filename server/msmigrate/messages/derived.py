"""Messages of the derived mappings: where a mapping comes from (``derived.*``) and ``data derive``."""

MESSAGES: dict[str, tuple[str, str]] = {
    # --- evidence, joined with the list separator into "derived: …" ----------------------------------
    "derived.evidence.tables": (
        "in the official mapping of MindSpore {tables}",
        "MindSpore {tables} 官方映射表中有此映射",
    ),
    "derived.evidence.same_parameters": (
        "counterpart in MindSpore {mindspore} with the same parameters",
        "MindSpore {mindspore} 中有参数相同的对应接口",
    ),
    "derived.evidence.same_signature": (
        "same parameters in MindSpore {mindspore}",
        "MindSpore {mindspore} 中参数相同",
    ),
    "derived.evidence.same_name": (
        "counterpart in MindSpore {mindspore}",
        "MindSpore {mindspore} 中有对应接口",
    ),
    "derived.evidence.name_params_differ": (
        "counterpart in MindSpore {mindspore}, parameters differ",
        "MindSpore {mindspore} 中有对应接口，参数不同",
    ),
    "derived.evidence.name_unknown_params": (
        "counterpart in MindSpore {mindspore}, parameters not compared",
        "MindSpore {mindspore} 中有对应接口，参数未比较",
    ),
    "derived.evidence.params_differ": (
        "parameters differ in MindSpore {mindspore}",
        "MindSpore {mindspore} 中参数不同",
    ),
    "derived.evidence.verified": ("verified on {device}", "已在 {device} 上验证"),
    "derived.evidence.no_kernel": (
        "not verified: MindSpore {mindspore} has no {device} kernel for it",
        "未验证：MindSpore {mindspore} 没有对应的 {device} 算子",
    ),
    "derived.evidence.check_error": (
        "MindSpore rejected the {device} check's arguments",
        "{device} 数值检查时 MindSpore 不接受所给参数",
    ),
    # --- findings, hover and lookup ---------------------------------------------------------------------
    "derived.provenance": (
        "Not in the MindSpore {version} mapping table; derived: {evidence:messages}.",
        "MindSpore {version} 映射表中没有此接口；推导得出：{evidence:messages}。",
    ),
    "derived.provenance_replaces": (
        "The MindSpore {version} mapping table maps it to {gone}, which MindSpore {mindspore} no longer has; "
        "derived replacement: {evidence:messages}.",
        "MindSpore {version} 映射表将其映射到 {gone}，但 MindSpore {mindspore} 中已没有该接口；推导出的替代："
        "{evidence:messages}。",
    ),
    "derived.withheld": (
        "Not offered: {names} failed the numeric check on {device}.",
        "未提供：{names} 未通过 {device} 上的数值检查。",
    ),
    "derived.gone_target": (
        "The MindSpore {version} mapping table maps it to {gone}, which MindSpore {mindspore} no longer has.",
        "MindSpore {version} 映射表将其映射到 {gone}，但 MindSpore {mindspore} 中已没有该接口。",
    ),
    "derived.details_then_provenance": ("{details}. {provenance}", "{details}。{provenance}"),
    "analysis.api.derived_consistent": (
        "{torch_api} → {mindspore_api}: same behaviour; replacing the name is enough. {provenance:messages}",
        "{torch_api} → {mindspore_api}：功能一致，替换接口名即可。{provenance:messages}",
    ),
    "analysis.api.derived_differences": (
        "{torch_api} → {mindspore_api} ({details:messages}). {provenance:messages}",
        "{torch_api} → {mindspore_api}（{details:messages}）。{provenance:messages}",
    ),
    "analysis.api.gone_target": (
        "{torch_api}: the MindSpore {version} mapping table maps it to {gone}, which MindSpore {mindspore} "
        "no longer has.",
        "{torch_api}：MindSpore {version} 映射表将其映射到 {gone}，但 MindSpore {mindspore} 中已没有该接口。",
    ),
    "derived.stats.line": (
        "Derived mappings below the {version} table: {mappings} (from other tables {from_other_tables}, "
        "by name {by_name}, verified on CPU {verified_cpu}; {not_offered_failed_check} withheld after a "
        "failed check; {gone_targets_replaced} of {gone_targets} gone targets replaced; CPU alternatives "
        "for {cpu_alternatives} rows without a CPU kernel, {cpu_alternatives_verified} verified)",
        "{version} 映射表之外的推导映射：{mappings} 个（来自其他映射表 {from_other_tables}，"
        "按名称 {by_name}，已在 CPU 上验证 {verified_cpu}；"
        "{not_offered_failed_check} 个因数值检查失败未提供；"
        "{gone_targets} 个已失效目标中替换了 {gone_targets_replaced} 个；"
        "{cpu_alternatives} 个无 CPU 算子的映射行有 CPU 替代候选，"
        "其中 {cpu_alternatives_verified} 个已验证）",
    ),
    # --- msmigrate data derive / check --derived --------------------------------------------------------
    "derived.cli.wrote": (
        "Wrote {path}: {mapped} torch APIs with derived mappings ({candidates} candidates).",
        "已写入 {path}：{mapped} 个 torch 接口有推导映射（共 {candidates} 个候选）。",
    ),
    "derived.check.replacement": ("derived replacement: {api}", "推导出的替代：{api}"),
    "check.cli.derived_needs_all": (
        "--derived checks the derived candidates: use it with --all.",
        "--derived 用于检查推导映射候选，请与 --all 一起使用。",
    ),
}
