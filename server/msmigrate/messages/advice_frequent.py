"""The answers for the most frequent missing APIs of real code (the ``recipe = true`` entries of
``knowledge/facts/missing_advice.toml``): the advice notes (English, Chinese); the finding message that says
the note is its rule's (``finding.MSM20x.recipe``, ``rules/missing/``)."""

MESSAGES: dict[str, tuple[str, str]] = {
    # advice notes
    "advice.note.dtype_class": (
        "MindSpore's dtype class is mindspore.Type (mindspore.float32 and a tensor's dtype are instances of "
        "it): write mindspore.Type in annotations and isinstance checks.",
        "MindSpore 的数据类型类是 mindspore.Type（mindspore.float32 和张量的 dtype 都是它的实例）："
        "在类型注解和 isinstance 检查中写 mindspore.Type。",
    ),
    "advice.note.size_tuple": (
        "A MindSpore shape is a plain tuple (Tensor.shape is a tuple): torch.Size(x) becomes tuple(x) and a "
        "torch.Size annotation becomes tuple[int, ...].",
        "MindSpore 的形状就是普通元组（Tensor.shape 是 tuple）：torch.Size(x) 改为 tuple(x)，"
        "torch.Size 类型注解改为 tuple[int, ...]。",
    ),
    "advice.note.cell_list_append": (
        "Once the list is a mindspore.nn.CellList (the counterpart of nn.ModuleList), append(cell) works as "
        "written: the call stays.",
        "当该列表改为 mindspore.nn.CellList（nn.ModuleList 的对应类）后，append(cell) 照原样可用："
        "调用保持不变。",
    ),
    "advice.note.torch_function_protocol": (
        "Part of torch's __torch_function__ dispatch for Tensor subclasses, which MindSpore does not have: "
        "has_torch_function…(…) is False for MindSpore tensors, so remove the branch "
        "`if has_torch_function…(…): return handle_torch_function(…)` and keep the code after it.",
        "属于 torch 为 Tensor 子类提供的 __torch_function__ 分派机制，MindSpore 没有该机制：对 MindSpore "
        "张量 has_torch_function…(…) 恒为 False，因此删除分支 "
        "`if has_torch_function…(…): return handle_torch_function(…)`，保留其后的代码。",
    ),
    "advice.note.torch_ops": (
        "A call torch.ops.<library>.<op> runs a registered operator directly. For torch.ops.aten.<op> "
        "write the public torch.<op> and migrate that call; an operator that a library registers with its "
        "own kernel (torch.ops.torchvision.nms) needs a MindSpore implementation, e.g. mindspore.ops.Custom.",
        "torch.ops.<库>.<算子> 直接调用已注册的算子。torch.ops.aten.<算子> 请改写为公开接口 torch.<算子> "
        "再迁移该调用；由某个库用自有内核注册的算子（如 torch.ops.torchvision.nms）需要在 MindSpore 中实现，"
        "例如用 mindspore.ops.Custom。",
    ),
    "advice.note.hook_handle": (
        "Cell.register_forward_hook, register_forward_pre_hook and register_backward_hook return a "
        "mindspore.common.hook_handle.HookHandle: remove() works as in torch and the handle's id is "
        "handle_id.",
        "Cell.register_forward_hook、register_forward_pre_hook 和 register_backward_hook 返回 "
        "mindspore.common.hook_handle.HookHandle：remove() 的用法与 torch 相同，句柄的 id 为 handle_id。",
    ),
    "advice.note.tensor_requires_grad": (
        "Only a mindspore.Parameter has requires_grad (param.requires_grad = False freezes it, as in "
        "torch); a plain Tensor has none: MindSpore differentiates with respect to what mindspore.grad or "
        "value_and_grad is given, so drop the flag on tensors.",
        "只有 mindspore.Parameter 有 requires_grad（param.requires_grad = False 冻结参数，与 torch 相同）；"
        "普通 Tensor 没有该属性：MindSpore 对传给 mindspore.grad 或 value_and_grad 的对象求导，"
        "因此删除张量上的该标记。",
    ),
    "advice.note.distribution_constraints": (
        "MindSpore's distributions have no constraint objects: remove arg_constraints, support and "
        "@dependent_property, and check a parameter's range in the constructor where it matters.",
        "MindSpore 的概率分布没有约束对象：删除 arg_constraints、support 和 @dependent_property，"
        "需要时在构造函数中检查参数取值范围。",
    ),
    "advice.note.memory_format": (
        "MindSpore tensors have no memory format: remove the memory_format= argument (the values are the "
        "same).",
        "MindSpore 张量没有内存格式：删除 memory_format= 参数（数值不变）。",
    ),
    "advice.note.lazy_property": (
        "The standard functools.cached_property does the same: the method runs on first access and its "
        "value is kept on the instance.",
        "functools.cached_property 的作用相同：首次访问时执行该方法，结果保存在实例上。",
    ),
    "advice.note.distribution_class": (
        "Subclass mindspore.nn.probability.distribution.Distribution(seed, dtype, name, param): its "
        "public methods (prob, log_prob, sample, mean, sd, entropy) call the subclass's _prob, _log_prob, "
        "_sample, _mean… ; annotations name the class.",
        "改为继承 mindspore.nn.probability.distribution.Distribution(seed, dtype, name, param)：其公开方法"
        "（prob、log_prob、sample、mean、sd、entropy）调用子类实现的 _prob、_log_prob、_sample、_mean 等；"
        "类型注解写该类。",
    ),
    "advice.note.normal_distribution": (
        "Use mindspore.nn.probability.distribution.Normal(mean, sd): torch's loc and scale are mean and sd; "
        "log_prob(value), sample(shape), mean(), sd() and entropy() give torch's values.",
        "mindspore.nn.probability.distribution.Normal(mean, sd)：torch 的 loc 和 scale 对应 mean 和 sd；"
        "log_prob(value)、sample(shape)、mean()、sd() 和 entropy() 与 torch 的结果相同。",
    ),
    "advice.note.categorical_distribution": (
        "Use mindspore.nn.probability.distribution.Categorical(probs): torch's logits=x becomes "
        "probs=mindspore.ops.softmax(x, -1); log_prob(value), entropy() and sample(shape) give torch's "
        "values (samples are int32).",
        "使用 mindspore.nn.probability.distribution.Categorical(probs)：torch 的 logits=x 改为 "
        "probs=mindspore.ops.softmax(x, -1)；log_prob(value)、entropy() 和 sample(shape) 与 torch 的结果相同"
        "（采样结果为 int32）。",
    ),
    "advice.note.transformed_distribution": (
        "Use mindspore.nn.probability.distribution.TransformedDistribution(bijector, distribution): one "
        "bijector of mindspore.nn.probability.bijector (Exp, ScalarAffine, PowerTransform, Softplus, "
        "GumbelCDF, Invert) where torch takes a list of transforms, and the base distribution second.",
        "使用 mindspore.nn.probability.distribution.TransformedDistribution(bijector, distribution)："
        "torch 接收变换列表，这里接收 mindspore.nn.probability.bijector 中的一个双射（Exp、ScalarAffine、"
        "PowerTransform、Softplus、GumbelCDF、Invert），基础分布为第二个参数。",
    ),
    "advice.note.library_autograd": (
        "It registers the backward of a custom operator; in MindSpore pass the backward to the operator "
        "itself: mindspore.ops.Custom(func, out_shape, out_dtype, func_type, bprop=backward).",
        "它为自定义算子注册反向计算；在 MindSpore 中把反向函数直接传给算子："
        "mindspore.ops.Custom(func, out_shape, out_dtype, func_type, bprop=backward)。",
    ),
    "advice.note.lazy_parameter": (
        "MindSpore has no lazy (uninitialized) parameters: give each layer its input size "
        "(nn.LazyLinear(out) → nn.Dense(in, out)); isinstance(p, UninitializedParameter) is always False "
        "there, so that branch goes.",
        "MindSpore 没有延迟初始化的参数：为每一层给出输入尺寸（nn.LazyLinear(out) → nn.Dense(in, out)）；"
        "isinstance(p, UninitializedParameter) 在 MindSpore 中恒为 False，该分支可删除。",
    ),
    "advice.note.python_constant": (
        "The constant torch.{name} is the Python float math.{name}: write math.{name} (the same value).",
        "torch.{name} 就是 Python 浮点数 math.{name}：改写为 math.{name}（数值相同）。",
    ),
    "advice.note.library_impl": (
        "It registers a kernel for an operator; in MindSpore wrap the kernel as "
        "mindspore.ops.Custom(func, out_shape, out_dtype, func_type) and call that operator instead.",
        "它为算子注册内核；在 MindSpore 中请用 mindspore.ops.Custom(func, out_shape, out_dtype, func_type) "
        "封装该内核，并改为调用该算子。",
    ),
    "advice.note.register_parameter": (
        "Write cell.insert_param_to_cell(name, param): it adds the mindspore.Parameter to the Cell (None "
        "too, as register_parameter(name, None) does).",
        "改写为 cell.insert_param_to_cell(name, param)：它把 mindspore.Parameter 加入 Cell"
        "（也可传 None，与 register_parameter(name, None) 相同）。",
    ),
    "advice.note.grad_enabled": (
        "MindSpore has no global gradient switch: gradients come only from mindspore.grad or "
        "value_and_grad over a function. Remove the code that saves and restores the switch "
        "(MSM507 removes torch.set_grad_enabled).",
        "MindSpore 没有全局的梯度开关：梯度只由 mindspore.grad 或 value_and_grad 对函数求得。"
        "请删除保存和恢复该开关的代码（MSM507 会删除 torch.set_grad_enabled）。",
    ),
    "advice.note.packed_sequence": (
        "MindSpore's recurrent layers take the padded batch and the lengths instead: "
        "rnn(x, hx, seq_length=lengths) with nn.LSTM, nn.GRU or nn.RNN; pack_padded_sequence and "
        "pad_packed_sequence go.",
        "MindSpore 的循环网络层直接接收补齐后的批数据和各序列长度：对 nn.LSTM、nn.GRU 或 nn.RNN 调用 "
        "rnn(x, hx, seq_length=lengths)；删除 pack_padded_sequence 和 pad_packed_sequence。",
    ),
    "advice.note.float_functional": (
        "FloatFunctional only marks operations for quantization; in float code its methods are the plain "
        "operations: self.f.cat(xs, dim) is mindspore.ops.cat(xs, dim), add is mindspore.ops.add, mul is "
        "mindspore.ops.mul. Remove the FloatFunctional attribute.",
        "FloatFunctional 只是为量化标记运算；在浮点代码中其方法就是普通运算：self.f.cat(xs, dim) 即 "
        "mindspore.ops.cat(xs, dim)，add 即 mindspore.ops.add，mul 即 mindspore.ops.mul。"
        "请删除 FloatFunctional 属性。",
    ),
    "advice.note.result_tuple": (
        "On the result of topk, sort, max or min with a dim, median, mode or kthvalue, MindSpore returns a "
        "plain tuple (values, indices): .values is [0] and .indices is [1] (a sparse tensor's are "
        "mindspore.COOTensor.values and .indices).",
        "对 topk、sort、带 dim 的 max 或 min、median、mode、kthvalue 的结果，MindSpore 返回普通元组"
        "（values, indices）：.values 即 [0]，.indices 即 [1]（稀疏张量的对应属性为 "
        "mindspore.COOTensor.values 和 .indices）。",
    ),
    "advice.note.number_type": (
        "The type torch.types.Number is int | float | bool: write that union in the annotation.",
        "torch.types.Number 即 int | float | bool：在类型注解中写这个联合类型。",
    ),
    "advice.note.typename": (
        "It names an object's type (module and class name; 'torch.FloatTensor' for a tensor): write "
        "type(x).__module__ + '.' + type(x).__qualname__, or type(x).__name__ in a message.",
        "它返回对象类型的名称（模块名加类名；张量为 'torch.FloatTensor' 这类名称）：改写为 "
        "type(x).__module__ + '.' + type(x).__qualname__，在提示信息中也可用 type(x).__name__。",
    ),
    "advice.note.generator_seed": (
        "A call mindspore.Generator().manual_seed(seed) seeds a MindSpore generator the same way; "
        "MindSpore's random functions that take one have a generator= parameter (mindspore.mint.randperm).",
        "mindspore.Generator().manual_seed(seed) 以同样方式为 MindSpore 生成器设置种子；接受生成器的 "
        "MindSpore 随机函数有 generator= 参数（如 mindspore.mint.randperm）。",
    ),
    "advice.note.broadcast_shapes": (
        "The standard numpy.broadcast_shapes(*shapes) gives the same shape, as a tuple (a MindSpore shape is "
        "a tuple).",
        "标准库 numpy.broadcast_shapes(*shapes) 给出相同的形状，结果为元组（MindSpore 的形状就是元组）。",
    ),
    "advice.note.affine_transform": (
        "Use mindspore.nn.probability.bijector.ScalarAffine(scale, shift): torch's loc is shift; forward(x) "
        "is shift + scale * x and inverse(y) undoes it, as torch's transform does.",
        "使用 mindspore.nn.probability.bijector.ScalarAffine(scale, shift)：torch 的 loc 对应 shift；"
        "forward(x) 为 shift + scale * x，inverse(y) 为其逆变换，与 torch 的变换相同。",
    ),
    "advice.note.exp_transform": (
        "Use mindspore.nn.probability.bijector.Exp(): forward(x) is exp(x) and inverse(y) is log(y), as "
        "torch's transform does.",
        "使用 mindspore.nn.probability.bijector.Exp()：forward(x) 为 exp(x)，inverse(y) 为 log(y)，"
        "与 torch 的变换相同。",
    ),
    "advice.note.typing_alias": (
        "It is the standard typing.{name} itself: import {name} from typing.",
        "它就是标准库的 typing.{name}：改为从 typing 导入 {name}。",
    ),
    "advice.note.is_nested": (
        "MindSpore has no nested tensors: x.is_nested is always False there; keep the code for ordinary "
        "tensors.",
        "MindSpore 没有嵌套张量：x.is_nested 在 MindSpore 中恒为 False；保留处理普通张量的代码。",
    ),
    "advice.note.device_type": (
        "The kind of device, as a string: a MindSpore tensor's device is already a string (x.device is "
        "'CPU'), and the process's device is mindspore.get_context(\"device_target\") ('CPU', 'GPU' or "
        "'Ascend'; torch's 'cuda' is 'GPU').",
        "设备的种类（字符串）：MindSpore 张量的 device 本身就是字符串（x.device 为 'CPU'），进程所用设备为 "
        "mindspore.get_context(\"device_target\")（'CPU'、'GPU' 或 'Ascend'；torch 的 'cuda' 对应 'GPU'）。",
    ),
}
