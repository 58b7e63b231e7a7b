"""Messages of project scanning and of the ``msmigrate scan`` command."""

MESSAGES: dict[str, tuple[str, str]] = {
    "scan.error.path_not_found": (
        "Path not found: {path}",
        "路径不存在：{path}",
    ),
    "scan.error.no_paths": (
        "Give at least one file or folder to scan.",
        "请至少指定一个要扫描的文件或文件夹。",
    ),
    "scan.error.read": (
        "Could not read the file: {detail}",
        "无法读取该文件：{detail}",
    ),
    "scan.error.too_large": (
        "Skipped: the file is {size}, larger than the {limit} limit.",
        "已跳过：文件大小为 {size}，超过了 {limit} 的上限。",
    ),
    "scan.error.too_slow": (
        "Given up: the analysis took longer than the {seconds} s allowed per file.",
        "已放弃：分析时间超过了每个文件允许的 {seconds} 秒。",
    ),
    "scan.error.not_regular.fifo": (
        "Skipped: a named pipe (FIFO), not a regular file.",
        "已跳过：这是命名管道（FIFO），不是普通文件。",
    ),
    "scan.error.not_regular.socket": (
        "Skipped: a socket, not a regular file.",
        "已跳过：这是套接字，不是普通文件。",
    ),
    "scan.error.not_regular.device": (
        "Skipped: a device, not a regular file.",
        "已跳过：这是设备文件，不是普通文件。",
    ),
    "scan.error.not_regular.folder": (
        "Skipped: a folder, not a regular file.",
        "已跳过：这是文件夹，不是普通文件。",
    ),
    "scan.error.not_regular.other": (
        "Skipped: not a regular file.",
        "已跳过：不是普通文件。",
    ),
    "scan.error.unreadable_folder": (
        "Skipped: the folder could not be read: {detail}",
        "已跳过：无法读取该文件夹：{detail}",
    ),
    "scan.error.internal": (
        "Internal error while analysing this file: {detail}",
        "分析该文件时发生内部错误：{detail}",
    ),
    "scan.error.bad_config": (
        "Invalid [tool.msmigrate] settings in {path}: {detail}",
        "{path} 中的 [tool.msmigrate] 配置无效：{detail}",
    ),
    "scan.error.bad_version": (
        "Unknown MindSpore version {version!r}; choose one of {choices} or auto.",
        "未知的 MindSpore 版本 {version!r}；请选择 {choices} 之一，或 auto。",
    ),
    "scan.error.write": (
        "Could not write {path}: {detail}",
        "无法写入 {path}：{detail}",
    ),
    "scan.error.unsafe_output": (
        "Not writing {path}: it is a symlink or not a regular file (name the file itself, or use -o - to "
        "print the report).",
        "未写入 {path}：它是符号链接或不是普通文件（请直接指定目标文件，或用 -o - 打印报告）。",
    ),
    "scan.cancelled": (
        "The scan was cancelled.",
        "扫描已取消。",
    ),
    "scan.progress": (
        "Scanning",
        "正在扫描",
    ),
    "scan.wrote": (
        "Wrote the {fmt} report to {path}.",
        "已将 {fmt} 报告写入 {path}。",
    ),
    "scan.all_failed": (
        "No file could be analysed: all {count} failed (see the report for why).",
        "没有任何文件能被分析：{count} 个文件全部失败（原因见报告）。",
    ),
    "scan.failed_on": (
        "{count} finding(s) at or above severity '{level}'.",
        "有 {count} 个问题的严重级别达到或高于“{level}”。",
    ),
    "scan.help.command": (
        "Scan Python files and folders for PyTorch APIs and report how they map to MindSpore.",
        "扫描 Python 文件和文件夹中的 PyTorch 接口，并报告它们到 MindSpore 的映射情况。",
    ),
    "scan.help.format": ("Report format.", "报告格式。"),
    "scan.help.output": (
        "Write the report to this file instead of standard output (replaced through a temporary file; "
        "- is standard output; a device or named pipe such as /dev/null is written to; a symlink there is "
        "refused).",
        "将报告写入该文件，而不是标准输出（经临时文件整体替换；- 表示标准输出；/dev/null 等设备或命名管道"
        "直接写入；若该处是符号链接则拒绝写入）。",
    ),
    "scan.help.mindspore_version": (
        "MindSpore API mapping version (1.10, 2.3, 2.4, 2.6 or auto).",
        "MindSpore 接口映射版本（1.10、2.3、2.4、2.6 或 auto）。",
    ),
    "scan.help.lang": ("Language of the report.", "报告语言。"),
    "scan.help.fail_on": (
        "Exit with status 1 when a finding has this severity or a higher one.",
        "当存在该严重级别或更高级别的问题时，以状态码 1 退出。",
    ),
    "scan.help.jobs": (
        "Number of parallel worker processes (default: all cores).",
        "并行工作进程数（默认：全部核心）。",
    ),
    "scan.help.exclude": (
        "Skip paths matching this gitignore-style glob (repeatable).",
        "跳过匹配该 gitignore 风格通配符的路径（可重复指定）。",
    ),
    "scan.help.no_cache": ("Do not read or write the result cache.", "不读取也不写入结果缓存。"),
    "scan.help.no_mtime": (
        "Do not trust file sizes and modification times: hash every file's content to find cached results.",
        "不信任文件大小和修改时间：对每个文件的内容计算哈希来查找缓存结果。",
    ),
    "scan.help.max_file_size": (
        "Skip files larger than this (bytes, or e.g. 5MB, 512KB; default 10MB).",
        "跳过大于该大小的文件（字节数，或如 5MB、512KB；默认 10MB）。",
    ),
    "scan.error.bad_size": (
        "Invalid size {value!r}: give a number of bytes or a size such as 5MB or 512KB.",
        "无效的大小 {value!r}：请给出字节数，或如 5MB、512KB 的大小。",
    ),
}
