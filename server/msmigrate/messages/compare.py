"""Messages of ``msmigrate compare``: ``compare.*``."""

MESSAGES: dict[str, tuple[str, str]] = {
    # errors
    "compare.error.config": ("{where}: {detail}", "{where}：{detail}"),
    "compare.error.input_syntax": (
        "{where}: the input {text} is not understood at {part}; an input is a tensor dtype[shape] such as "
        "f32[2, 3] or i64[2, 7](0, 10), a tuple, list or dict of them, or None, optionally NAME= in front "
        "(e.g. points=(f32[1, 2, 2], i64[1, 2]), boxes=None)",
        "{where}：无法理解输入 {text}，问题在 {part}；输入可以是写作 dtype[shape] 的张量（如 f32[2, 3] 或 "
        "i64[2, 7](0, 10)）、由它们组成的元组、列表或字典，或 None，前面可加 NAME=（例如 "
        "points=(f32[1, 2, 2], i64[1, 2])、boxes=None）"),
    "compare.error.input_dtype": (
        "{where}: in the input {text}, {part} is not a dtype; use one of f32 f16 f64 bf16 i64 i32 i16 i8 u8 "
        "bool (or float32, int64, ...)",
        "{where}：输入 {text} 中的 {part} 不是数据类型；请使用 f32 f16 f64 bf16 i64 i32 i16 i8 u8 bool 之一"
        "（或 float32、int64 等）"),
    "compare.error.input_shape": (
        "{where}: in the input {text}, {part} has no valid shape; write the shape in brackets as "
        "non-negative integers, e.g. f32[1, 2, 2] (f32[()] for a scalar)",
        "{where}：输入 {text} 中的 {part} 没有有效的形状；请在方括号中写出非负整数形状，例如 f32[1, 2, 2]"
        "（标量写作 f32[()]）"),
    "compare.error.input_range": (
        "{where}: in the input {text}, {part} is not a valid range; write (LOW, HIGH) with numbers "
        "LOW < HIGH, optionally ms=DTYPE for the dtype MindSpore gets, e.g. i64[2, 7](0, 10, ms=i32)",
        "{where}：输入 {text} 中的 {part} 不是有效的取值范围；请写作 (LOW, HIGH)，且 LOW < HIGH，可加 "
        "ms=DTYPE 指定 MindSpore 使用的数据类型，例如 i64[2, 7](0, 10, ms=i32)"),
    "compare.error.input_twice": (
        "comparison {comparison}: the keyword {name} is given twice (by two inputs, or by an input "
        "and a constant keyword argument)",
        "比较 {comparison}：关键字 {name} 被给出了两次（两个输入，或一个输入和一个常量关键字参数）"),
    "compare.error.no_config": (
        "nothing to compare: give --torch, --mindspore and --input, or add [[tool.msmigrate.compare]] to "
        "pyproject.toml (none found from {path} up)",
        "没有可比较的内容：请提供 --torch、--mindspore 和 --input，或在 pyproject.toml 中添加 "
        "[[tool.msmigrate.compare]]（从 {path} 向上未找到）"),
    "compare.error.unknown_name": (
        "no comparison named {name} in {path}; there are: {names}",
        "{path} 中没有名为 {name} 的比较；现有：{names}"),
    "compare.error.loss": ("the loss {expr} cannot be built: {detail}", "无法构建损失函数 {expr}：{detail}"),
    "compare.error.torch_checkpoint": (
        "the torch model does not take the checkpoint {path}: {detail}",
        "torch 模型无法加载检查点 {path}：{detail}"),
    "compare.error.torch_run": ("the torch model failed at {where}: {detail}",
                                "torch 模型运行失败，位置 {where}：{detail}"),
    "compare.error.mindspore_run": ("the migrated model failed at {where}: {detail}",
                                    "迁移后的模型运行失败，位置 {where}：{detail}"),
    "compare.error.mindspore_train": ("the training step of the migrated model failed at {where}: {detail}",
                                      "迁移后模型的训练步骤失败，位置 {where}：{detail}"),
    "compare.error.conversion": (
        "the torch weights do not convert to the migrated model ({missing} parameters without a value, "
        "{mismatched} of another shape, {unused} torch tensors unused; see the conversion in --json or run "
        "msmigrate convert-weights --model)",
        "torch 权重无法转换到迁移后的模型（{missing} 个参数缺少值，{mismatched} 个形状不符，"
        "{unused} 个 torch "
        "张量未使用；详见 --json 中的 conversion，或运行 msmigrate convert-weights --model）"),
    "compare.error.cancelled": ("the comparison was cancelled", "比较已取消"),
    # progress
    "compare.step.torch": ("Running the torch model …", "正在运行 torch 模型 …"),
    "compare.step.convert": ("Converting its weights to the migrated model …",
                             "正在将其权重转换到迁移后的模型 …"),
    "compare.step.pynative": ("Running the migrated model in PyNative mode …",
                              "正在以 PyNative 模式运行迁移后的模型 …"),
    "compare.step.graph": ("Running the migrated model in GRAPH_MODE …",
                           "正在以 GRAPH_MODE 运行迁移后的模型 …"),
    # report
    "compare.report.head": ("Compare {name}: torch {torch}  ↔  MindSpore {mindspore}",
                            "比较 {name}：torch {torch}  ↔  MindSpore {mindspore}"),
    "compare.report.setup": ("weights: {weights}; inputs: {inputs}; eval mode; rtol {rtol}, atol {atol}",
                             "权重：{weights}；输入：{inputs}；eval 模式；rtol {rtol}，atol {atol}"),
    "compare.report.checkpoint": ("{path}, converted", "{path}，已转换"),
    "compare.report.initial": (
        "the torch model's initial ones (seeded; normalization statistics randomized), converted",
        "torch 模型的初始权重（固定种子；归一化统计量随机化），已转换"),
    "compare.report.converted": (
        "conversion: {count} parameters ({renamed} renamed), {dropped} torch entries dropped",
        "转换：{count} 个参数（{renamed} 个改名），舍弃 {dropped} 个 torch 条目"),
    "compare.report.outputs": ("{mode}: outputs {status} (max abs error {max_abs}, max rel error {max_rel})",
                               "{mode}：输出{status}（最大绝对误差 {max_abs}，最大相对误差 {max_rel}）"),
    "compare.status.match": ("match", "一致"),
    "compare.status.diverge": ("DIFFER", "不一致"),
    "compare.status.missing": ("missing in MindSpore", "MindSpore 中缺失"),
    "compare.status.accumulated": ("from its input", "来自输入的误差"),
    "compare.status.unchecked": ("differs, not checked alone", "不一致，未单独检查"),
    "compare.status.downstream": ("differs, after the first", "不一致，在第一个之后"),
    "compare.status.None": ("-", "-"),
    "compare.report.alone_status": ("{status} (alone {max_abs})", "{status}（单独 {max_abs}）"),
    "compare.report.layers": (
        "{count} layer outputs compared: {diverging} differ in the whole model, {missing} have no MindSpore "
        "cell of that name",
        "比较了 {count} 个层输出：{diverging} 个在整个模型中不一致，{missing} 个没有同名的 MindSpore Cell"),
    "compare.report.accumulated": (
        "{count} of them differ only through their input (float32 rounding carried from earlier layers, "
        "not a divergence): run alone on torch's input of that call, each is within the tolerance: {layers}",
        "其中 {count} 个仅因输入而不一致（来自前面各层的 float32 舍入误差，不算不一致）：在该次调用的 "
        "torch 输入上单独运行时，均在容差之内：{layers}"),
    "compare.report.accumulated_item": ("{name} (max abs error {max_abs}, alone {alone})",
                                        "{name}（最大绝对误差 {max_abs}，单独 {alone}）"),
    "compare.report.unchecked": (
        "{count} of them could not be checked alone, so their own error is not known: {layers}",
        "其中 {count} 个无法单独检查，因此无法判断误差是否来自其自身：{layers}"),
    "compare.report.first_holds_unchecked": (
        "run alone it includes {layers}, not checked alone: its difference may come from there",
        "单独运行时它包含未能单独检查的 {layers}：其不一致可能来自那里"),
    "compare.report.unchecked_item": ("{name} ({why})", "{name}（{why}）"),
    "compare.report.unchecked_input": ("its input {position} is a {type}, not a tensor, None or a number",
                                       "其输入 {position} 是 {type}，不是张量、None 或数值"),
    "compare.report.unchecked_run": ("it fails when called alone: {detail}", "单独调用时失败：{detail}"),
    "compare.report.extra_layers": (
        "{count} layer outputs hold a tensor where torch's hold None (not compared; not a divergence: the "
        "migrated code computes a result the torch code skips, e.g. attention weights): {layers}",
        "{count} 个层输出在 torch 为 None 的位置上是张量（未比较，不算不一致：迁移后的代码计算了 "
        "torch 代码跳过的结果，例如注意力权重）：{layers}"),
    "compare.report.extra_outputs": (
        "the model's output {positions} is a tensor where torch's is None (not compared)",
        "模型输出的第 {positions} 项在 torch 中为 None，在 MindSpore 中为张量（未比较）"),
    "compare.report.extra_item": ("{name} (output {position}, shape {shape})",
                                  "{name}（第 {position} 项输出，形状 {shape}）"),
    "compare.report.first_divergence": (
        "first layer that differs by its own error: {name} (call {call}; torch {torch_class}, MindSpore "
        "{mindspore_class}): max abs error {max_abs} in the whole model, {alone} alone on torch's input "
        "({status})",
        "第一个因自身误差而不一致的层：{name}（第 {call} 次调用；torch {torch_class}，MindSpore "
        "{mindspore_class}）：整个模型中最大绝对误差 {max_abs}，在 torch 输入上单独运行时 {alone}"
        "（{status}）"),
    "compare.col.layer": ("layer", "层"),
    "compare.col.torch": ("torch", "torch"),
    "compare.col.mindspore": ("MindSpore", "MindSpore"),
    "compare.col.max_abs": ("max abs", "最大绝对误差"),
    "compare.col.max_rel": ("max rel", "最大相对误差"),
    "compare.col.status": ("status", "状态"),
    "compare.report.training": (
        "training step: {status}; loss torch {torch}, MindSpore {mindspore}; {grads} gradients, max abs "
        "error {grad_abs}; updated weights max abs error {updated_abs}",
        "训练步骤：{status}；损失 torch {torch}，MindSpore {mindspore}；{grads} 个梯度，"
        "最大绝对误差 {grad_abs}；"
        "更新后权重最大绝对误差 {updated_abs}"),
    "compare.report.grad_diverges": ("gradient of {name}: max abs error {max_abs} ({status})",
                                     "{name} 的梯度：最大绝对误差 {max_abs}（{status}）"),
    "compare.report.graph_error": ("{mode}: the migrated model does not compile: {message}",
                                   "{mode}：迁移后的模型无法编译：{message}"),
    "compare.report.graph_where": ("at {file}:{line}: {source}", "位置 {file}:{line}：{source}"),
    "compare.report.graph_rule": (
        "rule {rule} flags this line statically (msmigrate scan, the editor)",
        "规则 {rule} 可静态发现此行（msmigrate scan、编辑器）"),
    "compare.report.mode_error": ("{mode}: {message}", "{mode}：{message}"),
    "compare.report.status.match": ("Result: the models match.", "结果：两个模型一致。"),
    "compare.report.status.diverge": ("Result: the models DIFFER.", "结果：两个模型不一致。"),
    "compare.report.status.error": ("Result: the comparison did not complete.", "结果：比较未能完成。"),
    # the Markdown page (compare/markdown.py; the editor's report file)
    "compare.md.title": ("Compare {name}: {result}", "比较 {name}：{result}"),
    "compare.md.result.match": ("the models match", "两个模型一致"),
    "compare.md.result.diverge": ("the models DIFFER", "两个模型不一致"),
    "compare.md.result.error": ("the comparison did not complete", "比较未能完成"),
    "compare.md.torch": ("torch model: {model}", "torch 模型：{model}"),
    "compare.md.mindspore": ("migrated model: {model}", "迁移后的模型：{model}"),
    "compare.md.error": ("Error:", "错误："),
    "compare.md.mode_error": ("error", "出错"),
    "compare.md.graph_fails": ("does not compile", "无法编译"),
    "compare.md.graph_where": ("at {link}: {source}", "位置 {link}：{source}"),
    "compare.md.first_marker": ("first divergence", "第一个不一致"),
    "compare.md.layers_title": ("{mode}: every layer, in the order torch finished them",
                                "{mode}：全部层（按 torch 完成的顺序）"),
    "compare.md.col.mode": ("mode", "模式"),
    "compare.md.col.outputs": ("outputs", "输出"),
    "compare.md.col.max_abs": ("max abs error", "最大绝对误差"),
    "compare.md.col.max_rel": ("max rel error", "最大相对误差"),
    "compare.md.col.first": ("first layer that differs by its own error", "第一个因自身误差而不一致的层"),
    "compare.md.col.training": ("training step", "训练步骤"),
    # the one-line summary (report.summary_line: the editor's notification)
    "compare.summary.error": ("{head}: {message}", "{head}：{message}"),
    "compare.summary.modes": ("{head} — {modes}", "{head} —— {modes}"),
    "compare.summary.separator": ("; ", "；"),
    "compare.summary.mode": ("{mode}: {text}", "{mode}：{text}"),
    "compare.summary.outputs": ("outputs {status} (max abs error {max_abs})",
                                "输出{status}（最大绝对误差 {max_abs}）"),
    "compare.summary.first": (", first layer that differs by its own error {name}",
                              "，第一个因自身误差而不一致的层 {name}"),
    "compare.summary.unchecked": (", {count} layers that differ not checked alone",
                                  "，{count} 个不一致的层未能单独检查"),
    "compare.summary.training": (", training step {status}", "，训练步骤{status}"),
    "compare.summary.graph": ("does not compile{where}", "无法编译{where}"),
    "compare.summary.graph_where": (" ({file}:{line})", "（{file}:{line}）"),
    # command-line help
    "compare.help.command": (
        "Run the torch model and its migrated MindSpore model on the same inputs and converted weights, in "
        "PyNative and GRAPH_MODE; compare outputs, every layer and one training step",
        "在相同输入和转换后的权重上运行 torch 模型及迁移后的 MindSpore 模型（PyNative 与 GRAPH_MODE），"
        "比较输出、"
        "各层输出和一个训练步骤"),
    "compare.help.names": ("comparisons of [[tool.msmigrate.compare]] to run (default: all)",
                           "要运行的 [[tool.msmigrate.compare]] 比较（默认：全部）"),
    "compare.help.config": ("the pyproject.toml to read (default: found from here up)",
                            "要读取的 pyproject.toml（默认：从当前目录向上查找）"),
    "compare.help.torch": ("the torch model, path/file.py:expression",
                           "torch 模型，写作 path/file.py:表达式"),
    "compare.help.mindspore": ("the migrated model, path/file.py:expression",
                               "迁移后的模型，写作 path/file.py:表达式"),
    "compare.help.input": (
        "an input, in order (repeat for several): SHAPE[:DTYPE[:LOW:HIGH][:MINDSPORE_DTYPE]], or "
        "dtype[shape] (f32[2, 3], i64[2, 7](0, 10, ms=i32)) "
        "in tuples/lists/dicts, None, NAME=... for a keyword input",
        "一个输入，按顺序（多个输入可重复）：SHAPE[:DTYPE[:LOW:HIGH][:MINDSPORE_DTYPE]]，"
        "或写作 dtype[shape] 的张量"
        "（f32[2, 3]、i64[2, 7](0, 10, ms=i32)），可组成元组/列表/字典，或 None，NAME=... 表示关键字输入"),
    "compare.help.kwarg": ("a constant keyword argument of both forwards, NAME=LITERAL (repeatable)",
                           "两个模型 forward 的常量关键字参数，NAME=字面量（可重复）"),
    "compare.help.checkpoint": ("torch weights to use (default: the torch model's initial ones)",
                                "使用的 torch 权重（默认：torch 模型的初始权重）"),
    "compare.help.mode": ("execution modes of the migrated model", "迁移后模型的执行模式"),
    "compare.help.layers": ("list every layer, not only up to the first that differs",
                            "列出全部层，而不只是到第一个不一致的层"),
}
