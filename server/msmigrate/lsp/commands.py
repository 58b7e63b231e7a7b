"""``workspace/executeCommand`` handlers: scan project / file, lookup, fix-all, export report.

Arguments are accepted positionally or as one object (``{"path": ...}``, ``{"uri": ...}``,
``{"format": ...}``), because clients differ in how they pass them; ``lsp/protocol.py`` makes them one
object and pygls structures it into the command's argument class (``contract/commands.py``).
"""

from __future__ import annotations

import asyncio
import tempfile
import uuid
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import from_fs_path

from msmigrate.contract.commands import (
    EXPORT_REPORT,
    FIX_ALL,
    LOOKUP,
    SCAN_FILE,
    SCAN_PROJECT,
    DocumentArguments,
    ErrorReply,
    ExportReportArguments,
    ExportReportReply,
    FixAllReply,
    LookupArguments,
    ScanFileReply,
    ScanProjectArguments,
    ScanProjectReply,
)
from msmigrate.i18n import t
from msmigrate.lsp.protocol import work_done_token
from msmigrate.lsp.server import MsMigrateServer
from msmigrate.reports import REPORT_FORMATS
from msmigrate.safe_paths import inside_roots, write_inside

REPORT_DIR = ".msmigrate"
FORMAT_SUFFIX = {name: f.extension for name, f in REPORT_FORMATS.items()}


def to_path(server: MsMigrateServer, value: str) -> str:
    """A path from a ``file:`` URI (``file:///C%3A/...`` decoded) or a plain path."""
    return server.path_of(value) if value.startswith("file:") else value


def to_uri(value: str) -> str:
    """A document URI from a ``file:`` URI (unchanged) or a plain path."""
    return value if value.startswith("file:") else from_fs_path(value) or value


def workspace_roots(server: MsMigrateServer) -> list[str]:
    roots = [to_path(server, folder.uri) for folder in server.workspace.folders.values()]
    if not roots and server.workspace.root_path:
        roots = [server.workspace.root_path]
    return roots


def report_path(server: MsMigrateServer, roots: list[str], fmt: str) -> tuple[str, list[str]] | None:
    """``(workspace folder, [sub, folders, .msmigrate, report.<ext>])`` for a report on ``roots[0]``;
    ``None`` when it does not lie inside a workspace folder."""
    if not roots:
        return None
    found = inside_roots(roots[0], workspace_roots(server))
    if found is None:
        return None
    target, root = found
    folder = target if target.is_dir() else target.parent
    parts = list(folder.relative_to(root).parts) if folder != root else []
    return str(root), [*parts, REPORT_DIR, f"report.{FORMAT_SUFFIX.get(fmt, fmt)}"]


def write_report(
    server: MsMigrateServer, roots: list[str], report: Any, fmt: str, lang: str
) -> tuple[Path, str | None]:
    """Render the report and write it to ``.msmigrate/`` of the scanned folder, inside the workspace and
    never through a symlink (:func:`msmigrate.safe_paths.write_inside`), else to a fresh temporary folder;
    returns the path and, in the latter case, why (for the log)."""
    from msmigrate.reports import render

    text = render(report, fmt, lang)
    where = report_path(server, roots, fmt)
    problem = None
    if where is not None:
        try:
            return write_inside(where[0], where[1], text), None
        except OSError as exc:
            problem = t("lsp.log.report_elsewhere", "en", path=str(Path(where[0], *where[1])),
                        detail=str(exc))
    name = f"report.{FORMAT_SUFFIX.get(fmt, fmt)}"
    return write_inside(tempfile.mkdtemp(prefix="msmigrate-"), [name], text), problem


async def write_report_async(server: MsMigrateServer, roots: list[str], report: Any, fmt: str) -> Path:
    """:func:`write_report` in a thread; a report written elsewhere is logged."""
    loop = asyncio.get_running_loop()
    path, problem = await loop.run_in_executor(
        server.thread_pool, write_report, server, roots, report, fmt, server.lang
    )
    if problem:
        server.log(problem, types.MessageType.Warning)
    return path


class OutsideWorkspace(Exception):
    """A path argument outside every workspace folder; the message is for the user."""


def workspace_path(server: MsMigrateServer, value: str) -> str:
    """The path of a command argument (URI or path; relative to the first workspace folder) when it lies
    inside a workspace folder once symlinks are resolved; raises :class:`OutsideWorkspace` otherwise."""
    path = to_path(server, value)
    found = inside_roots(path, workspace_roots(server))
    if found is None:
        raise OutsideWorkspace(t("lsp.command.outside_workspace", server.lang, path=path))
    return str(found[0])


class ScanProblem(Exception):
    """A scan that cannot run; the message is for the user."""


class ProgressReporter:
    """Work-done progress for one scan or comparison (nothing is sent when the client does not support
    it); cancellable: ``on_cancel`` is called when the user cancels."""

    def __init__(self, server: MsMigrateServer, title: str, kind: str = "scan") -> None:
        self.server = server
        self.title = title
        self.token: int | str = f"msmigrate-{kind}-{uuid.uuid4()}"
        self.enabled = server.client_supports("window", "work_done_progress")
        self.last_percentage = -1

    async def begin(self, on_cancel: Any) -> None:
        if not self.enabled:
            return
        given = work_done_token()
        if given is not None:  # the client's own token (VS Code's cancellable notification)
            self.token = given
        else:
            try:
                await self.server.work_done_progress.create_async(self.token)
            except Exception as exc:  # the client refused: scan without progress
                self.server.report_failure("window/workDoneProgress/create", exc)
                self.enabled = False
                return
        self.server.work_done_progress.begin(
            self.token, types.WorkDoneProgressBegin(title=self.title, cancellable=True, percentage=0)
        )
        future = self.server.work_done_progress.tokens.get(self.token)
        if future is not None:
            future.add_done_callback(lambda f: on_cancel() if f.cancelled() else None)

    def report(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        percentage = int(done * 100 / total) if total else 100
        if percentage == self.last_percentage and done != total:
            return
        self.last_percentage = percentage
        message = t("lsp.progress.files", self.server.lang, done=done, total=total)
        self.server.work_done_progress.report(
            self.token, types.WorkDoneProgressReport(message=message, percentage=percentage, cancellable=True)
        )

    def step(self, message: str, percentage: int) -> None:
        """A step of known share (a comparison's phases)."""
        if self.enabled:
            report = types.WorkDoneProgressReport(message=message, percentage=percentage, cancellable=True)
            self.server.work_done_progress.report(self.token, report)

    def end(self, message: str) -> None:
        if self.enabled:
            self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))
            self.server.work_done_progress.tokens.pop(self.token, None)


async def run_scan(server: MsMigrateServer, roots: list[str]) -> Any | None:
    """Scan ``roots`` with progress; returns the ScanReport, or None when cancelled."""
    from msmigrate.scan import CancelToken, ConfigError, ScanCancelled, ScanOptions, scan_paths
    from msmigrate.scan.options import DEFAULT_INCLUDE

    loop = asyncio.get_running_loop()
    cancel = CancelToken()
    progress = ProgressReporter(server, t("lsp.progress.scan_title", server.lang))
    await progress.begin(cancel.cancel)
    settings = server.settings

    def on_progress(done: int, total: int) -> None:  # called from the scan thread
        loop.call_soon_threadsafe(progress.report, done, total)

    options = ScanOptions(
        mindspore_version=settings.mindspore_version,
        include=settings.include or DEFAULT_INCLUDE,
        exclude=settings.exclude,
        disabled_rules=settings.disabled_rules,
        severity=dict(settings.severity),
        max_file_bytes=settings.max_file_size,
        trust_mtime=False,  # an editor's workspace changes under the server: find results by content
        device=settings.device,
        progress=on_progress,
        cancel=cancel,
    )
    try:
        report = await loop.run_in_executor(server.thread_pool, scan_paths, roots, options)
    except ScanCancelled:
        progress.end(t("lsp.progress.cancelled", server.lang))
        return None
    except asyncio.CancelledError:  # the request itself was cancelled ($/cancelRequest)
        cancel.cancel()
        progress.end(t("lsp.progress.cancelled", server.lang))
        raise
    except (OSError, ConfigError) as exc:  # a missing folder, a bad [tool.msmigrate]: say so, don't fail
        progress.end(t("lsp.progress.failed", server.lang))
        if isinstance(exc, ConfigError):
            detail = t(exc.key, server.lang, **exc.fields)
        else:
            detail = exc.strerror or str(exc)
        raise ScanProblem(
            t("lsp.command.scan_failed", server.lang, paths=", ".join(roots), detail=detail)
        ) from exc
    except Exception:
        progress.end(t("lsp.progress.failed", server.lang))
        raise
    progress.end(t("lsp.progress.done", server.lang, files=len(getattr(report, "files", []) or [])))
    return report


async def show(server: MsMigrateServer, path: Path, external: bool = True) -> bool:
    """Ask the client to show ``path``: in an external program (the HTML report: the browser) or in the
    editor (``external=False``: the comparison's Markdown page)."""
    if not server.client_supports("window", "show_document"):
        return False
    params = types.ShowDocumentParams(
        uri=from_fs_path(str(path)) or path.as_uri(), external=external, take_focus=True
    )
    try:
        result = await server.window_show_document_async(params)
    except Exception as exc:
        server.report_failure("window/showDocument", exc)
        return False
    return bool(result and result.success)


def register(server: MsMigrateServer) -> None:
    def _roots(target: str | None) -> list[str]:
        """The folder argument (inside the workspace: :class:`OutsideWorkspace` otherwise), else every
        workspace folder."""
        if target and target.strip():
            return [workspace_path(server, target.strip())]
        return workspace_roots(server)

    async def _scan_and_keep(roots: list[str]) -> Any:
        """Scan ``roots`` and keep the report for ``exportReport``; a dict is the reply when there is none."""
        if not roots:
            return {"error": t("lsp.command.no_folder", server.lang)}
        try:
            report = await run_scan(server, roots)
        except ScanProblem as exc:
            return {"error": str(exc)}
        if report is None:
            return {"cancelled": True}
        server.session.last_report = (roots, report)
        return report

    @server.command(SCAN_PROJECT)
    @server.guarded(SCAN_PROJECT)
    async def scan_project(ls: MsMigrateServer, args: ScanProjectArguments) -> ScanProjectReply | ErrorReply:
        try:
            roots = _roots(args.target)
        except OutsideWorkspace as exc:
            return {"error": str(exc)}
        report = await _scan_and_keep(roots)
        if isinstance(report, dict):
            return report
        html = await write_report_async(server, roots, report, "html")
        shown = await show(server, html)
        server.release_memory_soon()  # once the (large) reply has been sent
        return {
            "cancelled": False,
            "report": report.to_json(server.lang),
            "htmlReport": str(html),
            "shown": shown,
        }

    @server.command(SCAN_FILE)
    @server.guarded(SCAN_FILE)
    async def scan_file(ls: MsMigrateServer, args: DocumentArguments) -> ScanFileReply | ErrorReply:
        from msmigrate.lsp.analysis import analyze_text

        target = args.target
        if target is None:
            return {"error": t("lsp.command.bad_args", server.lang, command=SCAN_FILE)}
        uri = to_uri(target)
        analysis = await server.current(uri)
        if analysis is not None:  # the editor's text: nothing is read
            result = analysis.result
        else:
            from msmigrate.scan.reading import SkippedFile, read_user_file

            try:
                path = Path(workspace_path(server, target))
            except OutsideWorkspace as exc:
                return {"error": str(exc)}
            try:  # off the loop: even a regular file on a slow disk must not stop the server
                data, _ = await asyncio.get_running_loop().run_in_executor(
                    server.thread_pool, read_user_file, path, server.settings.max_file_size
                )
            except SkippedFile as skipped:
                detail = t(skipped.key, server.lang, **skipped.fields)
                return {"error": t("lsp.command.unreadable", server.lang, path=str(path), detail=detail)}
            except OSError as exc:
                return {
                    "error": t("lsp.command.unreadable", server.lang, path=str(path),
                               detail=exc.strerror or str(exc))
                }
            loop = asyncio.get_running_loop()
            # bytes: the analyzer decodes them (BOM, coding cookie) and reports binary files clearly
            result = await loop.run_in_executor(
                server.analysis_executor, analyze_text, data, str(path), server.kb, server.settings
            )
        return {
            "path": result.path,
            "findings": [f.to_dict(server.lang) for f in result.findings],
            "error": result.error(server.lang),
        }

    @server.command(LOOKUP)
    @server.guarded(LOOKUP)
    def lookup_command(ls: MsMigrateServer, args: LookupArguments) -> dict[str, Any]:
        name = args.target
        if name is None or not name.strip():
            return {"error": t("lsp.command.bad_args", server.lang, command=LOOKUP)}
        from msmigrate.knowledge.lookup import lookup

        found = lookup(name.strip(), server.kb, device=server.settings.device)
        # the client shows ``markdown`` as the lookup page: the lookup is rendered here only
        return {**found.to_json(server.lang), "markdown": found.render_markdown(server.lang)}

    @server.command(FIX_ALL)
    @server.guarded(FIX_ALL)
    async def fix_all_command(ls: MsMigrateServer, args: DocumentArguments) -> FixAllReply | ErrorReply:
        from msmigrate.lsp.code_actions import fix_all_workspace_edit

        target = args.target
        if target is None:
            return {"error": t("lsp.command.bad_args", server.lang, command=FIX_ALL)}
        uri = to_uri(target)
        analysis = await server.current(uri)
        if analysis is None:
            return {"error": t("lsp.command.not_open", server.lang, uri=uri)}
        loop = asyncio.get_running_loop()
        # the helper module of compositions is written by the server for a client that cannot create files
        edit, applied = await loop.run_in_executor(server.analysis_executor, fix_all_workspace_edit, server,
                                                   analysis, True)
        if edit is None:
            return {"applied": 0}
        result = await server.workspace_apply_edit_async(
            types.ApplyWorkspaceEditParams(edit=edit, label=t("fix.fix_all", server.lang))
        )
        return {"applied": len(applied) if result.applied else 0, "accepted": result.applied}

    @server.command(EXPORT_REPORT)
    @server.guarded(EXPORT_REPORT)
    async def export_report(
        ls: MsMigrateServer, args: ExportReportArguments
    ) -> ExportReportReply | ErrorReply:
        fmt = args.format or "html"
        if fmt not in FORMAT_SUFFIX:
            return {
                "error": t(
                    "lsp.command.bad_format", server.lang, format=fmt, formats=", ".join(FORMAT_SUFFIX)
                )
            }
        target = args.target
        try:
            roots = [workspace_path(server, target)] if target else workspace_roots(server)
        except OutsideWorkspace as exc:
            return {"error": str(exc)}
        last = server.session.last_report
        if last is not None and last[0] == roots:
            report = last[1]
        else:
            report = await _scan_and_keep(roots)
            if isinstance(report, dict):
                return report
        path = await write_report_async(server, roots, report, fmt)
        shown = await show(server, path) if fmt == "html" else False
        return {"format": fmt, "path": str(path), "shown": shown}
