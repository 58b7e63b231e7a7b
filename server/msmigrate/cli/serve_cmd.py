"""``msmigrate serve``: run the language server over stdio (default), TCP or WebSocket."""

from __future__ import annotations

import ipaddress
import logging
import os
import sys

import click

from msmigrate.i18n import t

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}
TOKEN_ENV = "MSMIGRATE_TOKEN"
MIN_TOKEN_LENGTH = 16


def _is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _address(value: str) -> tuple[str, int]:
    """``HOST:PORT``, ``:PORT`` or ``PORT`` (host defaults to 127.0.0.1); IPv6 as ``[::1]:PORT``."""
    host, sep, port = value.rpartition(":")
    if not sep:
        host, port = "", value
    host = host.strip("[]") or "127.0.0.1"
    try:
        number = int(port)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not HOST:PORT") from None
    if not 0 <= number <= 65535:
        raise click.BadParameter(f"port {number} is out of range")
    return host, number


def _session_token(token_file: str | None) -> tuple[str, bool]:
    """``(token, generated)``: from ``--token-file``, else ``$MSMIGRATE_TOKEN``, else a fresh one."""
    from msmigrate.lsp.transports import new_token

    if token_file:
        try:
            with open(token_file, encoding="utf-8") as handle:
                token = handle.readline().strip()
        except OSError as exc:
            raise click.UsageError(f"cannot read the token file {token_file}: {exc.strerror}") from None
        source = "--token-file"
    else:
        token = os.environ.get(TOKEN_ENV, "").strip()
        source = TOKEN_ENV
        if not token:
            return new_token(), True
    if len(token) < MIN_TOKEN_LENGTH:
        raise click.UsageError(f"the token from {source} is shorter than {MIN_TOKEN_LENGTH} characters")
    return token, False


def _quiet_protocol_log(verbose: bool) -> None:
    """pygls logs every message body at INFO; keep bodies out of the log unless ``-v`` (DEBUG)."""
    if not verbose:
        logging.getLogger("pygls.protocol").setLevel(logging.WARNING)


@click.command()
@click.option(
    "--tcp", "tcp", metavar="HOST:PORT", help="Listen on TCP instead of stdio (host defaults to 127.0.0.1)."
)
@click.option("--ws", "ws", metavar="HOST:PORT", help="Listen on a WebSocket instead of stdio.")
@click.option(
    "--allow-remote", is_flag=True, help="Allow a non-loopback host for --tcp/--ws (off by default)."
)
@click.option(
    "--allow-origin", "allowed_origins", multiple=True, metavar="ORIGIN",
    help="--ws: also accept browser connections from this Origin (no Origin and vscode-webview:// are "
    "accepted; every other origin is refused).",
)
@click.option(
    "--token-file", type=click.Path(dir_okay=False),
    help=f"--tcp/--ws: read the session token from this file (else ${TOKEN_ENV}, else a fresh token is "
    "generated and printed to stderr).",
)
@click.option("--lang", type=click.Choice(["en", "zh"]), default=None,
              help="Language of the startup message (default: $MSMIGRATE_LANG, else en).")
@click.option("--log-file", type=click.Path(dir_okay=False), help="Write the server's own log to this file.")
@click.option("-v", "--verbose", is_flag=True,
              help="Log debug details, message bodies included (to --log-file).")
def serve(tcp: str | None, ws: str | None, allow_remote: bool, allowed_origins: tuple[str, ...],
          token_file: str | None, lang: str | None, log_file: str | None, verbose: bool) -> None:
    """Run the msmigrate language server (stdio unless --tcp or --ws is given).

    Over --tcp/--ws every client must present the session token (see docs/SECURITY.md) and the server
    holds one session; it exits when that session ends.
    """
    if tcp and ws:
        raise click.UsageError("choose one of --tcp and --ws")
    if log_file:
        logging.basicConfig(filename=log_file, level=logging.DEBUG if verbose else logging.INFO)
        _quiet_protocol_log(verbose)
    address = _address(tcp or ws) if (tcp or ws) else None
    if address and not allow_remote and not _is_loopback(address[0]):
        raise click.UsageError(
            f"refusing to listen on {address[0]} (not loopback); add --allow-remote to allow it"
        )
    token, generated = _session_token(token_file) if address else ("", False)
    lang = lang or os.environ.get("MSMIGRATE_LANG") or "en"

    from msmigrate.lsp.features import create_server

    # the analysis thread is CPU-bound; hand the interpreter to the request loop more often than every
    # 5 ms (the default) so hovers stay quick while a long re-analysis runs in the background
    sys.setswitchinterval(0.001)
    server = create_server()
    if address is None:
        from msmigrate.lsp.process_end import serve_stdio

        serve_stdio(server)  # ends the process (at exit, or when the input ends)
    from msmigrate.lsp import transports

    def listening(host: str, port: int) -> None:
        shown = f"[{host}]" if ":" in host else host
        url = f"ws://{shown}:{port}/" if ws else f"tcp://{shown}:{port}"
        if ws and generated:
            url += f"?token={token}"
        key = "lsp.serve.listening_token" if generated else "lsp.serve.listening"
        click.echo(t(key, lang, url=url, token=token), err=True)

    if tcp:
        transports.serve_tcp(server, *address, token, listening)
    else:
        transports.serve_ws(server, *address, token, allowed_origins, listening)
