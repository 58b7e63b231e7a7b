"""Descriptions of the ``msmigrate`` settings as the editor clients show them: written into
client-vscode/package.nls*.json and the LSP4IJ settings schema by ``msmigrate dev generate``
(see :mod:`msmigrate.contract.settings`)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "settings.title": (
        "MindSpore Migration",
        "MindSpore 迁移",
    ),
    "settings.interpreter": (
        "Python interpreter that runs the msmigrate server, as a path or a command with arguments "
        "(for example `[\"py\", \"-3.11\"]`). `${workspaceFolder}` and `~` are expanded. When "
        "empty, the Python extension's active environment is used if that extension is installed, "
        "else `python3` (`python` on Windows). Needs Python 3.11 or newer.",
        "运行 msmigrate 服务器的 Python 解释器：路径，或带参数的命令（例如 "
        "`[\"py\", \"-3.11\"]`）。支持 `${workspaceFolder}` "
        "与 `~`。为空时，若安装了 Python 扩展则使用其当前环境，否则使用 `python"
        "3`（Windows 上为 `python`）。需要 Python 3.11 或更高版本。",
    ),
    "settings.importStrategy": (
        "Where the server's Python code comes from.",
        "服务器的 Python 代码来源。",
    ),
    "settings.importStrategy.useBundled": (
        "The copy of msmigrate and its libraries shipped with this extension (needs only Python 3.11+).",
        "使用本扩展自带的 msmigrate 及其依赖库（只需 Python 3.11+）。",
    ),
    "settings.importStrategy.fromEnvironment": (
        "The msmigrate installed in the selected interpreter's environment (`pip install msmigrate`).",
        "使用所选解释器环境中安装的 msmigrate（`pip install msmigrate`）。",
    ),
    "settings.mindsporeVersion": (
        "MindSpore version whose API mapping tables are used. `auto`: the MindSpore installed in "
        "the project's environment, else the newest table.",
        "使用哪个 MindSpore 版本的 API 映射表。`auto`"
        "：项目环境中安装的 MindSpore 版本，没有则用最新的映射表。",
    ),
    "settings.language": (
        "Language of diagnostics, hovers and reports. When not set, follows VS Code's display language.",
        "诊断、悬停提示与报告使用的语言。未设置时跟随 VS Code 的显示语言。",
    ),
    "settings.severity.consistent": (
        "Severity of APIs whose MindSpore counterpart behaves the same (`off` hides them).",
        "与 MindSpore 对应 API 行为一致的 API 的严重级别（`off` 表示不显示）。",
    ),
    "settings.severity.differences": (
        "Severity of APIs whose MindSpore counterpart has documented differences (parameters, "
        "defaults, behaviour).",
        "与 MindSpore 对应 API 存在已记录差异（参数、默认值、行为）的 API 的严重级别。",
    ),
    "settings.severity.missing": (
        "Severity of real PyTorch APIs that have no MindSpore counterpart.",
        "在 MindSpore 中没有对应 API 的 PyTorch API 的严重级别。",
    ),
    "settings.severity.possible_tensor_api": (
        "Severity of method calls that may be Tensor APIs (the receiver's type is unknown).",
        "可能是 Tensor API 的方法调用（接收者类型未知）的严重级别。",
    ),
    "settings.severity.data_processing": (
        "Severity of data-processing APIs (`torch.utils.data`, torchvision/torchaudio/torchtext data parts).",
        "数据处理 API（`torch.utils.data`，torchvision/torchaudio/torchtext 的数据部分）的严重级别。",
    ),
    "settings.severity.unknown_torch_name": (
        "Severity of `torch` names that do not exist (typos or removed APIs).",
        "不存在的 `torch` 名称（拼写错误或已移除的 API）的严重级别。",
    ),
    "settings.severity.dynamic_shape": (
        "Severity of code with dynamic shapes that MindSpore's graph mode may reject.",
        "MindSpore 图模式可能不支持的动态 shape 代码的严重级别。",
    ),
    "settings.severity.sparse": (
        "Severity of sparse-tensor code that needs attention in MindSpore.",
        "在 MindSpore 中需要注意的稀疏张量代码的严重级别。",
    ),
    "settings.severity.framework_pattern": (
        "Severity of framework idioms to rewrite (Module → Cell, training step, …).",
        "需要改写的框架写法（Module → Cell、训练步骤等）的严重级别。",
    ),
    "settings.include": (
        "Glob patterns (gitignore syntax) of files a project scan reads. Empty: `*.py`, or the "
        "project's `[tool.msmigrate] include`.",
        "项目扫描读取的文件的 glob 模式（gitignore 语法）。为空时：`*."
        "py`，或项目 `[tool.msmigrate] include` 中的设置。",
    ),
    "settings.exclude": (
        "Glob patterns (gitignore syntax, relative to the scanned folder) of files and folders a "
        "project scan skips, in addition to `.gitignore` and virtual environments.",
        "项目扫描跳过的文件与文件夹的 glob 模式（gitignore 语法，相"
        "对于被扫描的文件夹），在 `.gitignore` 与虚拟环境之外额外排除。",
    ),
    "settings.codeLens": (
        "Show the \"Scan project\" and \"Fix all\" code lenses at the top of files that use PyTorch.",
        "在使用 PyTorch 的文件顶部显示“扫描项目”和“全部修复”CodeLens。",
    ),
    "settings.device": (
        "Device the operator-equivalence check runs MindSpore on.",
        "算子等价性检查运行 MindSpore 所用的设备。",
    ),
    "settings.pythonPath": (
        "Python interpreter with PyTorch and MindSpore installed, used by the operator-equivalence "
        "check. Empty: the server's own interpreter.",
        "安装了 PyTorch 与 MindSpore 的 Python 解释器，供算子等价性检查使用。为空时使用服务器自身的解释器。",
    ),
    "settings.disabledRules": (
        "Rule ids to turn off, for example `MSM100`. `msmigrate rules` lists them all.",
        "要关闭的规则编号，例如 `MSM100`。运行 `msmigrate rules` 可查看全部规则。",
    ),
    "settings.maxFileSize": (
        "Files larger than this that are not open in the editor are skipped by project and file scans, "
        "for example `10MB`, `512KB` or a number of bytes.",
        "扫描项目或文件时跳过大于此大小且未在编辑器中打开的文件，例如 `10MB`、`512KB` 或字节数。",
    ),
    "settings.trace": (
        "Log the messages between VS Code and the language server in the output channel.",
        "在输出面板中记录 VS Code 与语言服务器之间的消息。",
    ),
    "settings.severity.default_note": (
        "`default` keeps each finding's own severity (a warning only where the code will not work "
        "on MindSpore as written).",
        "`default` 保留每个结果自身的严重级别（仅当代码在 MindSpore 上无法按原样运行时才是警告）。",
    ),
    "settings.severity": (
        "Severity of each finding category: default keeps each finding's own severity (a warning "
        "only where the code will not work on MindSpore as written), another level applies to the "
        "whole category, off hides it.",
        "每个结果类别的严重级别：default 保留每个结果自身的严重级别（仅当代码在 Min"
        "dSpore 上无法按原样运行时才是警告），其他级别作用于整个类别，off 表示不显示。",
    ),
    "settings.language.lsp4ij": (
        "Language of diagnostics, hovers and reports: en (English) or zh (Chinese).",
        "诊断、悬停提示与报告使用的语言：en（英文）或 zh（中文）。",
    ),
}
