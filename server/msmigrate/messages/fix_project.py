"""Messages of ``msmigrate fix`` (whole-project fixing): ``fix.error.*``, ``fix.cli.*``, ``fix.help.*``."""

MESSAGES: dict[str, tuple[str, str]] = {
    "fix.error.syntax": (
        "left unchanged: syntax error at line {line} ({detail}); fix it, then run again",
        "未修改：第 {line} 行有语法错误（{detail}）；请先修正后再运行",
    ),
    "fix.error.encode": (
        "left unchanged: the fixed text cannot be written in the file's encoding {encoding} ({detail})",
        "未修改：修复后的文本无法以文件原编码 {encoding} 写回（{detail}）",
    ),
    "fix.error.read": ("cannot read the file: {detail}", "无法读取文件：{detail}"),
    "fix.error.changed": (
        "left unchanged: the file changed on disk while it was being fixed; run again",
        "未修改：修复期间文件在磁盘上被修改；请重新运行",
    ),
    "fix.error.write": ("cannot write the file: {detail}", "无法写入文件：{detail}"),
    "fix.cli.status.fixed": ("fixed", "已修复"),
    "fix.cli.status.would_fix": ("would fix", "待修复"),
    "fix.cli.status.unchanged": ("unchanged", "未改动"),
    "fix.cli.status.syntax_error": ("syntax error", "语法错误"),
    "fix.cli.status.read_only": ("read-only, not written", "只读，未写入"),
    "fix.cli.status.error": ("error", "错误"),
    "fix.cli.file_line": (
        "{path}: {status} ({count} fixes) {detail}",
        "{path}：{status}（{count} 处修复）{detail}",
    ),
    "fix.cli.summary_written": (
        "{fixes} fixes applied in {files} files ({version} table).",
        "已在 {files} 个文件中应用 {fixes} 处修复（{version} 映射表）。",
    ),
    "fix.cli.summary_pending": (
        "{fixes} fixes pending in {files} files ({version} table); nothing written.",
        "{files} 个文件中有 {fixes} 处待修复（{version} 映射表）；未写入任何文件。",
    ),
    "fix.cli.by_rule": ("Fixes per rule: {items}", "各规则修复数：{items}"),
    "fix.cli.conversion": (
        "PyTorch API usages converted: {converted} of {total} ({rate})",
        "已转换的 PyTorch API 用法：{converted} / {total}（{rate}）",
    ),
    "fix.cli.left": ("Left, by category: {items}", "剩余（按类别）：{items}"),
    "fix.cli.nothing_left": ("Nothing left to migrate.", "没有剩余需要迁移的内容。"),
    "fix.cli.torch_free": (
        "Files free of torch: {free} of {total}",
        "已不再依赖 torch 的文件：{free} / {total}",
    ),
    "fix.cli.torch_left": (
        "Torch is still used in these files ({count} places), with why each was not rewritten:",
        "以下文件仍在使用 torch（共 {count} 处），以及每处未被改写的原因：",
    ),
    "fix.cli.leftover": (
        "  {path}:{line}:{column} {text}: {reason}",
        "  {path}:{line}:{column} {text}：{reason}",
    ),
    "fix.cli.needs_person": (
        "Needs a person ({count}):",
        "需要人工处理（{count} 处）：",
    ),
    "fix.cli.more": ("… and {count} more (see `msmigrate scan`)", "……另有 {count} 处（见 `msmigrate scan`）"),
    "fix.cli.unsafe_skipped": (
        "{count} unsafe fixes were not applied (mappings not verified to keep the results); "
        "review them in the editor or run with --unsafe-fixes.",
        "有 {count} 处不安全的修复未应用（映射未经验证能保持结果一致）；请在编辑器中逐一审阅，"
        "或使用 --unsafe-fixes 运行。",
    ),
    "fix.cli.problems": (
        "{count} files could not be fixed (see above).",
        "{count} 个文件无法修复（见上文）。",
    ),
    "fix.help.command": (
        "Apply the migration fixes to files and folders (safe fixes only unless --unsafe-fixes).",
        "对文件和文件夹应用迁移修复（除非指定 --unsafe-fixes，否则只应用安全的修复）。",
    ),
    "fix.help.diff": (
        "Print a unified diff of the fixes instead of writing the files.",
        "输出修复的统一差异（unified diff），不写入文件。",
    ),
    "fix.help.check": (
        "Write nothing; exit with status 1 when fixes are pending.",
        "不写入文件；有待修复内容时以状态码 1 退出。",
    ),
    "fix.help.select": (
        "Only apply fixes of these rules (ids or prefixes such as MSM5; repeatable).",
        "只应用这些规则的修复（规则编号或前缀，如 MSM5；可重复）。",
    ),
    "fix.help.ignore": (
        "Do not apply fixes of these rules (ids or prefixes; repeatable).",
        "不应用这些规则的修复（规则编号或前缀；可重复）。",
    ),
    "fix.help.unsafe": (
        "Also apply fixes whose mapping is not verified to keep the results.",
        "同时应用映射未经验证能保持结果一致的修复。",
    ),
    "fix.help.device": (
        "Where the fixed code will run: a target without a kernel there is replaced by a verified one.",
        "修复后代码运行的设备：若目标算子在该设备上没有实现，则改用已验证可运行的等价接口。",
    ),
    "fix.help.json": ("Print the summary as JSON.", "以 JSON 格式输出摘要。"),
}
