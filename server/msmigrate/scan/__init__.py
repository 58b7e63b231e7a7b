"""Project scanning: file discovery, parallel analysis with a content-hash cache, the scan report."""

from msmigrate.scan.model import FileReport, ScanReport
from msmigrate.scan.options import CancelToken, ConfigError, ScanCancelled, ScanOptions
from msmigrate.scan.runner import scan_paths

__all__ = [
    "CancelToken",
    "ConfigError",
    "FileReport",
    "ScanCancelled",
    "ScanOptions",
    "ScanReport",
    "scan_paths",
]
