"""Messages of ``msmigrate convert-weights`` and its workers: ``weights.*``."""

MESSAGES: dict[str, tuple[str, str]] = {
    # input and output
    "weights.error.source_missing": ("{path}: no such file", "{path}：文件不存在"),
    "weights.error.source_not_file": ("{path} is not a file", "{path} 不是文件"),
    "weights.error.output_folder": (
        "the output folder {path} does not exist", "输出目录 {path} 不存在"),
    "weights.error.output_not_file": (
        "{path} exists and is not a regular file (a folder, symlink or device): refused, nothing written",
        "{path} 已存在且不是普通文件（目录、符号链接或设备）：拒绝写入，未写任何内容"),
    "weights.error.output_is_source": (
        "the output {path} is the input file: choose another name",
        "输出 {path} 就是输入文件：请换一个文件名"),
    "weights.error.format": (
        "unknown format {format}: ckpt or safetensors", "未知格式 {format}：可选 ckpt 或 safetensors"),
    "weights.error.suffix": (
        "mindspore.load_checkpoint reads a {format} checkpoint only from a file named *.{format}: name the "
        "output {suggest}",
        "mindspore.load_checkpoint 只读取文件名为 *.{format} 的 {format} 检查点：请将输出命名为 {suggest}"),
    # the checkpoint
    "weights.error.pickled_object": (
        "{path} holds a pickled object of class {name}, not only tensors: refused, nothing of it was run. "
        "msmigrate loads weights only and never runs code from a checkpoint. Where the file is trusted, save "
        "the weights alone (torch.save(model.state_dict(), path)); if the state dict is one entry of the "
        "file, that entry must hold tensors only",
        "{path} 含有类 {name} 的 pickle 对象，而不只是张量：已拒绝，其中的任何内容都未执行。"
        "msmigrate 只加载权重，从不执行检查点中的代码。请在可信环境中只保存权重"
        "（torch.save(model.state_dict(), path)）；若 state dict "
        "只是文件中的一项，该项必须只含张量"),
    "weights.error.pickled_code": (
        "{path} holds pickled instructions that weights-only loading refuses (an object or a function call, "
        "not tensors): refused, nothing of it was run. Where the file is trusted, save the weights alone "
        "(torch.save(model.state_dict(), path))",
        "{path} 含有仅权重加载所拒绝的 pickle 指令（对象或函数调用，而非张量）："
        "已拒绝，其中的任何内容都未执行。"
        "请在可信环境中只保存权重（torch.save(model.state_dict(), path)）"),
    "weights.error.unreadable": (
        "{path} cannot be read as a torch checkpoint or a safetensors file: {detail}",
        "{path} 无法作为 torch 检查点或 safetensors 文件读取：{detail}"),
    "weights.error.bad_safetensors": (
        "{path} is not a well-formed safetensors file ({detail})",
        "{path} 不是格式正确的 safetensors 文件（{detail}）"),
    "weights.error.no_key": (
        "the checkpoint has no entry {key}; its entries: {keys}", "检查点中没有条目 {key}；现有条目：{keys}"),
    "weights.error.not_state_dict": (
        "the checkpoint holds no tensors by name (found {kind}); name the entry holding the state dict "
        "with --key (for example --key model/state_dict)",
        "检查点中没有按名称存放的张量（找到的是 {kind}）；请用 --key 指定存放 state dict 的条目（例如 "
        "--key model/state_dict）"),
    "weights.error.quantized": (
        "{name} is a quantized tensor: quantized checkpoints are not converted",
        "{name} 是量化张量：不转换量化检查点"),
    # the model
    "weights.error.model_spec": (
        "a model is named path/to/file.py:expression (for example models/net.py:Net(num_classes=10)), "
        "not {spec}",
        "模型的写法是 path/to/file.py:表达式（例如 models/net.py:Net(num_classes=10)），而不是 {spec}"),
    "weights.error.model_missing": ("model file {path} does not exist", "模型文件 {path} 不存在"),
    "weights.error.model_import": (
        "importing {path} failed at {where}: {detail}", "导入 {path} 失败，位置 {where}：{detail}"),
    "weights.error.model_imports_torch": (
        "{path} still imports {name} (at {where}): the migrated model runs where torch cannot be imported; "
        "run msmigrate fix on it first",
        "{path} 仍然导入 {name}（位置 {where}）：迁移后的模型在无法导入 torch 的环境中运行；"
        "请先对它运行 msmigrate fix"),
    "weights.error.model_constructor": (
        "{expr} raised at {where}: {detail}", "{expr} 在 {where} 处抛出异常：{detail}"),
    "weights.error.not_cell": (
        "{expr} gives a {kind}, not a mindspore.nn.Cell", "{expr} 得到的是 {kind}，而不是 mindspore.nn.Cell"),
    "weights.error.not_module": (
        "{expr} gives a {kind}, not a torch.nn.Module", "{expr} 得到的是 {kind}，而不是 torch.nn.Module"),
    # writing
    "weights.error.write": (
        "writing {path} failed: {detail}; nothing written", "写入 {path} 失败：{detail}；未写任何内容"),
    "weights.error.verify": (
        "the checkpoint written did not read back as planned ({detail}); nothing written",
        "写出的检查点读回后与计划不符（{detail}）；未写任何内容"),
    # workers
    "weights.error.missing_framework": (
        "{name} is needed here and cannot be imported by the worker's Python: {detail}",
        "此处需要 {name}，但工作进程的 Python 无法导入它：{detail}"),
    "weights.error.timeout": (
        "the {side} worker gave no answer within {seconds} s and was stopped (a large model may need a "
        "longer --timeout)",
        "{side} 工作进程在 {seconds} 秒内没有应答，已被终止（大模型可能需要更长的 --timeout）"),
    "weights.error.worker_crash": (
        "the {side} worker ended unexpectedly ({detail})", "{side} 工作进程意外退出（{detail}）"),
    "weights.error.worker_start": (
        "the {side} worker could not start ({detail})", "{side} 工作进程无法启动（{detail}）"),
    "weights.error.bad_reply": (
        "the {side} worker answered something unexpected ({detail})",
        "{side} 工作进程的应答不符合预期（{detail}）"),
    "weights.error.memory": (
        "the worker ran out of memory ({detail}); raise --memory-mb",
        "工作进程内存不足（{detail}）；请增大 --memory-mb"),
    "weights.error.internal": ("internal error in the worker: {detail}", "工作进程内部错误：{detail}"),
    "weights.error.bad_request": ("internal error: {detail}", "内部错误：{detail}"),
    # progress
    "weights.step.read": ("Reading the checkpoint …", "正在读取检查点 …"),
    "weights.step.model": ("Building the migrated model …", "正在构建迁移后的模型 …"),
    "weights.step.write": ("Writing the MindSpore checkpoint …", "正在写入 MindSpore 检查点 …"),
    # report
    "weights.report.read": ("Read {path}: {count} tensors ({format}{where})",
                            "已读取 {path}：{count} 个张量（{format}{where}）"),
    "weights.report.format.torch": ("torch checkpoint, weights-only loading", "torch 检查点，仅权重加载"),
    "weights.report.format.safetensors": ("safetensors", "safetensors"),
    "weights.report.under": (", entry {key}", "，条目 {key}"),
    "weights.report.ignored": ("left out, not tensors: {names}", "未使用（不是张量）：{names}"),
    "weights.report.prefix": ("name prefix removed: {removed}; added: {added}",
                              "名称前缀：去掉 {removed}；加上 {added}"),
    "weights.report.model": ("Names and shapes checked against the model {model}:",
                             "已按模型 {model} 核对名称和形状："),
    "weights.report.no_model": (
        "No --model: names follow the state dict (a BatchNorm's become mindspore.nn's gamma, beta, "
        "moving_mean, moving_variance); pass --model to check every name and shape against the migrated "
        "model:",
        "未指定 --model：名称沿用 state dict（BatchNorm 的参数改为 mindspore.nn 的 gamma、beta、moving_mean、"
        "moving_variance）；指定 --model 可按迁移后的模型核对每个名称和形状："),
    "weights.col.torch": ("torch", "torch"),
    "weights.col.mindspore": ("MindSpore", "MindSpore"),
    "weights.col.shape": ("shape", "形状"),
    "weights.col.note": ("note", "说明"),
    "weights.note.renamed": ("renamed ({cls})", "已改名（{cls}）"),
    "weights.note.insert_axis": ("axis {axis} of size 1 added", "增加了大小为 1 的第 {axis} 维"),
    "weights.note.reshape": ("reshaped from {shape}", "由 {shape} 变形"),
    "weights.note.dropped": ("dropped: {why}", "已舍弃：{why}"),
    "weights.dropped.step_counter": ("a step counter MindSpore does not keep", "MindSpore 不保存的步数计数"),
    "weights.dropped.tied": ("tied to another tensor the model holds once",
                             "与另一张量共享，模型中只保存一份"),
    "weights.note.unused": ("no parameter of the model takes it", "模型中没有对应的参数"),
    "weights.note.missing": ("no torch value ({cls})", "没有对应的 torch 值（{cls}）"),
    "weights.note.kept_initial": ("keeps its initial value: torch keeps none ({cls})",
                                  "保持初始值：torch 没有该值（{cls}）"),
    "weights.note.mismatch": ("torch shape {torch_shape}, model shape {shape}",
                              "torch 形状 {torch_shape}，模型形状 {shape}"),
    "weights.note.transposed": (
        "torch shape {torch_shape}, model shape {shape}: transposed; the migrated code lays this weight "
        "out otherwise than torch",
        "torch 形状 {torch_shape}，模型形状 {shape}：互为转置；迁移后的代码对该权重的布局与 torch 不同"),
    "weights.group.renamed": ("renamed for {cls}: {pairs}", "按 {cls} 改名：{pairs}"),
    "weights.group.layout": ("{note}: {count} parameters", "{note}：{count} 个参数"),
    "weights.group.dropped": ("dropped {name} ×{count}: {why}", "舍弃 {name} ×{count}：{why}"),
    "weights.report.summary": (
        "{assigned} parameters converted ({renamed} renamed, {relaid} re-laid out); {dropped} dropped, "
        "{unused} unused, {missing} without a value, {mismatched} of another shape",
        "已转换 {assigned} 个参数（{renamed} 个改名，{relaid} 个调整布局）；"
        "舍弃 {dropped} 个，未使用 {unused} 个，"
        "缺少值 {missing} 个，形状不符 {mismatched} 个"),
    "weights.report.written": ("Wrote {path} (MindSpore {format}, {count} parameters).",
                               "已写入 {path}（MindSpore {format}，{count} 个参数）。"),
    "weights.report.not_written": ("Nothing written: {why}.", "未写任何内容：{why}。"),
    "weights.why.incomplete": (
        "some parameters of the model get no value or one of another shape (above)",
        "模型的部分参数没有取到值或形状不符（见上）"),
    "weights.why.unused": (
        "some torch tensors have no parameter in the model (above); --allow-unused writes anyway",
        "部分 torch 张量在模型中没有对应参数（见上）；使用 --allow-unused 仍可写入"),
    "weights.report.error": ("Error: {message}", "错误：{message}"),
    # command-line help
    "weights.help.command": (
        "Convert a torch checkpoint (.pt/.pth state dict, weights-only loading; or .safetensors) into a "
        "MindSpore checkpoint, renaming parameters the MindSpore way and checking every shape",
        "将 torch 检查点（.pt/.pth state dict，仅权重加载；或 .safetensors）转换为 MindSpore 检查点：按 "
        "MindSpore 的方式重命名参数并核对每个形状"),
    "weights.help.output": ("the MindSpore checkpoint to write", "要写入的 MindSpore 检查点"),
    "weights.help.model": (
        "the migrated model, path/file.py:expression: its parameters_and_names() give the names and shapes "
        "(this imports and runs that file, in a worker process)",
        "迁移后的模型，写作 path/file.py:表达式：以其 parameters_and_names() 的名称和形状为准（会在工作进程中"
        "导入并运行该文件）"),
    "weights.help.format": ("ckpt (default) or safetensors; default from the output's suffix",
                            "ckpt（默认）或 safetensors；默认按输出文件后缀"),
    "weights.help.key": ("the entry holding the state dict (nested: model/state_dict); default: found",
                         "存放 state dict 的条目（嵌套写作 model/state_dict）；默认自动查找"),
    "weights.help.allow_unused": ("write even if some torch tensors have no parameter in the model",
                                  "即使部分 torch 张量在模型中没有对应参数也写入"),
    "weights.help.all": ("list every parameter, not only the renamed and the problems",
                         "列出全部参数，而不只是改名的和有问题的"),
    "weights.help.json": ("print the result as JSON", "以 JSON 输出结果"),
    "weights.help.python": ("interpreter of the worker processes (default: this one)",
                            "工作进程使用的解释器（默认：当前解释器）"),
    "weights.help.timeout": ("seconds per worker step", "每个工作进程步骤的秒数上限"),
    "weights.help.memory": ("address-space cap of a worker in MB (0: none; default 8 GB + 3× the file)",
                            "工作进程地址空间上限（MB；0 表示不限；默认 8 GB 加文件大小的 3 倍）"),
}
