"""Source rewrites offered as quick-fixes and applied by fix-all."""
