"""The package as users get it: built, installed outside the checkout, with its knowledge base."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))  # raw_lsp, lsp_support
