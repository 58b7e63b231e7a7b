"""`msmigrate rules` (to be written)."""

import click


@click.command()
def rules() -> None:
    """Not available yet."""
    raise click.ClickException("msmigrate rules is not available yet")
