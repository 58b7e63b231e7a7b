"""A seeded fuzzing LSP client: random edits of real files (the examples and the installed torch
package's own sources, read as text), with the characters that split lines differently in
``str.splitlines`` and LSP, lone surrogates, versions out of order, close/reopen races and malformed
params. Used by ``tests/lsp/test_lsp_fuzz.py`` (bounded) and ``benchmarks/lsp_fuzz.py`` (long).

The client keeps its own copy of each document (offsets → LSP positions in UTF-16 units, written here
independently of the server's code), and at the end opens every final text afresh under another URI:
the diagnostics of the edited document must equal those of the fresh one.
"""

from __future__ import annotations

import asyncio
import importlib.util
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

REPO = Path(__file__).resolve().parents[2]
ODD_CHARACTERS = ["\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\r", "\r\n", "\ud800",
                  "\udfff", "😀", "变量", "\t"]
TYPED = ["torch.", "torch.abs(", "(", ")", ":", "\n    ", "\n", "import torch\n", "def f(:\n", "x = [",
         "]", "'", '"""', "#", " nn.Linear(3, 4)", ".view(-1)", "F.relu(x)", "\\", "@"]
MAX_FILE_CHARS = 60_000
REQUEST_LIMIT_S = 2.0


def corpus(torch_files: int = 40, seed: int = 0, max_chars: int = MAX_FILE_CHARS) -> list[tuple[str, str]]:
    """(name, text) of the example files and of some of the installed torch package's sources (files
    under ``max_chars``)."""
    files = sorted(REPO.glob("examples/**/*.py"))
    spec = importlib.util.find_spec("torch")  # locating the package does not import it
    if spec is not None and spec.origin:
        package = Path(spec.origin).parent
        sources = sorted(p for p in package.rglob("*.py") if p.stat().st_size < max_chars)
        files += random.Random(seed).sample(sources, min(torch_files, len(sources)))
    texts = []
    for path in files:
        try:
            texts.append((path.name, path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue
    return texts


def position(text: str, offset: int) -> types.Position:
    """LSP position of ``offset``: lines end at \\r\\n, \\r, \\n; characters in UTF-16 units."""
    line, start, index = 0, 0, 0
    while True:
        cr, lf = text.find("\r", index, offset), text.find("\n", index, offset)
        ends = [i for i in (cr, lf) if i >= 0]
        if not ends:
            break
        end = min(ends)
        step = 2 if text.startswith("\r\n", end) else 1
        if end + step > offset:  # inside \r\n: not a position of its own
            break
        line, start, index = line + 1, end + step, end + step
    units = len(text[start:offset].encode("utf-16-le", "surrogatepass")) // 2
    return types.Position(line, units)


def boundary(text: str, offset: int) -> int:
    """``offset`` moved off the middle of a \\r\\n."""
    inside = 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n"
    return offset - 1 if inside else offset


@dataclass
class Doc:
    uri: str
    text: str
    version: int = 1
    open: bool = True


@dataclass
class Figures:
    edits: int = 0
    requests: int = 0
    malformed: int = 0
    reopened: int = 0
    backwards: int = 0
    latencies: list[float] = field(default_factory=list)
    slow: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def max_latency(self) -> float:
        return max(self.latencies, default=0.0)


class Fuzzer:
    def __init__(self, client: LanguageClient, root: Path, seed: int, texts: list[tuple[str, str]]) -> None:
        self.client = client
        self.root = root
        self.random = random.Random(seed)
        self.texts = texts
        self.docs: list[Doc] = []
        self.figures = Figures()
        self.next_id = 10_000_000

    # --- documents -----------------------------------------------------------------------------
    def open(self, name: str, text: str, version: int = 1) -> Doc:
        path = self.root / "edited" / f"{len(self.docs)}_{name}"
        doc = Doc(path.as_uri(), text, version)
        self._did_open(doc)
        self.docs.append(doc)
        return doc

    def _did_open(self, doc: Doc) -> None:
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=doc.uri, language_id="python", version=doc.version, text=doc.text)
        ))
        doc.open = True

    def snippet(self) -> str:
        roll = self.random.random()
        if roll < 0.3:
            return self.random.choice(ODD_CHARACTERS)
        if roll < 0.6:
            return self.random.choice(TYPED)
        if roll < 0.75:
            return ""
        _, text = self.random.choice(self.texts)
        lines = text.splitlines(keepends=True)
        start = self.random.randrange(len(lines) or 1)
        return "".join(lines[start : start + self.random.randint(1, 4)])

    def edit(self, doc: Doc) -> None:
        text = doc.text
        start = boundary(text, self.random.randint(0, len(text)))
        end = boundary(text, min(len(text), start + int(self.random.expovariate(1 / 8))))
        insert = self.snippet()
        if self.random.random() < 0.05:  # a version going backwards
            doc.version = max(0, doc.version - self.random.randint(1, 5))
            self.figures.backwards += 1
        else:
            doc.version += 1
        change = types.TextDocumentContentChangePartial(
            range=types.Range(position(text, start), position(text, end)), text=insert
        )
        if self.random.random() < 0.05:
            change = types.TextDocumentContentChangeWholeDocument(text=text[:start] + insert + text[end:])
        doc.text = text[:start] + insert + text[end:]
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version), [change]
        ))
        self.figures.edits += 1

    def reopen(self, doc: Doc) -> None:
        """Close and reopen at version 1 (the old text may still be analysed), or reopen without a close
        at a lower version."""
        if self.random.random() < 0.5:
            self.client.text_document_did_close(types.DidCloseTextDocumentParams(
                types.TextDocumentIdentifier(doc.uri)
            ))
            doc.version = 1
        else:
            doc.version = max(0, doc.version - self.random.randint(1, 10))
        self._did_open(doc)
        self.figures.reopened += 1

    # --- requests ------------------------------------------------------------------------------
    async def timed(self, what: str, request: Any) -> Any:
        start = time.perf_counter()
        try:
            return await asyncio.wait_for(request, 30)
        finally:
            elapsed = time.perf_counter() - start
            self.figures.requests += 1
            self.figures.latencies.append(elapsed)
            if elapsed > REQUEST_LIMIT_S:
                self.figures.slow.append(f"{what}: {elapsed:.2f} s")

    async def hover(self, doc: Doc) -> None:
        pos = position(doc.text, boundary(doc.text, self.random.randint(0, len(doc.text))))
        await self.timed("hover", self.client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(doc.uri), pos)
        ))

    async def code_action(self, doc: Doc) -> None:
        start = boundary(doc.text, self.random.randint(0, len(doc.text)))
        end = boundary(doc.text, min(len(doc.text), start + self.random.randint(0, 200)))
        params = types.CodeActionParams(
            types.TextDocumentIdentifier(doc.uri),
            types.Range(position(doc.text, start), position(doc.text, end)),
            types.CodeActionContext(diagnostics=[]),
        )
        await self.timed("codeAction", self.client.text_document_code_action_async(params))

    async def malformed(self, doc: Doc) -> None:
        """A request with params that do not fit its method, or odd command arguments: -32602."""
        choices = [
            ("textDocument/hover", {"textDocument": {"uri": doc.uri}}),
            ("textDocument/hover", {"textDocument": {"uri": doc.uri}, "position": {"line": -1}}),
            ("textDocument/codeAction", {"textDocument": {"uri": 7}, "range": None}),
            ("workspace/executeCommand", {"command": "msmigrate.scanFile", "arguments": ["\u0000"]}),
            ("workspace/executeCommand",
             {"command": "msmigrate.exportReport", "arguments": [{"format": ["html"]}]}),
        ]
        method, params = self.random.choice(choices)
        self.next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        protocol = self.client.protocol
        protocol._request_futures[self.next_id] = future  # noqa: SLF001 - raw params, pygls's bookkeeping
        protocol._send_data({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})  # noqa: SLF001
        self.figures.malformed += 1
        try:
            await self.timed(f"malformed {method}", future)
        except JsonRpcException as exc:
            if exc.code != -32602:
                self.figures.errors.append(f"{method}: error {exc.code} instead of -32602")
            return
        self.figures.errors.append(f"{method} with malformed params was answered")

    # --- the run -------------------------------------------------------------------------------
    async def run(self, steps: int, documents: int = 3) -> Figures:
        for _ in range(documents):
            name, text = self.random.choice(self.texts)
            self.open(name, text)
        for doc in self.docs:  # the first analyses (and the knowledge base's loading) are not timed
            await self.settled(doc, quiet=0.1)
        for step in range(steps):
            doc = self.random.choice(self.docs)
            roll = self.random.random()
            if roll < 0.03 or step % 50 == 20:
                self.reopen(doc)
            elif roll < 0.06 or step % 50 == 10:
                await self.malformed(doc)
            elif roll < 0.16:
                await self.hover(doc)
            elif roll < 0.2:
                await self.code_action(doc)
            else:
                for _ in range(self.random.randint(1, 3)):
                    self.edit(doc)
            if self.random.random() < 0.3:
                await asyncio.sleep(self.random.random() * 0.05)
        await self.compare_with_fresh()
        return self.figures

    async def settled(self, doc: Doc, quiet: float = 1.0, timeout: float = 120.0) -> list[tuple[Any, ...]]:
        """The diagnostics published for the document's current version once none came for ``quiet``
        seconds (a provisional result is followed by the confirmed one)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        seen = -1
        last_change = loop.time()
        while loop.time() < deadline:
            published = self.client.published  # type: ignore[attr-defined]
            if len(published) != seen:
                seen, last_change = len(published), loop.time()
            latest = next((p for p in reversed(published) if p.uri == doc.uri), None)
            if latest is not None and latest.version == doc.version and loop.time() - last_change >= quiet:
                return sorted(
                    (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character,
                     str(d.code), d.message, d.severity)
                    for d in latest.diagnostics
                )
            await asyncio.sleep(0.05)
        raise AssertionError(f"no settled diagnostics for {doc.uri} v{doc.version}")

    async def compare_with_fresh(self) -> None:
        for doc in self.docs:
            edited = await self.settled(doc)
            name = doc.uri.rsplit("/", 1)[1]
            fresh = Doc((self.root / "fresh" / name).as_uri(), doc.text, 1)
            self._did_open(fresh)
            expected = await self.settled(fresh)
            if edited != expected:
                only_edited = [d for d in edited if d not in expected]
                only_fresh = [d for d in expected if d not in edited]
                self.figures.mismatches.append(
                    f"{name}: only in the edited document {only_edited[:3]}, only fresh {only_fresh[:3]}"
                )
            self.client.text_document_did_close(types.DidCloseTextDocumentParams(
                types.TextDocumentIdentifier(fresh.uri)
            ))
