"""Messages of the knowledge base: `msmigrate data …` and `msmigrate lookup`."""

MESSAGES: dict[str, tuple[str, str]] = {
    "kb.build.no_sources": (
        "No mapping sources found in {path}: expected <release>/en/pytorch_api_mapping.md folders "
        "such as r2.4.10/.",
        "在 {path} 中找不到映射表源文件：应包含 r2.4.10/ 等 <版本>/en/pytorch_api_mapping.md 目录。",
    ),
    "kb.build.failed": ("Could not build the mapping data: {detail}", "无法生成映射数据：{detail}"),
    "kb.build.wrote": ("Wrote {path}", "已写入 {path}"),
    "kb.stats.title": ("Mapping data", "映射数据"),
    "kb.stats.version": ("MindSpore version", "MindSpore 版本"),
    "kb.stats.rows": ("Rows", "行数"),
    "kb.stats.diff_pages": ("Difference pages", "差异对比页"),
    "kb.stats.param_renames": ("Parameter renames", "参数改名"),
    "kb.stats.unsupported_params": ("Unsupported parameters", "不支持的参数"),
    "kb.stats.inventories": (
        "API inventories: {torch} torch names, {mindspore} MindSpore names.",
        "API 清单：torch 接口 {torch} 个，MindSpore 接口 {mindspore} 个。",
    ),
}
