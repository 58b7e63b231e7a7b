"""Messages of ``msmigrate dev`` (steps for msmigrate's own developers)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "dev.help.check": (
        "Write nothing; exit 1 when a generated file differs from what would be written.",
        "不写入文件；若某个生成文件与应生成的内容不同则以 1 退出。",
    ),
    "dev.help.root": ("Repository root (default: the checkout msmigrate runs from).",
                      "仓库根目录（默认：msmigrate 所在的源码目录）。"),
    "dev.no_repository": (
        "msmigrate does not run from a source checkout: pass --root.",
        "msmigrate 不是从源码目录运行的：请用 --root 指定仓库根目录。",
    ),
    "dev.stale": (
        "{path} is stale: run `msmigrate dev generate`.",
        "{path} 已过期：请运行 `msmigrate dev generate`。",
    ),
    "dev.wrote": ("Wrote {path}", "已写入 {path}"),
    "dev.help.new_rule_family": ("The rule's family package under rules/.", "规则所属的 rules/ 下的族包。"),
    "dev.help.new_rule_fix": ("Also write a fixer, its safety and a test of its output.",
                              "同时生成修复函数、其安全性声明及其输出的测试。"),
    "dev.new_rule.bad_id": ("{rule} is not a rule id (MSM followed by three digits).",
                            "{rule} 不是规则编号（MSM 加三位数字）。"),
    "dev.new_rule.bad_name": ("{name} is not a rule name (lower case letters, digits and _).",
                              "{name} 不是规则名（小写字母、数字和 _）。"),
    "dev.new_rule.bad_family": ("{family} is not a rule family ({families}).",
                                "{family} 不是规则族（{families}）。"),
    "dev.new_rule.wrong_family": ("{rule} is not in the {family} family ({ids}).",
                                  "{rule} 不属于 {family} 规则族（{ids}）。"),
    "dev.new_rule.no_family": ("The {family} family has no package yet ({path}/__init__.py).",
                               "{family} 规则族还没有包（{path}/__init__.py）。"),
    "dev.new_rule.taken": ("{rule} already has a file: {path}", "{rule} 已有文件：{path}"),
    "dev.new_rule.next": (
        "Replace every TODO in both files, then run: pytest -q {test} tests/rules tests/core/test_i18n.py",
        "替换两个文件中的所有 TODO，然后运行：pytest -q {test} tests/rules tests/core/test_i18n.py",
    ),
}
