"""Language-server latency: drive ``python -m msmigrate serve`` over stdio like an editor does.

Measures, on a generated 5,000-line PyTorch file:
- didChange → publishDiagnostics for that very version (median / p95 over the edits),
- hover and codeAction round trips,
- the server's resident memory after opening the file and after a project scan.

Usage: ``python benchmarks/lsp_latency.py [--lines 5000] [--edits 60] [--project DIR] [--json]``
Targets: diagnostics ≤ 50 ms median, hover ≤ 10 ms, RSS ≤ 150 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil
from lsprotocol import types
from pygls.lsp.client import LanguageClient

BLOCK = '''

class Block{n}(nn.Module):
    """Residual block {n}."""

    def __init__(self, channels: int = 64) -> None:
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(channels)
        self.fc = nn.Linear(in_features=channels, out_features=10)
        self.drop = nn.Dropout(p=0.1)

    def forward(self, x):
        y = F.relu(self.bn(self.conv(x)))
        y = torch.cat([x, y], dim=1)
        z = torch.zeros(2, 3, device="cpu")
        w = x.view(x.size(0), -1).sum(dim=1)
        m = torch.matmul(w, w.t()) + torch.abs(z).mean()
        return self.drop(self.fc(torch.flatten(y, 1))) + m


def step_{n}(model, batch, optimizer):
    optimizer.zero_grad()
    out = model(batch["x"])
    loss = F.cross_entropy(out, batch["y"])
    loss.backward()
    optimizer.step()
    return loss.item()
'''
HEADER = (
    '"""Generated benchmark model."""\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n'
)


def generate(lines: int) -> str:
    parts = [HEADER]
    n = 0
    while sum(p.count("\n") for p in parts) < lines:
        parts.append(BLOCK.replace("{n}", str(n)))
        n += 1
    text = "".join(parts)
    return "\n".join(text.split("\n")[:lines]) + "\n"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


class Bench:
    def __init__(self) -> None:
        self.client = LanguageClient("msmigrate-bench", "1")
        self.published: dict[tuple[str, int | None], float] = {}
        self.events: dict[tuple[str, int | None], asyncio.Event] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            key = (params.uri, params.version)
            self.published[key] = time.perf_counter()
            self.event(key).set()

        @self.client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def on_create(params: Any) -> None:
            return None

        @self.client.feature(types.PROGRESS)
        def on_progress(params: Any) -> None:
            return None

        @self.client.feature(types.WINDOW_SHOW_DOCUMENT)
        def on_show(params: Any) -> types.ShowDocumentResult:
            return types.ShowDocumentResult(success=True)

        @self.client.feature(types.WORKSPACE_CONFIGURATION)
        def on_configuration(params: types.ConfigurationParams) -> list[Any]:
            return [None for _ in params.items]

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def on_log(params: types.LogMessageParams) -> None:
            if params.type == types.MessageType.Error:
                print("server error:", params.message, file=sys.stderr)

    def event(self, key: tuple[str, int | None]) -> asyncio.Event:
        return self.events.setdefault(key, asyncio.Event())

    async def wait_version(self, uri: str, version: int, timeout: float = 30.0) -> float:
        try:
            await asyncio.wait_for(self.event((uri, version)).wait(), timeout)
        except TimeoutError:
            raise TimeoutError(
                f"no diagnostics for version {version}; got {sorted(self.published)[-3:]}"
            ) from None
        return self.published[(uri, version)]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="msmigrate-bench-"))
    path = work / "big_model.py"
    source = generate(args.lines)
    path.write_text(source, encoding="utf-8")
    uri = path.as_uri()
    lines = source.split("\n")

    bench = Bench()
    env = {**os.environ, "MSMIGRATE_CACHE_DIR": str(work / "cache")}
    await bench.client.start_io(sys.executable, "-m", "msmigrate", "serve", env=env)
    server = psutil.Process(bench.client._server.pid)  # noqa: SLF001 - the subprocess pygls started
    caps = types.ClientCapabilities(
        window=types.WindowClientCapabilities(
            work_done_progress=True, show_document=types.ShowDocumentClientCapabilities(support=True)
        ),
        workspace=types.WorkspaceClientCapabilities(configuration=True),
    )
    project = Path(args.project).resolve() if args.project else None
    root = project or work
    await bench.client.initialize_async(
        types.InitializeParams(
            capabilities=caps,
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            initialization_options={"settings": {"mindsporeVersion": args.version}},
        )
    )
    bench.client.initialized(types.InitializedParams())

    t0 = time.perf_counter()
    bench.client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "python", 1, source))
    )
    first = await bench.wait_version(uri, 1, timeout=120)
    open_ms = ms(first - t0)
    rss_open = server.memory_info().rss

    # didChange → publishDiagnostics(version): one edit at a time, as a user types
    target_lines = [i for i, text in enumerate(lines) if "torch.abs(z)" in text]
    latencies: list[float] = []
    version = 1
    for n in range(args.edits):
        version += 1
        line = target_lines[n % len(target_lines)]
        column = lines[line].index("torch.abs(z)") + len("torch.abs(")
        change = types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(line, column), types.Position(line, column + 1)),
            text="z" if n % 2 else "q",
        )
        start = time.perf_counter()
        bench.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=version, uri=uri), [change]
            )
        )
        latencies.append(await bench.wait_version(uri, version) - start)

    # hover and codeAction round trips (the analysis of the current version is cached by then)
    linear_lines = [i for i, text in enumerate(lines) if "nn.Linear(" in text]
    hover_times: list[float] = []
    for n in range(args.requests):
        line = linear_lines[n % len(linear_lines)]
        position = types.Position(line, lines[line].index("nn.Linear(") + 4)
        start = time.perf_counter()
        result = await bench.client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), position)
        )
        hover_times.append(time.perf_counter() - start)
        assert result is not None, "no hover on nn.Linear"
    action_times: list[float] = []
    for n in range(max(10, args.requests // 3)):
        line = linear_lines[n % len(linear_lines)]
        start = time.perf_counter()
        await bench.client.text_document_code_action_async(
            types.CodeActionParams(
                types.TextDocumentIdentifier(uri),
                types.Range(types.Position(line, 0), types.Position(line, len(lines[line]))),
                types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.QuickFix]),
            )
        )
        action_times.append(time.perf_counter() - start)

    start = time.perf_counter()
    scan = await bench.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="msmigrate.scanProject", arguments=[str(root)])
    )
    scan_s = time.perf_counter() - start
    rss_scan = server.memory_info().rss
    await asyncio.sleep(2.0)  # let the server settle (it returns freed heap to the OS after a scan)
    rss_settled = server.memory_info().rss
    files = len(scan["report"]["files"]) if isinstance(scan, dict) and "report" in scan else 0

    await bench.client.shutdown_async(None)
    bench.client.exit(None)
    await bench.client.stop()
    mb = 1024 * 1024
    return {
        "lines": args.lines,
        "mindspore_version": args.version,
        "open_to_first_diagnostics_ms": open_ms,
        "diagnostics_ms": {
            "edits": len(latencies),
            "median": ms(statistics.median(latencies)),
            "p95": ms(percentile(latencies, 0.95)),
            "max": ms(max(latencies)),
        },
        "hover_ms": {
            "requests": len(hover_times),
            "median": ms(statistics.median(hover_times)),
            "p95": ms(percentile(hover_times, 0.95)),
        },
        "code_action_ms": {
            "requests": len(action_times),
            "median": ms(statistics.median(action_times)),
            "p95": ms(percentile(action_times, 0.95)),
        },
        "scan": {"root": str(root), "files": files, "seconds": round(scan_s, 2)},
        "rss_mb": {
            "after_open": round(rss_open / mb, 1),
            "at_scan_reply": round(rss_scan / mb, 1),
            "after_scan": round(rss_settled / mb, 1),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--requests", type=int, default=60, help="hover requests (codeAction: a third)")
    parser.add_argument("--version", default="2.6", help="mapping-table version the server uses")
    parser.add_argument(
        "--project", help="folder for the project scan (default: the generated file's folder)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures = asyncio.run(run(args))
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    d, h, c = figures["diagnostics_ms"], figures["hover_ms"], figures["code_action_ms"]
    print(f"file: {figures['lines']} lines, MindSpore table {figures['mindspore_version']}")
    print(f"open → first diagnostics: {figures['open_to_first_diagnostics_ms']} ms")
    print(
        f"didChange → publishDiagnostics: median {d['median']} ms, p95 {d['p95']} ms, max {d['max']} ms "
        f"({d['edits']} edits; target ≤ 50 ms median)"
    )
    print(f"hover: median {h['median']} ms, p95 {h['p95']} ms ({h['requests']} requests; target ≤ 10 ms)")
    print(f"codeAction: median {c['median']} ms, p95 {c['p95']} ms ({c['requests']} requests)")
    scan = figures["scan"]
    print(f"scanProject: {scan['files']} files in {scan['seconds']} s ({scan['root']})")
    rss = figures["rss_mb"]
    print(
        f"server RSS: {rss['after_open']} MB after open, {rss['at_scan_reply']} MB at the scan's reply, "
        f"{rss['after_scan']} MB 2 s after the scan (target ≤ 150 MB)"
    )


if __name__ == "__main__":
    main()
