"""Asking the user before the server runs something a workspace chose: the interpreter of ``pythonPath``
(the equivalence check, the model comparison) and the model files a ``[[tool.msmigrate.compare]]`` table
names. Settings and ``pyproject.toml`` come with a cloned repository, so nothing of theirs runs until the
user answered "Run" to a ``window/showMessageRequest`` (en/zh). A yes is kept for the session
(``Session.confirmed``), per thing asked about; no, a dismissed question or a client without message
requests: nothing runs.
"""

from __future__ import annotations

from collections.abc import Hashable

from lsprotocol import types

from msmigrate.check.interpreter import interpreter_problem
from msmigrate.i18n import t
from msmigrate.lsp.server import MsMigrateServer


async def confirmed(server: MsMigrateServer, key: Hashable, message: str, run_key: str,
                    cancel_key: str) -> bool:
    """Whether the user allows ``key`` (asked with ``message`` unless allowed before in this session)."""
    if key in server.session.confirmed:
        return True
    run, cancel = t(run_key, server.lang), t(cancel_key, server.lang)
    params = types.ShowMessageRequestParams(
        type=types.MessageType.Warning,
        message=message,
        actions=[types.MessageActionItem(title=run), types.MessageActionItem(title=cancel)],
    )
    try:
        choice = await server.window_show_message_request_async(params)
    except Exception as exc:  # a client without message requests: not confirmed
        server.report_failure("window/showMessageRequest", exc)
        choice = None
    if choice is not None and choice.title == run:
        server.session.confirmed.add(key)
        return True
    return False


async def allowed_interpreter(
    server: MsMigrateServer,
    python: str,
    confirm_key: str = "check.python.confirm",
    declined_key: str = "check.python.declined",
) -> str | None:
    """``None`` when ``python`` (the ``pythonPath`` setting) may run workers, else the message saying why
    not (also shown). It must name an existing interpreter, and the user must have confirmed it."""
    problem = interpreter_problem(python)
    if problem is None:
        message = t(confirm_key, server.lang, python=python)
        allowed = await confirmed(server, ("python", python), message, "check.python.run",
                                  "check.python.cancel")
        if not allowed:
            problem = declined_key
    if problem is None:
        return None
    message = t(problem, server.lang, python=python)
    server.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=message))
    return message
