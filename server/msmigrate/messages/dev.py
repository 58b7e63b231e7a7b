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
}
