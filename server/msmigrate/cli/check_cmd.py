"""`msmigrate check` (to be written)."""

import click


@click.command()
def check() -> None:
    """Not available yet."""
    raise click.ClickException("msmigrate check is not available yet")
