"""Messages of the language server (``lsp.*``)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "lsp.log.started": (
        "msmigrate language server {version} started (MindSpore mapping table {mindspore})",
        "msmigrate 语言服务器 {version} 已启动（MindSpore 映射表 {mindspore}）",
    ),
    "lsp.log.bad_setting": ("Ignored setting: {detail}", "已忽略无效设置：{detail}"),
    "lsp.log.handler_failed": (
        "msmigrate: {where} failed; the server keeps running.\n{detail}",
        "msmigrate：{where} 出错，服务器继续运行。\n{detail}",
    ),
    "lsp.lens.scan_project": (
        "Scan project for MindSpore migration",
        "扫描项目的 MindSpore 迁移情况",
    ),
    "lsp.lens.fix_all": ("Fix all (MindSpore)", "全部修复（MindSpore）"),
    "lsp.progress.scan_title": ("msmigrate: scanning project", "msmigrate：正在扫描项目"),
    "lsp.progress.files": ("{done}/{total} files", "{done}/{total} 个文件"),
    "lsp.progress.done": ("Scanned {files} files", "已扫描 {files} 个文件"),
    "lsp.progress.cancelled": ("Scan cancelled", "扫描已取消"),
    "lsp.progress.failed": ("Scan failed (see the log)", "扫描失败（请查看日志）"),
    "lsp.command.no_folder": (
        "No workspace folder is open and no path was given.",
        "未打开工作区文件夹，也未指定路径。",
    ),
    "lsp.command.bad_args": ("Missing or invalid arguments for {command}.", "{command} 的参数缺失或无效。"),
    "lsp.command.bad_format": (
        "Unknown report format {format!r}; choose one of {formats}.",
        "未知的报告格式 {format!r}，可选：{formats}。",
    ),
    "lsp.command.scan_failed": ("Cannot scan {paths}: {detail}", "无法扫描 {paths}：{detail}"),
    "lsp.command.unreadable": ("Cannot read {path}: {detail}", "无法读取 {path}：{detail}"),
    "lsp.command.not_open": ("The document {uri} is not open.", "文档 {uri} 未打开。"),
    "lsp.serve.listening_token": (
        "msmigrate language server listening on {url}\nsession token: {token}\n"
        "(a client presents it as initializationOptions.token over TCP, as ?token= over a WebSocket)",
        "msmigrate 语言服务器正在监听 {url}\n会话令牌：{token}\n"
        "（客户端通过 TCP 时在 initializationOptions.token 中提供，"
        "通过 WebSocket 时在 URL 的 ?token= 中提供）",
    ),
    "lsp.serve.listening": (
        "msmigrate language server listening on {url} (session token from the client's configuration)",
        "msmigrate 语言服务器正在监听 {url}（会话令牌来自客户端配置）",
    ),
    "lsp.transport.bad_token": (
        "msmigrate: connection refused: missing or wrong session token (TCP: the first message must be "
        "initialize with initializationOptions.token; WebSocket: ?token= in the URL).",
        "msmigrate：拒绝连接：会话令牌缺失或错误（TCP：第一条消息须为 initialize 且带 "
        "initializationOptions.token；WebSocket：URL 中带 ?token=）。",
    ),
    "lsp.transport.bad_origin": (
        "msmigrate: connection refused: this Origin is not allowed (see msmigrate serve --allow-origin).",
        "msmigrate：拒绝连接：不允许此 Origin（参见 msmigrate serve --allow-origin）。",
    ),
    "lsp.transport.busy": (
        "msmigrate: connection refused: another session is active; start one server per editor.",
        "msmigrate：拒绝连接：已有会话在使用此服务器；请为每个编辑器各启动一个服务器。",
    ),
    "lsp.command.outside_workspace": (
        "{path} is outside the workspace folders; msmigrate reads and writes only inside them.",
        "{path} 不在工作区文件夹内；msmigrate 只读写工作区文件夹内的文件。",
    ),
    "lsp.log.report_elsewhere": (
        "The report was not written to {path} ({detail}); it went to a temporary folder instead.",
        "报告未写入 {path}（{detail}），已改为写入临时文件夹。",
    ),
    "lsp.hover.category": ("Category: {category}", "类别：{category}"),
    "lsp.hover.table_head": ("| PyTorch | MindSpore | Note |", "| PyTorch | MindSpore | 说明 |"),
    "lsp.hover.unsupported": ("not supported by MindSpore", "MindSpore 不支持"),
    "lsp.hover.default_differs": (
        "default differs: {torch_default} (torch) vs {mindspore_default} (MindSpore)",
        "默认值不同：{torch_default}（torch）与 {mindspore_default}（MindSpore）",
    ),
    "lsp.hover.link_torch": ("PyTorch docs", "PyTorch 文档"),
    "lsp.hover.link_mindspore": ("MindSpore docs", "MindSpore 文档"),
    "lsp.hover.link_diff": ("Differences", "差异对比"),
    "lsp.category.consistent": ("consistent", "一致"),
    "lsp.category.param_names": ("parameter names differ", "参数名不同"),
    "lsp.category.default_values": ("default values differ", "默认值不同"),
    "lsp.category.data_types": ("parameter data types differ", "参数数据类型不同"),
    "lsp.category.param_count_order": ("number or order of parameters differs", "参数个数或顺序不同"),
    "lsp.category.no_verbose": ("no 'verbose' parameter in MindSpore", "MindSpore 无 'verbose' 参数"),
    "lsp.category.no_inplace": ("no 'inplace' parameter in MindSpore", "MindSpore 无 'inplace' 参数"),
    "lsp.category.other_difference": ("other differences", "其他差异"),
    "lsp.category.diff_page": ("differences (see the difference page)", "存在差异（见差异对比页）"),
    "lsp.category.unsupported": ("no MindSpore counterpart in the table", "映射表中无对应 MindSpore 接口"),
    "lsp.hover.this_call": ("**This call:** {message}", "**此处调用：** {message}"),
    # msmigrate.compareModels (lsp/compare_feature.py)
    "lsp.lens.compare": ("Compare with the PyTorch original: {name}", "与 PyTorch 原模型比较：{name}"),
    "lsp.compare.progress_title": (
        "msmigrate: comparing {name} with its PyTorch original",
        "msmigrate：正在将 {name} 与其 PyTorch 原模型比较",
    ),
    "lsp.compare.cancelled": ("Comparison cancelled", "比较已取消"),
    "lsp.compare.no_config": (
        "Nothing to compare: no pyproject.toml with a [[tool.msmigrate.compare]] table was found from {path} "
        "up to its workspace folder. Add one to the project's pyproject.toml, naming the torch model, the "
        "migrated model and an input, for example:\n"
        "[[tool.msmigrate.compare]]\n"
        "name = \"mymodel\"\n"
        "torch = \"models/net_torch.py:Net()\"\n"
        "mindspore = \"models/net_ms.py:Net()\"\n"
        "inputs = [{{shape = [1, 3, 224, 224]}}]\n"
        "(see docs/weights-and-compare.md for checkpoints, losses and execution modes).",
        "没有可比较的内容：从 {path} 向上到其工作区文件夹，未找到含 [[tool.msmigrate.compare]] 表的 "
        "pyproject.toml。请在项目的 pyproject.toml 中添加一个，写明 torch 模型、迁移后的模型和输入，例如：\n"
        "[[tool.msmigrate.compare]]\n"
        "name = \"mymodel\"\n"
        "torch = \"models/net_torch.py:Net()\"\n"
        "mindspore = \"models/net_ms.py:Net()\"\n"
        "inputs = [{{shape = [1, 3, 224, 224]}}]\n"
        "（检查点、损失函数和执行模式见 docs/weights-and-compare.md）。",
    ),
    "lsp.compare.bad_config": ("Cannot compare: {detail}", "无法比较：{detail}"),
    "lsp.compare.bad_open": (
        "Unknown value {value!r} for open; use markdown or none.",
        "open 的取值 {value!r} 无效；请使用 markdown 或 none。",
    ),
    "lsp.compare.bad_timeout": (
        "The timeout must be a number of seconds from 1 to 86400, not {value}.",
        "timeout 须为 1 到 86400 之间的秒数，而不是 {value}。",
    ),
    "lsp.compare.busy": (
        "A comparison ({name}) is already running; wait for it or cancel it.",
        "已有一个比较（{name}）正在运行；请等待其完成或将其取消。",
    ),
    "lsp.compare.confirm": (
        "Comparing {name} imports and runs the project's model files {torch} and {mindspore} in worker "
        "processes (named in {config}). Run them?",
        "比较 {name} 将在工作进程中导入并运行项目的模型文件 {torch} 和 {mindspore}（由 {config} 指定）。"
        "是否运行？",
    ),
    "lsp.compare.confirm_loss": (
        "Comparing {name} imports and runs the project's model files {torch} and {mindspore} and evaluates "
        "the loss expressions {torch_loss} and {mindspore_loss} in worker processes (named in {config}). "
        "Run them?",
        "比较 {name} 将在工作进程中导入并运行项目的模型文件 {torch} 和 {mindspore}，并求值损失函数表达式 "
        "{torch_loss} 和 {mindspore_loss}（由 {config} 指定）。是否运行？",
    ),
    "lsp.compare.declined": (
        "The comparison {name} did not run: running its models was not confirmed.",
        "比较 {name} 未运行：运行其模型未获确认。",
    ),
    "lsp.compare.python_confirm": (
        "The model comparison will run the interpreter {python} (from the setting msmigrate.pythonPath) to "
        "import torch, MindSpore and the models. Run it?",
        "模型比较将运行解释器 {python}（来自设置 msmigrate.pythonPath）来导入 torch、MindSpore 和模型。"
        "是否运行？",
    ),
    "lsp.compare.python_declined": (
        "The comparison did not run: the interpreter {python} was not confirmed.",
        "比较未运行：解释器 {python} 未获确认。",
    ),
}
