"""Message catalogues, one module per product area (see :mod:`msmigrate.i18n`)."""
