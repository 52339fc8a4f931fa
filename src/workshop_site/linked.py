"""A large generated file linked into the site from the cache, not written at every build.

MkDocs empties the site folder at each build and writes every generated file again: under
``mkdocs serve`` the run box's 45 MB model file took about 0.2 s of every rebuild, a seventh of a
prose edit's (new memory is slow to touch on some machines; a hard link costs nothing). In a
build that may use the cache, :func:`into_site` keeps such a file once in the cache's
``site-files/`` (under its path in the site), checks that copy byte for byte against the
build's bytes at every build (written again, as a new file, when it differs: a damaged or an
old copy is never served), and hard-links it into the site folder. MkDocs is then given a file
whose source is that very path, and its copy of it does nothing (``File.copy_file`` passes
over ``shutil.SameFileError``, there so that plugins may write straight into the site). Where
no link can be made (the cache on another file system, no hard links), and with ``FRESH=1`` or
the cache off, the file is written as before.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from attention_workshop.experiment import cache

__all__ = ["LARGE", "into_site"]

#: Files from this many bytes are linked; smaller ones cost less to write than to check.
LARGE = 4_000_000
_CHUNK = 1 << 20


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


def _kept(uri: str, content: bytes) -> Path:
    """The cache's copy of ``content``, written again (a new file, in one rename) unless it holds
    exactly these bytes. A site's file keeps the copy it was linked to."""
    path = cache.folder() / "site-files" / uri.replace("/", "--")
    if _holds(path, content):
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    # open's own permissions (0666 less the umask), as MkDocs' write of the file would give it
    tmp = path.with_name(f".tmp-{secrets.token_hex(8)}")
    try:
        with tmp.open("xb") as out:
            out.write(content)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def into_site(site_dir: str, uri: str, content: str | bytes) -> bool:
    """Whether ``content`` is now at ``uri`` in ``site_dir`` as a link to the cache's copy (then
    MkDocs is to be given that path as the file's source); False when it is to be written."""
    if (
        not isinstance(content, bytes)
        or len(content) < LARGE
        or not cache.enabled()
        or cache.fresh()
    ):
        return False
    dest = Path(site_dir) / uri
    try:
        kept = _kept(uri, content)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.unlink(missing_ok=True)
        os.link(kept, dest)
    except OSError:
        return False
    return True
