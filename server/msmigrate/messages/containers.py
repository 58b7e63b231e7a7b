"""Fix titles of the container forms (``fixes/container_fixes.py``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "fix.generator_listed": (
        "Pass the modules as a list (mindspore.nn.CellList takes no generator)",
        "以列表传入各模块（mindspore.nn.CellList 不接受生成器）",
    ),
}
