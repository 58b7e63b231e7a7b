"""Messages of the API inventories and of ``msmigrate data inventory`` / ``data validate``."""

MESSAGES: dict[str, tuple[str, str]] = {
    "inventory.generated": (
        "Wrote {path}: {count} {package} {version} APIs.",
        "已写入 {path}：{package} {version} 共 {count} 个接口。",
    ),
    "inventory.not_installed": (
        "{package} is not installed in this Python environment ({detail}); "
        "install it (pip install 'msmigrate[check]') to regenerate its inventory.",
        "当前 Python 环境未安装 {package}（{detail}）；"
        "请先安装（pip install 'msmigrate[check]'）再重新生成其接口清单。",
    ),
    "inventory.check.renamed": (
        "`msmigrate data check` is now `msmigrate data validate` (\"check\" names the equivalence checker, "
        "`msmigrate check`); the old name still works for now.",
        "`msmigrate data check` 已更名为 `msmigrate data validate`"
        "（“check”专指等价性检查 `msmigrate check`）；旧名称暂时仍可使用。",
    ),
    "inventory.check.header": (
        "Mapping tables checked against the inventories of torch {torch} and MindSpore {mindspore}.",
        "已将映射表与 torch {torch} 和 MindSpore {mindspore} 的接口清单进行比对。",
    ),
    "inventory.check.version": (
        "MindSpore {version} table: {rows} rows; {missing_mindspore} MindSpore targets not found, "
        "{missing_torch} torch APIs not found, {unverified_torch} torchvision/torchaudio/torchtext APIs "
        "not verifiable.",
        "MindSpore {version} 映射表：共 {rows} 行；{missing_mindspore} 个 MindSpore 目标接口不存在，"
        "{missing_torch} 个 torch 接口不存在，"
        "{unverified_torch} 个 torchvision/torchaudio/torchtext 接口无法核实。",
    ),
    "inventory.check.missing_mindspore": (
        "MindSpore targets absent from the installed MindSpore ({count}):",
        "已安装的 MindSpore 中不存在的目标接口（{count} 个）：",
    ),
    "inventory.check.missing_torch": (
        "torch APIs absent from the torch wheel ({count}):",
        "torch 安装包中不存在的 torch 接口（{count} 个）：",
    ),
    "inventory.check.corrected_torch": (
        "torch names the table misspells in letter case, read as the torch API they name ({count}):",
        "映射表中大小写拼错的 torch 接口名，已按其所指的 torch 接口读取（{count} 个）：",
    ),
    "inventory.check.unverified_torch": (
        "Names of packages not installed beside torch, not verifiable ({count}):",
        "未与 torch 一同安装的包中的接口，无法核实（{count} 个）：",
    ),
    "inventory.check.rejected_renames": (
        "Parameter renames the installed MindSpore signature rejects ({count}); the analysis and the "
        "quick-fix do as stated:",
        "已安装的 MindSpore 签名不接受的参数改名（{count} 个）；分析与快速修复按所注方式处理：",
    ),
    "inventory.check.resolution.keep": (
        "MindSpore takes the torch name: no rename",
        "MindSpore 接受 torch 的参数名：无需改名",
    ),
    "inventory.check.resolution.use": ("renamed to {name} instead", "改为 {name}"),
    "inventory.check.resolution.drop": (
        "no such MindSpore parameter: the rename is dropped",
        "MindSpore 没有该参数：不做此改名",
    ),
}
