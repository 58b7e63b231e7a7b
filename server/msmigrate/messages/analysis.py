"""Messages of the source analysis: per-file errors and the API-usage findings."""

MESSAGES: dict[str, tuple[str, str]] = {
    # --- files that cannot be analysed -------------------------------------------------------------
    "analysis.binary_file": (
        "Not analysed: the file contains NUL bytes (binary data, not Python source).",
        "未分析：文件包含 NUL 字节（二进制数据，不是 Python 源代码）。",
    ),
    "analysis.unknown_encoding": (
        "Not analysed: the file declares an encoding Python does not know ({detail}).",
        "未分析：文件声明了 Python 不认识的编码（{detail}）。",
    ),
    "analysis.decode_error": (
        "Not analysed: the file is not valid {encoding} text (first bad byte on line {line}). Save it as "
        "UTF-8 or declare its encoding with a coding comment.",
        "未分析：文件不是有效的 {encoding} 文本（第 {line} 行起出现无法解码的字节）。请以 UTF-8 保存，"
        "或用编码声明注释标明其编码。",
    ),
    "analysis.too_complex": (
        "Not analysed: the code is nested too deeply to analyse.",
        "未分析：代码嵌套过深，无法分析。",
    ),
    "analysis.internal_error": (
        "Not analysed: internal error in the analyzer ({detail}). Please report it.",
        "未分析：分析器内部错误（{detail}），请反馈该问题。",
    ),
    # --- files analysed in part (syntax error recovered) ---------------------------------------------
    "analysis.recovered": (
        "Syntax error at line {line}: {detail}. Findings come from the parts of the file that parse and "
        "may be incomplete.",
        "第 {line} 行有语法错误：{detail}。检查结果仅来自文件中可以解析的部分，可能不完整。",
    ),
    "analysis.files_with_syntax_errors": ("Files with syntax errors", "有语法错误的文件"),
    # --- API-usage findings ------------------------------------------------------------------------
    # one finding per position: the facts of the findings it stands for (``also``: message references)
    "analysis.also": ("{message} Also: {also:messages}", "{message}另：{also:messages}"),
    "analysis.api.consistent": (
        "{torch_api} → {mindspore_api}: same behaviour; replacing the name is enough.",
        "{torch_api} → {mindspore_api}：功能一致，替换接口名即可。",
    ),
    # ``form``: one reference to an "analysis.form.*" fragment (the overload the call's arguments select)
    "analysis.api.consistent_form": (
        "{torch_api} {form:messages} → {mindspore_api}: same behaviour; replacing the name is enough.",
        "{torch_api}（{form:messages}）→ {mindspore_api}：功能一致，替换接口名即可。",
    ),
    # ``details``: references to the "analysis.detail.*" fragments below (see i18n's ``:messages``)
    "analysis.api.differences": (
        "{torch_api} → {mindspore_api} ({details:messages}).",
        "{torch_api} → {mindspore_api}（{details:messages}）。",
    ),
    "analysis.api.missing": (
        "{torch_api} has no MindSpore equivalent in the MindSpore {version} mapping table.",
        "MindSpore {version} 映射表中没有 {torch_api} 的对应接口。",
    ),
    "analysis.api.unknown": (
        "{torch_api} is not a known PyTorch API: a typo, a removed API, or a package the API inventory "
        "does not cover.",
        "{torch_api} 不是已知的 PyTorch 接口：可能是拼写错误、已移除的接口，或接口清单未覆盖的包。",
    ),
    "analysis.api.unknown_suggest": (
        "{torch_api} is not a known PyTorch API. Did you mean {suggestion}?",
        "{torch_api} 不是已知的 PyTorch 接口。您是否想使用 {suggestion}？",
    ),
    "analysis.api.possible": (
        "{name}() may be {torch_api}: the receiver's type is unknown, but the name and arguments fit the "
        "Tensor method. If it is a tensor, it maps to {mindspore_api}.",
        "{name}() 可能是 {torch_api}：无法确定调用对象的类型，但方法名和参数符合该 Tensor 方法。"
        "若它是张量，对应 {mindspore_api}。",
    ),
    "analysis.api.possible_unmapped": (
        "{name}() may be {torch_api}: the receiver's type is unknown, but the name and arguments fit the "
        "Tensor method, which has no MindSpore mapping.",
        "{name}() 可能是 {torch_api}：无法确定调用对象的类型，但方法名和参数符合该 Tensor 方法，"
        "而该方法没有 MindSpore 映射。",
    ),
    "analysis.api.data_processing": (
        "{torch_api} is data processing: keep it in NumPy, PIL or OpenCV, or move it to mindspore.dataset.",
        "{torch_api} 属于数据处理：可继续用 NumPy、PIL 或 OpenCV 实现，或迁移到 mindspore.dataset。",
    ),
    "analysis.api.data_processing_mapped": (
        "{torch_api} is data processing; the mapping table suggests {mindspore_api}.",
        "{torch_api} 属于数据处理；映射表建议使用 {mindspore_api}。",
    ),
    # --- fragments of the "differences" message (joined with "common.list_separator") ---------
    "analysis.detail.renames": ("parameter names differ: {items}", "参数名不同：{items}"),
    "analysis.detail.input_renames": ("input names differ: {items}", "输入名不同：{items}"),
    "analysis.detail.torch_only": ("not supported by MindSpore: {items}", "MindSpore 不支持：{items}"),
    "analysis.detail.mindspore_only": ("MindSpore-only parameters: {items}", "MindSpore 独有参数：{items}"),
    "analysis.detail.defaults": ("different defaults: {items}", "默认值不同：{items}"),
    "analysis.detail.param_names": ("parameter names differ", "参数名不同"),
    "analysis.detail.default_values": ("default values differ", "默认值不同"),
    "analysis.detail.data_types": ("parameter data types differ", "参数数据类型不同"),
    "analysis.detail.param_count_order": (
        "the number or order of parameters differs",
        "参数个数或顺序不同",
    ),
    "analysis.detail.no_verbose": ("MindSpore has no verbose parameter", "MindSpore 没有 verbose 参数"),
    "analysis.detail.no_inplace": ("MindSpore has no inplace parameter", "MindSpore 没有 inplace 参数"),
    "analysis.detail.other_difference": ("behaviour differs", "行为存在差异"),
    "analysis.detail.diff_page": ("see the difference page", "请参阅差异对比页面"),
    # --- facts of one call, checked against the installed MindSpore signature ----------------------
    "analysis.detail.call_renames": (
        "keywords to rename: {items}",
        "需改名的关键字参数：{items}",
    ),
    "analysis.detail.call_positional": (
        "arguments passed by position land on other MindSpore parameters ({items}): pass them by keyword",
        "按位置传入的参数会落到 MindSpore 的其他参数上（{items}）：请改用关键字传参",
    ),
    "analysis.detail.call_packed": (
        "torch takes these values as separate arguments, MindSpore as one tuple: {items}",
        "torch 将这些值作为多个参数传入，MindSpore 则接受一个元组：{items}",
    ),
    "analysis.detail.call_unsupported": (
        "passes {items}, which MindSpore does not accept",
        "传入了 MindSpore 不接受的参数：{items}",
    ),
    "analysis.detail.call_dropped": (
        "MindSpore has no {items} (the value passed can be dropped)",
        "MindSpore 没有 {items}（传入的值可以去掉）",
    ),
    "analysis.detail.call_out_of_place": (
        "{items} dropped: the result is computed out of place, with the same values",
        "去掉 {items}：结果以非原地方式计算，数值相同",
    ),
    "analysis.detail.call_var_keyword": (
        "MindSpore takes **kwargs here: {items} not checked against its signature",
        "MindSpore 此处接受 **kwargs：{items} 未能按其签名核对",
    ),
    "analysis.detail.call_defaults": (
        "left out, the default differs: {items}",
        "未传入且默认值不同：{items}",
    ),
    "analysis.detail.call_companion": (
        "MindSpore needs {items} to compute what torch does",
        "MindSpore 需传入 {items} 才与 torch 计算一致",
    ),
    "analysis.detail.call_value_meaning": (
        "MindSpore means these values otherwise; written in its meaning: {items}",
        "MindSpore 对这些取值的含义不同，按其含义改写：{items}",
    ),
    "analysis.detail.call_inferred_dtype": (
        "torch infers the dtype from the value passed, MindSpore has a fixed default: pass {items}",
        "torch 根据传入的值推断 dtype，而 MindSpore 的默认值固定：请传入 {items}",
    ),
    "analysis.detail.call_dtype_not_inferred": (
        "torch infers the dtype from the value passed, MindSpore uses {dtype} unless {param}= is passed: "
        "pass the dtype torch gets",
        "torch 根据传入的值推断 dtype，而 MindSpore 在未传入 {param}= 时使用 {dtype}："
        "请传入 torch 得到的 dtype",
    ),
    "analysis.detail.call_forms.class_indices": (
        "{mindspore_api} takes the {param} of its instance's call as int32 class indices (int64 raises a "
        "TypeError) or as float class probabilities: the fix writes {param}.int() for integer labels at the "
        "calls of the instance it sees; elsewhere cast them by hand",
        "{mindspore_api} 的实例调用只接受 int32 类别索引（int64 会抛出 TypeError）或浮点类别概率作为 "
        "{param}：修复会在它能看到的实例调用处为整数标签写出 {param}.int()；其余调用处请手动转换",
    ),
    "analysis.detail.call_value_forms": (
        "MindSpore takes or returns these values in another form (int32 indices, a Tensor for a number, "
        "a tuple of outputs, a list on every rank): {items}",
        "MindSpore 接受或返回的这些值形式不同（int32 索引、以 Tensor 传入的数值、"
        "多个输出组成的元组、每个进程都须传入的列表）：{items}",
    ),
    "analysis.detail.call_value_type": (
        "values of another type in MindSpore: {items}",
        "MindSpore 中取值类型不同：{items}",
    ),
    # --- overloads chosen by the call's arguments ---------------------------------------------------
    "analysis.form.other": ("with two tensors (element-wise)", "传入两个张量（逐元素）"),
    "analysis.form.dim": ("along an axis (reduction)", "沿某一轴（归约）"),
    "analysis.form.full": ("over all elements (full reduction)", "对全部元素（完全归约）"),
}
