"""The ``msmigrate`` command line: a thin shell over the core library.

Each command lives in its own module and is imported only when it runs, so ``msmigrate lookup``
does not pay for the language server's imports.
"""

from __future__ import annotations

import importlib

import click

from msmigrate.cli.knowledge_errors import guard
from msmigrate.cli.version_info import print_version

# command name → "module:attribute" of a click command
COMMANDS: dict[str, str] = {
    "lookup": "msmigrate.cli.lookup_cmd:lookup",
    "data": "msmigrate.cli.data_cmd:data",
    "scan": "msmigrate.cli.scan_cmd:scan",
    "rules": "msmigrate.cli.rules_cmd:rules",
    "serve": "msmigrate.cli.serve_cmd:serve",
    "check": "msmigrate.cli.check_cmd:check",
    "fix": "msmigrate.cli.fix_cmd:fix",
    "convert-weights": "msmigrate.cli.convert_weights_cmd:convert_weights",
    "compare": "msmigrate.cli.compare_cmd:compare",
    "dev": "msmigrate.cli.dev_cmd:dev",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        return guard(getattr(importlib.import_module(module_name), attr))


@click.group(cls=LazyGroup)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=print_version,
              help="Show msmigrate's version and what its knowledge base covers, then exit.")
def main() -> None:
    """Migrate PyTorch code to MindSpore: look up APIs, scan projects, serve editors."""
