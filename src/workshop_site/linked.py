"""A large generated file linked into the site from the cache, not written at every build.

MkDocs empties the site folder at each build and writes every generated file again: under
``mkdocs serve`` the run box's 45 MB model file took 0.16 s of every rebuild, about a ninth of
a prose edit's (new memory is slow to touch on some machines; a hard link costs nothing). In a
build that may use the cache, :func:`into_site` keeps such a file once in the cache's
``site-files/`` (under its path in the site), hard-links it into the site folder and checks the
linked file byte for byte against the build's bytes at every build (when they differ, a damaged
or an old copy, the copy is written again, as a new file, and linked again: it is never
served). MkDocs is then given a file whose source is that very path, and its copy of it does
nothing (``File.copy_file`` passes over ``shutil.SameFileError``, there so that plugins may
write straight into the site). Where no link can be made (the cache on another file system, no
hard links), and with ``FRESH=1`` or the cache off, the file is written as before.
:func:`link_known` checks the linked file against the SHA-256 of its bytes instead, a result the
build keeps on disk: a rebuild then reads the model file once (to hash it), not three times (the
cache's entry, its checksum, the comparison). :func:`prehash` takes that hash in a thread of its
own from the build's start (hashlib lets the build's thread run meanwhile), and it is used only
for the very file it read: the copy that is linked, the same device and inode.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import hashlib
import os
import secrets
from collections.abc import Callable
from pathlib import Path

from attention_workshop.experiment import cache

__all__ = ["LARGE", "into_site", "link_known", "prehash"]

#: Files from this many bytes are linked; smaller ones cost less to write than to check.
LARGE = 4_000_000
_CHUNK = 1 << 20
#: The hashes :func:`prehash` is taking, by the file's path in the site.
_HASHING: dict[str, concurrent.futures.Future[tuple[tuple[int, int], str] | None]] = {}


def _holds(path: Path, content: bytes) -> bool:
    """Whether the file at ``path`` holds exactly ``content`` (read a chunk at a time)."""
    buf = bytearray(_CHUNK)
    try:
        with path.open("rb", buffering=0) as f:
            at = 0
            while n := f.readinto(buf):
                if content[at : at + n] != buf[:n]:
                    return False
                at += n
    except OSError:
        return False
    return at == len(content)


def _write(path: Path, content: bytes) -> None:
    """``content`` as the file at ``path``: a new file, put in place in one rename (a site
    already linked to the old one keeps it), with open's own permissions (0666 less the umask),
    as MkDocs' write of the file would give it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".tmp-{secrets.token_hex(8)}")
    try:
        with tmp.open("xb") as out:
            out.write(content)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def into_site(site_dir: str, uri: str, content: str | bytes) -> bool:
    """Whether ``content`` is now at ``uri`` in ``site_dir`` as a link to the cache's copy (then
    MkDocs is to be given that path as the file's source); False when it is to be written.

    The site's file is checked once linked: the bytes checked are those it serves, whatever
    another build sharing the cache puts in the cache's copy meanwhile."""
    if not isinstance(content, bytes) or len(content) < LARGE:
        return False
    return _link(site_dir, uri, lambda path: _holds(path, content), lambda: content)


def _sha256(path: Path) -> tuple[tuple[int, int], str] | None:
    """The file at ``path``: its device and inode, and the SHA-256 of its bytes (None if unread)."""
    h = hashlib.sha256()
    try:
        with path.open("rb", buffering=0) as f:
            st = os.fstat(f.fileno())
            while chunk := f.read(_CHUNK):
                h.update(chunk)
    except OSError:
        return None
    return (st.st_dev, st.st_ino), h.hexdigest()


def _copy(uri: str) -> Path:
    """The cache's copy of the site's file ``uri``."""
    return cache.folder() / "site-files" / uri.replace("/", "--")


def prehash(uri: str) -> None:
    """Start hashing the cache's copy of ``uri`` in the background, for :func:`link_known` in the
    same build (nothing without the cache, or with ``FRESH=1``)."""
    if cache.enabled() and not cache.fresh():
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        _HASHING[uri] = pool.submit(_sha256, _copy(uri))
        pool.shutdown(wait=False)


def link_known(site_dir: str, uri: str, sha256: str, make: Callable[[], bytes]) -> bool:
    """:func:`into_site` for a file whose bytes' SHA-256 the build knows without its bytes (a
    result of its own, kept on disk): the linked file is checked against that hash, and the bytes
    are made (``make()``) only when the cache's copy is missing or wrong. Under ``mkdocs serve``
    the run box's model file is then read once per rebuild, to hash it, not three times."""

    def holds(path: Path) -> bool:
        pending = _HASHING.pop(uri, None)
        found = pending.result() if pending is not None else None
        try:
            st = path.stat()
        except OSError:
            return False
        # the hash taken in the background is of this very file, or the file is hashed now
        if found is None or found[0] != (st.st_dev, st.st_ino):
            found = _sha256(path)
        return found is not None and found[1] == sha256

    return _link(site_dir, uri, holds, make)


def _link(
    site_dir: str, uri: str, holds: Callable[[Path], bool], make: Callable[[], bytes]
) -> bool:
    if not cache.enabled() or cache.fresh():
        return False
    dest = Path(site_dir) / uri
    copy = _copy(uri)
    with contextlib.suppress(OSError):
        dest.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(2):
            dest.unlink(missing_ok=True)
            if copy.is_file():
                os.link(copy, dest)
                if holds(dest):
                    return True
                dest.unlink()
            _write(copy, make())
    # then written by MkDocs: never through a link to the cache's copy
    with contextlib.suppress(OSError):
        dest.unlink(missing_ok=True)
    return False
