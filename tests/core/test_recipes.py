"""The recipes of ``docs/ARCHITECTURE.md`` stay true.

Every file a recipe names exists (a ``<placeholder>`` matches at least one file), every table a recipe places
in a file (```NAME` of `path```) is there, and two recipes are carried out here: a report format and a
command-line command are added exactly as their recipe says — one row in the source of the module that
holds the table, read by a fresh interpreter — and everything the recipe promises follows from that row.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
# where a path a recipe names starts (others are spelled relative to server/msmigrate/ in prose)
ROOTS = ("server/", "client-vscode/", "client-pycharm/", "tests/", "docs/", "mapping_data/", "benchmarks/")
OWN_RECIPES = ("A composition", "A report format", "An editor command", "A setting", "A command-line command",
               "Mapping data from a new source")


def recipes(text: str) -> dict[str, str]:
    """Title → text of each ``- **Title.**`` item of the "Recipes" section."""
    section = text.split("\n## Recipes", 1)[1].split("\n## ", 1)[0]
    found = {}
    for item in re.split(r"\n(?=- \*\*)", section):
        match = re.match(r"- \*\*(.+?)\*\*", item)
        if match:
            found[match.group(1).rstrip(".")] = re.sub(r"\s+", " ", item)
    return found


def named_paths(text: str) -> list[str]:
    return [token for token in re.findall(r"`([^`\s]+)`", text) if token.startswith(ROOTS)]


def placed_names(text: str) -> list[tuple[str, str]]:
    """``(name, path)`` for each ```NAME` of `path``` or ```NAME` in `path``` whose path is a file."""
    pairs = re.findall(r"`([A-Za-z_][\w.]*)` (?:of|in) `([^`\s]+)`", text)
    return [(name, path) for name, path in pairs if path.startswith(ROOTS) and "<" not in path]


def exists(path: str) -> bool:
    if "<" not in path and "NNN" not in path:
        return (ROOT / path).exists()
    pattern = re.sub(r"<[^>]+>", "*", path).replace("NNN", "[0-9][0-9][0-9]")  # msmNNN_<name>.py
    return any(ROOT.glob(pattern.rstrip("/")))


def test_the_recipes_are_there():
    found = recipes(ARCHITECTURE.read_text(encoding="utf-8"))
    assert [title for title in OWN_RECIPES if title not in found] == []


def test_every_path_a_recipe_names_exists():
    found = recipes(ARCHITECTURE.read_text(encoding="utf-8"))
    missing = [(title, path) for title, text in found.items() for path in named_paths(text)
               if not exists(path)]
    assert missing == []
    assert sum(len(named_paths(found[title])) for title in OWN_RECIPES) > 30


def test_every_table_a_recipe_places_in_a_file_is_there():
    found = recipes(ARCHITECTURE.read_text(encoding="utf-8"))
    absent = [(title, name, path) for title, text in found.items() for name, path in placed_names(text)
              if not (ROOT / path).is_file() or not re.search(
                  rf"\b{re.escape(name.rpartition('.')[2])}\b", (ROOT / path).read_text(encoding="utf-8"))]
    assert absent == []


@pytest.mark.parametrize(
    ("text", "paths", "names"),
    [
        ("a row in `COMMANDS` of `server/msmigrate/cli/__init__.py` and `cli/x.py`",
         ["server/msmigrate/cli/__init__.py"], [("COMMANDS", "server/msmigrate/cli/__init__.py")]),
        ("`Settings.from_dict` of `server/msmigrate/lsp/config.py`, `server/msmigrate/reports/<module>.py`",
         ["server/msmigrate/lsp/config.py", "server/msmigrate/reports/<module>.py"],
         [("Settings.from_dict", "server/msmigrate/lsp/config.py")]),
    ],
)
def test_paths_and_names_are_read_from_a_recipe(text, paths, names):
    assert (named_paths(text), placed_names(text)) == (paths, names)


def test_a_missing_file_or_table_is_noticed():
    assert exists("server/msmigrate/reports/<module>.py")
    assert not exists("server/msmigrate/reports/<module>.rs")
    assert not exists("server/msmigrate/reports/gone.py")


def run_with_row(tmp_path: Path, module: str, after: str, row: str, extra: dict[str, str],
                 script: str) -> dict:
    """Run ``script`` in a fresh interpreter where ``module``'s source has ``row`` inserted after the line
    ``after`` (the one edit a recipe asks for there) and ``extra`` files sit on ``sys.path``; it prints
    JSON."""
    path = ROOT / "server" / Path(*module.split(".")) / "__init__.py"
    source = path.read_text(encoding="utf-8")
    assert after in source, after
    for name, text in extra.items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    prelude = textwrap.dedent(f"""
        import importlib.util, json, sys
        sys.path.insert(0, {str(tmp_path)!r})
        spec = importlib.util.spec_from_file_location({module!r}, {str(path)!r},
                                                      submodule_search_locations=[{str(path.parent)!r}])
        mod = importlib.util.module_from_spec(spec)
        sys.modules[{module!r}] = mod
        code = {source.replace(after, after + chr(10) + row, 1)!r}
        exec(compile(code, {str(path)!r}, "exec"), mod.__dict__)
    """)
    done = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(script)], capture_output=True,
                          text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_report_format_needs_its_module_and_one_row(tmp_path):
    """The report-format recipe: a renderer module and one ``ReportFormat`` row; the CLI, ``render``, the
    editor's export suffix and the generated client list follow (``dev generate`` writes the last)."""
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "m.py").write_text("import torch\nx = torch.abs(torch.ones(2))\n",
                                               encoding="utf-8")
    found = run_with_row(
        tmp_path, "msmigrate.reports", "REPORT_FORMATS: dict[str, ReportFormat] = {",
        '    "tiny": ReportFormat("tiny_format:render_tiny", "tny", "Tiny", 6),',
        {"tiny_format.py": """
            def render_tiny(report, lang):
                return f"tiny {lang}: {sum(len(f.findings) for f in report.files)} findings\\n"
         """},
        """
        from click.testing import CliRunner
        from msmigrate.cli import main
        from msmigrate.contract.generate import protocol_ts
        from msmigrate.lsp.commands import FORMAT_SUFFIX
        from msmigrate.reports import FORMATS, render
        from msmigrate.scan import ScanOptions, scan_paths

        report = scan_paths(["project"], ScanOptions(use_cache=False))
        cli = CliRunner().invoke(main, ["scan", "project", "--format", "tiny", "--lang", "zh", "--no-cache"])
        print(json.dumps({"formats": list(FORMATS), "render": render(report, "tiny", "en"),
                          "cli": [cli.exit_code, cli.output], "suffix": FORMAT_SUFFIX.get("tiny"),
                          "client": [line.strip() for line in protocol_ts().splitlines() if "Tiny" in line
                                     or line.strip().startswith("tiny:")]}))
        """)
    assert found == {
        "formats": ["tiny", "text", "json", "csv", "html", "sarif", "markdown"],
        "render": "tiny en: 2 findings\n", "cli": [0, "tiny zh: 2 findings\n"], "suffix": "tny",
        "client": ['{ id: "tiny", label: "Tiny", extension: "tny" },', 'tiny: "tny",'],
    }


def test_a_command_line_command_needs_its_module_and_one_row(tmp_path):
    """The command-line recipe: a click command in its own module and one row in ``COMMANDS``."""
    found = run_with_row(
        tmp_path, "msmigrate.cli", "COMMANDS: dict[str, str] = {", '    "tiny": "tiny_cmd:tiny",',
        {"tiny_cmd.py": """
            import click

            @click.command()
            @click.argument("name")
            def tiny(name):
                \"\"\"Say hello.\"\"\"
                click.echo(f"hello {name}")
         """},
        """
        from click.testing import CliRunner
        from msmigrate.cli import main

        ran = CliRunner().invoke(main, ["tiny", "torch"])
        listed = CliRunner().invoke(main, ["--help"])
        print(json.dumps({"ran": [ran.exit_code, ran.output],
                          "listed": [line.split()[0] for line in listed.output.splitlines()
                                     if line.startswith("  tiny")]}))
        """)
    assert found == {"ran": [0, "hello torch\n"], "listed": ["tiny"]}
