"""Fix titles of the forms met on the model corpus (``fixes/container_fixes.py``,
``fixes/graph_form_fixes.py``, ``fixes/string_annotation_fixes.py``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "fix.generator_listed": (
        "Pass the modules as a list (mindspore.nn.CellList takes no generator)",
        "以列表传入各模块（mindspore.nn.CellList 不接受生成器）",
    ),
    "fix.graph_form": (
        "Write it as {form}, which runs in GRAPH_MODE too with the same result",
        "改写为 {form}，在 GRAPH_MODE 下同样可运行且结果相同",
    ),
    "fix.string_annotation": (
        "Write the annotation with MindSpore's names: \"{text}\"",
        "用 MindSpore 的名称书写该注解：\"{text}\"",
    ),
}
