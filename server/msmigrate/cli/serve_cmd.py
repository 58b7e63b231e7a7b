"""`msmigrate serve` (to be written)."""

import click


@click.command()
def serve() -> None:
    """Not available yet."""
    raise click.ClickException("msmigrate serve is not available yet")
