"""Fix titles of the idioms met on the model corpus (``fixes/add_module_fixes.py``,
``fixes/device_default_fixes.py``, the ``cell_parameters`` rewrite of ``fixes/rewrites.py``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "fix.add_module_helper": (
        "Add the child with {module}.add_module, which names its parameters by their path in the network "
        "(as torch's add_module) and runs it in a SequentialCell",
        "改用 {module}.add_module 添加子 Cell：按其在网络中的路径为参数命名（与 torch 的 add_module 相同），"
        "并在 SequentialCell 中执行它",
    ),
    "fix.sequential_attribute": (
        "Add the layer with {module}.add_module: a SequentialCell runs only the cells it was given, while "
        "torch's Sequential also runs a module set as an attribute",
        "改用 {module}.add_module 添加该层：SequentialCell 只执行构造时传入的 Cell，而 torch 的 Sequential "
        "也会执行以属性方式设置的模块",
    ),
    "fix.device_default": (
        "Default to {value}: MindSpore places tensors on the device mindspore.set_device selects",
        "默认值改为 {value}：MindSpore 将张量放在 mindspore.set_device 选定的设备上",
    ),
    "fix.pattern.cell_parameters": (
        "Rewrite as parameters_and_names() (the names are MindSpore's: gamma/beta in normalization layers)",
        "改写为 parameters_and_names()（名称为 MindSpore 的参数名：归一化层为 gamma/beta）",
    ),
}
