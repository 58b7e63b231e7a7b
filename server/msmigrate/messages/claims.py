"""Messages of the claims the code around a usage decides (``analysis/usage_claims.py``,
``knowledge/pair_facts.py``): details of a finding's message."""

MESSAGES: dict[str, tuple[str, str]] = {
    "analysis.detail.base_forward": (
        "{cls} defines forward, which a Cell does not run: it runs construct (rename forward, MSM501)",
        "{cls} 定义的是 forward，而 Cell 不会调用它：Cell 调用的是 construct"
        "（请将 forward 重命名，见 MSM501）",
    ),
    "analysis.detail.var_keyword_refused": (
        "passes {items} through {names}, which {mindspore_api} does not accept (TypeError: unexpected "
        "keyword argument): leave them out of the dict",
        "通过 {names} 传入了 {mindspore_api} 不接受的 {items}（TypeError：unexpected keyword argument）："
        "请从该字典中去掉这些键",
    ),
    "analysis.detail.pair.device_str": (
        "MindSpore's Tensor.device is a str ('CPU', 'GPU', 'Ascend'), not a device object: .type and .index "
        "fail",
        "MindSpore 的 Tensor.device 是字符串（'CPU'、'GPU'、'Ascend'），不是设备对象：.type 与 .index 会出错",
    ),
    "fix.blocked.var_keyword": (
        "No automatic fix for {torch_api}: {value} passes '{param}', which {mindspore_api} does not accept; "
        "leave it out of the dict.",
        "{torch_api} 无法自动修复：{value} 传入了 {mindspore_api} 不接受的 '{param}'；请从该字典中去掉它。",
    ),
}
