"""Language-server memory over open/close cycles: opens N real files (the examples and the installed torch
package's own sources), waits for their diagnostics, closes them all, and prints the server's RSS after
each step. What a document costs must go when it is closed: RSS after closing stays flat across cycles.

``--inprocess``: the server runs in this process (no transport), so that besides RSS the memory Python
itself holds is reported: pymalloc's arenas (1 MiB each), or with ``--tracemalloc`` the bytes tracemalloc
traces (tracemalloc hides the arenas). RSS that stays up while the traced bytes come back is freed memory
the allocator keeps, not state the server keeps.

Usage: ``python benchmarks/lsp_memory.py [--files 300] [--cycles 4] [--inprocess [--tracemalloc]] [--json]``
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
from inprocess import InProcessSession  # noqa: E402
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


def arenas() -> int:
    """pymalloc's arenas in use (from ``sys._debugmallocstats``, which writes to the C stderr)."""
    import re

    read, write = os.pipe()
    saved = os.dup(2)
    os.dup2(write, 2)
    try:
        sys._debugmallocstats()
    finally:
        os.dup2(saved, 2)
        os.close(write)
        os.close(saved)
    with os.fdopen(read) as stream:
        text = stream.read()
    match = re.search(r"# arenas allocated current\s*=\s*(\d+)", text)
    return int(match[1]) if match else -1


async def run_inprocess(args: argparse.Namespace) -> dict[str, object]:
    import tracemalloc

    root = Path(tempfile.mkdtemp(prefix="msmigrate-memory-"))
    texts = corpus(torch_files=args.files)[: args.files]
    process = psutil.Process()
    session = InProcessSession()
    await session.initialize(root.as_uri())
    if args.tracemalloc:
        tracemalloc.start()
    mb = 1024 * 1024

    def measure() -> dict[str, float]:
        figures = {"rss_mb": round(process.memory_info().rss / mb, 1)}
        if args.tracemalloc:
            figures["traced_mb"] = round(tracemalloc.get_traced_memory()[0] / mb, 1)
        else:
            figures["arenas"] = arenas()
        return figures

    async def settle(uris: list[str]) -> None:
        while not all(session.published(uri) for uri in uris):
            await asyncio.sleep(0.02)

    warm = [(root / f"warm{n}.py").as_uri() for n in range(10)]  # the tables a first file loads
    for uri, (_, text) in zip(warm, texts[-10:], strict=True):
        session.open(uri, text)
    await settle(warm)
    for uri in warm:
        session.close(uri)
    await asyncio.sleep(1.5)
    session.out.messages.clear()
    figures: dict[str, object] = {"files": len(texts), "start": measure()}
    cycles = []
    for cycle in range(args.cycles):
        uris = [(root / f"c{cycle}" / f"{n}_{name}").as_uri() for n, (name, _) in enumerate(texts)]
        for uri, (_, text) in zip(uris, texts, strict=True):
            session.open(uri, text)
        await settle(uris)
        await asyncio.sleep(1.0)
        opened = measure()
        for uri in uris:
            session.close(uri)
        session.out.messages.clear()
        await asyncio.sleep(1.5)  # the server hands freed heap back 1 s after the last close
        cycles.append({"all_open": opened, "after_close": measure()})
    figures["cycles"] = cycles
    session.server.analysis_executor.shutdown(wait=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--cycles", type=int, default=4)
    parser.add_argument("--inprocess", action="store_true", help="also report pymalloc's arenas")
    parser.add_argument("--tracemalloc", action="store_true", help="with --inprocess: traced bytes instead")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = asyncio.run(run_inprocess(args) if args.inprocess else run(args))
    if args.json or args.inprocess:
        print(json.dumps(figures, indent=1))
        return
    print(f"{figures['files']} files, server RSS at start {figures['rss_mb_start']} MB")
    for number, cycle in enumerate(figures["cycles"], start=1):  # type: ignore[arg-type]
        print(f"cycle {number}: {cycle['after_open']} MB with all open, "
              f"{cycle['after_close']} MB after closing")


if __name__ == "__main__":
    main()
