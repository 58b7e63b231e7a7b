"""The JSON-lines loop every worker process runs (``python -m msmigrate.check.worker``,
``python -m msmigrate.weights.worker``): a greeting, then one request per line on stdin and one reply
per line on the original stdout; whatever the libraries print goes to stderr, never into the protocol."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any


def serve(handle: Callable[[dict[str, Any]], dict[str, Any]]) -> int:
    """Answer requests with ``handle`` (which never raises) until stdin ends."""
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)  # anything the libraries print goes to stderr, never into the protocol
    sys.stdout = sys.stderr
    protocol.write(json.dumps({"ready": True, "pid": os.getpid()}) + "\n")
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as exc:
            result = {"status": "error", "reason": "bad_request", "detail": str(exc)}
        else:
            result = handle(request) if type(request) is dict else {
                "status": "error", "reason": "bad_request", "detail": "a request is a JSON object"}
        protocol.write(json.dumps(result, default=str) + "\n")
        protocol.flush()
    return 0
