"""`msmigrate scan` (to be written)."""

import click


@click.command()
def scan() -> None:
    """Not available yet."""
    raise click.ClickException("msmigrate scan is not available yet")
