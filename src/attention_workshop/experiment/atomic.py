"""All or nothing on disk: a set of files appears in its folder at once, or not at all.

:func:`write_all` writes every file into a temporary folder beside the target
(``.tmp-new-<name>-<pid>-<token>``), then swaps that folder with the target in one rename:
a reader, or a process that dies at any moment, finds either the whole previous set or the
whole new one, never a mix. On Linux the swap is ``renameat2(RENAME_EXCHANGE)``; elsewhere
(or on a file system without it) the previous folder is first renamed aside, and should the
process die between the two renames, the next write puts it back before doing anything.

The target folder is replaced as a whole, so it may only hold files of the set: a folder with
anything else in it (``--out .``, the repository) is refused before anything is written.
Temporary folders never survive a failure; those of a process that died are removed by the
next write into the same folder. :func:`replace_folder` is the same swap for a folder some
other step fills (``make site``'s build).
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import secrets
import shutil
import sys
from collections.abc import Callable, Collection, Mapping
from pathlib import Path

__all__ = ["OutDirError", "check_out_dir", "replace_folder", "write_all"]


class OutDirError(ValueError):
    """The folder cannot receive the set (a file in the way, or files the set does not hold)."""


def _nothing(step: str) -> None:
    pass


#: Called with the name of each step of a write once it is done. Does nothing; a test
#: replaces it to raise or to kill the process right there (fault injection).
after_step: Callable[[str], None] = _nothing

# Linux's renameat2(2): swap two paths in one atomic step
_AT_FDCWD, _RENAME_EXCHANGE = -100, 2
_use_exchange = sys.platform.startswith("linux")


def check_out_dir(
    out_dir: str | os.PathLike[str], names: Collection[str] | None = None
) -> None:
    """Refuse a folder that cannot receive a set of files, before any work is done.

    Args:
        out_dir: the folder; it may not exist yet.
        names: the file names of the set, if known: the folder may then hold only those.

    Raises:
        OutDirError: ``out_dir`` or one of its parents is a file, or the folder holds a
            subfolder or a file not in ``names``; the message says what to do.
    """
    out = Path(out_dir)
    for p in (out, *out.parents):
        if p.exists() and not p.is_dir():
            raise OutDirError(
                f"{p} is a file, not a folder: name a folder to write into"
            )
    if names is None or not out.is_dir():
        return
    foreign = sorted(
        e.name
        for e in out.iterdir()
        if e.name not in names or e.is_symlink() or not e.is_file()
    )
    if foreign:
        shown = ", ".join(foreign[:5]) + (
            f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
        )
        raise OutDirError(
            f"{out} holds {shown}, which this run does not write; the folder is replaced "
            "as a whole, so name a new or empty folder, or one an earlier run wrote"
        )


def write_all(
    files: Mapping[str, str | bytes], out_dir: str | os.PathLike[str]
) -> list[Path]:
    """Write a set of files into ``out_dir``, all or nothing.

    Args:
        files: file name (no folders) -> content; ``str`` is written as UTF-8 with ``\\n``
            line ends kept as they are.
        out_dir: the folder, created if needed (parents too). It must be missing, empty,
            or hold only files named in ``files``: it is replaced as a whole.

    Returns:
        The paths written, ``out_dir / name`` in the order of ``files``.

    Raises:
        OutDirError: see :func:`check_out_dir`. Nothing is written.
        ValueError: a name is not a plain file name. Nothing is written.
        TypeError: a content is neither ``str`` nor ``bytes``. Nothing is written.
        OSError: the disk refused; the previous set is still in place.
    """
    data: dict[str, bytes] = {}
    for name, content in files.items():
        if not name or name in (".", "..") or "/" in name or os.sep in name:
            raise ValueError(f"{name!r} is not a plain file name")
        if not isinstance(content, (str, bytes)):
            raise TypeError(
                f"{name}: the content is {type(content).__name__}, not str or bytes"
            )
        data[name] = content.encode("utf-8") if isinstance(content, str) else content
    check_out_dir(out_dir, data)

    def fill(folder: Path) -> None:
        for name, content in data.items():
            with open(folder / name, "wb") as f:
                f.write(content)
                f.flush()
                os.fsync(f.fileno())
            after_step(f"wrote {name}")

    replace_folder(out_dir, fill)
    return [Path(out_dir) / name for name in files]


def replace_folder(
    out_dir: str | os.PathLike[str], fill: Callable[[Path], None]
) -> None:
    """Replace ``out_dir`` as a whole by a folder ``fill`` writes, or leave it untouched.

    ``fill`` gets an empty temporary folder beside ``out_dir``; if it raises, the folder is
    removed and ``out_dir`` is as it was. Otherwise one rename swaps it in.
    """
    out = Path(out_dir).absolute()
    check_out_dir(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    _clean_stale(out)
    after_step("cleaned")
    token = f"{os.getpid()}-{secrets.token_hex(4)}"
    new = out.with_name(f".tmp-new-{out.name}-{token}")
    new.mkdir()
    try:
        if out.is_dir():
            # the folder keeps its permissions
            shutil.copymode(out, new)
        after_step("made the temporary folder")
        fill(new)
        _sync(new)
        after_step("filled the temporary folder")
        _swap(new, out, out.with_name(f".tmp-old-{out.name}-{token}"))
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise


def _swap(new: Path, out: Path, old: Path) -> None:
    """Put ``new`` at ``out``; what was at ``out`` is removed (``new`` then no longer exists)."""
    if not out.exists():
        os.rename(new, out)
        after_step("renamed into place")
    elif _exchange(new, out):
        # ``new`` now holds the previous set
        after_step("swapped")
        shutil.rmtree(new)
        after_step("removed the previous set")
    else:
        os.rename(out, old)
        try:
            after_step("moved the previous set aside")
            os.rename(new, out)
        except BaseException:
            os.rename(old, out)
            raise
        try:
            after_step("renamed into place")
        finally:
            shutil.rmtree(old, ignore_errors=True)
        after_step("removed the previous set")
    _sync(out.parent)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one step (Linux ``renameat2``); False where that is not available."""
    if not _use_exchange:
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    if (
        renameat2(
            _AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE
        )
        == 0
    ):
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _clean_stale(out: Path) -> None:
    """Remove the temporary folders of writes into ``out`` whose process died; put back a
    previous set a dead process had moved aside and not replaced."""
    stale = re.compile(rf"\.tmp-(new|old)-{re.escape(out.name)}-(\d+)-[0-9a-f]+")
    for p in sorted(out.parent.iterdir()):
        m = stale.fullmatch(p.name)
        if m is None or _alive(int(m[2])):
            continue
        if m[1] == "old" and not out.exists():
            os.rename(p, out)
        else:
            shutil.rmtree(p, ignore_errors=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if os.name != "posix":
        # no cheap, harmless check: leave it
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _sync(folder: Path) -> None:
    """Flush a folder's entries to disk (POSIX), so a crash cannot lose the rename."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:
        # a file system that cannot flush a folder: the rename still happened
        pass
    finally:
        os.close(fd)
