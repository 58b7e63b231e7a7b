"""A stand-in for the worker interpreter (``RunnerConfig.python``), driven by ``FAKE_WORKER_MODE``:

* ``hang``: never greets; ``greet-hang``: greets, then never answers;
* ``greeting``: greets with the line in ``FAKE_WORKER_LINE``;
* ``reply``: greets, answers ``load`` with a pass, then every other request with ``FAKE_WORKER_LINE``.

It writes its process id to ``FAKE_WORKER_PID`` (when set) before anything else.
"""

import json
import os
import sys
import time

mode = os.environ.get("FAKE_WORKER_MODE", "")
if os.environ.get("FAKE_WORKER_PID"):
    with open(os.environ["FAKE_WORKER_PID"], "w", encoding="utf-8") as fh:
        fh.write(str(os.getpid()))
if mode == "hang":
    time.sleep(3600)
if mode == "greeting":
    print(os.environ["FAKE_WORKER_LINE"], flush=True)
    time.sleep(3600)
print(json.dumps({"ready": True, "pid": os.getpid()}), flush=True)
if mode == "greet-hang":
    time.sleep(3600)
for line in sys.stdin:
    request = json.loads(line)
    if request.get("kind") == "load":
        print(json.dumps({"status": "pass", "torch_version": "2.13.0", "mindspore_version": "2.10.0"}),
              flush=True)
    else:
        print(os.environ["FAKE_WORKER_LINE"], flush=True)
