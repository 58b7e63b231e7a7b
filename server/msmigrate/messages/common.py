"""Messages shared by several areas."""

MESSAGES: dict[str, tuple[str, str]] = {
    "common.error": ("Error: {detail}", "错误：{detail}"),
    # joins the parts of a ``{name:messages}`` field (i18n.t_list)
    "common.list_separator": ("; ", "；"),
}
