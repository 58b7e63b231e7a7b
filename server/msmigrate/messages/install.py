"""Messages about the installed package: its knowledge base missing or damaged, ``msmigrate --version``."""

MESSAGES: dict[str, tuple[str, str]] = {
    "kb.error.missing": (
        "msmigrate's knowledge base is missing: {path} does not exist. Reinstall msmigrate (its wheel and "
        "source package carry the knowledge base), or set MSMIGRATE_DATA_DIR to a folder holding it (the "
        "mapping_data folder of a source checkout).",
        "msmigrate 的知识库缺失：{path} 不存在。请重新安装 msmigrate（其 wheel 包和源码包都自带知识库），"
        "或将环境变量 MSMIGRATE_DATA_DIR 设为存放知识库的目录（源码仓库中的 mapping_data 目录）。",
    ),
    "kb.error.damaged": (
        "msmigrate's knowledge base is damaged: {path} cannot be read ({detail}). Reinstall msmigrate, or "
        "set MSMIGRATE_DATA_DIR to an intact copy of the knowledge base.",
        "msmigrate 的知识库已损坏：无法读取 {path}（{detail}）。请重新安装 msmigrate，"
        "或将环境变量 MSMIGRATE_DATA_DIR 设为完好的知识库目录。",
    ),
    "kb.version.inventories": (
        "knowledge base: the APIs of PyTorch {torch} and MindSpore {mindspore}",
        "知识库：PyTorch {torch} 与 MindSpore {mindspore} 的接口",
    ),
    "kb.version.tables": ("mapping tables: MindSpore {tables}", "映射表：MindSpore {tables}"),
    "kb.version.table": ("{version} ({release})", "{version}（{release}）"),
    "kb.version.separator": (", ", "、"),
    "kb.version.data": ("data folder: {path}", "数据目录：{path}"),
    "kb.version.unknown": ("unknown", "未知"),
}
