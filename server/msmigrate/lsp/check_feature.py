"""Equivalence check in the editor: a code action on mapped findings and ``msmigrate.checkEquivalence``.

The check runs in a worker subprocess (see :mod:`msmigrate.check.runner`) driven from a thread of
its own, never on the event loop; progress is reported with ``$/progress``, the verdict with
``window/showMessage``, and hover shows the latest result through
:func:`msmigrate.knowledge.verified.record_session_result`.

A ``pythonPath`` setting is a program the server would start, and settings can come from a workspace
(a cloned repository's editor settings): it is used only when it names an existing Python interpreter
(:func:`msmigrate.check.interpreter.interpreter_problem`) and once the user confirmed it through
``window/showMessageRequest`` (:mod:`msmigrate.lsp.consent`: asked once per interpreter and session;
declined: the check does not run).
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lsprotocol import types

from msmigrate.contract.commands import (
    CHECK_EQUIVALENCE,
    CheckEquivalenceArguments,
    CheckEquivalenceReply,
    ErrorReply,
)
from msmigrate.i18n import t
from msmigrate.lsp.consent import allowed_interpreter
from msmigrate.lsp.server import AnalyzedDocument, MsMigrateServer

COMMAND = CHECK_EQUIVALENCE
ACTION_KIND = "quickfix.msmigrate.checkEquivalence"


class CheckService:
    """One reusable worker per (interpreter, device), driven from a single thread."""

    def __init__(self, server: MsMigrateServer) -> None:
        self.server = server
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="msmigrate-check")
        self._runner: Any = None
        self._key: tuple[str | None, str] | None = None
        self._lock = threading.Lock()
        self.numpy_warned: set[str] = set()  # interpreters whose unusable NumPy the user was told about

    def _runner_for(self, python: str | None, device: str) -> Any:
        from msmigrate.check.runner import CheckRunner, RunnerConfig

        with self._lock:
            if self._runner is None or self._key != (python, device):
                if self._runner is not None:
                    self._runner.close()
                self._runner = CheckRunner(RunnerConfig(python=python))
                self._key = (python, device)
            return self._runner

    def reset(self) -> None:
        """Settings changed: the next check starts a fresh worker. Never waits: the old runner is closed
        in a thread of its own once the check it may be running ends."""
        with self._lock:
            old, self._runner, self._key = self._runner, None, None
        if old is not None:
            threading.Thread(target=old.close, name="msmigrate-check-close", daemon=True).start()

    def run(self, api: str, call_args: list[str] | None, call_kwargs: dict[str, str] | None,
            python: str | None = None) -> Any:
        """Blocking: check ``api`` against the configured table on the configured device, in the worker
        interpreter ``python`` (default: the server's own). Always a result: a failure of the check
        machinery is an ``error`` result, not a failing handler."""
        from msmigrate.check.service import check_one, resolved_target
        from msmigrate.knowledge.check_result import CheckResult, Reason
        from msmigrate.knowledge.verified import record_session_result

        settings = self.server.settings
        kb = self.server.kb
        try:  # the pair the fix writes on the device (knowledge/resolution.py)
            target, version = resolved_target(kb.canonical(api), kb, settings.device)
            runner = self._runner_for(python, settings.device)
            result = check_one(
                target, runner, device=settings.device, call_args=call_args, call_kwargs=call_kwargs
            )
        except Exception as exc:  # noqa: BLE001 - reported as the check's result
            return CheckResult.error(api, None, Reason.WORKER_CRASH, f"{type(exc).__name__}: {exc}",
                                     device=settings.device)
        if version is not None:  # (a derived pair's check has no table to be recorded in)
            record_session_result(result, version, target.spec.note)
        return result


def _is_mapped(finding: Any) -> bool:
    return bool(finding.torch_api and finding.mindspore_api)


def check_actions(
    server: MsMigrateServer, analysis: AnalyzedDocument, params: types.CodeActionParams
) -> list[types.CodeAction]:
    """One "Check equivalence" action per mapped finding in the requested range."""
    start = analysis.index.from_lsp(params.range.start)
    end = analysis.index.from_lsp(params.range.end)
    title = t("check.action.title", server.lang, device=server.settings.device)
    actions: list[types.CodeAction] = []
    seen: set[tuple[str, int, int]] = set()
    for finding in analysis.result.findings:
        if not _is_mapped(finding):
            continue
        if not ((finding.line, finding.column) <= end and start <= (finding.end_line, finding.end_column)):
            continue
        key = (finding.torch_api, finding.line, finding.column)
        if key in seen:
            continue
        seen.add(key)
        argument = {
            "api": finding.torch_api,
            "uri": analysis.uri,
            "line": finding.line,
            "column": finding.column,
        }
        actions.append(
            types.CodeAction(
                title=title,
                kind=ACTION_KIND,
                command=types.Command(title=title, command=COMMAND, arguments=[argument]),
            )
        )
    return actions


def warn_about_numpy(server: MsMigrateServer, service: CheckService, result: Any, python: str | None) -> None:
    """A warning message (once per interpreter and session) when the worker's NumPy is one MindSpore
    cannot use."""
    import sys

    from msmigrate.check.numpy_support import numpy_warning

    interpreter = python or sys.executable
    warning = numpy_warning([result], server.lang, interpreter)
    if warning is None or interpreter in service.numpy_warned:
        return
    service.numpy_warned.add(interpreter)
    server.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=warning))


def _message_type(status: str) -> types.MessageType:
    return {
        "pass": types.MessageType.Info,
        "skipped": types.MessageType.Info,
        "fail": types.MessageType.Warning,
    }.get(status, types.MessageType.Error)


def register(server: MsMigrateServer) -> None:
    service = server.session.keep(CheckService(server))
    server.on_settings_changed.append(service.reset)
    server.code_action_providers.append(check_actions)  # offered beside lsp/code_actions.py's

    @server.command(COMMAND)
    @server.guarded(COMMAND)
    async def check_equivalence(
        ls: MsMigrateServer, args: CheckEquivalenceArguments
    ) -> CheckEquivalenceReply | ErrorReply:
        from msmigrate.check.call_site import call_args_at
        from msmigrate.knowledge.check_render import describe, summary

        api = args.api
        if api is None or not api.strip():
            return {"error": t("check.lsp.no_api", server.lang)}
        python = server.settings.python_path
        if python is not None:
            refused = await allowed_interpreter(server, python)
            if refused is not None:
                return {"error": refused}
        call_args: list[str] | None = None
        call_kwargs: dict[str, str] | None = None
        uri, line, column = args.uri, args.line, args.column
        doc = server.document(uri) if uri is not None else None
        if doc is not None and line is not None and column is not None:
            found = call_args_at(doc.source, line, column)
            if found is not None:
                call_args, call_kwargs = found.args, found.kwargs

        device = server.settings.device
        token = f"msmigrate-check-{uuid.uuid4()}"
        progress = server.client_supports("window", "work_done_progress")
        if progress:
            try:
                await server.work_done_progress.create_async(token)
                server.work_done_progress.begin(
                    token,
                    types.WorkDoneProgressBegin(
                        title=t("check.progress.title", server.lang, api=api, device=device),
                        cancellable=False,
                    ),
                )
            except Exception as exc:  # the client refused: check without progress
                server.report_failure("window/workDoneProgress/create", exc)
                progress = False
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(
                service.executor, service.run, api.strip(), call_args, call_kwargs, python
            )
        finally:
            if progress:
                server.work_done_progress.end(token, types.WorkDoneProgressEnd())
                server.work_done_progress.tokens.pop(token, None)
        text = describe(result, server.lang, python=python or "")
        warn_about_numpy(server, service, result, python)
        server.window_show_message(
            types.ShowMessageParams(type=_message_type(str(result.status)), message=text)
        )
        return {
            "result": result.to_json(),
            "summary": summary(result, server.lang),
            "message": text,
        }
