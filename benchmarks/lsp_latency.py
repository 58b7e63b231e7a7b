"""Language-server latency: drive ``python -m msmigrate serve`` over stdio like an editor does.

Measures, on a generated 5,000-line PyTorch file:
- didOpen → first publishDiagnostics: of the first document after ``initialize`` (the server is still loading
  its tables), and of another copy opened once the server runs (what opening a file usually costs),
- didChange → publishDiagnostics for that very version (median / p95 over the edits): one character
  typed inside an expression, and (a second series) a line added and removed near the top of the file,
  which moves every later diagnostic,
- hover and codeAction round trips,
- a change during a running analysis → the new version's diagnostics, on a large real file (the installed
  torch package's ``nn/modules`` sources, concatenated and repeated to ``--cancel-lines``): the document is
  opened and changed once, ``--cancel-delays`` after the open, while its analysis runs; and how soon the
  cancelled analysis stopped after the change (from the server's log: ``--cancel-only`` runs just this),
- the server's resident memory after opening the file and after a project scan, and (``--files N``)
  before opening N real files (the examples and the installed torch package's own sources), with them
  all open, and after closing them all.

The client is a minimal JSON-RPC reader/writer (timestamps are taken when a message's bytes have
arrived), so the figures are the server's, not a client library's deserialisation.

Usage: ``python benchmarks/lsp_latency.py [--lines 5000] [--shape blocks|chain] [--edits 60] [--files 300]
[--project DIR] [--cancel-lines 45000] [--cancel-only] [--json]``
Targets: open → diagnostics ≤ 200 ms, typed character ≤ 25 ms median, hover ≤ 10 ms, RSS ≤ 150 MB after
a scan, RSS after closing the N files within 20% of the RSS before opening them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "lsp"))

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
CHAIN_BLOCK = '''

class Layer{n}(nn.Module):
    """Layer {n}: uses the three layers before it (a modelling file where everything is connected)."""

    def __init__(self, config):
        super().__init__()
        self.dense = nn.Linear(config.hidden, config.hidden)
        self.norm = nn.LayerNorm(config.hidden, eps=1e-12)
        self.drop = nn.Dropout(config.p)
{uses}
    def forward(self, x, mask=None):
        h = F.gelu(self.dense(x))
        scores = torch.matmul(h, h.transpose(-1, -2)) / math.sqrt(h.size(-1))
        if mask is not None:
            scores = scores + mask
        h = torch.matmul(self.drop(F.softmax(scores, dim=-1)), h)
{calls}
        return self.norm(h + x)
'''
HEADER = (
    '"""Generated benchmark model."""\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n'
)


def generate(lines: int, shape: str = "blocks") -> str:
    """``blocks``: independent classes and functions; ``chain``: each class uses the three before it."""
    parts = ["import math\n" + HEADER if shape == "chain" else HEADER]
    n = 0
    while sum(p.count("\n") for p in parts) < lines:
        if shape == "chain":
            uses = range(max(0, n - 3), n)
            members = "".join(f"        self.l{k} = Layer{k}(config)\n" for k in uses)
            block = CHAIN_BLOCK.replace("{uses}", members)
            block = block.replace("{calls}", "".join(f"        h = self.l{k}(h)\n" for k in uses))
            parts.append(block.replace("{n}", str(n)))
        else:
            parts.append(BLOCK.replace("{n}", str(n)))
        n += 1
    text = "".join(parts)
    cut = "\n".join(text.split("\n")[:lines]) + "\n"
    return cut if shape != "chain" else cut[: cut.rindex("\n\nclass ")] + "\n"  # whole classes only


def real_source(lines: int) -> str:
    """The installed torch package's ``nn/modules/*.py`` concatenated, repeated until ``lines`` lines."""
    import importlib.util

    spec = importlib.util.find_spec("torch")  # locating the package does not import it
    if spec is None or not spec.origin:
        raise SystemExit("torch is not installed: no real source for the cancellation figure")
    folder = Path(spec.origin).parent / "nn" / "modules"
    one = "".join(path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.py")))
    return one * max(1, -(-lines // one.count("\n")))


STOPPED = re.compile(r"analysis of (\S+) cancelled: stopped ([0-9.]+) ms after the request, at ([0-9.]+)")


def stop_times(log: Path, sent: dict[str, float]) -> list[tuple[float, float]]:
    """For each cancelled analysis of the documents of ``sent`` (URI → epoch seconds its change was
    sent): ms from the server's cancel request to the stop, and ms from the change sent to the stop (the
    server's log; the same clock)."""
    text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    return [(float(m[2]), round((float(m[3]) - sent[m[1]]) * 1000, 1))
            for m in STOPPED.finditer(text) if m[1] in sent]


async def change_during_analysis(client: RawClient, server: psutil.Process, work: Path, log: Path, lines: int,
                                 delays: list[float], version: str) -> dict[str, Any]:
    """Open a large real file, change it ``delay`` seconds later (its analysis runs then), and time the
    change → the complete diagnostics of the new version (and the server's CPU time meanwhile, less
    sensitive to other load); a fresh copy for each delay."""
    republished = client.republished  # (early results published again in full here: not counted)
    source = real_source(lines)
    added = "zz = torch.foo_bar(zz)\n"
    changed = source + added
    expected = expected_diagnostics(changed, str(work / "real.py"), version)
    end = {"line": source.count("\n"), "character": 0}
    latencies: list[float] = []
    cpu: list[float] = []
    sent: dict[str, float] = {}
    warm = (work / "warm.py").as_uri()  # the server has loaded its tables before the first figure
    client.notify("textDocument/didOpen", {
        "textDocument": {"uri": warm, "languageId": "python", "version": 1, "text": HEADER + "torch.abs(x)\n"}
    })
    await client.wait_version(warm, 1)
    client.notify("textDocument/didClose", {"textDocument": {"uri": warm}})
    for n, delay in enumerate(delays):
        uri = (work / f"real_{n}.py").as_uri()
        client.notify("textDocument/didOpen", {
            "textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": source}
        })
        await asyncio.sleep(delay)
        used = cpu_seconds(server)
        sent[uri] = time.time()
        start = time.perf_counter()
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": {"start": end, "end": end}, "text": added}],
        })
        latencies.append(await client.wait_count(uri, 2, expected) - start)
        cpu.append(cpu_seconds(server) - used)
        await asyncio.sleep(0.3)
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        await asyncio.sleep(0.5)
    burst = await typing_during_analysis(client, server, work, source, version, end)
    client.republished = republished
    stops = stop_times(log, sent)
    after_request = [stop[0] for stop in stops]
    after_change = [stop[1] for stop in stops]
    return {
        "lines": changed.count("\n"), "diagnostics": expected, "delays_s": delays,
        "ms": [ms(value) for value in latencies],
        "median": ms(statistics.median(latencies)), "max": ms(max(latencies)),
        "cpu_ms": [ms(value) for value in cpu], "cpu_median": ms(statistics.median(cpu)),
        "typing": burst,
        "cancelled": len(stops), "stop_after_request_ms": after_request, "stop_after_change_ms": after_change,
        "stop_median": round(statistics.median(after_change), 1) if stops else None,
        "stop_max": round(max(after_change), 1) if stops else None,
    }


async def typing_during_analysis(client: RawClient, server: psutil.Process, work: Path, source: str,
                                 version: str, end: dict[str, int], rounds: int = 3, changes: int = 10,
                                 every: float = 0.1) -> dict[str, Any]:
    """Open the large file and type ``changes`` characters ``every`` seconds from 0.1 s after the open (its
    analysis runs meanwhile): the last character → the complete diagnostics of that version."""
    typed = "zz = torch.foo_bar(zz)"[:changes]
    expected = expected_diagnostics(source + typed + "\n", str(work / "real.py"), version)
    latencies: list[float] = []
    cpu: list[float] = []
    for n in range(rounds):
        uri = (work / f"typed_{n}.py").as_uri()
        client.notify("textDocument/didOpen", {
            "textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": source + "\n"}
        })
        used = cpu_seconds(server)
        for k, char in enumerate(typed):
            await asyncio.sleep(every)
            at = {"line": end["line"], "character": k}
            start = time.perf_counter()
            client.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": k + 2},
                "contentChanges": [{"range": {"start": at, "end": at}, "text": char}],
            })
        latencies.append(await client.wait_count(uri, len(typed) + 1, expected) - start)
        cpu.append(cpu_seconds(server) - used)
        await asyncio.sleep(0.3)
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        await asyncio.sleep(0.5)
    return {"changes": len(typed), "every_s": every, "ms": [ms(value) for value in latencies],
            "median": ms(statistics.median(latencies)), "cpu_ms": [ms(value) for value in cpu]}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


class RawClient:
    """Just enough of an LSP client over stdio: requests, notifications, answers to server requests."""

    def __init__(self) -> None:
        self.process: asyncio.subprocess.Process | None = None
        self.next_id = 0
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.published: dict[tuple[str, int | None], float] = {}
        self.events: dict[tuple[str, int | None], asyncio.Event] = {}
        self.errors: list[str] = []
        self.republished = 0
        self.counts: dict[str, int] = {}
        self.history: dict[tuple[str, int | None], list[tuple[float, int]]] = {}  # (arrival, diagnostics)

    async def start(self, *command: str, env: dict[str, str]) -> int:
        self.process = await asyncio.create_subprocess_exec(
            *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env, limit=2**26
        )
        self.reader = asyncio.get_running_loop().create_task(self._read_loop())
        return self.process.pid

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process is not None and self.process.stdin is not None
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def request(self, method: str, params: Any, timeout: float = 120.0) -> Any:
        self.next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        reply = await asyncio.wait_for(future, timeout)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result")

    async def _read_loop(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        stream = self.process.stdout
        while True:
            length = 0
            while (line := await stream.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line:
                return
            body = await stream.readexactly(length)
            arrived = time.perf_counter()
            self._dispatch(json.loads(body), arrived)

    def _dispatch(self, message: dict[str, Any], arrived: float) -> None:
        method = message.get("method")
        if method is None:
            future = self.pending.pop(message.get("id"), None)
            if future is not None and not future.done():
                future.set_result(message)
        elif "id" in message:  # a request from the server
            answers = {"workspace/configuration": [None], "window/showDocument": {"success": True}}
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": answers.get(method)})
        elif method == "textDocument/publishDiagnostics":
            key = (message["params"]["uri"], message["params"].get("version"))
            self.counts[key[0]] = len(message["params"]["diagnostics"])
            self.history.setdefault(key, []).append((arrived, self.counts[key[0]]))
            if key in self.published:  # a provisional result, corrected by the confirmed one
                self.republished += 1
            else:
                self.published[key] = arrived
            self.event(key).set()
        elif method == "window/logMessage" and message["params"]["type"] == 1:
            self.errors.append(message["params"]["message"])

    def event(self, key: tuple[str, int | None]) -> asyncio.Event:
        return self.events.setdefault(key, asyncio.Event())

    async def wait_version(self, uri: str, version: int, timeout: float = 60.0) -> float:
        try:
            await asyncio.wait_for(self.event((uri, version)).wait(), timeout)
        except TimeoutError:
            latest = sorted(self.published)[-3:]
            raise TimeoutError(f"no diagnostics for version {version}; latest: {latest}") from None
        return self.published[(uri, version)]

    async def wait_count(self, uri: str, version: int, count: int, timeout: float = 300.0) -> float:
        """Arrival of the publish of ``version`` with ``count`` diagnostics (after an early, partial one)."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            for arrived, seen in self.history.get((uri, version), ()):
                if seen == count:
                    return arrived
            await asyncio.sleep(0.002)
        raise TimeoutError(f"no publish of version {version} with {count} diagnostics")

    async def stop(self) -> None:
        await self.request("shutdown", None)
        self.notify("exit", None)
        assert self.process is not None
        await asyncio.wait_for(self.process.wait(), 30)
        self.reader.cancel()


def _position(line: int, character: int) -> dict[str, int]:
    return {"line": line, "character": character}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="msmigrate-bench-"))
    path = work / "big_model.py"
    source = generate(args.lines, args.shape)
    path.write_text(source, encoding="utf-8")
    uri = path.as_uri()
    lines = source.split("\n")

    client = RawClient()
    env = {**os.environ, "MSMIGRATE_CACHE_DIR": str(work / "cache")}
    log = work / "server.log"  # the server logs each cancelled analysis there (see stop_times)
    command = (sys.executable, "-m", "msmigrate", "serve", "--log-file", str(log))
    server = psutil.Process(await client.start(*command, env=env))
    project = Path(args.project).resolve() if args.project else None
    root = project or work
    await client.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": root.as_uri(),
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "capabilities": {
                "window": {"workDoneProgress": True, "showDocument": {"support": True}},
                "workspace": {"configuration": True},
                "textDocument": {"publishDiagnostics": {"versionSupport": True}},
            },
            "initializationOptions": {"settings": {"mindsporeVersion": args.version}},
        },
    )
    client.notify("initialized", {})
    rss_start = server.memory_info().rss
    delays = [float(d) for d in args.cancel_delays.split(",")] if args.cancel_delays else []
    if args.cancel_only:
        figure = await change_during_analysis(client, server, work, log, args.cancel_lines, delays,
                                              args.version)
        await client.stop()
        return {"cancel_only": True, "change_during_analysis": figure}

    expected = expected_diagnostics(source, str(path), args.version)
    start = time.perf_counter()
    text_document = {"uri": uri, "languageId": "python", "version": 1, "text": source}
    client.notify("textDocument/didOpen", {"textDocument": text_document})
    first_early_ms = ms(await client.wait_version(uri, 1, timeout=300) - start)
    first_open_ms = ms(await client.wait_count(uri, 1, expected) - start)
    early_count = client.history[(uri, 1)][0][1]
    first_findings = expected
    rss_open = server.memory_info().rss
    await asyncio.sleep(1.0)  # the server builds the document's incremental state after publishing

    open_times: list[float] = []  # the same text under other names, in the running server
    early_times: list[float] = []
    cpu_early: list[float] = []
    cpu_all: list[float] = []
    for n in range(args.opens):
        copy = (work / f"big_model_copy{n}.py").as_uri()
        cpu = cpu_seconds(server)
        start = time.perf_counter()
        client.notify("textDocument/didOpen", {"textDocument": {**text_document, "uri": copy}})
        early_times.append(await client.wait_version(copy, 1, timeout=300) - start)
        cpu_early.append(cpu_seconds(server) - cpu)
        open_times.append(await client.wait_count(copy, 1, expected) - start)
        cpu_all.append(cpu_seconds(server) - cpu)
        await asyncio.sleep(0.5)
        client.notify("textDocument/didClose", {"textDocument": {"uri": copy}})
    await asyncio.sleep(1.0)

    # didChange → publishDiagnostics(version): one edit at a time, as a user types
    marker, typed = ("torch.abs(z)", "torch.abs(") if args.shape == "blocks" else ("h.size(-1)", "h.size(-")
    target_lines = [i for i, text in enumerate(lines) if marker in text]
    latencies: list[float] = []
    version = 1
    for n in range(args.edits):
        version += 1
        line = target_lines[n % len(target_lines)]
        column = lines[line].index(marker) + len(typed)
        change = {
            "range": {"start": _position(line, column), "end": _position(line, column + 1)},
            "text": ("zq" if args.shape == "blocks" else "21")[n % 2],
        }
        start = time.perf_counter()
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
        )
        latencies.append(await client.wait_version(uri, version) - start)

    # Enter then Backspace near the top of the file: every later finding moves by one line
    enter_marker = "y = F.relu(" if args.shape == "blocks" else "h = F.gelu("
    enter_lines = [i for i, text in enumerate(lines) if enter_marker in text][:3]
    shift_latencies: list[float] = []
    for n in range(args.edits):
        version += 1
        line = enter_lines[(n // 2) % len(enter_lines)]
        end = _position(line, len(lines[line]))
        if n % 2 == 0:  # Enter at the end of the line (the editor indents the new line)
            change = {"range": {"start": end, "end": end}, "text": "\n        "}
        else:  # remove that line again
            change = {"range": {"start": end, "end": _position(line + 1, 8)}, "text": ""}
        start = time.perf_counter()
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
        )
        shift_latencies.append(await client.wait_version(uri, version) - start)

    # hover and codeAction round trips (the analysis of the current version is cached by then)
    linear_lines = [i for i, text in enumerate(lines) if "nn.Linear(" in text]
    hover_times: list[float] = []
    for n in range(args.requests):
        line = linear_lines[n % len(linear_lines)]
        position = _position(line, lines[line].index("nn.Linear(") + 4)
        start = time.perf_counter()
        result = await client.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": position}
        )
        hover_times.append(time.perf_counter() - start)
        assert result is not None, "no hover on nn.Linear"
    action_times: list[float] = []
    for n in range(max(10, args.requests // 3)):
        line = linear_lines[n % len(linear_lines)]
        params = {
            "textDocument": {"uri": uri},
            "range": {"start": _position(line, 0), "end": _position(line, len(lines[line]))},
            "context": {"diagnostics": [], "only": ["quickfix"]},
        }
        start = time.perf_counter()
        await client.request("textDocument/codeAction", params)
        action_times.append(time.perf_counter() - start)

    cancel = await change_during_analysis(client, server, work, log, args.cancel_lines, delays,
                                          args.version) if delays else None
    memory = await open_and_close_files(client, server, work, args.files) if args.files else None

    start = time.perf_counter()
    scan = await client.request(
        "workspace/executeCommand",
        {"command": "msmigrate.scanProject", "arguments": [str(root)]},
        timeout=600,
    )
    scan_s = time.perf_counter() - start
    rss_scan = server.memory_info().rss
    await asyncio.sleep(2.0)  # let the server settle (it returns freed heap to the OS after a scan)
    rss_settled = server.memory_info().rss
    files = len(scan["report"]["files"]) if isinstance(scan, dict) and "report" in scan else 0
    await client.stop()
    for error in client.errors:
        print("server error:", error, file=sys.stderr)
    mb = 1024 * 1024
    return {
        "lines": source.count("\n"),
        "shape": args.shape,
        "findings": first_findings,
        "republished_versions": client.republished,
        "mindspore_version": args.version,
        "first_open_to_first_diagnostics_ms": first_early_ms,
        "first_open_to_all_diagnostics_ms": first_open_ms,
        "early_diagnostics": early_count,
        "open_to_first_diagnostics_ms": {
            "opens": len(early_times),
            "median": ms(statistics.median(early_times)) if early_times else None,
            "min": ms(min(early_times)) if early_times else None,
        },
        "server_cpu_ms_per_open": {
            "first": ms(statistics.median(cpu_early)) if cpu_early else None,
            "all": ms(statistics.median(cpu_all)) if cpu_all else None,
        },
        "open_to_all_diagnostics_ms": {
            "opens": len(open_times),
            "median": ms(statistics.median(open_times)) if open_times else None,
            "min": ms(min(open_times)) if open_times else None,
        },
        "diagnostics_ms": {
            "edits": len(latencies),
            "median": ms(statistics.median(latencies)),
            "p95": ms(percentile(latencies, 0.95)),
            "max": ms(max(latencies)),
        },
        "line_shift_ms": {
            "edits": len(shift_latencies),
            "median": ms(statistics.median(shift_latencies)),
            "p95": ms(percentile(shift_latencies, 0.95)),
            "max": ms(max(shift_latencies)),
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
        "change_during_analysis": cancel,
        "files": memory,
        "rss_mb": {
            "at_start": round(rss_start / mb, 1),
            "after_open": round(rss_open / mb, 1),
            "at_scan_reply": round(rss_scan / mb, 1),
            "after_scan": round(rss_settled / mb, 1),
        },
    }


def cpu_seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return times.user + times.system


def expected_diagnostics(source: str, path: str, version: str) -> int:
    """How many diagnostics the server publishes for ``source`` under the default settings (one per
    finding), computed in this process, so that the complete publish can be told from an early one."""
    from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
    from msmigrate.knowledge.base import get_knowledge_base

    result = analyze_source(source, path, get_knowledge_base(version), AnalysisOptions(use_jedi=False))
    return len(result.findings)


async def open_and_close_files(client: RawClient, server: psutil.Process, work: Path, count: int
                               ) -> dict[str, Any]:
    """RSS before opening ``count`` real files, with all of them open (diagnostics out), and after closing
    them (1.5 s later: the server hands freed heap back shortly after the last close)."""
    from fuzz_support import corpus

    texts = corpus(torch_files=count)[:count]
    mb = 1024 * 1024
    before = server.memory_info().rss / mb
    uris = [(work / "files" / f"{n}_{name}").as_uri() for n, (name, _) in enumerate(texts)]
    start = time.perf_counter()
    for uri, (_, text) in zip(uris, texts, strict=True):
        client.notify("textDocument/didOpen", {
            "textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}
        })
    for uri in uris:
        await client.wait_version(uri, 1, timeout=600)
    seconds = time.perf_counter() - start
    await asyncio.sleep(1.0)  # incremental states built
    opened = server.memory_info().rss / mb
    for uri in uris:
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    await client.request("textDocument/hover", {  # a round trip: every close has been handled
        "textDocument": {"uri": uris[0]}, "position": {"line": 0, "character": 0}
    })
    await asyncio.sleep(1.5)
    closed = server.memory_info().rss / mb
    return {"files": len(texts), "lines": sum(text.count("\n") for _, text in texts),
            "seconds_to_all_diagnostics": round(seconds, 2), "rss_mb_before": round(before, 1),
            "rss_mb_all_open": round(opened, 1), "rss_mb_after_close": round(closed, 1),
            "after_close_over_before": round(closed / before, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument(
        "--shape", choices=("blocks", "chain"), default="blocks",
        help="blocks: independent classes; chain: each class uses the three before it",
    )
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--opens", type=int, default=5, help="opens of a copy in the running server")
    parser.add_argument("--files", type=int, default=300, help="real files opened and closed (0: none)")
    parser.add_argument("--requests", type=int, default=60, help="hover requests (codeAction: a third)")
    parser.add_argument("--version", default="2.6", help="mapping-table version the server uses")
    parser.add_argument(
        "--project", help="folder for the project scan (default: the generated file's folder)"
    )
    parser.add_argument("--cancel-lines", type=int, default=45000,
                        help="lines of the real file changed while it is analysed")
    parser.add_argument("--cancel-delays", default="0.1,0.2,0.3,0.4,0.5,0.6,0.8,1.0",
                        help="seconds from its open to its change, one fresh copy each ('': skip)")
    parser.add_argument("--cancel-only", action="store_true", help="measure only the change during analysis")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures = asyncio.run(run(args))
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    if figures["change_during_analysis"] is not None:
        print_cancel(figures["change_during_analysis"])
    if figures.get("cancel_only"):
        return
    d, h, c = figures["diagnostics_ms"], figures["hover_ms"], figures["code_action_ms"]
    print(
        f"file: {figures['lines']} lines ({figures['shape']}), {figures['findings']} diagnostics, "
        f"MindSpore table {figures['mindspore_version']}"
    )
    o, a = figures["open_to_first_diagnostics_ms"], figures["open_to_all_diagnostics_ms"]
    print(f"open → first diagnostics ({figures['early_diagnostics']}, of the first lines), running server: "
          f"median {o['median']} ms, min {o['min']} ms ({o['opens']} opens; target ≤ 200 ms)")
    print(f"open → all diagnostics, running server: median {a['median']} ms, min {a['min']} ms")
    first, every = figures["first_open_to_first_diagnostics_ms"], figures["first_open_to_all_diagnostics_ms"]
    print(f"first document after initialize: first diagnostics {first} ms, all {every} ms")
    cpu = figures["server_cpu_ms_per_open"]
    print(f"server CPU time per open (all threads; less sensitive to other load): first diagnostics "
          f"median {cpu['first']} ms, all diagnostics median {cpu['all']} ms")
    print(
        f"didChange → publishDiagnostics: median {d['median']} ms, p95 {d['p95']} ms, max {d['max']} ms "
        f"({d['edits']} edits; target ≤ 50 ms median)"
    )
    ls = figures["line_shift_ms"]
    print(
        f"didChange adding/removing a line near the top → publishDiagnostics: median {ls['median']} ms, "
        f"p95 {ls['p95']} ms, max {ls['max']} ms ({ls['edits']} edits)"
    )
    print(f"versions published again after a provisional result: {figures['republished_versions']}")
    print(f"hover: median {h['median']} ms, p95 {h['p95']} ms ({h['requests']} requests; target ≤ 10 ms)")
    print(f"codeAction: median {c['median']} ms, p95 {c['p95']} ms ({c['requests']} requests)")
    scan = figures["scan"]
    print(f"scanProject: {scan['files']} files in {scan['seconds']} s ({scan['root']})")
    rss = figures["rss_mb"]
    files = figures["files"]
    if files:
        print(f"{files['files']} real files ({files['lines']} lines) opened: all diagnostics in "
              f"{files['seconds_to_all_diagnostics']} s; server RSS {files['rss_mb_before']} MB before, "
              f"{files['rss_mb_all_open']} MB with all open, {files['rss_mb_after_close']} MB after closing "
              f"them ({files['after_close_over_before']}× before; target ≤ 1.2×)")
    print(f"server RSS at start (after initialize): {rss['at_start']} MB")
    print(
        f"server RSS: {rss['after_open']} MB after open, {rss['at_scan_reply']} MB at the scan's reply, "
        f"{rss['after_scan']} MB 2 s after the scan (target ≤ 150 MB)"
    )


def print_cancel(figure: dict[str, Any]) -> None:
    print(f"change during a running analysis → diagnostics of the new version ({figure['lines']} lines of "
          f"torch nn sources, {figure['diagnostics']} diagnostics, change {figure['delays_s']} s after the "
          f"open): median {figure['median']} ms, max {figure['max']} ms; each: {figure['ms']}")
    print(f"  server CPU time from the change to those diagnostics: median {figure['cpu_median']} ms; each: "
          f"{figure['cpu_ms']}")
    typing = figure["typing"]
    print(f"typing {typing['changes']} characters, one each {typing['every_s']} s, while the file's first "
          f"analysis runs → diagnostics of the last: median {typing['median']} ms; each: {typing['ms']}; "
          f"server CPU from the open: {typing['cpu_ms']} ms")
    if figure["cancelled"]:
        print(f"cancelled analyses: {figure['cancelled']}, stopped after the change was sent: median "
              f"{figure['stop_median']} ms, max {figure['stop_max']} ms; each: "
              f"{figure['stop_after_change_ms']}; after it was read: {figure['stop_after_request_ms']}")
    else:
        print("cancelled analyses: none (the analysis of the old version ran to its end)")


if __name__ == "__main__":
    main()
