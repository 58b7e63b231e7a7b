"""``msmigrate serve``: run the language server over stdio (default), TCP or WebSocket."""

from __future__ import annotations

import ipaddress
import logging
import sys

import click

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


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


@click.command()
@click.option(
    "--tcp", "tcp", metavar="HOST:PORT", help="Listen on TCP instead of stdio (host defaults to 127.0.0.1)."
)
@click.option("--ws", "ws", metavar="HOST:PORT", help="Listen on a WebSocket instead of stdio.")
@click.option(
    "--allow-remote", is_flag=True, help="Allow a non-loopback host for --tcp/--ws (off by default)."
)
@click.option("--log-file", type=click.Path(dir_okay=False), help="Write the server's own log to this file.")
@click.option("-v", "--verbose", is_flag=True, help="Log debug details (to --log-file).")
def serve(tcp: str | None, ws: str | None, allow_remote: bool, log_file: str | None, verbose: bool) -> None:
    """Run the msmigrate language server (stdio unless --tcp or --ws is given)."""
    if tcp and ws:
        raise click.UsageError("choose one of --tcp and --ws")
    if log_file:
        logging.basicConfig(filename=log_file, level=logging.DEBUG if verbose else logging.INFO)
    address = _address(tcp or ws) if (tcp or ws) else None
    if address and not allow_remote and not _is_loopback(address[0]):
        raise click.UsageError(
            f"refusing to listen on {address[0]} (not loopback); add --allow-remote to allow it"
        )

    from msmigrate.lsp.server import create_server

    # the analysis thread is CPU-bound; hand the interpreter to the request loop more often than every
    # 5 ms (the default) so hovers stay quick while a long re-analysis runs in the background
    sys.setswitchinterval(0.001)
    server = create_server()
    if address is None:
        server.start_io()
    elif tcp:
        server.start_tcp(*address)
    else:
        server.start_ws(*address)
