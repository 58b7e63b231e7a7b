"""JSON-RPC and LSP lifecycle guards, in one place (the pygls protocol the server runs on), and the one
adapter to pygls's private internals: nothing else in ``lsp/`` touches them (the functions at the end
serve the other modules). Written for pygls :data:`PYGLS_VERSION` (``tests/lsp/test_pygls_adapter.py``
pins it).

What pygls 2.1 leaves to the server:

* a request whose params do not fit the method's type is dropped with a traceback (no answer): here it
  is answered ``InvalidParams`` (-32602), a notification is dropped with a one-line log;
* requests before ``initialize`` are answered as usual: here ``ServerNotInitialized`` (-32002); a second
  ``initialize`` is rejected, and so is every request after ``shutdown`` (``InvalidRequest``, -32600);
* ``exit`` decides the exit code (0 after ``shutdown``, else 1) but raises it inside the event loop,
  where pygls swallows it: it is kept in :attr:`GuardedProtocol.exit_code`, and handed to
  :attr:`GuardedProtocol.on_exit` when that is set (``msmigrate serve`` over stdio ends the process there
  and then: ``lsp/process_end.py``);
* ``shutdown`` cancels the handlers still running while it iterates over their table, which the
  callback of a cancelled generator handler (an ``initialized`` or ``executeCommand`` still running)
  shrinks: pygls's fails with "dictionary changed size during iteration", leaving the server not shut
  down; here it iterates over a copy;
* ``workspace/executeCommand`` arguments reach the handlers as they came: here they are checked against
  :data:`ARGUMENT_TYPES` first (strings without NUL characters, the documented keys with their types),
  positional ones against the command's argument class, and then passed as one object
  (:func:`msmigrate.contract.commands.as_object`) that pygls structures into that class;
* an executeCommand's ``workDoneToken`` is not handed to the handler: here :func:`work_done_token` gives
  it, inside the handler's task.

The workspace is an :class:`~msmigrate.lsp.documents.LspWorkspace` (LSP's line model).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Generator
from contextvars import ContextVar
from typing import Any

import attrs
from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcServerNotInitialized,
)
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage

from msmigrate.contract.commands import COMMANDS, as_object, field_types, positional_problem
from msmigrate.i18n import t

log = logging.getLogger(__name__)
PYGLS_VERSION = "2.1.1"

# workspace/executeCommand: the keys an object argument may carry, with the types they must have (the
# fields of the commands' argument classes)
ARGUMENT_TYPES: dict[str, tuple[type, ...]] = {
    name: kinds for command in COMMANDS for name, kinds in field_types(command.arguments).items()
}
MAX_ARGUMENTS = 8


@attrs.define
class Malformed:
    """A message whose params do not fit its method (answered with an error when it is a request)."""

    id: Any
    method: str
    detail: str
    jsonrpc: str = "2.0"


def argument_problem(arguments: Any) -> str | None:
    """Why ``workspace/executeCommand`` arguments are unacceptable, or ``None``."""
    if arguments is None:
        return None
    if not isinstance(arguments, list | tuple) or len(arguments) > MAX_ARGUMENTS:
        return "arguments: not a short list"
    for index, value in enumerate(arguments):
        items = value.items() if isinstance(value, dict) else [(f"[{index}]", value)]
        for key, item in items:
            if item is None:
                continue
            expected = ARGUMENT_TYPES.get(key, (str,)) if isinstance(value, dict) else (str, int)
            if key not in ARGUMENT_TYPES and isinstance(value, dict):
                continue  # unknown keys are ignored by the handlers
            if not isinstance(item, expected) or isinstance(item, bool):
                return f"{key}: {type(item).__name__}"
            if isinstance(item, str) and "\x00" in item:
                return f"{key}: NUL character"
    return None


class GuardedProtocol(LanguageServerProtocol):
    """pygls's LSP protocol with the guards listed in the module docstring."""

    # pygls's workspace → the one the server uses (server.py: ``LspWorkspace.like``, LSP's line model)
    workspace_like: Callable[[Any], Any] = staticmethod(lambda workspace: workspace)

    def __init__(self, server: Any, converter: Any) -> None:
        super().__init__(server, converter)
        self.initialize_received = False
        self.exit_code: int | None = None
        # called with the exit code when ``exit`` arrives, instead of pygls's exit (it need not return)
        self.on_exit: Callable[[int], Any] | None = None

    # --- incoming messages ------------------------------------------------------------------------
    def structure_message(self, data: dict[str, Any]) -> Any:
        if "jsonrpc" not in data:
            return data
        try:
            if "id" in data and "error" in data:
                return self._converter.structure(data, types.ResponseErrorMessage)
            if "id" in data and "method" not in data:
                kind = self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
                try:
                    return self._converter.structure(data, kind)
                except Exception:  # a reply that does not fit: hand on what it holds
                    return self._converter.structure(data, JsonRPCResponseMessage)
            method = data.get("method")
            fallback = JsonRPCRequestMessage if "id" in data else JsonRPCNotification
            kind = (self.get_message_type(method) if isinstance(method, str) else None) or fallback
            return self._converter.structure(data, kind)
        except Exception as exc:
            detail = _first_line(exc)
            method = data.get("method")
            return Malformed(data.get("id"), method if isinstance(method, str) else "", detail)

    def handle_message(self, message: Any) -> None:
        method = getattr(message, "method", None)
        request_id = getattr(message, "id", None)
        is_request = method is not None and request_id is not None
        if isinstance(message, Malformed):
            log.warning("%s: malformed params (%s)", message.method or "message", message.detail)
            if is_request:
                self._reject(request_id, JsonRpcInvalidParams, "lsp.protocol.invalid_params",
                             method=method, detail=message.detail)
            return
        if is_request:
            if self._shutdown:
                self._reject(request_id, JsonRpcInvalidRequest, "lsp.protocol.after_shutdown", method=method)
                return
            if method == types.INITIALIZE:
                if self.initialize_received:
                    self._reject(request_id, JsonRpcInvalidRequest, "lsp.protocol.initialized_twice")
                    return
                self.initialize_received = True
            elif not self.initialize_received:
                self._reject(request_id, JsonRpcServerNotInitialized, "lsp.protocol.not_initialized",
                             method=method)
                return
        elif method is not None and method != types.EXIT and not self.initialize_received:
            log.warning("%s before initialize: dropped", method)
            return
        super().handle_message(message)

    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any, args: Any = None,
                         kwargs: Any = None) -> None:
        """pygls keeps the future of every handler it runs, but drops only those of requests (when it
        answers them): a notification's (each didOpen/didChange/didClose, and each step of its built-in
        handlers) stayed for good. Here it is dropped once done."""
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        answers = isinstance(callback, functools.partial) and callback.func == self._send_handler_result
        future = self._request_futures.get(msg_id)
        if future is not None and not answers:
            future.add_done_callback(lambda _done, key=msg_id: self._request_futures.pop(key, None))

    def _send_handler_result(self, future: Any, *, msg_id: Any) -> None:
        """A handler that rejected its params is answered with that error, without a traceback."""
        if not future.cancelled() and isinstance(future.exception(), JsonRpcInvalidParams):
            self._request_futures.pop(msg_id, None)
            self._send_response(msg_id, error=future.exception().to_response_error())
            return
        super()._send_handler_result(future, msg_id=msg_id)

    def _reject(self, request_id: Any, error: type[JsonRpcException], key: str, **fields: Any) -> None:
        lang = getattr(getattr(self._server, "settings", None), "language", "en")
        self._send_response(request_id, error=error(message=t(key, lang, **fields)).to_response_error())

    # --- lifecycle --------------------------------------------------------------------------------
    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Generator[Any, Any, types.InitializeResult]:
        steps = super().lsp_initialize(params)
        try:
            step = next(steps)  # pygls has made its workspace: give it LSP's line model
        except StopIteration as done:
            self._workspace = self.workspace_like(self.workspace)
            return done.value
        self._workspace = self.workspace_like(self.workspace)
        while True:
            value = yield step
            try:
                step = steps.send(value)
            except StopIteration as done:
                return done.value

    @lsp_method(types.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Generator[Any, Any, None]:
        """pygls's shutdown: the user handler, then every other handler still running is cancelled (over
        a copy of the table: a cancelled handler's callback removes it from the table) and no request is
        served any more."""
        if (handler := self.fm.features.get(types.SHUTDOWN)) is not None:
            yield handler, args, None
        current = self.msg_id
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current and not future.done():
                future.cancel()
        self._shutdown = True
        return None

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> Generator[Any, Any, None]:
        self.exit_code = 0 if self._shutdown else 1
        if self.on_exit is not None:
            self.on_exit(self.exit_code)
            return
        yield from super().lsp_exit(*args)

    @property
    def shutdown_received(self) -> bool:
        return self._shutdown

    # --- commands ---------------------------------------------------------------------------------
    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(self, params: types.ExecuteCommandParams) -> Generator[Any, Any, Any]:
        problem = argument_problem(params.arguments)
        if problem is None and params.arguments:
            problem = positional_problem(params.command, list(params.arguments))
        if problem is not None:
            lang = getattr(getattr(self._server, "settings", None), "language", "en")
            raise JsonRpcInvalidParams(
                message=t("lsp.protocol.bad_arguments", lang, command=params.command, detail=problem)
            )
        params = attrs.evolve(params, arguments=as_object(params.command, params.arguments))
        steps = super().lsp_workspace__execute_command(params)
        handler, args, kwargs = next(steps)
        if params.work_done_token is not None and asyncio.iscoroutinefunction(handler):
            handler = _with_work_done_token(handler, params.work_done_token)
        result = yield handler, args, kwargs
        try:
            steps.send(result)
        except StopIteration as done:
            return done.value
        return result


# the ``workDoneToken`` of the command being handled (set in the handler's own task)
_WORK_DONE_TOKEN: ContextVar[int | str | None] = ContextVar("msmigrate_work_done_token", default=None)


def _with_work_done_token(handler: Any, token: int | str) -> Any:
    @functools.wraps(handler)
    async def run(*args: Any, **kwargs: Any) -> Any:
        _WORK_DONE_TOKEN.set(token)
        return await handler(*args, **kwargs)

    return run


def work_done_token() -> int | str | None:
    """The ``workDoneToken`` the client sent with the command being handled: its progress is reported
    there (a client's token needs no ``window/workDoneProgress/create``; its cancel reaches the handler
    through pygls's progress futures, which ``$/cancelRequest`` of an executeCommand does not)."""
    return _WORK_DONE_TOKEN.get()


def _first_line(exc: BaseException) -> str:
    """A short reason for a structuring failure (cattrs nests the real one)."""
    while True:
        inner = getattr(exc, "exceptions", None)
        if not inner:
            break
        exc = inner[0]
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]


# --- pygls internals the other modules need -----------------------------------------------------------
def send_data(protocol: Any, data: Any) -> None:
    """Send a JSON-RPC message through pygls's own writer."""
    protocol._send_data(data)  # noqa: SLF001


def sync_kind(workspace: Any) -> Any:
    """The text-document sync kind a pygls workspace was made with."""
    return workspace._sync_kind  # noqa: SLF001


def set_stop_event(server: Any, event: Any) -> None:
    """The event pygls's ``shutdown()`` sets to stop a server that serves over a socket."""
    server._stop_event = event  # noqa: SLF001


def set_listener(server: Any, listener: Any) -> None:
    """The listening socket server pygls's ``shutdown()`` closes."""
    server._server = listener  # noqa: SLF001
