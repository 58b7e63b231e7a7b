"""Rules MSM3xx: one module per rule, ``msmNNN_<name>.py`` (docs/ARCHITECTURE.md, "A rule"); ``_<name>.py`` is
the family's shared code."""
