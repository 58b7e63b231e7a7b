"""The shared model: the types every layer passes around (findings, rules). Imports only ``i18n``."""
