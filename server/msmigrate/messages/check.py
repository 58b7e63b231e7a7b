"""Messages of the operator-equivalence check (``msmigrate check``, code action, hover)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "check.numpy_unusable": (
        "Warning: {python} has NumPy {numpy}, which MindSpore {mindspore} cannot use (its NumPy bridge is "
        "built for NumPy 1.x): the first Tensor operations of a process may fail there, so results may "
        "show false failures, and so may your migrated program. Install NumPy 1.x in that environment: "
        "pip install \"numpy>=1.25,<2\" (the check extra of msmigrate pins it).",
        "警告：{python} 中的 NumPy 版本为 {numpy}，MindSpore {mindspore} 无法使用（其 NumPy 接口按 NumPy 1.x "
        "构建）：进程中最初的几次 Tensor 运算可能失败，因此检查结果可能出现误报的失败，迁移后的程序也一样。"
        "请在该环境中安装 NumPy 1.x：pip install \"numpy>=1.25,<2\""
        "（msmigrate 的 check 附加依赖已限定该版本）。",
    ),
    "check.python.not_absolute": (
        "msmigrate.pythonPath {python!r} is not used: give the absolute path of a Python interpreter.",
        "未使用 msmigrate.pythonPath {python!r}：请填写 Python 解释器的绝对路径。",
    ),
    "check.python.not_python": (
        "msmigrate.pythonPath {python!r} is not used: its name is not that of a Python interpreter "
        "(python, python3, python3.11, python.exe …).",
        "未使用 msmigrate.pythonPath {python!r}：其文件名不是 Python 解释器的名称"
        "（python、python3、python3.11、python.exe 等）。",
    ),
    "check.python.missing": (
        "msmigrate.pythonPath {python!r} is not used: there is no such file.",
        "未使用 msmigrate.pythonPath {python!r}：该文件不存在。",
    ),
    "check.python.not_executable": (
        "msmigrate.pythonPath {python!r} is not used: the file is not executable.",
        "未使用 msmigrate.pythonPath {python!r}：该文件不可执行。",
    ),
    "check.python.confirm": (
        "The equivalence check will run the interpreter {python} (from the setting msmigrate.pythonPath) "
        "to execute torch and MindSpore operators. Run it?",
        "等价性检查将运行解释器 {python}（来自设置 msmigrate.pythonPath）来执行 torch 与 MindSpore "
        "算子。是否运行？",
    ),
    "check.python.run": ("Run it", "运行"),
    "check.python.cancel": ("Don't run", "不运行"),
    "check.python.declined": (
        "The equivalence check did not run: the interpreter {python} was not confirmed.",
        "未运行等价性检查：解释器 {python} 未获确认。",
    ),
    # statuses
    "check.status.pass": ("pass", "通过"),
    "check.status.fail": ("fail", "不一致"),
    "check.status.error": ("error", "出错"),
    "check.status.skipped": ("skipped", "已跳过"),
    # reasons (values of msmigrate.knowledge.check_result.Reason)
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
    "check.reason.member_kind": (
        "a method in PyTorch is a property in MindSpore: no rewrite of the call reads it",
        "PyTorch 中的方法在 MindSpore 中是属性：改写调用无法读取它",
    ),
    "check.reason.parameter_names": (
        "the MindSpore container registers its layers' parameters under other names than PyTorch's (weights "
        "saved from PyTorch would not load by name)",
        "MindSpore 容器登记各层参数所用的名称与 PyTorch 不同（按名称加载时，PyTorch 保存的权重无法载入）",
    ),
    "check.reason.no_effect": (
        "the MindSpore call runs without error on this device but changes nothing (the weights stay as they "
        "were where PyTorch's optimizer step updates them)",
        "MindSpore 调用在该设备上不报错，但没有任何效果"
        "（PyTorch 的优化器步骤会更新权重，而这里权重保持不变）",
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
    "check.reason.memory_limit": ("the check ran out of its memory limit", "检查超出了内存上限"),
    "check.reason.bad_request": ("the check request is invalid", "检查请求无效"),
    "check.reason.bad_reply": ("the check worker sent an invalid reply", "检查进程返回了无效的应答"),
    "check.reason.no_mapping": (
        "the mapping table names no MindSpore API",
        "映射表中没有对应的 MindSpore API",
    ),
    "check.reason.not_op": (
        "not a single operator (distributed, learning-rate scheduler, data processing …)",
        "不是单个算子（分布式、学习率调度器、数据处理等）",
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
    "check.result.result_form": (
        "MindSpore's result compared in torch's form, as the fix writes it: {written}",
        "MindSpore 的结果按修复的写法转换为 torch 的形式后比较：{written}",
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
    "check.verified.pass_formed": (
        "verified on {device} with MindSpore {mindspore_version} / torch {torch_version}, with MindSpore's "
        "result converted to torch's form as the fix writes it",
        "已在 {device} 上用 MindSpore {mindspore_version} / torch {torch_version} 验证一致（MindSpore 的结果"
        "按修复的写法转换为 torch 的形式）",
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
    # notes of the input-spec table (findings recorded per API pair)
    "check.note.bincount_float_output": (
        "MindSpore returns float32 counts where torch returns int64",
        "MindSpore 返回 float32 计数，torch 返回 int64",
    ),
    "check.note.bool_tensor_result": (
        "MindSpore returns a bool tensor of shape () where torch returns a Python bool",
        "MindSpore 返回形状为 () 的布尔张量，torch 返回 Python bool",
    ),
    "check.note.class_as_partial": (
        "the torch module's instance is the MindSpore function with the constructor's arguments bound by "
        "keyword (the fix writes functools.partial); checked by calling the function with the module's "
        "input first",
        "torch 模块实例即以关键字绑定构造参数的 MindSpore 函数（修复写为 functools.partial）；检查时以模块"
        "输入为第一个参数调用该函数",
    ),
    "check.note.output_shape_primitive": (
        "the MindSpore Primitive is built from the call's numbers and called with its tensors and the output "
        "shape torch computes (the fix writes that shape)",
        "MindSpore 原语以调用中的数值构造，并以其张量及 torch 计算出的输出形状调用（修复会写出该形状）",
    ),
    "check.note.class_to_function": (
        "the table maps the torch layer to a MindSpore function; checked by calling the function",
        "映射表把 torch 层映射到 MindSpore 函数；检查时直接调用该函数",
    ),
    "check.note.composite_layer": (
        "composite layer: parameter layouts differ, not compared",
        "复合层：参数布局不同，未比对",
    ),
    "check.note.conv_pad_mode_bias": (
        "MindSpore defaults to pad_mode='same' and no bias; checked with pad_mode='valid', has_bias=True",
        "MindSpore 默认 pad_mode='same' 且无偏置；检查时使用 pad_mode='valid'、has_bias=True",
    ),
    "check.note.constructor_arguments": (
        "the layer needs constructor arguments and the spec table has none",
        "该层需要构造参数，输入规格表中没有提供",
    ),
    "check.note.required_parameter": (
        "no generic input rule for the required parameter {name}",
        "必需参数 {name} 没有通用的输入规则",
    ),
    "check.note.ctc_inputs": (
        "CTC inputs need consistent lengths; not generated",
        "CTC 输入需要一致的长度，未生成",
    ),
    "check.note.diag_semantics": (
        "for a 2-D input MindSpore builds a diagonal tensor instead of extracting the diagonal",
        "对二维输入，MindSpore 构造对角张量而不是提取对角线",
    ),
    "check.note.eigenvalue_order": (
        "neither API defines the order of the eigenvalues; they are compared sorted",
        "两个 API 都不规定特征值的顺序；排序后比较",
    ),
    "check.note.read_as_property": (
        "checked as the fix writes it: x.size(1) read as x.shape[1] (x.size() as x.shape)",
        "按修复的写法检查：x.size(1) 读作 x.shape[1]（x.size() 读作 x.shape）",
    ),
    "check.note.value_of_class": (
        "the instance built from the tensor is the value compared (it is not called)",
        "比较由张量构造出的实例本身的值（不调用该实例）",
    ),
    "check.note.eval_identity": (
        "checked in inference mode (training=False), where dropout is the identity",
        "在推理模式（training=False）下检查，此时 dropout 为恒等映射",
    ),
    "check.note.flatten_start_dim": (
        "MindSpore defaults to start_dim=1; checked with start_dim=0",
        "MindSpore 默认 start_dim=1；检查时使用 start_dim=0",
    ),
    "check.note.fold_output_size_tensor": (
        "MindSpore takes output_size as an int32 tensor",
        "MindSpore 的 output_size 需要 int32 张量",
    ),
    "check.note.full_dtype_inference": (
        "without dtype MindSpore infers an integer dtype from the size and truncates a float fill value",
        "不指定 dtype 时 MindSpore 推断为整数类型，浮点填充值被截断",
    ),
    "check.note.gelu_approximate": (
        "MindSpore defaults to the tanh approximation; checked with approximate=False",
        "MindSpore 默认使用 tanh 近似；检查时使用 approximate=False",
    ),
    "check.note.int32_index_required": (
        "MindSpore accepts only int32 index tensors here; int64 indices raise a TypeError",
        "此处 MindSpore 只接受 int32 索引张量，int64 索引会抛出 TypeError",
    ),
    "check.note.int32_default_int": (
        "values agree; MindSpore infers int32 from a Python int where torch infers int64",
        "数值一致；MindSpore 由 Python int 推断为 int32，torch 推断为 int64",
    ),
    "check.note.int32_labels_call_form": (
        "MindSpore's nn.CrossEntropyLoss takes class-index labels as int32 only (int64 raises a TypeError); "
        "it is checked with int32 labels, as the fix writes them at the instance's calls (labels.int())",
        "MindSpore 的 nn.CrossEntropyLoss 只接受 int32 类别索引标签（int64 会抛出 TypeError）；"
        "检查时使用 int32 标签，与修复在该实例调用处写出的形式（labels.int()）一致",
    ),
    "check.note.int32_indices": (
        "values agree; MindSpore returns int32 indices where torch returns int64",
        "数值一致；MindSpore 返回 int32 索引，torch 返回 int64",
    ),
    "check.note.layernorm_epsilon": (
        "MindSpore defaults to epsilon=1e-7; checked with epsilon=1e-5",
        "MindSpore 默认 epsilon=1e-7；检查时使用 epsilon=1e-5",
    ),
    "check.note.loss_reduction_default": (
        "MindSpore defaults to reduction='none'; checked with reduction='mean'",
        "MindSpore 默认 reduction='none'；检查时使用 reduction='mean'",
    ),
    "check.note.lrn_parameters": (
        "LRN parameters (depth_radius, bias, alpha, beta) do not correspond one to one",
        "LRN 的参数（depth_radius、bias、alpha、beta）与 torch 不一一对应",
    ),
    "check.note.ms_api_removed": (
        "the MindSpore API named by the table does not exist in the installed MindSpore",
        "映射表给出的 MindSpore API 在已安装的 MindSpore 中不存在",
    ),
    "check.note.ms_eval_dropout2d": (
        "MindSpore raises for training=False on CPU",
        "在 CPU 上 training=False 时 MindSpore 抛出异常",
    ),
    "check.note.ms_property_error": (
        "the MindSpore property raises on CPU",
        "该 MindSpore 属性在 CPU 上抛出异常",
    ),
    "check.note.multiples_tuple": (
        "MindSpore takes the repeats as one tuple",
        "MindSpore 以一个元组接收重复次数",
    ),
    "check.note.cuda_only": (
        "needs CUDA (torch has no CPU kernel for it, or it selects a CUDA device); not run",
        "需要 CUDA（torch 没有它的 CPU 内核，或它选择 CUDA 设备），未运行",
    ),
    "check.note.needs_callable": (
        "needs a Python function (hook, closure) or an autograd graph as input; not generated",
        "需要 Python 函数（钩子、闭包）或自动微分图作为输入，未生成",
    ),
    "check.note.needs_instance": (
        "needs an nn.Module or Optimizer instance (its method, or a module argument); input specs build none",
        "需要 nn.Module 或 Optimizer 实例（其方法或模块参数），输入规格不构造实例",
    ),
    "check.note.needs_process_group": (
        "needs an initialized distributed process group (several processes); not run in one process",
        "需要已初始化的分布式进程组（多个进程），不在单个进程中运行",
    ),
    "check.note.needs_factorization": (
        "inputs must come from a matrix factorization; not generated",
        "输入必须来自矩阵分解结果，未生成",
    ),
    "check.note.batch_norm_argument_order": (
        "MindSpore takes (input_x, running_mean, running_var, weight, bias, ...), torch (input, weight, "
        "bias, running_mean, running_var, ...) and cudnn_enabled; arguments reordered, cudnn_enabled left "
        "out",
        "MindSpore 的参数顺序为 (input_x, running_mean, running_var, weight, bias, ...)，torch 为 "
        "(input, weight, bias, running_mean, running_var, ...) 并有 cudnn_enabled；已调整顺序，"
        "省略 cudnn_enabled",
    ),
    "check.note.lu_solve_argument_order": (
        "MindSpore takes (b, LU_data, LU_pivots), torch (LU, pivots, B); arguments reordered",
        "MindSpore 的参数顺序为 (b, LU_data, LU_pivots)，torch 为 (LU, pivots, B)；已调整顺序",
    ),
    "check.note.order_as_tensor": ("MindSpore takes the order n as a tensor", "MindSpore 的阶数 n 需要张量"),
    "check.note.pool_stride_default": (
        "MindSpore defaults to stride=1; checked with stride equal to the kernel size",
        "MindSpore 默认 stride=1；检查时 stride 取核大小",
    ),
    "check.note.range_end": (
        "torch.range includes the end value, MindSpore excludes it",
        "torch.range 包含终点，MindSpore 不包含",
    ),
    "check.note.returns_indices": (
        "MindSpore also returns the indices; the values are compared",
        "MindSpore 还返回索引；只比较数值",
    ),
    "check.note.scatter_argument_order": (
        "MindSpore takes (input, indices, updates, axis); arguments reordered",
        "MindSpore 的参数顺序为 (input, indices, updates, axis)；已调整顺序",
    ),
    "check.note.singular_vectors_sign": (
        "singular vectors are unique only up to sign; singular values are compared",
        "奇异向量只在符号意义下唯一；只比较奇异值",
    ),
    "check.note.svd_output_order": (
        "MindSpore returns (s, u, v), torch (U, S, V); singular values are compared",
        "MindSpore 返回 (s, u, v)，torch 返回 (U, S, V)；只比较奇异值",
    ),
    "check.note.tensor_dot_axes": (
        "the table maps to tensor_dot, which needs axes; checked with axes=1",
        "映射表对应 tensor_dot，需要 axes 参数；检查时 axes=1",
    ),
    "check.note.torch_name_typo": (
        "the table names a torch API that does not exist (a typo in the official table)",
        "映射表给出的 torch API 不存在（官方表中的笔误）",
    ),
    "check.note.unbiased_default": (
        "MindSpore defaults to ddof=0 (biased); checked with ddof=1",
        "MindSpore 默认 ddof=0（有偏）；检查时使用 ddof=1",
    ),
    "check.note.unfold_signature": (
        "MindSpore Unfold takes ksizes/strides/rates and another output layout",
        "MindSpore Unfold 使用 ksizes/strides/rates 参数，输出布局也不同",
    ),
    "check.note.random_int32_indices": (
        "values are random (only shapes and dtypes are compared); MindSpore returns int32 indices where "
        "torch returns int64",
        "数值是随机的（只比较形状和数据类型）；MindSpore 返回 int32 索引，torch 返回 int64",
    ),
    "check.note.random_values": (
        "values are random; only shapes and dtypes are compared",
        "数值是随机的；只比较形状和数据类型",
    ),
    "check.note.rrelu_eval_slope": (
        "in inference mode torch uses the mean slope (lower + upper) / 2; MindSpore's nn.RReLU draws random "
        "slopes in both modes",
        "推理模式下 torch 使用平均斜率 (lower + upper) / 2；MindSpore 的 nn.RReLU 在两种模式下都随机取斜率",
    ),
    "check.note.random_state_program": (
        "used through the random state: a program seeds (or saves the state), draws, seeds again and draws "
        "again, and compares the two draws",
        "通过随机状态使用：程序先设置种子（或保存状态）并取随机数，再次设置后重取，比较两次结果",
    ),
    "check.note.default_generator_cpu": (
        "a program seeds (or saves the random state), draws, seeds again and draws again; on CPU, MindSpore "
        "2.10's random operators with a CPU kernel (ops.rand …) follow mindspore.set_seed, not the default "
        "generator that manual_seed, seed and set_rng_state drive, so the two draws differ",
        "程序先设置种子（或保存随机状态）并取随机数，再次设置后重取；在 CPU 上，MindSpore 2.10 中有 CPU "
        "内核的随机算子（ops.rand 等）遵循 mindspore.set_seed，而非 manual_seed、seed 与 set_rng_state "
        "所驱动的默认生成器，因此两次结果不同",
    ),
    "check.note.module_program": (
        "a method of a module instance: a program builds a small network and calls it there",
        "模块实例的方法：程序构建一个小网络并在其上调用",
    ),
    "check.note.uninitialized_values": (
        "values are uninitialized; only shapes and dtypes are compared",
        "数值未初始化；只比较形状和数据类型",
    ),
    "check.note.unique_order": (
        "MindSpore also returns the indices and does not sort the unique values",
        "MindSpore 还返回索引，且不对去重结果排序",
    ),
    "check.note.window_float64_output": (
        "MindSpore returns float64 where torch returns float32",
        "MindSpore 返回 float64，torch 返回 float32",
    ),
    "check.note.window_length_tensor": (
        "MindSpore takes window_length as a tensor",
        "MindSpore 的 window_length 需要张量",
    ),
}
