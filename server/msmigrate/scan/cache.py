"""Content-hash cache of per-file analysis results (a :mod:`diskcache` store in the user cache dir).

A key is a hash of: the tool version, a fingerprint of the installed msmigrate code and of the
mapping data, the analysis options, the file's relative path and the hash of its bytes. Values are JSON
(never pickles). A cache that cannot be opened or read (corrupted database, foreign files) is deleted and
rebuilt once; if that fails too the scan simply runs without a cache.

Writes are buffered and committed in batches (one SQLite transaction per batch, not per file). A
*manifest* per scanned root and key prefix (one JSON file next to the store) remembers each file's size,
mtime, ctime, inode, content hash and result, so a rescan of unchanged files reads one file: it neither
reads nor hashes the sources, nor opens the database. An entry is only trusted when the file's mtime and
ctime were well before the scan that hashed it (a file changed twice within the timestamp granularity is
read again); the ctime and inode catch a file replaced with its size and mtime kept (``cp -p``,
``rsync -t``). Where even that cannot be trusted, scans ask for ``trust_mtime=False`` (``msmigrate scan
--no-mtime``; always in the language server): every file is read and looked up by its content hash.

Everything read back is checked: each stored value and each manifest entry carries a checksum (blake2b of
its serialized form; the manifest's table of finding kinds has one too, and so have all its entries
together, checked on the bytes read: see :func:`_spans`), and the decoded values are validated field by
field (:mod:`msmigrate.scan.worker`). Anything that fails, however it was damaged, is
a cache miss: the file is analysed again.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msmigrate import __version__
from msmigrate.analysis.project_fields import well_formed
from msmigrate.paths import data_dir
from msmigrate.scan.worker import CompactReader, compact, expand, result_from_cache

if TYPE_CHECKING:
    from msmigrate.model.finding import FileResult

CACHE_FORMAT = 7  # 2: message references (i18n.ref); 3: Finding.written_api; 4: checksums, ctime/inode;
# 5: class headers in manifest entries, manifests found without the project's class index;
# 6: Finding.resolution (model/resolution.py); 7: ArgPlan.packed; 8: manifest entries keep a file's
# outline (class headers and built fields, scan/runner._outline) where they kept its class headers
_SIZE_LIMIT = 512 * 1024 * 1024
_BATCH = 256  # buffered writes per transaction
_RACY_NS = 2_000_000_000  # a file modified this close to the scan that hashed it is hashed again
_MANIFEST_LIMIT = 200_000  # entries kept per manifest
_MANIFESTS_KEPT = 32
_PACKAGE_DIR = Path(__file__).resolve().parents[1]


def default_cache_dir() -> Path:
    env = os.environ.get("MSMIGRATE_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("msmigrate", appauthor=False))


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


_SUM_CHARS = 32


def checksum(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=_SUM_CHARS // 2).hexdigest()


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _sum(value: Any) -> str:
    """The checksum of a JSON value's serialized form."""
    return checksum(_dumps(value).encode("utf-8", "surrogatepass"))


def _entry_sum(entry: list[Any]) -> str:
    """The checksum of a manifest entry's fields (all but the checksum itself)."""
    return _sum(entry[:_ENTRY_FIELDS])


def file_stamp(stat: os.stat_result) -> str:
    """What must not change for a file to count as unchanged without reading it."""
    return f"{stat.st_mtime_ns}:{stat.st_ctime_ns}:{stat.st_ino}"


@cache
def code_fingerprint() -> str:
    """Changes whenever a module of msmigrate, a curated fact file (``knowledge/facts/*.toml``) or a file of
    the mapping data changes (size or mtime)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{__version__}/{CACHE_FORMAT}".encode())
    for folder, pattern in ((_PACKAGE_DIR, "*.py"), (_PACKAGE_DIR, "*.toml"), (data_dir(), "*.json")):
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
        self._opened = False
        self.hits = 0
        self.misses = 0

    @property
    def store(self) -> Any:
        """The diskcache store, opened on first use (a scan served by its manifest never opens it)."""
        if not self._opened:
            self._opened = True
            self._open()
        return self._store

    @property
    def enabled(self) -> bool:
        return self.store is not None

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

    def _close_store(self) -> None:
        if self._store is not None:
            try:
                self._store.close()
            except Exception:
                pass
            self._store = None

    def _wipe(self) -> None:
        self._close_store()
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
        if self.store is None:
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
            if type(raw) is not bytes or checksum(raw[_SUM_CHARS:]).encode() != raw[:_SUM_CHARS]:
                raise ValueError("damaged cache entry")
            value = json.loads(raw[_SUM_CHARS:].decode("utf-8", "surrogatepass"))
            if not isinstance(value, dict) or not isinstance(value.get("findings"), list):
                raise ValueError("unexpected cache entry")
        except (ValueError, TypeError, UnicodeDecodeError, RecursionError):
            self.delete(key)
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, key: str, value: dict[str, Any]) -> None:
        if self.store is None:
            return
        raw = _dumps(value).encode("utf-8", "surrogatepass")
        self._pending[key] = checksum(raw).encode() + raw  # the checksum, then the JSON it covers
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
        if self.store is None:
            return
        try:
            self._store.delete(key)
        except Exception:
            self._recover()

    # --- manifest: what the last scan of a root found (see :class:`Manifest`) -----------------------
    def _manifest_path(self, root: str, prefix: str) -> Path:
        name = hashlib.blake2b(f"{root}|{prefix}".encode("utf-8", "surrogatepass"), digest_size=16)
        return self.directory / "manifests" / f"{name.hexdigest()}.json"

    def manifest(self, root: str, prefix: str) -> Manifest:
        """The manifest of ``root`` for scans with key ``prefix`` (empty when missing or unreadable).
        The runner names it by the key prefix without the project index, which it builds from the
        manifest's outlines (the entries' cache keys hold the index)."""
        try:
            raw = self._manifest_path(root, prefix).read_bytes()
            data = json.loads(raw)
            if isinstance(data, dict) and data.get("format") == CACHE_FORMAT:
                entries, table = data.get("entries"), data.get("kinds")
                spans = _spans(raw, data.get("spans"))  # the entries' and kinds' text as written
                kinds_sum = data.get("kinds_sum")
                intact = isinstance(table, list) and (
                    (spans is not None and checksum(spans[1]) == kinds_sum) or kinds_sum == _sum(table))
                if isinstance(entries, dict) and intact:
                    manifest = Manifest(entries, table)
                    # every entry intact at once (else each is checked by its own checksum)
                    manifest.all_intact = spans is not None and checksum(spans[0]) == data.get("entries_sum")
                    return manifest
        except (OSError, ValueError, UnicodeDecodeError, RecursionError):
            pass
        return Manifest({}, [])

    def save_manifest(self, root: str, prefix: str, manifest: Manifest) -> None:
        """Write the manifest atomically (a failure only costs the next scan some work)."""
        if not manifest.changed or self.store is None:
            return
        entries = manifest.entries
        if len(entries) > _MANIFEST_LIMIT:  # keep the most recent entries of a huge or changing tree
            entries = dict(list(entries.items())[-_MANIFEST_LIMIT:])
        table = manifest.compacted(entries)
        path = self._manifest_path(root, prefix)
        temporary: Path | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            for entry in entries.values():
                entry[_ENTRY_FIELDS:] = [_entry_sum(entry)]
            entries_text, table_text = _dumps(entries).encode(), _dumps(table).encode()
            tail = {"format": CACHE_FORMAT, "kinds_sum": checksum(table_text),
                    "entries_sum": checksum(entries_text), "spans": [len(entries_text), len(table_text)]}
            data = b"".join((_ENTRIES, entries_text, _KINDS, table_text, b",", _dumps(tail).encode()[1:]))
            with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=path.stem, suffix=".tmp",
                                             delete=False) as handle:
                temporary = Path(handle.name)
                handle.write(data)
            os.replace(temporary, path)
            _prune(path.parent)
        except (OSError, ValueError):
            if temporary is not None:
                try:
                    temporary.unlink(missing_ok=True)
                except OSError:
                    pass

    def close(self) -> None:
        self.flush()
        self._close_store()

    def __enter__(self) -> ResultCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# a manifest file: {"entries": …, "kinds": …, "format", "kinds_sum", "entries_sum", "spans"}, where
# ``spans`` are the byte lengths of the entries' and the kinds' text, so that their checksums are checked
# on the bytes read instead of serializing them again
_ENTRIES, _KINDS = b'{"entries":', b',"kinds":'


def _spans(raw: bytes, spans: Any) -> tuple[bytes, bytes] | None:
    """The entries' and the kinds' text in a manifest file as :meth:`ResultCache.save_manifest` writes
    it, or ``None`` (another layout)."""
    if (type(spans) is not list or len(spans) != 2 or any(type(n) is not int or n < 0 for n in spans)
            or not raw.startswith(_ENTRIES)):
        return None
    end = len(_ENTRIES) + spans[0]
    if raw[end : end + len(_KINDS)] != _KINDS:
        return None
    start = end + len(_KINDS)
    if raw[start + spans[1] : start + spans[1] + 1] != b",":
        return None
    return raw[len(_ENTRIES) : end], raw[start : start + spans[1]]


def _prune(folder: Path) -> None:
    """Keep the most recently written manifests (old code versions and settings leave theirs behind)."""
    found = list(folder.glob("*.json"))
    if len(found) <= _MANIFESTS_KEPT:
        return

    def written(path: Path) -> int:
        try:
            return path.stat().st_mtime_ns
        except OSError:  # removed meanwhile (another scan)
            return 0

    for path in sorted(found, key=written, reverse=True)[_MANIFESTS_KEPT:]:
        path.unlink(missing_ok=True)


_ENTRY_FIELDS = 7


class Manifest:
    """The files of a root as the last scan with the same key prefix saw them: ``entries[rel] = [size,
    stamp, content hash, trusted, cache key, result in cache form, outline, checksum]``
    (``stamp``: :func:`file_stamp`; outline: ``[class headers, built fields]`` of the file,
    :func:`msmigrate.analysis.project_classes.class_headers` and
    :func:`msmigrate.analysis.project_fields.file_fields`; ``checksum``: of the seven fields before it,
    written when saved).

    A rescan serves an unchanged file (same size and stamp, trusted) from here: no read, no hash, no
    database lookup; its outline too (for the project index). ``trusted`` is false for a
    file modified shortly before the scan that hashed it.
    Results are kept in the compact form of :func:`msmigrate.scan.worker.compact`, over one table of
    finding kinds per manifest.
    """

    __slots__ = ("entries", "table", "changed", "started_ns", "all_intact", "_reader")

    def __init__(self, entries: dict[str, list[Any]], table: list[Any]) -> None:
        self.entries = entries
        self.table = table  # finding kinds referred to by the loaded entries
        self._reader: CompactReader | None = None
        self.changed = False
        self.all_intact = False  # the whole entries' text matched its checksum when loaded
        self.started_ns = time.time_ns()  # files read by this scan are read after this moment

    def known_hash(self, rel: str, stat: os.stat_result) -> str | None:
        """The content hash recorded for an unchanged file, if it can be trusted (and its entry is intact:
        a damaged one is dropped)."""
        entry = self.entries.get(rel)
        if type(entry) is not list or len(entry) != _ENTRY_FIELDS + 1 or not self._intact(rel, entry):
            return None
        unchanged = entry[0] == stat.st_size and entry[1] == file_stamp(stat)
        return entry[2] if unchanged and entry[3] is True and type(entry[2]) is str else None

    def known_outline(self, rel: str, stat: os.stat_result) -> list[list] | None:
        """The outline recorded for an unchanged file (as :meth:`known_hash`), if well formed."""
        if self.known_hash(rel, stat) is None:
            return None
        outline = self.entries[rel][6]
        if type(outline) is not list or len(outline) != 2 or type(outline[0]) is not list:
            return None
        for header in outline[0]:
            if (type(header) is not list or len(header) != 2 or type(header[0]) is not str
                    or type(header[1]) is not list or not all(type(base) is str for base in header[1])):
                return None
        return outline if well_formed(outline[1]) else None

    def _intact(self, rel: str, entry: list[Any]) -> bool:
        if entry[_ENTRY_FIELDS] == "checked" or self.all_intact:  # recorded or checked by this scan
            entry[_ENTRY_FIELDS] = "checked"
            return True
        try:
            intact = entry[_ENTRY_FIELDS] == _entry_sum(entry)
        except (TypeError, ValueError, RecursionError):
            intact = False
        if intact:
            entry[_ENTRY_FIELDS] = "checked"
        else:
            self.forget(rel)
        return intact

    def result(self, rel: str, key: str) -> FileResult | None:
        """The result recorded for ``rel`` under ``key`` (after :meth:`known_hash`); ``None`` if there is
        none or it is malformed."""
        entry = self.entries.get(rel)
        if (type(entry) is not list or len(entry) != _ENTRY_FIELDS + 1 or entry[_ENTRY_FIELDS] != "checked"
                or entry[4] != key or type(entry[5]) is not dict):
            return None
        value = entry[5]
        try:
            if "rows" in value:
                if self._reader is None:
                    self._reader = CompactReader(self.table)
                return self._reader.result(rel, value)
            return result_from_cache(rel, value)
        except (IndexError, KeyError, TypeError, ValueError, RecursionError):
            self.forget(rel)
            return None

    def compacted(self, entries: dict[str, list[Any]]) -> list[Any]:
        """Turn every result of ``entries`` into compact form over one new table of finding kinds, and
        return that table (done once, when the manifest is saved at the end of a scan)."""
        table: list[Any] = []
        kinds: dict[Any, int] = {}
        for rel, entry in list(entries.items()):
            value = entry[5] if type(entry) is list and len(entry) == _ENTRY_FIELDS + 1 else None
            if type(value) is not dict or not self._intact(rel, entry):
                entries.pop(rel, None)
                continue
            try:
                if "rows" in value:  # loaded and not used by this scan: over the loaded table
                    value = expand(value, self.table)
                entry[5] = compact(value, kinds, table)
            except (IndexError, KeyError, TypeError, ValueError, RecursionError):
                del entries[rel]
        return table

    def record(self, rel: str, stat: os.stat_result, data_hash: str, key: str,
               value: dict[str, Any] | None, outline: list[list]) -> None:
        """Remember what this scan found for ``rel`` (``value``: its result in cache form, if cached;
        ``outline``: that of the bytes hashed)."""
        trusted = max(stat.st_mtime_ns, stat.st_ctime_ns) + _RACY_NS < self.started_ns
        entry = [stat.st_size, file_stamp(stat), data_hash, trusted, key, value, outline, "checked"]
        self.entries.pop(rel, None)  # re-inserted last: the newest entries survive the size limit
        self.entries[rel] = entry
        self.changed = True

    def forget(self, rel: str) -> None:
        if self.entries.pop(rel, None) is not None:
            self.changed = True
