"""pygls's private internals are used in one module, lsp/protocol.py, written for one pygls version."""

from __future__ import annotations

import ast
import importlib.metadata
from pathlib import Path

from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.workspace import Workspace

from msmigrate.lsp import protocol
from msmigrate.lsp.server import MsMigrateServer

LSP_DIR = Path(protocol.__file__).parent


def test_pygls_is_the_version_the_adapter_was_written_for():
    # a new pygls: re-check every private name protocol.py uses, then move PYGLS_VERSION
    assert importlib.metadata.version("pygls") == protocol.PYGLS_VERSION


def test_the_private_names_the_adapter_uses_exist():
    for name in ("_send_data", "_send_response", "_execute_handler", "_send_handler_result"):
        assert callable(getattr(LanguageServerProtocol, name)), name
    server = MsMigrateServer()
    for name in ("_request_futures", "_result_types", "_shutdown", "_converter", "_server", "_workspace"):
        assert hasattr(server.protocol, name), name
    assert hasattr(server, "_stop_event") and hasattr(server, "_server")
    assert isinstance(server, LanguageServer)
    assert hasattr(Workspace(None), "_sync_kind")


def private_uses(path: Path) -> list[str]:
    """``x._name`` where ``x`` is not ``self``/``cls`` (own privates are fine; another object's are not)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            if ast.unparse(node) == "os._exit":  # public (documented) despite its name: lsp/process_end.py
                continue
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    return found


def test_no_module_but_the_adapter_reaches_into_private_internals():
    outside = [use for path in sorted(LSP_DIR.glob("*.py")) if path.name != "protocol.py"
               for use in private_uses(path)]
    assert outside == []
    assert "workspace._sync_kind" in " ".join(private_uses(LSP_DIR / "protocol.py"))
