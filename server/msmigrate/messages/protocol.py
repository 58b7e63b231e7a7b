"""Messages of the JSON-RPC / LSP lifecycle guards (``lsp/protocol.py``)."""

MESSAGES = {
    "lsp.protocol.invalid_params": (
        "Invalid params for {method}: {detail}",
        "{method} 的参数无效：{detail}",
    ),
    "lsp.protocol.not_initialized": (
        "{method}: the server is not initialized yet (send initialize first)",
        "{method}：服务器尚未初始化（请先发送 initialize）",
    ),
    "lsp.protocol.initialized_twice": (
        "The server is already initialized; a second initialize is rejected",
        "服务器已初始化，拒绝第二次 initialize",
    ),
    "lsp.protocol.after_shutdown": (
        "{method}: the server is shutting down (only exit is accepted)",
        "{method}：服务器正在关闭（只接受 exit）",
    ),
    "lsp.protocol.bad_arguments": (
        "Invalid arguments for {command}: {detail}",
        "{command} 的参数无效：{detail}",
    ),
    "lsp.settings.rejected": (
        "msmigrate settings not applied (the previous ones stay): {detail}",
        "未应用 msmigrate 设置（保留之前的设置）：{detail}",
    ),
}
