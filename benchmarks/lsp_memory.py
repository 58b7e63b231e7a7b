"""Language-server memory over open/close cycles: opens N real files (the examples and the installed torch
package's own sources), waits for their diagnostics, closes them all, and prints the server's RSS after
each step. What a document costs must go when it is closed: RSS after closing stays flat across cycles.

Usage: ``python benchmarks/lsp_memory.py [--files 300] [--cycles 4] [--json]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "lsp"))

from fuzz_support import corpus  # noqa: E402
from lsp_latency import RawClient  # noqa: E402


async def run(args: argparse.Namespace) -> dict[str, object]:
    root = Path(tempfile.mkdtemp(prefix="msmigrate-memory-"))
    texts = corpus(torch_files=args.files)[: args.files]
    client = RawClient()
    env = {**os.environ, "MSMIGRATE_CACHE_DIR": str(root / "cache")}
    server = psutil.Process(await client.start(sys.executable, "-m", "msmigrate", "serve", env=env))
    await client.request("initialize", {
        "processId": os.getpid(), "rootUri": root.as_uri(),
        "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True}}},
    })
    client.notify("initialized", {})
    mb = 1024 * 1024
    start = round(server.memory_info().rss / mb, 1)
    figures: dict[str, object] = {"files": len(texts), "rss_mb_start": start}
    cycles = []
    for cycle in range(args.cycles):
        uris = [(root / f"c{cycle}" / f"{n}_{name}").as_uri() for n, (name, _) in enumerate(texts)]
        for uri, (_, text) in zip(uris, texts, strict=True):
            client.notify("textDocument/didOpen", {
                "textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}
            })
        for uri in uris:
            await client.wait_version(uri, 1, timeout=300)
        opened = server.memory_info().rss / mb
        for uri in uris:
            client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        await client.request("textDocument/hover", {  # a round trip: every close has been handled
            "textDocument": {"uri": uris[0]}, "position": {"line": 0, "character": 0}
        })
        await asyncio.sleep(1.5)  # the server hands freed heap back shortly after the last close
        closed = server.memory_info().rss / mb
        cycles.append({"after_open": round(opened, 1), "after_close": round(closed, 1)})
    figures["cycles"] = cycles
    await client.stop()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--cycles", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = asyncio.run(run(args))
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    print(f"{figures['files']} files, server RSS at start {figures['rss_mb_start']} MB")
    for number, cycle in enumerate(figures["cycles"], start=1):  # type: ignore[arg-type]
        print(f"cycle {number}: {cycle['after_open']} MB with all open, "
              f"{cycle['after_close']} MB after closing")


if __name__ == "__main__":
    main()
