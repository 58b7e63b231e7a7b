"""Settings: ``initializationOptions``, then ``workspace/configuration`` (pulled after ``initialized``
and on every ``workspace/didChangeConfiguration``); a change re-publishes diagnostics."""

from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types

from msmigrate.i18n import t
from msmigrate.lsp.analysis import knowledge_problem, warm_up
from msmigrate.lsp.config import Settings, initialization_section
from msmigrate.lsp.server import MsMigrateServer

SECTION = "msmigrate"


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


class SettingsSync:
    def __init__(self, server: MsMigrateServer) -> None:
        self.server = server
        self.initial: dict[str, Any] = {}
        self.tasks: set[asyncio.Task[None]] = set()  # running tasks (kept from the garbage collector)

    def adopt(self, section: Any) -> None:
        """Apply a settings section; one with an invalid value is rejected as a whole (the current
        settings stay, the user is told which values were wrong)."""
        problems = Settings.from_dict(section).problems if isinstance(section, dict) else ()
        if problems:
            self.reject(problems)
            return
        data = _merge(self.initial, section) if isinstance(section, dict) else self.initial
        if self.server.apply_settings(Settings.from_dict(data)):
            for hook in self.server.on_settings_changed:
                try:
                    hook()
                except Exception as exc:
                    self.server.report_failure("settings change", exc)

    def reject(self, problems: tuple[str, ...]) -> None:
        server = self.server
        message = t("lsp.settings.rejected", server.lang, detail="; ".join(problems))
        server.log(message, types.MessageType.Warning)
        try:
            server.window_show_message(types.ShowMessageParams(types.MessageType.Warning, message))
        except Exception:  # no client connected (unit use)
            pass

    async def pull(self) -> None:
        server = self.server
        if not server.client_supports("workspace", "configuration"):
            return
        try:
            result = await server.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
            )
        except Exception as exc:
            server.report_failure("workspace/configuration", exc)
            return
        self.adopt(result[0] if result else None)


async def report_knowledge_problem(server: MsMigrateServer) -> None:
    """A missing or damaged knowledge base is said once, as an error message (after the warm-up, on the
    analysis thread); the server keeps running, each document's diagnostic says it too."""
    loop = asyncio.get_running_loop()
    try:
        problem = await loop.run_in_executor(server.analysis_executor, knowledge_problem,
                                             server.settings.mindspore_version)
        if problem is None or server.shutting_down:
            return
        message = t(problem.key, server.lang, **problem.fields)
        server.log(message, types.MessageType.Error)
        server.window_show_message(types.ShowMessageParams(types.MessageType.Error, message))
    except Exception as exc:  # (the executor already shut down): nothing to say
        server.report_failure("knowledge base check", exc)


def register(server: MsMigrateServer) -> None:
    sync = SettingsSync(server)

    @server.feature(types.INITIALIZE)
    @server.guarded("initialize")
    def initialize(ls: MsMigrateServer, params: types.InitializeParams) -> None:
        sync.initial = initialization_section(params.initialization_options)
        server.apply_settings(Settings.from_dict(sync.initial))
        server.analysis_executor.submit(warm_up, server.settings)  # before the first document comes

    @server.feature(types.INITIALIZED)
    @server.guarded("initialized")
    async def initialized(ls: MsMigrateServer, params: types.InitializedParams) -> None:
        server.log(t("lsp.log.started", "en", version=server.version, mindspore=server.kb.version))
        await sync.pull()
        # a task of its own: ``initialized`` must end at once (pygls cancels handlers still running at
        # ``shutdown``, and fails on one that is a notification's)
        sync.tasks.add(task := asyncio.get_running_loop().create_task(report_knowledge_problem(server)))
        task.add_done_callback(sync.tasks.discard)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @server.guarded("workspace/didChangeConfiguration")
    async def did_change_configuration(
        ls: MsMigrateServer, params: types.DidChangeConfigurationParams
    ) -> None:
        pushed = params.settings.get(SECTION) if isinstance(params.settings, dict) else None
        if isinstance(pushed, dict) and not server.client_supports("workspace", "configuration"):
            sync.adopt(pushed)
        else:
            await sync.pull()
