"""Titles and explanations of the rules (see msmigrate/rules/)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM100.title": (
        "PyTorch API with a consistent MindSpore equivalent",
        "PyTorch API 有功能一致的 MindSpore 对应接口",
    ),
    "rule.MSM100.explanation": (
        "The official mapping table lists a MindSpore API that behaves the same for the same arguments. "
        "Replacing the name is enough.",
        "官方映射表给出了一个在相同参数下行为一致的 MindSpore 接口，只需替换接口名即可。",
    ),
    "rule.MSM101.title": (
        "PyTorch API whose MindSpore equivalent differs",
        "PyTorch API 的 MindSpore 对应接口存在差异",
    ),
    "rule.MSM101.explanation": (
        "The mapped MindSpore API differs in parameter names, defaults, data types, parameter order, "
        "or behaviour. Check the listed differences before replacing the call.",
        "映射到的 MindSpore 接口在参数名、默认值、数据类型、参数顺序或行为上存在差异，"
        "替换调用前请核对所列差异。",
    ),
    "rule.MSM102.title": (
        "Call that may be a torch.Tensor method",
        "可能是 torch.Tensor 方法的调用",
    ),
    "rule.MSM102.explanation": (
        "The receiver's type could not be inferred, but the method name and arguments fit a torch.Tensor "
        "method. If the receiver is a tensor, migrate it like the Tensor method.",
        "无法推断调用对象的类型，但方法名和参数符合 torch.Tensor 的方法。"
        "若调用对象是张量，请按 Tensor 方法迁移。",
    ),
    "rule.MSM103.title": (
        "Name not found in the PyTorch API",
        "在 PyTorch API 中找不到该名称",
    ),
    "rule.MSM103.explanation": (
        "This torch name is not in the inventory of the installed PyTorch release: it may be a typo or an "
        "API that was removed.",
        "该 torch 名称不在 PyTorch 接口清单中：可能是拼写错误，或该接口已被移除。",
    ),
    "rule.MSM104.title": (
        "torch left that no rule rewrites",
        "残留的 torch 用法，没有规则可以改写",
    ),
    "rule.MSM104.explanation": (
        "The file still needs torch here, in a form no other rule covers: a torch module reached by a name "
        "computed at run time (getattr, hasattr, importlib), a string annotation naming torch, "
        "torch.__version__, or a torch-only module of another package (einops.layers.torch). A file with "
        "such a place does not import without torch: rewrite it by hand. Also a torch.nn.Module member "
        "used on a class that became a MindSpore Cell, which lacks it (self.zero_grad()): the file no "
        "longer names torch, but the call fails when it runs.",
        "此处仍需要 torch，且没有其他规则覆盖这种写法：通过运行时计算的名称访问 torch 模块"
        "（getattr、hasattr、importlib）、提到 torch 的字符串类型注解、torch.__version__，"
        "或其他包中只适用于 torch 的模块（如 einops.layers.torch）。"
        "含有此类用法的文件在没有 torch 时无法导入：请手工改写。"
        "另外，在已改为 MindSpore Cell 的类上使用 Cell 没有的 torch.nn.Module 成员（如 self.zero_grad()）"
        "也属此类：文件虽已不再提到 torch，但该调用运行时会失败。",
    ),
    "rule.MSM200.title": (
        "PyTorch API with no MindSpore mapping",
        "PyTorch API 没有 MindSpore 映射",
    ),
    "rule.MSM200.explanation": (
        "The API exists in PyTorch but the mapping table has no MindSpore equivalent. Replace it with an "
        "equivalent computation, compose it from mapped APIs, write a custom operator, or ask the "
        "MindSpore community.",
        "该接口存在于 PyTorch 中，但映射表中没有 MindSpore 对应接口。可用等价计算替换、用已映射接口组合实现、"
        "开发自定义算子，或向 MindSpore 社区求助。",
    ),
    "rule.MSM600.title": (
        "Data-processing API",
        "数据处理接口",
    ),
    "rule.MSM600.explanation": (
        "Data loading and preprocessing are outside the network API analysis. Keep them in NumPy, PIL or "
        "OpenCV, or move them to mindspore.dataset.",
        "数据加载与预处理不在网络接口分析范围内。可继续使用 NumPy、PIL 或 OpenCV 实现，"
        "或迁移到 mindspore.dataset。",
    ),
}
