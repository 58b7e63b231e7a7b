"""Reads and writes that stay where they belong: paths inside a root, and atomic writes that never
follow a symlink.

* :func:`inside_roots` — the resolved path (symlinks followed) when it lies inside one of the roots.
* :func:`write_inside` — write ``root/a/b/name`` creating the folders, refusing a symlink (or any
  non-folder) at every component below ``root`` (``O_NOFOLLOW`` on each folder, opened relative to the
  previous one), through a temporary file renamed into place. The language server writes its reports
  with it.
* :func:`write_atomic` — a path the user named: its folders are followed as the user gave them, but the
  file itself must be absent or a regular file (never a symlink, FIFO or device), and is replaced by a
  rename.
* :func:`write_output` — a report path the user named (``msmigrate scan -o``): :func:`write_atomic`, but
  a character device or FIFO that is already there (``/dev/null``, a named pipe) is written to as it is;
  a symlink is still refused.
* :func:`move_into` — the same as :func:`write_atomic` for a finished file (a converted checkpoint)
  renamed onto such a path.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path


class UnsafePath(OSError):
    """A write refused because a component is a symlink or not a regular file/folder."""


_DIR_FD = os.open in os.supports_dir_fd and os.mkdir in os.supports_dir_fd and hasattr(os, "O_DIRECTORY")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def resolve(path: str | os.PathLike[str], base: str | os.PathLike[str] | None = None) -> Path:
    """``path`` made absolute against ``base`` (else the current folder), with every symlink resolved."""
    candidate = Path(os.path.expanduser(os.fspath(path)))
    if not candidate.is_absolute() and base is not None:
        candidate = Path(base) / candidate
    return Path(os.path.realpath(candidate))


def inside_roots(
    path: str | os.PathLike[str], roots: Iterable[str | os.PathLike[str]]
) -> tuple[Path, Path] | None:
    """``(resolved path, resolved root)`` for the first root that contains ``path`` (relative paths are
    taken from the first root), or ``None`` when it lies outside every root."""
    roots = [resolve(root) for root in roots]
    if not roots:
        return None
    target = resolve(path, roots[0])
    for root in roots:
        if target == root or target.is_relative_to(root):
            return target, root
    return None


def _validate_name(name: str) -> None:
    if not name or name in (".", "..") or "/" in name or os.sep in name or "\0" in name:
        raise UnsafePath(errno.EINVAL, "not a plain file or folder name", name)


def _tmp_name(name: str) -> str:
    return f".{name}.{secrets.token_hex(6)}.tmp"


def _write_at(folder_fd: int, name: str, data: bytes, where: Path) -> None:
    """Write ``data`` to ``name`` in the folder open as ``folder_fd`` (temporary file + rename)."""
    try:
        existing = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
    except FileNotFoundError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        raise UnsafePath(errno.EEXIST, "not a regular file", str(where / name))
    tmp = _tmp_name(name)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666, dir_fd=folder_fd)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.rename(tmp, name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=folder_fd)
        except OSError:
            pass
        raise


def _write_in_folder(folder: Path, name: str, data: bytes) -> None:
    """Portable variant of :func:`_write_at` (no ``dir_fd``: Windows)."""
    target = folder / name
    if target.is_symlink() or (target.exists() and not target.is_file()):
        raise UnsafePath(errno.EEXIST, "not a regular file", str(target))
    tmp = folder / _tmp_name(name)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _is_link(path: Path) -> bool:
    return path.is_symlink() or bool(getattr(path, "is_junction", lambda: False)())


def write_inside(root: str | os.PathLike[str], parts: Sequence[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``root/parts[0]/…/parts[-1]``; folders are created as needed.

    Raises :class:`UnsafePath` when a component below ``root`` is a symlink or not a folder (the final
    one: not a regular file), ``OSError`` when the write fails. ``root`` itself is trusted (resolved).
    """
    if not parts:
        raise UnsafePath(errno.EINVAL, "no file name", str(root))
    for name in parts:
        _validate_name(name)
    base = resolve(root)
    data = text.encode("utf-8")
    if not _DIR_FD:
        folder = base
        for name in parts[:-1]:
            folder = folder / name
            if _is_link(folder):
                raise UnsafePath(errno.ELOOP, "a symlink", str(folder))
            folder.mkdir(exist_ok=True)
            if _is_link(folder) or not folder.is_dir():
                raise UnsafePath(errno.ENOTDIR, "not a folder", str(folder))
        _write_in_folder(folder, parts[-1], data)
        return folder / parts[-1]
    fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY)
    where = base
    try:
        for name in parts[:-1]:
            try:
                os.mkdir(name, 0o777, dir_fd=fd)
            except FileExistsError:
                pass
            try:
                inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise UnsafePath(exc.errno, "a symlink or not a folder", str(where / name)) from None
                raise
            os.close(fd)
            fd, where = inner, where / name
        _write_at(fd, parts[-1], data, where)
    finally:
        os.close(fd)
    return where / parts[-1]


def write_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to a path the user named: through a temporary file in the same folder,
    renamed into place. An existing symlink, FIFO, device or folder at ``path`` is refused
    (:class:`UnsafePath`), never written through."""
    target = Path(path)
    folder = target.parent
    name = target.name
    _validate_name(name)
    data = text.encode("utf-8")
    if not _DIR_FD:
        _write_in_folder(folder, name, data)
        return target
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        _write_at(fd, name, data, folder)
    finally:
        os.close(fd)
    return target


def write_output(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to a report path the user named: an existing character device or FIFO
    (``/dev/null``) is opened without following a symlink and written to; anything else goes through
    :func:`write_atomic` (a symlink, folder, socket or block device is refused: :class:`UnsafePath`)."""
    target = Path(path)
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = 0
    if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        return write_atomic(target, text)
    fd = os.open(target, os.O_WRONLY | _NOFOLLOW)
    try:
        opened = os.fstat(fd).st_mode
        if not (stat.S_ISCHR(opened) or stat.S_ISFIFO(opened)):  # replaced since the lstat above
            raise UnsafePath(errno.EEXIST, "not a device or pipe any more", str(target))
        with os.fdopen(fd, "wb", closefd=False) as handle:
            handle.write(text.encode("utf-8"))
    finally:
        os.close(fd)
    return target


def move_into(produced: str | os.PathLike[str], path: str | os.PathLike[str]) -> Path:
    """Rename the finished file ``produced`` (in the same folder as ``path``) onto a path the user named
    (``msmigrate convert-weights -o``): ``path`` must be absent or a regular file — a symlink, FIFO,
    device or folder there is refused (:class:`UnsafePath`), never written through."""
    target = Path(path)
    _validate_name(target.name)
    try:
        existing = os.stat(target, follow_symlinks=False)
    except FileNotFoundError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        raise UnsafePath(errno.EEXIST, "not a regular file", str(target))
    os.replace(produced, target)
    return target
