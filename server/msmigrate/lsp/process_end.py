"""How ``msmigrate serve`` ends over stdio: at ``exit``, or when its input ends, the process ends at once.

pygls ends by raising ``SystemExit`` in its event loop; Python then waits, before the process can end,
for every thread of a ``ThreadPoolExecutor`` to finish what it runs and what is queued for it (a big
document's analysis: its incremental state is built without a cancel check), then frees the whole heap.
An editor that sent ``shutdown`` and ``exit`` but keeps the server's input open (most do, until the
process ends) waited that long, and under load much longer (``docs/lsp-process-end.md``). Here the
server's work is stopped, check workers are killed (their folder removed), the log is flushed, and the
process ends with the code LSP specifies: 0 when ``shutdown`` came first, else 1 (also when the input
ends without ``exit``).
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any, NoReturn

log = logging.getLogger(__name__)


def exit_code(protocol: Any) -> int:
    """LSP's exit code: 0 after ``shutdown``, else 1."""
    return 0 if getattr(protocol, "shutdown_received", False) else 1


def end_process(server: Any, code: int) -> NoReturn:
    """Stop the server's work and end this process now with ``code`` (threads are not waited for)."""
    log.info("exiting with code %d", code)
    try:
        server.stop_work()
        for executor in (server.analysis_executor, server.confirm_executor):
            executor.shutdown(wait=False, cancel_futures=True)
    except Exception:  # ending regardless
        log.exception("stopping the server's work failed")
    runner = sys.modules.get("msmigrate.check.runner")
    if runner is not None:  # check workers lead their own process groups: they would outlive the server
        runner.release_at_exit()
    logging.shutdown()  # the log file flushed
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # closed, or the client is gone
            pass
    os._exit(code)


def serve_stdio(server: Any) -> NoReturn:
    """Serve over stdio until ``exit`` or the end of the input, then end the process (see above)."""
    server.protocol.on_exit = lambda code: end_process(server, code)
    try:
        server.start_io()
    except SystemExit:  # the exit code is the protocol's
        pass
    log.info("the input ended (or the output broke)")
    end_process(server, exit_code(server.protocol))
