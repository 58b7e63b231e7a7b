"""Messages of the operator-equivalence check (``msmigrate check``, code action, hover)."""

MESSAGES: dict[str, tuple[str, str]] = {
    # statuses
    "check.status.pass": ("pass", "通过"),
    "check.status.fail": ("fail", "不一致"),
    "check.status.error": ("error", "出错"),
    "check.status.skipped": ("skipped", "已跳过"),
    # reasons (values of msmigrate.check.result.Reason)
    "check.reason.value_mismatch": ("values differ beyond the tolerance", "数值差异超出容差"),
    "check.reason.shape_mismatch": ("output shapes differ", "输出形状不同"),
    "check.reason.dtype_mismatch": ("output dtypes differ", "输出数据类型不同"),
    "check.reason.nan_mismatch": ("NaN or Inf positions differ", "NaN 或 Inf 的位置不同"),
    "check.reason.output_structure": ("the number of outputs differs", "输出个数不同"),
    "check.reason.torch_error": ("the PyTorch call raised an exception", "PyTorch 调用抛出异常"),
    "check.reason.mindspore_error": ("the MindSpore call raised an exception", "MindSpore 调用抛出异常"),
    "check.reason.unsupported_on_device": (
        "the MindSpore kernel is not available on this device",
        "MindSpore 在该设备上没有对应算子实现",
    ),
    "check.reason.api_not_found": (
        "the API does not exist in the installed version",
        "已安装的版本中不存在该 API",
    ),
    "check.reason.param_copy": (
        "the module parameters could not be copied into the MindSpore cell",
        "无法把模块参数复制到 MindSpore Cell",
    ),
    "check.reason.missing_framework": ("a framework is not installed", "缺少深度学习框架"),
    "check.reason.device_unavailable": ("the device is not available", "设备不可用"),
    "check.reason.worker_crash": ("the check worker crashed", "检查进程崩溃"),
    "check.reason.worker_start": ("the check worker could not be started", "无法启动检查进程"),
    "check.reason.timeout": ("the check did not finish in time", "检查超时"),
    "check.reason.bad_request": ("the check request is invalid", "检查请求无效"),
    "check.reason.no_mapping": (
        "the mapping table names no MindSpore API",
        "映射表中没有对应的 MindSpore API",
    ),
    "check.reason.not_op": (
        "not a single operator (distributed, optimizer, data processing …)",
        "不是单个算子（分布式、优化器、数据处理等）",
    ),
    "check.reason.random": ("the output is random", "输出是随机的"),
    "check.reason.uninitialized": ("the output memory is uninitialized", "输出内存未初始化"),
    "check.reason.non_tensor_output": ("the output is not a tensor", "输出不是张量"),
    "check.reason.no_input_rule": ("no input spec for this API", "该 API 没有输入规格"),
    "check.reason.spec_skip": ("excluded by the input-spec table", "输入规格表中排除了该 API"),
    # result lines
    "check.result.line": ("{api} → {mindspore_api}: {status}", "{api} → {mindspore_api}：{status}"),
    "check.result.because": ("{status} ({reason})", "{status}（{reason}）"),
    "check.result.numbers": (
        "max abs error {max_abs}, max rel error {max_rel}, cosine similarity {cosine}",
        "最大绝对误差 {max_abs}，最大相对误差 {max_rel}，余弦相似度 {cosine}",
    ),
    "check.result.tolerance": ("tolerance rtol={rtol}, atol={atol}", "容差 rtol={rtol}，atol={atol}"),
    "check.result.first_mismatch": (
        "first mismatch at output {output}, index {index}",
        "首个不一致位置：输出 {output}，索引 {index}",
    ),
    "check.result.shapes": (
        "shapes torch {torch_shapes} / MindSpore {mindspore_shapes}, dtypes torch {torch_dtypes} / "
        "MindSpore {mindspore_dtypes}",
        "形状 torch {torch_shapes} / MindSpore {mindspore_shapes}，数据类型 torch {torch_dtypes} / "
        "MindSpore {mindspore_dtypes}",
    ),
    "check.result.detail": ("detail: {detail}", "详情：{detail}"),
    "check.result.versions": (
        "on {device} with MindSpore {mindspore_version} / torch {torch_version}",
        "设备 {device}，MindSpore {mindspore_version} / torch {torch_version}",
    ),
    "check.hint.missing_framework": (
        "{detail}. Install the check extra in the interpreter that runs the worker ({python}): "
        "pip install 'msmigrate[check]'  (or: pip install torch==2.13.0 mindspore==2.10.0)",
        "{detail}。请在运行检查进程的解释器（{python}）中安装检查依赖："
        "pip install 'msmigrate[check]'（或：pip install torch==2.13.0 mindspore==2.10.0）",
    ),
    "check.hint.device_unavailable": (
        "Device {detail}. Choose an available device in the msmigrate.device setting or with --device.",
        "设备 {detail}。请在 msmigrate.device 设置或 --device 选项中选择可用的设备。",
    ),
    "check.hint.timeout": (
        "No answer within {detail} s: the worker was stopped.",
        "{detail} 秒内没有结果：检查进程已被终止。",
    ),
    "check.hint.worker_crash": ("The worker process ended: {detail}", "检查进程意外退出：{detail}"),
    "check.hint.worker_start": (
        "Cannot start the worker interpreter {detail}; set msmigrate.pythonPath or --python.",
        "无法启动检查进程的解释器 {detail}；请设置 msmigrate.pythonPath 或 --python。",
    ),
    # verified tables (hover, reports)
    "check.verified.pass": (
        "verified on {device} with MindSpore {mindspore_version} / torch {torch_version}",
        "已在 {device} 上用 MindSpore {mindspore_version} / torch {torch_version} 验证一致",
    ),
    "check.verified.fail": (
        "equivalence check failed on {device} with MindSpore {mindspore_version} / torch {torch_version}: "
        "{reason}",
        "在 {device} 上用 MindSpore {mindspore_version} / torch {torch_version} 的等价性检查未通过：{reason}",
    ),
    "check.verified.error": (
        "could not be verified on {device} with MindSpore {mindspore_version} / torch {torch_version}: "
        "{reason}",
        "未能在 {device} 上用 MindSpore {mindspore_version} / torch {torch_version} 验证：{reason}",
    ),
    "check.verified.max_abs": ("max abs error {value}", "最大绝对误差 {value}"),
    "check.verified.skipped": ("not compared numerically: {reason}", "未做数值比对：{reason}"),
    # CLI
    "check.cli.no_api": (
        "Give one or more API names, or --all.",
        "请给出一个或多个 API 名称，或使用 --all。",
    ),
    "check.cli.wrote": ("Wrote {path}", "已写入 {path}"),
    "check.cli.summary": (
        "{passed} pass, {failed} fail, {errors} error, {skipped} skipped",
        "{passed} 个通过，{failed} 个不一致，{errors} 个出错，{skipped} 个跳过",
    ),
    "check.cli.progress": ("[{done}/{total}] {api}: {status}", "[{done}/{total}] {api}：{status}"),
    "check.cli.unknown_api": (
        "{api} is not in the MindSpore {version} mapping table",
        "{api} 不在 MindSpore {version} 映射表中",
    ),
    "check.cli.suggestions": ("did you mean: {names}?", "你是否要找：{names}？"),
    "check.cli.bad_override": (
        "Cannot read the mapping override {path}: {detail}",
        "无法读取映射覆盖文件 {path}：{detail}",
    ),
    # language server
    "check.action.title": (
        "Check equivalence with MindSpore on {device}",
        "在 {device} 上检查与 MindSpore 的等价性",
    ),
    "check.progress.title": ("Checking {api} on {device}", "正在 {device} 上检查 {api}"),
    "check.lsp.no_api": (
        "msmigrate.checkEquivalence needs a torch API name",
        "msmigrate.checkEquivalence 需要一个 torch API 名称",
    ),
    "check.lsp.related": ("equivalence check: {summary}", "等价性检查：{summary}"),
}
