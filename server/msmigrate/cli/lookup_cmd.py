"""`msmigrate lookup` (to be written)."""

import click


@click.command()
def lookup() -> None:
    """Not available yet."""
    raise click.ClickException("msmigrate lookup is not available yet")
