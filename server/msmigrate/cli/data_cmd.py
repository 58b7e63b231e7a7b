"""`msmigrate data …`: regenerate and inspect the knowledge in mapping_data/ (to be written)."""

import click


@click.group()
def data() -> None:
    """Build, inventory, check and summarise the mapping data."""
