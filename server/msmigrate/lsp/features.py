"""The server with every feature registered: the core feature modules, imported here, then the optional
ones, imported by name (one that fails to load is left out with a warning: it must not stop the server).
Each feature module exports ``register(server)`` and imports ``lsp/server.py``, never this module."""

from __future__ import annotations

import importlib
import logging

from msmigrate.lsp import code_actions, code_lens, commands, diagnostics, hover, settings_sync
from msmigrate.lsp.server import MsMigrateServer

log = logging.getLogger(__name__)

CORE_FEATURES = (diagnostics, hover, code_actions, commands, code_lens, settings_sync)  # in this order
OPTIONAL_FEATURES = ("check_feature", "compare_feature")  # modules of lsp/


def create_server() -> MsMigrateServer:
    """A server with every feature registered."""
    server = MsMigrateServer()
    for feature in CORE_FEATURES:
        feature.register(server)
    for name in OPTIONAL_FEATURES:
        try:
            register = getattr(importlib.import_module(f"msmigrate.lsp.{name}"), "register", None)
            if register is not None:
                register(server)
        except Exception as exc:
            log.warning("optional feature %s not loaded: %s", name, exc)
    return server
