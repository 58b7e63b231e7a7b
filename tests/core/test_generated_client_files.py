"""`msmigrate dev generate`: the clients' copies of the server's settings, commands and lists are current,
byte-identical on a rerun, and `--check` fails on a stale one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from msmigrate.cli import main
from msmigrate.contract import generate
from msmigrate.contract.commands import as_object, positional_problem
from msmigrate.contract.settings import LSP4IJ, SETTINGS
from msmigrate.lsp.config import Settings
from msmigrate.model.finding import FindingCategory

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    """The generated files (and the manifests they are spliced into) in a scratch repository."""
    for relative in generate.outputs(ROOT):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / relative, tmp_path / relative)
    return tmp_path


def test_checked_in_files_are_current():
    assert generate.stale(ROOT) == []
    result = CliRunner().invoke(main, ["dev", "generate", "--check", "--root", str(ROOT)])
    assert result.exit_code == 0, result.output


def test_check_names_a_stale_file_and_generate_restores_it_byte_for_byte(copy: Path):
    schema = copy / generate.LSP4IJ_SCHEMA
    original = schema.read_bytes()
    schema.write_text(original.decode().replace('"2.4",', '"2.5",'), encoding="utf-8")
    checked = CliRunner().invoke(main, ["dev", "generate", "--check", "--root", str(copy)])
    assert checked.exit_code == 1
    assert checked.output == (
        "client-pycharm/lsp4ij-template/settings.schema.json is stale: run `msmigrate dev generate`.\n"
    )
    written = CliRunner().invoke(main, ["dev", "generate", "--root", str(copy)])
    assert written.exit_code == 0
    assert written.output == "Wrote client-pycharm/lsp4ij-template/settings.schema.json\n"
    assert schema.read_bytes() == original
    assert CliRunner().invoke(main, ["dev", "generate", "--root", str(copy)]).output == ""


def test_manifest_parts_the_generator_does_not_own_are_kept(copy: Path):
    manifest = copy / generate.PACKAGE_JSON
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["contributes"]["commands"][0]["title"] = "%command.other%"
    del data["contributes"]["configuration"]["properties"]["msmigrate.device"]
    manifest.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    generate.write(copy)
    regenerated = json.loads(manifest.read_text(encoding="utf-8"))
    assert regenerated["contributes"]["commands"][0]["title"] == "%command.other%"
    assert regenerated["contributes"]["configuration"]["properties"]["msmigrate.device"] == {
        "type": "string",
        "enum": ["CPU", "GPU", "Ascend"],
        "default": "CPU",
        "scope": "resource",
        "markdownDescription": "%config.device%",
    }


def test_every_category_has_a_severity_setting_in_both_clients():
    categories = [c.value for c in FindingCategory]
    schema = generate.lsp4ij_schema()["properties"]["msmigrate"]["properties"]["severity"]["properties"]
    assert list(schema) == categories
    vscode = generate.vscode_configuration()["properties"]
    assert [k.removeprefix("msmigrate.severity.") for k in vscode if ".severity." in k] == categories
    assert "msmigrate.severity.sparse" in vscode


def test_the_server_rejects_a_value_outside_each_settings_choices():
    for setting in SETTINGS:
        if LSP4IJ not in setting.clients or not setting.choices:
            continue
        *group, name = setting.key.split(".")
        section = {group[0]: {name: "bogus"}} if group else {name: "bogus"}
        assert Settings.from_dict(section).problems[0].startswith(setting.key), setting.key
        default = {group[0]: {name: setting.default}} if group else {name: setting.default}
        assert Settings.from_dict(default).problems == (), setting.key


def test_command_arguments_become_one_object():
    assert as_object("msmigrate.lookup", ["torch.abs", "ignored"]) == [{"name": "torch.abs"}]
    assert as_object("msmigrate.exportReport", ["json", "/w"]) == [{"format": "json", "path": "/w"}]
    assert as_object("msmigrate.scanProject", None) == [{}]
    assert as_object("msmigrate.scanFile", [{"uri": "file:///a.py", "other": 1}]) == [{"uri": "file:///a.py"}]
    assert as_object("msmigrate.checkEquivalence", ["torch.abs", "file:///a.py", 3, 5]) == [
        {"api": "torch.abs", "uri": "file:///a.py", "line": 3, "column": 5}
    ]
    assert as_object("other.command", ["x"]) == ["x"]
    assert positional_problem("msmigrate.lookup", [5]) == "[0]: int"
    assert positional_problem("msmigrate.checkEquivalence", ["torch.abs", None, "3"]) == "[2]: str"
    assert positional_problem("msmigrate.checkEquivalence", ["torch.abs", None, True]) == "[2]: bool"
    assert positional_problem("msmigrate.checkEquivalence", ["torch.abs", "u", 3, 5]) is None


def test_the_declared_max_file_size_default_is_the_servers():
    from msmigrate.contract.settings import SETTINGS
    from msmigrate.scan.options import DEFAULT_MAX_FILE_BYTES
    from msmigrate.scan.reading import parse_size

    (setting,) = [s for s in SETTINGS if s.key == "maxFileSize"]
    assert setting.default == "10MB"
    assert parse_size(setting.default) == DEFAULT_MAX_FILE_BYTES
