"""Rules for missing APIs, dynamic shapes, sparse tensors and framework patterns: titles, explanations,
finding messages, missing-API advice notes and quick-fix titles (English, Chinese)."""

MESSAGES: dict[str, tuple[str, str]] = {
    # advice rendering
    "advice.policy.1": ("Missing API: use an equivalent replacement", "缺失接口：使用等价替换"),
    "advice.policy.2": ("Missing API: compose it from existing APIs", "缺失接口：用已有接口组合实现"),
    "advice.policy.3": ("Missing API: write a custom operator", "缺失接口：开发自定义算子"),
    "advice.policy.4": ("Missing API: ask the MindSpore community", "缺失接口：向 MindSpore 社区求助"),
    "advice.policy.none": ("Missing API", "缺失接口"),
    "advice.unmapped": (
        "{torch_api} has no row in the MindSpore {version} mapping table.",
        "{torch_api} 在 MindSpore {version} 映射表中没有对应行。",
    ),
    "advice.replacements": ("MindSpore APIs: {apis}", "MindSpore 接口：{apis}"),
    "advice.custom_op_route": (
        'Custom operator route: mindspore.ops.Custom; with func_type="aot" it can call a compiled '
        "third-party kernel. CPU and GPU ports are direct; Ascend needs its own operator development.",
        '自定义算子途径：mindspore.ops.Custom；使用 func_type="aot" 可以调用已编译的第三方算子。'
        "CPU 和 GPU 可直接迁移；Ascend 需要单独进行算子开发。",
    ),
    "advice.see_rule": ("See rule {rule} for the MindSpore idiom.", "对应的 MindSpore 写法见规则 {rule}。"),
    "advice.snippet": ("MindSpore composition:", "MindSpore 组合实现："),
    "advice.link.policy": ("Missing API processing policy", "缺失 API 处理策略"),
    "advice.link.custom_op": ("Custom operators", "自定义算子"),
    "advice.link.custom_api": ("mindspore.ops.Custom", "mindspore.ops.Custom 接口"),
    "advice.link.third_party_op": ("Calling third-party operators", "调用第三方算子库"),
    "advice.link.community": ("Ask the MindSpore community", "向 MindSpore 社区求助"),
    # advice notes (one per group of APIs)
    "advice.note.uncatalogued": (
        "No replacement is catalogued for this API. Try, in order: an equivalent computation, a composition "
        "of mapped APIs, a custom operator (mindspore.ops.Custom), or ask the community.",
        "尚未收录该接口的替代方案。请依次尝试：等价计算、用已映射接口组合实现、"
        "自定义算子（mindspore.ops.Custom），"
        "或向社区求助。",
    ),
    "advice.note.function_form": (
        "Its function form {function} maps to {mindspore_api}: write {function}(x, ...) instead of "
        "x.{method}(...) (the quick-fix does it) and migrate that call.",
        "其函数形式 {function} 映射为 {mindspore_api}：把 x.{method}(...) 改写为 {function}(x, ...)"
        "（快速修复可自动完成），再迁移该调用。",
    ),
    "advice.note.other_version": (
        "The MindSpore {version} table maps it to {mindspore_api}; start from that API and check its "
        "documentation for your MindSpore version.",
        "MindSpore {version} 映射表将其映射为 {mindspore_api}；可以此为起点，并核对所用 MindSpore "
        "版本的文档。",
    ),
    "advice.note.view": (
        "A view only changes the shape, so reshape gives the same values: x.view(a, b) becomes "
        "x.reshape(a, b) (quick-fix). A view to another dtype is a bit cast and is not rewritten.",
        "view 只改变形状，因此 reshape 得到相同的值：x.view(a, b) 改为 x.reshape(a, b)（快速修复）。"
        "按 dtype 的 view 属于按位重解释，不做改写。",
    ),
    "advice.note.size": (
        "MindSpore tensors expose their shape as the shape tuple, and Tensor.size there is the number of "
        "elements. Write x.shape instead of x.size() and x.shape[d] instead of x.size(d) (quick-fix).",
        "MindSpore 张量通过 shape 元组给出形状，而其 Tensor.size 表示元素个数。请把 x.size() 写成 x.shape，"
        "x.size(d) 写成 x.shape[d]（快速修复）。",
    ),
    "advice.note.same_attribute": (
        "{replacement} has the same meaning; no change is needed after migrating the tensor.",
        "{replacement} 含义相同；迁移张量后无需修改。",
    ),
    "advice.note.same_method": (
        "{replacement} behaves the same; keep the call.",
        "{replacement} 行为一致；保留该调用即可。",
    ),
    "advice.note.same_function": (
        "{replacement} computes the same result; check its parameter names and supported devices.",
        "{replacement} 计算结果相同；请核对其参数名和支持的硬件。",
    ),
    "advice.note.contiguous": (
        "MindSpore manages memory layout itself, so the call can be removed: x.contiguous() becomes x "
        "(quick-fix).",
        "MindSpore 自行管理内存布局，该调用可以删除：x.contiguous() 改为 x（快速修复）。",
    ),
    "advice.note.shape_member": (
        "Use {replacement}; it gives the same information for a MindSpore tensor.",
        "请使用 {replacement}，它对 MindSpore 张量给出相同的信息。",
    ),
    "advice.note.adaptive_max_module": (
        "{replacement} exists. When the output size is 1 the layer is a maximum over the spatial axes: "
        "x.amax(axes, keepdims=True) (ReduceMax with keep_dims=True) gives the same result.",
        "{replacement} 可直接使用。输出尺寸为 1 时，该层等价于在空间维上求最大值：x.amax(axes, keepdims=True)"
        "（即 keep_dims=True 的 ReduceMax）结果相同。",
    ),
    "advice.note.adaptive_max_function": (
        "With an output size of 1 this is a maximum over the spatial axes with keepdims: the quick-fix "
        "rewrites it to torch.amax(x, dim=spatial axes, keepdim=True), which is mapped. Otherwise use "
        "{replacement}.",
        "输出尺寸为 1 时，它等价于在空间维上保留维度求最大值：快速修复会将其改写为已有映射的 "
        "torch.amax(x, dim=空间维, keepdim=True)。其他情况请使用 {replacement}。",
    ),
    "advice.note.adaptive_avg_function": (
        "With an output size of 1 this is a mean over the spatial axes with keepdims: the quick-fix "
        "rewrites it to torch.mean(x, dim=spatial axes, keepdim=True), which is mapped. Otherwise use "
        "{replacement}.",
        "输出尺寸为 1 时，它等价于在空间维上保留维度求均值：快速修复会将其改写为已有映射的 "
        "torch.mean(x, dim=空间维, keepdim=True)。其他情况请使用 {replacement}。",
    ),
    "advice.note.max_pool": (
        "Use {replacement}. Max pooling and max pooling with argmax compute the same values; when the "
        "indices are needed (return_indices=True), use the argmax variant.",
        "请使用 {replacement}。最大池化与带 argmax 的最大池化计算出的值相同；"
        "需要索引（return_indices=True）时，"
        "使用带 argmax 的版本。",
    ),
    "advice.note.msort": (
        "msort sorts along dimension 0: torch.sort(x, dim=0).values (quick-fix) is mapped. In MindSpore a "
        "full sort is also a top-k with k equal to the dimension size.",
        "msort 沿第 0 维排序：已有映射的 torch.sort(x, dim=0).values 与之等价（快速修复）。在 MindSpore 中，"
        "全排序也等价于 k 取该维长度的 top-k。",
    ),
    "advice.note.argwhere": (
        "argwhere returns the same indices as torch.nonzero(x), which is mapped (quick-fix). The result "
        "has a data-dependent shape (see MSM301).",
        "argwhere 与已有映射的 torch.nonzero(x) 返回相同的下标（快速修复）。其结果的形状取决于数据（见 "
        "MSM301）。",
    ),
    "advice.note.take": (
        "take indexes the flattened tensor: torch.flatten(x)[index] gives the same result (quick-fix); in "
        "MindSpore use {replacement} on x.reshape(-1).",
        "take 在展平后的张量上取值：torch.flatten(x)[index] 结果相同（快速修复）；在 MindSpore 中可对 "
        "x.reshape(-1) 使用 {replacement}。",
    ),
    "advice.note.take_along_dim": (
        "When the indices have as many dimensions as the input and a dim is given, {replacement} picks the "
        "same elements; broadcast the indices first otherwise.",
        "当索引与输入维数相同且指定了 dim 时，{replacement} 取出相同的元素；否则请先对索引做广播。",
    ),
    "advice.note.clamp_bound": (
        "A one-sided clamp: clamp(min=v) or clamp(max=v) gives the same result (quick-fix) and is mapped "
        "to {replacement}.",
        "单侧截断：clamp(min=v) 或 clamp(max=v) 结果相同（快速修复），并映射为 {replacement}。",
    ),
    "advice.note.dtype": (
        "The MindSpore dtype is {replacement}; the quick-fix writes it.",
        "对应的 MindSpore 数据类型是 {replacement}；快速修复会直接改写。",
    ),
    "advice.note.reduce_op": (
        "{replacement} names the same reductions (SUM, MAX, MIN, PROD).",
        "{replacement} 提供相同的归约类型（SUM、MAX、MIN、PROD）。",
    ),
    "advice.note.lr_schedule_step": (
        "A MindSpore optimizer receives the whole schedule (a list of per-step values, a "
        "LearningRateSchedule or an experimental scheduler) and advances it itself; remove the call.",
        "MindSpore 优化器直接接收整个学习率调度（逐步学习率列表、LearningRateSchedule "
        "或 experimental 调度器）并自行推进；请删除该调用。",
    ),
    "advice.note.numpy": (
        "{replacement} returns a NumPy array; the .cpu() or .detach() before it is not needed.",
        "{replacement} 返回 NumPy 数组；其前面的 .cpu() 或 .detach() 不再需要。",
    ),
    "advice.note.to_method": (
        "For a dtype, cast with x.astype(dtype); for a device, remove the call because MindSpore places "
        "tensors on the device selected once for the process.",
        "若参数是 dtype，请用 x.astype(dtype) 转换；若是设备，请删除该调用，因为 MindSpore "
        "按进程统一指定的设备放置张量。",
    ),
    "advice.note.device_move": (
        "MindSpore places data on the device chosen once with mindspore.set_device; remove the call.",
        "MindSpore 按通过 mindspore.set_device 统一指定的设备放置数据；请删除该调用。",
    ),
    "advice.note.tensor_device": (
        "{replacement} tells where the tensor is; MindSpore places tensors on the device chosen once with "
        "mindspore.set_device, so moving other data to this device (.to(x.device)) is not needed.",
        "{replacement} 表示张量所在的设备；MindSpore 按通过 mindspore.set_device 统一指定的设备放置张量，"
        "因此无需再把其他数据移动到该设备（.to(x.device)）。",
    ),
    "advice.note.jit_decorator": (
        "A TorchScript-only decorator: MindSpore needs nothing in its place. Remove the decorator; code that "
        "mindspore.jit must not compile stays outside the jit-compiled function.",
        "仅用于 TorchScript 的装饰器：MindSpore 无需任何替代。请删除该装饰器；"
        "不应被 mindspore.jit 编译的代码放在 jit 编译的函数之外即可。",
    ),
    "advice.note.same_name_method": (
        "{replacement} is the MindSpore tensor method of the same name; check its parameters.",
        "{replacement} 是 MindSpore 中同名的张量方法；请核对其参数。",
    ),
    "advice.note.device_attribute": (
        "Tensors carry no device in MindSpore; read the configured device with "
        'mindspore.get_context("device_target").',
        'MindSpore 张量不携带设备信息；可用 mindspore.get_context("device_target") 读取当前配置的设备。',
    ),
    "advice.note.cast": (
        "Cast with {replacement}, for example x.astype(mindspore.float64).",
        "请用 {replacement} 转换类型，例如 x.astype(mindspore.float64)。",
    ),
    "advice.note.detach": (
        "Block the gradient with mindspore.ops.stop_gradient(x).",
        "请用 mindspore.ops.stop_gradient(x) 阻断梯度。",
    ),
    "advice.note.clone": ("{replacement} returns a copy of the tensor.", "{replacement} 返回张量的副本。"),
    "advice.note.new_tensor": (
        "Create the tensor with {replacement} and pass dtype=x.dtype to keep the source tensor's type.",
        "请用 {replacement} 创建张量，并传入 dtype=x.dtype 以保持原张量的类型。",
    ),
    "advice.note.inplace": (
        "Compute the out-of-place result and assign it (x = x + y) where no in-place counterpart exists; "
        "for a Parameter use param.set_data(...) or mindspore.ops.assign. Candidate: {replacement}.",
        "若没有对应的原地操作，请计算非原地结果并重新赋值（x = x + y）；对 Parameter 请使用 "
        "param.set_data(...) "
        "或 mindspore.ops.assign。可选接口：{replacement}。",
    ),
    "advice.note.requires_grad": (
        "Gradients are switched per Parameter: set param.requires_grad = False on each mindspore.Parameter.",
        "梯度按 Parameter 开关：对每个 mindspore.Parameter 设置 param.requires_grad = False。",
    ),
    "advice.note.tensor_grad": (
        "MindSpore tensors do not store gradients; mindspore.value_and_grad returns them from the training "
        "step.",
        "MindSpore 张量不保存梯度；梯度由训练步骤中的 mindspore.value_and_grad 返回。",
    ),
    "advice.note.backward": (
        "There is no backward() call: wrap the forward and loss in a function and differentiate it with "
        "mindspore.value_and_grad.",
        "没有 backward() 调用：把前向与损失计算封装为函数，并用 mindspore.value_and_grad 求导。",
    ),
    "advice.note.tensor_hook": (
        "{replacement} registers a gradient hook (PyNative mode).",
        "{replacement} 可注册梯度钩子（PyNative 模式）。",
    ),
    "advice.note.tensor_data": (
        "Use the tensor itself to read values; to overwrite a Parameter's values use param.set_data(value).",
        "读取数值时直接使用张量本身；要覆盖 Parameter 的值，请使用 param.set_data(value)。",
    ),
    "advice.note.memory_layout": (
        "MindSpore does not expose storage or pointer details; drop the call, or use {replacement} where "
        "the value is really needed.",
        "MindSpore 不暴露存储或指针细节；请删除该调用，确有需要时使用 {replacement}。",
    ),
    "advice.note.tensor_create": (
        "{replacement} builds a tensor from NumPy or Python data.",
        "{replacement} 可由 NumPy 或 Python 数据创建张量。",
    ),
    "advice.note.seed": (
        "mindspore.set_seed(seed) seeds the global and device generators at once.",
        "mindspore.set_seed(seed) 会同时设置全局和设备的随机种子。",
    ),
    "advice.note.device_query": (
        'Ask the runtime with {replacement} (for example for "GPU" or "Ascend").',
        '请用 {replacement} 查询运行时（例如 "GPU" 或 "Ascend"）。',
    ),
    "advice.note.runtime": (
        "{replacement} does this for the current device.",
        "{replacement} 对当前设备完成同样的操作。",
    ),
    "advice.note.set_device": (
        'Select the device once for the process: mindspore.set_device("GPU", 0).',
        '在进程中统一指定一次设备：mindspore.set_device("GPU", 0)。',
    ),
    "advice.note.deterministic": (
        "{replacement}(True) makes the kernels deterministic.",
        "使用 {replacement}(True) 让算子计算结果确定。",
    ),
    "advice.note.default_dtype": (
        "MindSpore has no global default dtype: pass dtype= when creating tensors and parameters.",
        "MindSpore 没有全局默认数据类型：创建张量和参数时请显式传入 dtype=。",
    ),
    "advice.note.graph_compile": (
        "Compile functions or Cells to a static graph with the mindspore.jit decorator.",
        "使用 mindspore.jit 装饰器把函数或 Cell 编译为静态图。",
    ),
    "advice.note.grad_mode": (
        "MindSpore computes gradients only where value_and_grad or grad is called, so no grad-mode switch "
        "is needed; use net.set_train(False) for evaluation and ops.stop_gradient for single tensors.",
        "MindSpore 仅在调用 value_and_grad 或 grad 时计算梯度，因此不需要切换梯度模式；评估时使用 "
        "net.set_train(False)，单个张量可用 ops.stop_gradient。",
    ),
    "advice.note.checkpoint_io": (
        "Save parameters with mindspore.save_checkpoint(net, path) and restore them with "
        "mindspore.load_checkpoint(path) followed by mindspore.load_param_into_net(net, params).",
        "用 mindspore.save_checkpoint(net, path) 保存参数，用 mindspore.load_checkpoint(path) 加载后再调用 "
        "mindspore.load_param_into_net(net, params) 恢复。",
    ),
    "advice.note.autograd": (
        "{replacement} differentiates a function with respect to its inputs or weights.",
        "{replacement} 可对函数的输入或权重求导。",
    ),
    "advice.note.custom_backward": (
        "Put the forward computation in a Cell's construct and the custom gradient in its bprop method.",
        "把前向计算写在 Cell 的 construct 中，自定义梯度写在其 bprop 方法中。",
    ),
    "advice.note.clip_grad": (
        "Clip the gradient tuple inside the training step: grads = {replacement}(grads, ...), then pass the "
        "clipped gradients to the optimizer.",
        "在训练步骤中对梯度元组做裁剪：grads = {replacement}(grads, ...)，再把裁剪后的梯度传给优化器。",
    ),
    "advice.note.compose": (
        "No single API does this; the snippet composes it from mapped operations.",
        "没有单个接口实现该功能；下面的代码片段用已映射的运算组合实现。",
    ),
    "advice.note.pad_sequence": (
        "Pad every sequence to a fixed length (a bucket size) so the batch shape stays static; the snippet "
        "does this with pad and stack.",
        "把每个序列填充到固定长度（分桶长度），使批次形状保持静态；代码片段用 pad 和 stack 实现。",
    ),
    "advice.note.rnn_packing": (
        "MindSpore RNN layers take the padded batch plus a seq_length tensor instead of packed sequences.",
        "MindSpore 的 RNN 层接收填充后的批次和 seq_length 张量，而不是打包序列。",
    ),
    "advice.note.community": (
        "No replacement is known; ask the MindSpore community and consider a custom operator meanwhile.",
        "尚无已知替代方案；请向 MindSpore 社区求助，在此期间可考虑自定义算子。",
    ),
    "advice.note.module_class": (
        "Subclass mindspore.nn.Cell and rename forward to construct.",
        "继承 mindspore.nn.Cell，并把 forward 重命名为 construct。",
    ),
    "advice.note.cell_container": (
        "{replacement} is the Cell counterpart.",
        "对应的 Cell 容器是 {replacement}。",
    ),
    "advice.note.parameter": (
        "Use mindspore.Parameter(tensor, name=..., requires_grad=...).",
        "请使用 mindspore.Parameter(tensor, name=..., requires_grad=...)。",
    ),
    "advice.note.lazy_module": (
        "MindSpore layers need the input size up front: build {replacement} with the in_channels value.",
        "MindSpore 的层需要预先给出输入尺寸：创建 {replacement} 时传入 in_channels。",
    ),
    "advice.note.upsample_module": (
        'Call {replacement} with mode="nearest", or mode="bilinear" with align_corners=True.',
        '调用 {replacement}，mode 取 "nearest"，或取 "bilinear" 并设置 align_corners=True。',
    ),
    "advice.note.upsample_function": (
        "This is interpolate under an older name: the quick-fix rewrites it to "
        "torch.nn.functional.interpolate with the matching mode (and align_corners=True for bilinear), "
        "which is mapped.",
        "这是 interpolate 的旧名称：快速修复会将其改写为已有映射的 torch.nn.functional.interpolate，"
        "并设置对应的 mode（bilinear 时 align_corners=True）。",
    ),
    "advice.note.function_as_cell": (
        "Call {replacement}; wrap it in a small Cell if a layer object is needed.",
        "调用 {replacement}；如需层对象，可将其封装为一个简单的 Cell。",
    ),
    "advice.note.linalg": (
        "{replacement} computes it; some linear-algebra operators run only on CPU or GPU, check the device "
        "support.",
        "{replacement} 可完成该计算；部分线性代数算子只支持 CPU 或 GPU，请核对硬件支持情况。",
    ),
    "advice.note.fft": (
        "{replacement} computes the same transform; check the norm argument and device support.",
        "{replacement} 计算相同的变换；请核对 norm 参数和硬件支持情况。",
    ),
    "advice.note.custom_op": (
        "No MindSpore operator computes this; implement it with mindspore.ops.Custom.",
        "MindSpore 没有计算该功能的算子；请用 mindspore.ops.Custom 实现。",
    ),
    "advice.note.python_callback": (
        "Element-wise Python callbacks have no counterpart; vectorize the function with tensor operations, "
        "or ask the community.",
        "逐元素的 Python 回调没有对应接口；请用张量运算将函数向量化，或向社区求助。",
    ),
    "advice.note.sparse": (
        "MindSpore supports only COO and CSR sparse tensors ({replacement}) and few operators accept them; "
        "otherwise convert to dense (see MSM401–MSM403).",
        "MindSpore 只支持 COO 和 CSR 稀疏张量（{replacement}），且支持稀疏输入的算子不多；"
        "否则请转换为稠密张量"
        "（见 MSM401–MSM403）。",
    ),
    "advice.note.sparse_layout": (
        "MindSpore has no CSC or block-sparse layouts; convert to CSR, COO or dense.",
        "MindSpore 没有 CSC 或块稀疏格式；请转换为 CSR、COO 或稠密张量。",
    ),
    "advice.note.cell_method": ("The Cell method is {replacement}.", "对应的 Cell 方法是 {replacement}。"),
    "advice.note.buffer": (
        "Keep the buffer as a cell attribute mindspore.Parameter(value, requires_grad=False); it is saved "
        "in checkpoints like other parameters.",
        "把缓冲区作为 Cell 属性保存为 mindspore.Parameter(value, requires_grad=False)；"
        "它会像其他参数一样保存到 checkpoint 中。",
    ),
    "advice.note.set_train": (
        "Call net.set_train(True) for training and net.set_train(False) for evaluation.",
        "训练时调用 net.set_train(True)，评估时调用 net.set_train(False)。",
    ),
    "advice.note.optimizer_step": (
        "A MindSpore optimizer is called with the gradients, optimizer(grads), inside the training step; "
        "there is nothing to zero because gradients are not accumulated on tensors.",
        "MindSpore 优化器在训练步骤中以梯度为参数调用：optimizer(grads)；"
        "梯度不会累积在张量上，因此无需清零。",
    ),
    "advice.note.optimizer_state": (
        "An optimizer is a Cell: save its state with mindspore.save_checkpoint(optimizer, path) and load it "
        "with mindspore.load_param_into_net.",
        "优化器也是 Cell：用 mindspore.save_checkpoint(optimizer, path) 保存状态，用 "
        "mindspore.load_param_into_net 加载。",
    ),
    "advice.note.param_groups": (
        "Give all parameter groups when creating the optimizer: a list of dicts with params, lr and "
        "weight_decay.",
        "请在创建优化器时一次给出所有参数组：由包含 params、lr、weight_decay 的字典组成的列表。",
    ),
    "advice.note.optimizer_class": (
        "Use {replacement}; its learning-rate argument is called learning_rate (see MSM508).",
        "请使用 {replacement}；其学习率参数名为 learning_rate（见 MSM508）。",
    ),
    "advice.note.lr_list": (
        "Precompute the per-step learning rates and pass the list as learning_rate; the snippet computes a "
        "one-cycle schedule.",
        "预先计算每一步的学习率，并把列表作为 learning_rate 传入；代码片段计算了 one-cycle 调度。",
    ),
    "advice.note.amp": (
        "Use MindSpore mixed precision: {replacement} (see MSM509).",
        "请使用 MindSpore 混合精度：{replacement}（见 MSM509）。",
    ),
    "advice.note.data_parallel": (
        "Data parallelism is configured, not wrapped: call mindspore.communication.init() and "
        'mindspore.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True).',
        "数据并行通过配置实现，而不是包装模型：调用 mindspore.communication.init() 和 "
        'mindspore.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)。',
    ),
    "advice.note.initializer": (
        "Initialize with param.set_data(initializer({short}(...), param.shape, param.dtype)) from "
        "mindspore.common.initializer.",
        "请用 mindspore.common.initializer 初始化：param.set_data(initializer({short}(...), param.shape, "
        "param.dtype))。",
    ),
    # ---------------------------------------------------------------- quick-fix titles
    "fix.pattern.function_form": (
        "Rewrite as {function}({receiver}, ...)",
        "改写为 {function}({receiver}, ...)",
    ),
    "fix.pattern.reshape": ("Replace view with reshape", "将 view 替换为 reshape"),
    "fix.pattern.shape": ("Replace size() with shape", "将 size() 替换为 shape"),
    "fix.pattern.drop_call": ("Remove .{method}()", "删除 .{method}()"),
    "fix.pattern.adaptive_pool_1": (
        "Replace pooling to size 1 with {function} over the spatial axes",
        "将输出尺寸为 1 的池化替换为在空间维上的 {function}",
    ),
    "fix.pattern.msort": ("Rewrite as torch.sort(x, dim=0).values", "改写为 torch.sort(x, dim=0).values"),
    "fix.pattern.argwhere": ("Rewrite as torch.nonzero", "改写为 torch.nonzero"),
    "fix.pattern.take": ("Rewrite as indexing of the flattened tensor", "改写为对展平张量的索引"),
    "fix.pattern.clamp_bound": ("Rewrite as clamp({bound}=...)", "改写为 clamp({bound}=...)"),
    "fix.pattern.interpolate": ('Rewrite as interpolate(mode="{mode}")', '改写为 interpolate(mode="{mode}")'),
    "fix.pattern.cell_values": (
        "Rewrite as the cells of cells_and_names()", "改写为 cells_and_names() 中的各个 Cell"
    ),
    "fix.pattern.cells": ("Rewrite as cells()", "改写为 cells()"),
    "fix.pattern.mindspore_name": ("Replace with {name}", "替换为 {name}"),
    "fix.pattern.receiver_function": ("Rewrite .{method}() as {name}(…)", "将 .{method}() 改写为 {name}(…)"),
    # ---------------------------------------------------------------- msmigrate rules (CLI)
    "rules.cli.unknown": (
        "Unknown rule {rule}. Run 'msmigrate rules' for the list.",
        "未知规则 {rule}。运行 'msmigrate rules' 查看规则列表。",
    ),
    "rules.cli.header": ("{count} rules", "共 {count} 条规则"),
    "rules.cli.legend": (
        "(* = quick-fix available; explain one with: msmigrate rules <ID>)",
        "（* 表示提供快速修复；查看单条规则：msmigrate rules <ID>）",
    ),
    "rules.cli.category": ("Category", "类别"),
    "rules.cli.severity": ("Default severity", "默认级别"),
    "rules.cli.fixable": ("Quick-fix", "快速修复"),
    "rules.cli.yes": ("yes", "有"),
    "rules.cli.no": ("no", "无"),
    "rules.cli.docs": ("Documentation", "文档"),
    "rules.cli.example": ("Example", "示例"),
    "rules.cli.disable": (
        'Disable it in pyproject.toml: [tool.msmigrate] disabled-rules = ["{rule}"], or on one line with '
        "# msmigrate: ignore[{rule}]",
        '可在 pyproject.toml 中禁用：[tool.msmigrate] disabled-rules = ["{rule}"]，或在单行使用 '
        "# msmigrate: ignore[{rule}]",
    ),
}
