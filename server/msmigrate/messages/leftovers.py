"""Messages of torch left in a file (``analysis/leftovers.py``): the ``MSM104`` findings and the reasons
``msmigrate fix`` gives for each leftover of a fixed file."""

MESSAGES: dict[str, tuple[str, str]] = {
    "finding.MSM104.name": (
        "torch is still used here ({name}) and no rule rewrites it",
        "此处仍在使用 torch（{name}），且没有规则可以改写",
    ),
    "finding.MSM104.name.foreign": (
        "{name} comes from a torch-only module of another package: the file needs torch for it; use a "
        "form of that package that does not need torch",
        "{name} 来自其他包中只适用于 torch 的模块：文件因此依赖 torch；请改用该包中不依赖 torch 的写法",
    ),
    "finding.MSM104.import.foreign": (
        "{name} is a torch-only module of another package: importing it imports torch",
        "{name} 是其他包中只适用于 torch 的模块：导入它就会导入 torch",
    ),
    "finding.MSM104.dynamic": (
        "a torch module is reached by a name computed at run time ({name}): rewrite it with the MindSpore "
        "names it can take",
        "通过运行时计算的名称访问 torch 模块（{name}）：请改写为它可能取到的 MindSpore 名称",
    ),
    "finding.MSM104.string": (
        "the string annotation {name} names torch: write the MindSpore type",
        "字符串类型注解 {name} 提到了 torch：请改写为 MindSpore 类型",
    ),
    "finding.MSM104.version": (
        "torch's version is read here ({name}): check mindspore.__version__ or drop the check",
        "此处读取 torch 的版本（{name}）：请改为检查 mindspore.__version__，或删除该检查",
    ),
    "finding.MSM104.cell": (
        "{name}: mindspore.nn.Cell has no {member}; it is torch.nn.Module's, left after {cls} became a Cell "
        "(an AttributeError when it runs): write it with the Cell's own API or drop it",
        "{name}：mindspore.nn.Cell 没有 {member}；这是 {cls} 改为 Cell 后遗留的 torch.nn.Module 成员"
        "（运行时会抛出 AttributeError）：请改用 Cell 自己的接口，或删除该调用",
    ),
    "finding.MSM104.cell.target": (
        "{name}: mindspore.nn.Cell has no {member}; it is torch.nn.Module's, left after {cls} became a Cell "
        "(an AttributeError when it runs): MindSpore's counterpart is {target}",
        "{name}：mindspore.nn.Cell 没有 {member}；这是 {cls} 改为 Cell 后遗留的 torch.nn.Module 成员"
        "（运行时会抛出 AttributeError）：MindSpore 中对应的是 {target}",
    ),
    "leftover.reason.import": (
        "kept: torch is still used on lines {lines}",
        "保留：第 {lines} 行仍在使用 torch",
    ),
    "leftover.reason.import_one": (
        "kept: torch is still used on line {lines}",
        "保留：第 {lines} 行仍在使用 torch",
    ),
    "leftover.reason.import_unused": (
        "kept: nothing rewrote the import",
        "保留：没有修复移除该导入",
    ),
    "leftover.reason.unsafe": (
        "{rule}: fix not applied (not verified to keep the results; --unsafe-fixes applies it): {title}",
        "{rule}：未应用修复（未验证能保持结果一致；--unsafe-fixes 会应用）：{title}",
    ),
    "leftover.reason.by_hand": (
        "{rule}: fix not applied (a step must be done by hand): {title}",
        "{rule}：未应用修复（有一步需要手工完成）：{title}",
    ),
    "leftover.reason.finding": ("{rule}: {message}", "{rule}：{message}"),
    "leftover.reason.none": ("no rule covers this", "没有规则覆盖这种写法"),
}
