"""Content-hash cache of per-file analysis results (a :mod:`diskcache` store in the user cache dir).

A key is a hash of: the tool version, a fingerprint of the installed msmigrate code and of the
mapping data, the analysis options, the file's relative path and the hash of its bytes. Values are JSON
(never pickles). A cache that cannot be opened or read (corrupted database, foreign files) is deleted and
rebuilt once; if that fails too the scan simply runs without a cache.

Writes are buffered and committed in batches (one SQLite transaction per batch, not per file). A
*manifest* per scanned root (a small JSON file next to the store) remembers each file's size, mtime and
content hash, so a rescan of unchanged files neither reads nor hashes them. An entry is only trusted
when the file's mtime was well before the scan that hashed it (a file changed twice within the
timestamp granularity is read again).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from functools import cache
from pathlib import Path
from typing import Any

from msmigrate import __version__
from msmigrate.paths import data_dir

CACHE_FORMAT = 1
_SIZE_LIMIT = 512 * 1024 * 1024
_BATCH = 256  # buffered writes per transaction
_RACY_NS = 2_000_000_000  # a file modified this close to the scan that hashed it is hashed again
_MANIFEST_LIMIT = 200_000  # entries kept per root
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
        self._pending: dict[str, bytes] = {}
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
            raw = self._pending.get(key) or self._store.get(key)
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
        self._pending[key] = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
        if len(self._pending) >= _BATCH:
            self.flush()

    def flush(self) -> None:
        """Write the buffered entries in one transaction."""
        pending, self._pending = self._pending, {}
        if self._store is None or not pending:
            return
        try:
            store = self._store
            with store.transact(retry=True):
                for key, raw in pending.items():
                    store.set(key, raw)
        except Exception:
            self._recover()

    def delete(self, key: str) -> None:
        self._pending.pop(key, None)
        if self._store is None:
            return
        try:
            self._store.delete(key)
        except Exception:
            self._recover()

    # --- manifest: path → (size, mtime, content hash) of the files last scanned under a root ------
    def _manifest_path(self, root: str) -> Path:
        name = hashlib.blake2b(root.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
        return self.directory / "manifests" / f"{name}.json"

    def manifest(self, root: str) -> Manifest:
        """The manifest of ``root`` (empty when there is none or it cannot be read)."""
        entries: dict[str, list[Any]] = {}
        if self._store is not None:
            try:
                data = json.loads(self._manifest_path(root).read_bytes())
                if isinstance(data, dict) and data.get("format") == CACHE_FORMAT:
                    found = data.get("entries")
                    entries = found if isinstance(found, dict) else {}
            except (OSError, ValueError, UnicodeDecodeError):
                pass
        return Manifest(entries)

    def save_manifest(self, root: str, manifest: Manifest) -> None:
        """Write the manifest atomically (a failure only costs the next scan some hashing)."""
        if self._store is None or not manifest.changed:
            return
        entries = manifest.entries
        if len(entries) > _MANIFEST_LIMIT:  # keep the most recent entries of a huge or changing tree
            entries = dict(list(entries.items())[-_MANIFEST_LIMIT:])
        path = self._manifest_path(root)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_text(json.dumps({"format": CACHE_FORMAT, "entries": entries},
                                            separators=(",", ":"), ensure_ascii=False), encoding="utf-8")
            os.replace(temporary, path)
        except (OSError, ValueError):
            try:
                temporary.unlink(missing_ok=True)
            except OSError:
                pass

    def close(self) -> None:
        self.flush()
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


class Manifest:
    """Known content hashes by relative path: ``entries[rel] = [size, mtime_ns, hash, trusted]``."""

    __slots__ = ("entries", "changed", "started_ns")

    def __init__(self, entries: dict[str, list[Any]]) -> None:
        self.entries = entries
        self.changed = False
        self.started_ns = time.time_ns()  # files read by this scan are read after this moment

    def known_hash(self, rel: str, size: int, mtime_ns: int) -> str | None:
        """The content hash recorded for an unchanged file, if it can be trusted."""
        entry = self.entries.get(rel)
        if (
            type(entry) is list
            and len(entry) == 4
            and entry[3] is True
            and entry[0] == size
            and entry[1] == mtime_ns
            and type(entry[2]) is str
        ):
            return entry[2]
        return None

    def record(self, rel: str, size: int, mtime_ns: int, data_hash: str) -> None:
        trusted = mtime_ns + _RACY_NS < self.started_ns
        entry = [size, mtime_ns, data_hash, trusted]
        if self.entries.get(rel) != entry:
            self.entries.pop(rel, None)  # re-inserted last: the newest entries survive the size limit
            self.entries[rel] = entry
            self.changed = True
