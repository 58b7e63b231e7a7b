"""Content-hash cache of per-file analysis results (a :mod:`diskcache` store in the user cache dir).

A key is a hash of: the tool version, a fingerprint of the installed msmigrate code and of the
mapping data, the analysis options, the file's relative path and the hash of its bytes. Values are JSON
(never pickles). A cache that cannot be opened or read (corrupted database, foreign files) is deleted and
rebuilt once; if that fails too the scan simply runs without a cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from functools import cache
from pathlib import Path
from typing import Any

from msmigrate import __version__
from msmigrate.paths import data_dir

CACHE_FORMAT = 1
_SIZE_LIMIT = 512 * 1024 * 1024
_PACKAGE_DIR = Path(__file__).resolve().parents[1]


def default_cache_dir() -> Path:
    env = os.environ.get("MSMIGRATE_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("msmigrate", appauthor=False))


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


@cache
def code_fingerprint() -> str:
    """Changes whenever a module of msmigrate or a file of the mapping data changes (size or mtime)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{__version__}/{CACHE_FORMAT}".encode())
    for folder, pattern in ((_PACKAGE_DIR, "*.py"), (data_dir(), "*.json")):
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob(pattern)):
            try:
                stat = path.stat()
            except OSError:
                continue
            digest.update(f"{path.relative_to(folder)}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return digest.hexdigest()


def scan_key_prefix(mindspore_version: str, analysis_options: Any) -> str:
    """The part of every key that is the same for all files of one scan."""
    options = json.dumps(_jsonable(analysis_options), sort_keys=True, default=str)
    return f"{code_fingerprint()}|{mindspore_version}|{hashlib.sha256(options.encode()).hexdigest()[:16]}"


def file_key(prefix: str, rel_path: str, data_hash: str) -> str:
    return hashlib.blake2b(f"{prefix}|{rel_path}|{data_hash}".encode(), digest_size=24).hexdigest()


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [_jsonable(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, set | frozenset) else items
    fields = getattr(value, "__dataclass_fields__", None)
    if fields is not None:
        return {name: _jsonable(getattr(value, name)) for name in fields}
    return repr(value)


class ResultCache:
    """Get/put JSON-able per-file results; every failure degrades to a cache miss."""

    def __init__(self, directory: Path | None = None) -> None:
        # only this sub-folder is ever deleted, whatever folder the caller names
        self.directory = (directory or default_cache_dir()) / f"scan-v{CACHE_FORMAT}"
        self._store: Any = None
        self._recovered = False
        self.hits = 0
        self.misses = 0
        self._open()

    @property
    def enabled(self) -> bool:
        return self._store is not None

    def _open(self) -> None:
        import diskcache

        for attempt in range(2):
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                store = diskcache.Cache(str(self.directory), size_limit=_SIZE_LIMIT)
                store.get("__probe__")  # touches the database: a corrupted file fails here
                self._store = store
                return
            except Exception:  # any failure: delete and rebuild once, then run without a cache
                if attempt == 0:
                    self._wipe()
        self._store = None

    def _wipe(self) -> None:
        if self._store is not None:
            try:
                self._store.close()
            except Exception:
                pass
            self._store = None
        shutil.rmtree(self.directory, ignore_errors=True)

    def _recover(self) -> None:
        """A read or write failed mid-scan: rebuild once, else disable."""
        if self._recovered:
            self._wipe()
            return
        self._recovered = True
        self._wipe()
        self._open()

    def get(self, key: str) -> dict[str, Any] | None:
        if self._store is None:
            return None
        try:
            raw = self._store.get(key)
        except Exception:
            self._recover()
            self.misses += 1
            return None
        if raw is None:
            self.misses += 1
            return None
        try:
            value = json.loads(raw)
            if not isinstance(value, dict) or not isinstance(value.get("findings"), list):
                raise ValueError("unexpected cache entry")
        except (ValueError, TypeError, UnicodeDecodeError):
            self.delete(key)
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, key: str, value: dict[str, Any]) -> None:
        if self._store is None:
            return
        try:
            self._store.set(key, json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())
        except Exception:
            self._recover()

    def delete(self, key: str) -> None:
        if self._store is None:
            return
        try:
            self._store.delete(key)
        except Exception:
            self._recover()

    def close(self) -> None:
        if self._store is not None:
            try:
                self._store.close()
            except Exception:
                pass
            self._store = None

    def __enter__(self) -> ResultCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
