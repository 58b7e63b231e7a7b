"""Source analysis: find torch usages in Python files and turn them into findings."""
