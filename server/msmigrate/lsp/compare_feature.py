"""``msmigrate.compareModels``: "Compare model with its PyTorch original" in the editor.

It runs :func:`msmigrate.compare.service.compare_models` (the core of ``msmigrate compare``) on one
``[[tool.msmigrate.compare]]`` table of a ``pyproject.toml`` inside the workspace, in a thread of its own;
the models run in that function's worker processes (the server imports neither torch nor MindSpore).
Nothing runs before the user confirmed the table's model files and loss expressions (once per session and
table) and, as for the equivalence check, the ``pythonPath`` interpreter (:mod:`msmigrate.lsp.consent`).
Progress is ``$/progress``, cancellable (the workers are killed). The reply holds the JSON report, a
summary line and the Markdown page written to ``.msmigrate/compare-<name>.md`` beside the configuration,
which the client is asked to open unless ``open`` is ``none`` (VS Code shows the JSON in its report
webview instead). A code lens on each model file a table names starts the same command (LSP4IJ's trigger).
"""

from __future__ import annotations

import asyncio
import os
import re
import tempfile
import threading
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.workspace import TextDocument

from msmigrate.compare.cancel import CompareCancel
from msmigrate.compare.config import CompareSpec, find_config, load_specs
from msmigrate.compare.markdown import render_markdown
from msmigrate.compare.report import CompareReport, summary_line
from msmigrate.compare.service import CompareOptions, compare_models
from msmigrate.contract.commands import (
    COMPARE_MODELS,
    CompareModelsArguments,
    CompareModelsReply,
    ErrorReply,
)
from msmigrate.i18n import t
from msmigrate.lsp.commands import (
    REPORT_DIR,
    OutsideWorkspace,
    ProgressReporter,
    show,
    workspace_path,
    workspace_roots,
)
from msmigrate.lsp.consent import allowed_interpreter, confirmed
from msmigrate.lsp.server import MsMigrateServer
from msmigrate.safe_paths import inside_roots, write_inside
from msmigrate.weights.session import DEFAULT_TIMEOUT, WeightsError

OPEN_CHOICES = ("markdown", "none")
MAX_TIMEOUT = 86400


class CompareProblem(Exception):
    """The comparison cannot start; the message is for the user."""


def locate_config(server: MsMigrateServer, where: str | None) -> Path:
    """The ``pyproject.toml`` to read: ``where`` itself, else the nearest one with
    ``[[tool.msmigrate.compare]]`` from ``where`` (default: the first workspace folder) up to its workspace
    folder. Raises :class:`OutsideWorkspace` or :class:`CompareProblem`."""
    roots = workspace_roots(server)
    if not roots:
        raise CompareProblem(t("lsp.command.no_folder", server.lang))
    path = Path(workspace_path(server, where.strip() if where and where.strip() else roots[0]))
    if path.name == "pyproject.toml" and path.is_file():
        return path
    found = inside_roots(path, roots)
    assert found is not None  # workspace_path
    start = path if path.is_dir() else path.parent
    config = find_config(start, top=found[1])
    if config is None or inside_roots(config, roots) is None:
        raise CompareProblem(t("lsp.compare.no_config", server.lang, path=str(start)))
    return config


def select(
    server: MsMigrateServer, name: str | None, where: str | None
) -> tuple[Path, CompareSpec | list[dict[str, str]]]:
    """The configuration and its table named ``name`` (none: the only one; several: a list to choose
    from). Raises :class:`OutsideWorkspace`, :class:`CompareProblem` or :class:`WeightsError`."""
    config = locate_config(server, where)
    specs = load_specs(config)
    if not specs:
        raise CompareProblem(t("lsp.compare.no_config", server.lang, path=str(config.parent)))
    if name is None:
        if len(specs) == 1:
            return config, specs[0]
        return config, [{"name": s.name, "torch": s.torch, "mindspore": s.mindspore} for s in specs]
    known = {s.name: s for s in specs}
    if name not in known:
        raise WeightsError("compare.error.unknown_name", name=name, path=str(config), names=", ".join(known))
    return config, known[name]


def consent_request(spec: CompareSpec, config: Path, lang: str) -> tuple[tuple[str, ...], str]:
    """What the user allows (everything of the table that runs code) and the question asking it."""
    loss = spec.loss
    key = ("compare", str(config), spec.name, spec.torch, spec.mindspore,
           loss.torch if loss else "", loss.mindspore if loss else "")
    fields: dict[str, Any] = {"name": spec.name, "torch": spec.torch, "mindspore": spec.mindspore,
                              "config": str(config)}
    if loss is None:
        return key, t("lsp.compare.confirm", lang, **fields)
    return key, t("lsp.compare.confirm_loss", lang, **fields, torch_loss=loss.torch,
                  mindspore_loss=loss.mindspore)


def report_name(name: str) -> str:
    """``compare-<name>.md`` with the name reduced to characters safe in a file name."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "model"
    return f"compare-{safe[:80]}.md"


def write_markdown(server: MsMigrateServer, config: Path, report: CompareReport, lang: str) -> Path:
    """The Markdown page in ``.msmigrate/`` beside ``config`` (inside the workspace, never through a
    symlink), else in a fresh temporary folder (the log says why)."""
    name = report_name(report.name)
    found = inside_roots(config.parent, workspace_roots(server))
    if found is not None:
        folder, root = found
        parts = [*folder.relative_to(root).parts, REPORT_DIR, name]
        text = render_markdown(report, lang, base=folder / REPORT_DIR)
        try:
            return write_inside(root, parts, text)
        except OSError as exc:
            server.log(t("lsp.log.report_elsewhere", "en", path=str(Path(root, *parts)), detail=str(exc)),
                       types.MessageType.Warning)
    return write_inside(tempfile.mkdtemp(prefix="msmigrate-"), [name], render_markdown(report, lang))


class SpecCache:
    """The tables of each ``pyproject.toml`` the code lenses read, kept while the file is unchanged."""

    def __init__(self) -> None:
        self._cache: dict[Path, tuple[tuple[int, int], list[CompareSpec]]] = {}

    def specs(self, config: Path) -> list[CompareSpec]:
        try:
            info = config.stat()
        except OSError:
            return []
        stamp = (info.st_mtime_ns, info.st_size)
        cached = self._cache.get(config)
        if cached is None or cached[0] != stamp:
            try:
                specs = load_specs(config)
            except WeightsError:  # a broken table: no lens (the command says what is wrong)
                specs = []
            cached = self._cache[config] = (stamp, specs)
        return cached[1]


def model_file(model: str) -> str:
    return os.path.normpath(model.partition(".py:")[0] + ".py")


def compare_lenses(server: MsMigrateServer, cache: SpecCache, doc: TextDocument) -> list[types.CodeLens]:
    """One lens per table naming this file as its torch or MindSpore model."""
    path = server.path_of(doc.uri)
    if not path.endswith(".py"):
        return []
    found = inside_roots(path, workspace_roots(server))
    if found is None:
        return []
    target, root = found
    config = find_config(target.parent, top=root)
    if config is None:
        return []
    top = types.Range(types.Position(0, 0), types.Position(0, 0))
    return [
        types.CodeLens(
            range=top,
            command=types.Command(
                title=t("lsp.lens.compare", server.lang, name=spec.name),
                command=COMPARE_MODELS,
                arguments=[{"name": spec.name, "config": str(config)}],
            ),
        )
        for spec in cache.specs(config)
        if str(target) in (model_file(spec.torch), model_file(spec.mindspore))
    ]


class CompareJobs:
    """One comparison at a time, each in a daemon thread of its own (a server that exits never waits for
    one: its workers are killed at exit)."""

    def __init__(self) -> None:
        self.running: tuple[str, CompareCancel] | None = None

    def cancel(self) -> None:
        if self.running is not None:
            self.running[1].cancel()


def in_thread(loop: asyncio.AbstractEventLoop, function: Any, *args: Any) -> asyncio.Future[Any]:
    """``function(*args)`` in a daemon thread, as a future of the event loop."""
    future: asyncio.Future[Any] = loop.create_future()

    def settle(result: Any, error: BaseException | None) -> None:
        if future.done():  # the awaiting request was cancelled meanwhile
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    def work() -> None:
        try:
            result = function(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting coroutine
            loop.call_soon_threadsafe(settle, None, exc)
        else:
            loop.call_soon_threadsafe(settle, result, None)

    threading.Thread(target=work, name="msmigrate-compare", daemon=True).start()
    return future


async def run_comparison(
    server: MsMigrateServer, spec: CompareSpec, options: CompareOptions
) -> CompareReport | None:
    """``compare_models`` with progress; ``None`` when the user cancelled it (the workers are killed)."""
    lang = server.lang
    cancel = options.cancel
    assert cancel is not None
    loop = asyncio.get_running_loop()
    progress = ProgressReporter(server, t("lsp.compare.progress_title", lang, name=spec.name), kind="compare")
    await progress.begin(cancel.cancel)
    steps = ["compare.step.torch", "compare.step.convert", *(f"compare.step.{m}" for m in spec.modes)]

    def on_step(key: str) -> None:  # called from the comparison's thread
        share = steps.index(key) * 100 // len(steps) if key in steps else 0
        loop.call_soon_threadsafe(progress.step, t(key, lang), share)

    try:
        report = await in_thread(loop, compare_models, spec, options, on_step)
    except asyncio.CancelledError:  # the request itself was cancelled ($/cancelRequest)
        cancel.cancel()
        progress.end(t("lsp.compare.cancelled", lang))
        raise
    except Exception:
        progress.end(t("lsp.progress.failed", lang))
        raise
    if cancel.cancelled:
        progress.end(t("lsp.compare.cancelled", lang))
        return None
    progress.end(summary_line(report, lang))
    return report


def _message_type(report: CompareReport) -> types.MessageType:
    return {"match": types.MessageType.Info, "diverge": types.MessageType.Warning}.get(
        report.status, types.MessageType.Error
    )


def register(server: MsMigrateServer) -> None:
    jobs = CompareJobs()
    server.on_shutdown.append(jobs.cancel)
    cache = SpecCache()
    server.code_lens_providers.append(lambda srv, doc: compare_lenses(srv, cache, doc))

    def fail(message: str) -> ErrorReply:
        return {"error": message}

    @server.command(COMPARE_MODELS)
    @server.guarded(COMPARE_MODELS)
    async def compare_models_command(
        ls: MsMigrateServer, args: CompareModelsArguments
    ) -> CompareModelsReply | ErrorReply:
        lang = server.lang
        open_as = args.open or "markdown"
        if open_as not in OPEN_CHOICES:
            return fail(t("lsp.compare.bad_open", lang, value=open_as))
        timeout = DEFAULT_TIMEOUT if args.timeout is None else args.timeout
        if not 1 <= timeout <= MAX_TIMEOUT:
            return fail(t("lsp.compare.bad_timeout", lang, value=timeout))
        try:
            config, chosen = select(server, args.name, args.where)
        except (OutsideWorkspace, CompareProblem) as exc:
            return fail(str(exc))
        except WeightsError as error:
            return fail(t("lsp.compare.bad_config", lang, detail=t(error.key, lang, **error.fields)))
        if isinstance(chosen, list):
            return {"cancelled": False, "config": str(config), "choices": chosen}
        spec = chosen
        if jobs.running is not None:
            return fail(t("lsp.compare.busy", lang, name=jobs.running[0]))
        cancel = CompareCancel()
        jobs.running = (spec.name, cancel)
        try:
            python = server.settings.python_path
            if python is not None:
                refused = await allowed_interpreter(server, python, "lsp.compare.python_confirm",
                                                    "lsp.compare.python_declined")
                if refused is not None:
                    return fail(refused)
            key, question = consent_request(spec, config, lang)
            if not await confirmed(server, key, question, "check.python.run", "check.python.cancel"):
                message = t("lsp.compare.declined", lang, name=spec.name)
                server.window_show_message(
                    types.ShowMessageParams(type=types.MessageType.Error, message=message)
                )
                return fail(message)
            options = CompareOptions(python=python, timeout=float(timeout), cancel=cancel)
            report = await run_comparison(server, spec, options)
        finally:
            jobs.running = None
        if report is None:
            return {"cancelled": True, "config": str(config)}
        loop = asyncio.get_running_loop()
        path = await loop.run_in_executor(server.thread_pool, write_markdown, server, config, report, lang)
        summary = summary_line(report, lang)
        shown = False
        if open_as == "markdown":
            server.window_show_message(types.ShowMessageParams(type=_message_type(report), message=summary))
            shown = await show(server, path, external=False)
        return {
            "cancelled": False,
            "config": str(config),
            "report": report.to_json(lang),
            "summary": summary,
            "markdownReport": str(path),
            "shown": shown,
        }
