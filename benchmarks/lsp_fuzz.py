"""Long fuzzing run of the language server (the bounded version is ``tests/lsp/test_lsp_fuzz.py``).

Drives ``python -m msmigrate serve`` over stdio with the fuzzing client of ``tests/lsp/fuzz_support.py``:
random edits of the examples and of the installed torch package's own sources (odd line breaks, lone
surrogates, versions going backwards, close/reopen races, malformed params, hovers and code actions),
then compares every edited document's final diagnostics with a fresh open of its text.

Usage: ``python benchmarks/lsp_fuzz.py [--seed 14] [--edits 10000] [--documents 3] [--json]``
Prints: edits, requests, max / p95 request latency, mismatches, tracebacks (and error log messages).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "lsp"))

from fuzz_support import Fuzzer, corpus  # noqa: E402
from lsp_support import capabilities, make_client  # noqa: E402
from lsprotocol import types  # noqa: E402


async def run(args: argparse.Namespace) -> dict[str, object]:
    root = Path(tempfile.mkdtemp(prefix="msmigrate-fuzz-"))
    client = make_client()
    env = {**os.environ, "MSMIGRATE_CACHE_DIR": str(root / "cache")}
    await client.start_io(sys.executable, "-m", "msmigrate", "serve", env=env)
    stderr: list[str] = []
    forwarder = getattr(client, "_stderr_forwarder", None)
    if forwarder is not None:  # read the server's stderr here instead of forwarding it
        forwarder.cancel()
    server = client._server  # noqa: SLF001 - the subprocess pygls started

    async def read_stderr() -> None:
        while line := await server.stderr.readline():
            stderr.append(line.decode("utf-8", "replace"))

    reader = asyncio.get_running_loop().create_task(read_stderr())
    await client.initialize_session(types.InitializeParams(
        capabilities=capabilities(configuration=False),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
    ))
    fuzzer = Fuzzer(client, root, args.seed, corpus(torch_files=args.torch_files, seed=args.seed))
    start = time.perf_counter()
    # one step makes two edits on average (a few steps are requests instead)
    figures = await fuzzer.run(steps=max(1, int(args.edits / 1.6)), documents=args.documents)
    elapsed = time.perf_counter() - start
    await client.shutdown_session()
    await asyncio.sleep(0.2)
    reader.cancel()
    latencies = sorted(figures.latencies)
    errors = [m.message for m in client.log_messages if m.type == types.MessageType.Error]
    return {
        "seed": args.seed,
        "edits": figures.edits,
        "requests": figures.requests,
        "malformed_requests": figures.malformed,
        "reopened": figures.reopened,
        "versions_backwards": figures.backwards,
        "max_latency_s": round(figures.max_latency, 3),
        "p95_latency_s": round(latencies[int(0.95 * (len(latencies) - 1))], 3) if latencies else 0.0,
        "requests_over_2s": len(figures.slow),
        "mismatches": figures.mismatches,
        "protocol_errors": figures.errors,
        "tracebacks": sum(line.startswith("Traceback") for line in stderr),
        "error_log_messages": len(errors),
        "seconds": round(elapsed, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--edits", type=int, default=10_000)
    parser.add_argument("--documents", type=int, default=3)
    parser.add_argument("--torch-files", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = asyncio.run(run(args))
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    for key, value in figures.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
