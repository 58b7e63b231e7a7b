"""The rules: every finding the product reports comes from a documented rule with an id."""

from msmigrate.rules.loader import all_rules, get_rule

__all__ = ["all_rules", "get_rule"]
