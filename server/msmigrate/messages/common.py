"""Messages shared by several areas."""

MESSAGES: dict[str, tuple[str, str]] = {
    "common.error": ("Error: {detail}", "错误：{detail}"),
}
