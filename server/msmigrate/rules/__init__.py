"""The rule registry: every finding the product reports comes from a documented rule with an id."""

from msmigrate.rules.registry import all_rules, get_rule

__all__ = ["all_rules", "get_rule"]
