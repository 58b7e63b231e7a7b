"""msmigrate: PyTorch → MindSpore migration analysis (core library, CLI and language server)."""

__version__ = "0.1.0"
