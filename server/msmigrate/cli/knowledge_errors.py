"""A missing or damaged knowledge base ends any command with one message and exit status 2."""

from __future__ import annotations

import functools
import os
from typing import Any

import click

from msmigrate.data_files import KnowledgeBaseError
from msmigrate.i18n import t

EXIT_STATUS = 2


class KnowledgeBaseUnavailable(click.ClickException):
    """Shown by click as ``Error: <message>`` on stderr, without a traceback."""

    exit_code = EXIT_STATUS


def message(exc: KnowledgeBaseError, lang: str | None) -> str:
    return t(exc.key, lang or os.environ.get("MSMIGRATE_LANG"), **exc.fields)


def guard(command: click.Command) -> click.Command:
    """Make ``command`` (and a group's subcommands) turn :class:`KnowledgeBaseError` into
    :class:`KnowledgeBaseUnavailable`, in the language of the command's ``--lang``."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            guard(sub)
    callback = command.callback
    if callback is None or getattr(callback, "_stops_on_knowledge_error", False):
        return command

    @functools.wraps(callback)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            return callback(*args, **kwargs)
        except KnowledgeBaseError as exc:
            raise KnowledgeBaseUnavailable(message(exc, kwargs.get("lang"))) from None

    guarded._stops_on_knowledge_error = True  # type: ignore[attr-defined]
    command.callback = guarded
    return command
