"""Messages of the compositions for missing APIs (knowledge/compositions, fixes/compositions, their check)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "kb.note.composition": (
        "MindSpore has no counterpart, but a composition of MindSpore operators computes the same: the "
        "quick-fix writes {call} and adds the helper to the project's helper module (checked against "
        "torch on {device} in {cases} cases, MindSpore {mindspore} / torch {torch}).",
        "MindSpore 没有对应接口，但可用 MindSpore 算子组合实现相同计算：快速修复改写为 {call}，并把该函数加入"
        "项目的辅助模块（已在 {device} 上用 {cases} 组输入与 torch 对比验证，MindSpore {mindspore} / "
        "torch {torch}）。",
    ),
    "fix.composition": (
        "Call {helper} of {module} (a composition checked against torch)",
        "改为调用 {module} 中的 {helper}（已与 torch 对比验证的组合实现）",
    ),
    "fix.cli.helper_module": (
        "{path}: {status} (helpers: {helpers})",
        "{path}：{status}（辅助函数：{helpers}）",
    ),
    "fix.cli.helper_status.created": ("created", "已创建"),
    "fix.cli.helper_status.extended": ("helpers added", "已添加函数"),
    "fix.cli.helper_status.would_create": ("would be created", "将创建"),
    "fix.cli.helper_status.would_extend": ("helpers would be added", "将添加函数"),
    "fix.error.helper_module": (
        "the helper module {path} cannot take the compositions ({detail:messages}): calls of APIs MindSpore "
        "lacks are left as they are",
        "辅助模块 {path} 无法写入组合实现（{detail:messages}）：MindSpore 缺少的接口调用保持不变",
    ),
    "fix.error.helper_broken": ("it is not valid Python: {detail}", "它不是合法的 Python 代码：{detail}"),
    "scan.error.bad_compat_module": (
        "compat-module = {value!r} in {path} is not a dotted Python module name (for example "
        "\"ms_compat\" or \"mypkg.ms_compat\")",
        "{path} 中的 compat-module = {value!r} 不是以点分隔的 Python 模块名（例如 \"ms_compat\" 或 "
        "\"mypkg.ms_compat\"）",
    ),
    "lsp.composition.no_create": (
        "{title}: the editor cannot create {path} from a quick-fix; run the \"Fix all\" command or "
        "msmigrate fix",
        "{title}：编辑器无法通过快速修复创建 {path}；请运行“全部修复”命令或 msmigrate fix",
    ),
    "check.cli.compositions_written": (
        "Checked {count} compositions ({passed} passed); wrote {path}",
        "已检查 {count} 个组合实现（通过 {passed} 个）；已写入 {path}",
    ),
    "check.cli.no_composition": (
        "{api} has no composition (compositions: {names})",
        "{api} 没有组合实现（现有组合实现：{names}）",
    ),
}
