"""What LSP4IJ does with our template, reproduced for the tests.

* :func:`program_args` picks ``programArgs`` for the OS the way LSP4IJ's template reader does (the OS key
  ``windows``/``mac``/``unix``, else ``default``);
* :func:`expand_macros` expands the IntelliJ path macros a command line may use (``$PROJECT_DIR$``,
  ``$USER_HOME$`` …), as ``ProgramParametersUtil.expandPathAndMacros`` does; unknown macros stay;
* :func:`split_command` splits it into argv like LSP4IJ's ``CommandUtils.createCommands``: spaces
  separate arguments except inside double quotes, and the quotes themselves are dropped;
* :func:`lsp4ij_capabilities` is the client capabilities LSP4IJ announces (``ClientCapabilitiesFactory``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types

REPO = Path(__file__).resolve().parents[2]
TEMPLATE_DIR = REPO / "client-pycharm" / "lsp4ij-template"
SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"


def load(name: str) -> Any:
    return json.loads((TEMPLATE_DIR / name).read_text(encoding="utf-8"))


def os_key(platform: str = sys.platform) -> str:
    if platform.startswith("win"):
        return "windows"
    if platform == "darwin":
        return "mac"
    return "unix"


def program_args(template: dict[str, Any], platform: str = sys.platform) -> str:
    args = template["programArgs"]
    return args.get(os_key(platform)) or args["default"]


def expand_macros(command: str, project_dir: Path, user_home: Path) -> str:
    values = {
        "$PROJECT_DIR$": str(project_dir),
        "$ProjectFileDir$": str(project_dir),
        "$ProjectName$": project_dir.name,
        "$USER_HOME$": str(user_home),
        "$UserHome$": str(user_home),
    }
    for macro, value in values.items():
        command = command.replace(macro, value)
    return command


def split_command(command: str) -> list[str]:
    args: list[str] = []
    part: list[str] = []
    quoted = False
    for char in command:
        if char == '"':
            quoted = not quoted
        elif char == " " and not quoted:
            if "".join(part).strip():
                args.append("".join(part).strip())
            part = []
        else:
            part.append(char)
    if "".join(part).strip():
        args.append("".join(part).strip())
    return args


def server_argv(project_dir: Path, user_home: Path, platform: str = sys.platform) -> list[str]:
    """The argv LSP4IJ starts from template.json, with the interpreter swapped for this test's Python."""
    argv = split_command(expand_macros(program_args(load("template.json"), platform), project_dir, user_home))
    if Path(argv[0]).name in ("python", "python3", "python.exe"):
        argv[0] = sys.executable
    return argv


def lsp4ij_capabilities(*, pull_diagnostics: bool = False) -> types.ClientCapabilities:
    """LSP4IJ's announced capabilities (the parts a server can act on); newer LSP4IJ adds pull diagnostics."""
    kinds = [
        types.CodeActionKind.QuickFix,
        types.CodeActionKind.Refactor,
        types.CodeActionKind.RefactorExtract,
        types.CodeActionKind.RefactorInline,
        types.CodeActionKind.RefactorRewrite,
        types.CodeActionKind.Source,
        types.CodeActionKind.SourceOrganizeImports,
    ]
    return types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            apply_edit=True,
            configuration=True,
            symbol=types.WorkspaceSymbolClientCapabilities(),
            execute_command=types.ExecuteCommandClientCapabilities(dynamic_registration=True),
            workspace_folders=True,
            workspace_edit=types.WorkspaceEditClientCapabilities(
                document_changes=True,
                resource_operations=[
                    types.ResourceOperationKind.Create,
                    types.ResourceOperationKind.Delete,
                    types.ResourceOperationKind.Rename,
                ],
            ),
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True),
            did_change_configuration=types.DidChangeConfigurationClientCapabilities(
                dynamic_registration=True
            ),
            inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=True),
            semantic_tokens=types.SemanticTokensWorkspaceClientCapabilities(refresh_support=True),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
            if pull_diagnostics
            else None,
        ),
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(
                will_save=True, will_save_wait_until=True, did_save=True
            ),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True,
                tag_support=types.ClientDiagnosticsTagOptions(
                    value_set=[types.DiagnosticTag.Unnecessary, types.DiagnosticTag.Deprecated]
                ),
                code_description_support=True,
                data_support=True,
            ),
            diagnostic=types.DiagnosticClientCapabilities() if pull_diagnostics else None,
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(value_set=kinds)
                ),
                dynamic_registration=True,
                data_support=True,
                resolve_support=types.ClientCodeActionResolveOptions(properties=["edit"]),
            ),
            code_lens=types.CodeLensClientCapabilities(),
            hover=types.HoverClientCapabilities(
                content_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText]
            ),
            completion=types.CompletionClientCapabilities(
                completion_item=types.ClientCompletionItemOptions(snippet_support=True)
            ),
            definition=types.DefinitionClientCapabilities(link_support=True),
            document_symbol=types.DocumentSymbolClientCapabilities(hierarchical_document_symbol_support=True),
            formatting=types.DocumentFormattingClientCapabilities(dynamic_registration=True),
            rename=types.RenameClientCapabilities(prepare_support=True),
        ),
        window=types.WindowClientCapabilities(
            show_document=types.ShowDocumentClientCapabilities(support=True),
            work_done_progress=True,
            show_message=types.ShowMessageRequestClientCapabilities(),
        ),
    )
