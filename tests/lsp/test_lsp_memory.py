"""Nothing is kept per document after didClose (analyses, incremental state, rendered diagnostics, push
tasks, pygls's handler futures), also when a document is closed while it is analysed; the shared tables
are emptied when the last document closes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from inprocess import InProcessSession

from msmigrate.lsp.diagnostics import Publisher, renderer_of

EXAMPLES = sorted(Path(__file__).resolve().parents[2].glob("examples/**/*.py"))


def per_document_state(session: InProcessSession) -> dict[str, int]:
    server = session.server
    renderer = renderer_of(server)
    publisher = server.session.kept(Publisher)
    return {
        "documents": len(server.workspace.text_documents),
        "analyses": len(server.analyses),
        "in flight": len(server._inflight),  # noqa: SLF001
        "incremental analyzers": len(server.documents._analyzers),  # noqa: SLF001
        "push tasks": len(publisher.tasks),
        "pending": len(publisher.pending),
        "rendered": len(renderer._fragments) + len(renderer._held) + len(renderer._rests_by_args),  # noqa: SLF001
        "shared tables": len(renderer._messages) + len(renderer._rest) + len(renderer._urls),  # noqa: SLF001
        "handler futures": len(server.protocol._request_futures),  # noqa: SLF001
    }


async def settle(session: InProcessSession, uris: list[str]) -> None:
    for _ in range(1500):
        if all(session.published(uri) for uri in uris):
            return
        await asyncio.sleep(0.02)
    raise AssertionError("documents were not analysed")


async def test_closing_documents_releases_their_state(tmp_path: Path):
    session = InProcessSession()
    await session.initialize(tmp_path.as_uri())
    texts = [path.read_text(encoding="utf-8") for path in EXAMPLES]
    assert len(texts) >= 5
    empty = dict.fromkeys(per_document_state(session), 0)
    for cycle in range(2):
        uris = [(tmp_path / f"{cycle}_{n}.py").as_uri() for n in range(len(texts))]
        for uri, text in zip(uris, texts, strict=True):
            session.open(uri, text)
        await settle(session, uris)
        state = per_document_state(session)
        assert state["analyses"] == len(texts) and state["rendered"] == 3 * len(texts)
        for uri in uris[: len(uris) // 2]:  # edited, then closed while that edit is analysed
            session.send("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": 2},
                "contentChanges": [{"text": texts[0] + "\ny = torch.neg(x)\n"}],
            })
        for uri in uris:
            session.close(uri)
        await asyncio.sleep(0.5)
        session.out.messages.clear()
        assert per_document_state(session) == empty, f"cycle {cycle}"
    session.server.analysis_executor.shutdown(wait=True)
    session.server.confirm_executor.shutdown(wait=True)


async def test_freed_heap_is_handed_back_after_closes_while_other_documents_stay_open(tmp_path: Path,
                                                                                        monkeypatch):
    from msmigrate.lsp import diagnostics

    released: list[int] = []
    monkeypatch.setattr(diagnostics, "RELEASE_AFTER_S", 0.2)
    session = InProcessSession()
    monkeypatch.setattr(diagnostics, "release_memory", lambda: released.append(
        len(session.server.workspace.text_documents)))
    await session.initialize(tmp_path.as_uri())
    uris = [(tmp_path / f"{n}.py").as_uri() for n in range(3)]
    for uri in uris:
        session.open(uri, "import torch\ny = torch.abs(x)\n")
    await settle(session, uris)
    session.close(uris[0])
    session.close(uris[1])  # one release for a run of closes, once they stop
    await asyncio.sleep(0.6)
    assert released == [1]
    session.server.analysis_executor.shutdown(wait=True)
    session.server.confirm_executor.shutdown(wait=True)
