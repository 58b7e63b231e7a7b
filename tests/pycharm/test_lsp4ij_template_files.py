"""The LSP4IJ template files: valid by LSP4IJ's documented fields and consistent with the server."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import jsonschema
import pytest
from lsp4ij_support import (
    REPO,
    SCHEMA_DIR,
    TEMPLATE_DIR,
    expand_macros,
    load,
    program_args,
    server_argv,
    split_command,
)

from msmigrate.lsp.config import DEFAULT_SEVERITY, Settings

TEMPLATE_FILES = {
    "template.json": "template.schema.json",
    "clientSettings.json": "clientSettings.schema.json",
    "initializationOptions.json": "initializationOptions.schema.json",
}


def schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


def test_the_template_folder_holds_the_files_lsp4ij_imports() -> None:
    assert sorted(p.name for p in TEMPLATE_DIR.iterdir()) == [
        "README.md",
        "clientSettings.json",
        "initializationOptions.json",
        "settings.json",
        "settings.schema.json",
        "template.json",
    ]


@pytest.mark.parametrize("name", sorted(TEMPLATE_FILES))
def test_template_file_matches_its_schema(name: str) -> None:
    checker = schema(TEMPLATE_FILES[name])
    jsonschema.Draft7Validator.check_schema(checker)
    jsonschema.validate(load(name), checker)


def test_settings_json_matches_the_templates_own_schema() -> None:
    settings_schema = load("settings.schema.json")
    jsonschema.Draft7Validator.check_schema(settings_schema)
    jsonschema.validate(load("settings.json"), settings_schema)


@pytest.mark.parametrize(
    ("document", "schema_name"),
    [
        ({"name": "x", "programArgs": {"default": "python3 -m msmigrate serve"}}, "template.schema.json"),
        ({"id": "x", "name": "x", "programArgs": {"linux": "a"}}, "template.schema.json"),
        (
            {
                "id": "x",
                "name": "x",
                "programArgs": {"default": "a"},
                "fileTypeMappings": [{"languageId": "p"}],
            },
            "template.schema.json",
        ),
        ({"uriSupport": {"encoded": "yes"}}, "clientSettings.schema.json"),
        ({"completions": {}}, "clientSettings.schema.json"),
    ],
)
def test_the_schemas_reject_what_lsp4ij_cannot_read(document: dict, schema_name: str) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, schema(schema_name))


def test_settings_schema_rejects_values_the_server_would_ignore() -> None:
    settings_schema = load("settings.schema.json")
    for bad in (
        {"msmigrate": {"mindsporeVersion": "3.0"}},
        {"msmigrate": {"severity": {"missing": "fatal"}}},
        {"msmigrate": {"device": "TPU"}},
        {"msmigrate": {"codeLens": "yes"}},
        {"msmigrate": {"unknownSetting": 1}},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, settings_schema)


def test_settings_json_holds_the_servers_defaults() -> None:
    section = load("settings.json")["msmigrate"]
    parsed = Settings.from_dict(section)
    assert parsed.problems == ()
    assert parsed == Settings()
    assert section["severity"] == DEFAULT_SEVERITY


def test_settings_schema_agrees_with_the_vscode_contribution() -> None:
    """Same names, value sets and defaults as client-vscode/package.json (ARCHITECTURE.md's list)."""
    package = json.loads((REPO / "client-vscode" / "package.json").read_text(encoding="utf-8"))
    contributed = package["contributes"]["configuration"]["properties"]
    props = load("settings.schema.json")["properties"]["msmigrate"]["properties"]
    flattened = {k: v for k, v in props.items() if k != "severity"}
    flattened.update({f"severity.{k}": v for k, v in props["severity"]["properties"].items()})
    client_only = {"msmigrate.interpreter", "msmigrate.importStrategy", "msmigrate.trace.server"}
    assert {f"msmigrate.{k}" for k in flattened} == set(contributed) - client_only
    for key, prop in flattened.items():
        vscode = contributed[f"msmigrate.{key}"]
        assert prop.get("enum") == vscode.get("enum"), key
        assert prop["default"] == vscode["default"], key
        assert prop["type"] == vscode["type"], key


def test_program_args_start_the_server_on_every_os() -> None:
    template = load("template.json")
    assert split_command(program_args(template, "linux")) == ["python3", "-P", "-m", "msmigrate", "serve"]
    assert split_command(program_args(template, "darwin")) == ["python3", "-P", "-m", "msmigrate", "serve"]
    assert split_command(program_args(template, "win32")) == ["python", "-P", "-m", "msmigrate", "serve"]


def test_command_lines_from_the_readme_split_as_lsp4ij_splits_them(tmp_path: Path) -> None:
    project = tmp_path / "my project"
    home = Path("/home/user")
    command = expand_macros('"$PROJECT_DIR$/.venv/bin/python" -m msmigrate serve', project, home)
    assert split_command(command) == [
        f"{project}/.venv/bin/python",
        "-m",
        "msmigrate",
        "serve",
    ]
    windows = r'"C:\Users\me\my project\.venv\Scripts\python.exe" -m msmigrate serve'
    assert split_command(windows) == [
        r"C:\Users\me\my project\.venv\Scripts\python.exe",
        "-m",
        "msmigrate",
        "serve",
    ]
    assert expand_macros("$USER_HOME$/py/bin/python", project, home) == "/home/user/py/bin/python"
    assert expand_macros("$UNKNOWN$/x", project, home) == "$UNKNOWN$/x"


def test_python_files_are_mapped_by_language_and_by_file_type() -> None:
    template = load("template.json")
    assert template["languageMappings"] == [{"language": "Python", "languageId": "python"}]
    (mapping,) = template["fileTypeMappings"]
    assert mapping["languageId"] == "python" and "*.py" in mapping["fileType"]["patterns"]


def test_template_command_never_imports_from_the_project_folder(tmp_path: Path) -> None:
    """LSP4IJ starts the server in the project folder: a repository's ``msmigrate/`` must not run."""

    marker = tmp_path / "ran"
    planted = tmp_path / "project" / "msmigrate"
    planted.mkdir(parents=True)
    for name in ("__init__.py", "__main__.py"):
        (planted / name).write_text(f"open({str(marker)!r}, 'a').write('planted')\n", encoding="utf-8")
    argv = server_argv(tmp_path / "project", tmp_path)
    requests = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
                {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"}]
    payload = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
                       for body in (json.dumps(r).encode() for r in requests))
    completed = subprocess.run(argv, input=payload, capture_output=True, timeout=60, cwd=planted.parent,
                               env=os.environ)
    assert b'"serverInfo": {"name": "msmigrate"' in completed.stdout, completed.stderr
    assert not marker.exists()
