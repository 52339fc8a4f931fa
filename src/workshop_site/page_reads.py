"""What a page's render read: the files it opened, the folders it listed, the programs it ran,
and the memos it used (workshop_site/page_cache.py keeps a render with them).

- :class:`Reads`, an audit hook (``sys.addaudithook``, one per process, :func:`recorder`): while
  its ``seen`` is a set, every ``open`` for reading, ``os.listdir``/``os.scandir`` and
  ``subprocess.Popen`` goes into it, with the file's status when first seen (so a file changed
  during the render is noticed: :func:`changed_while_read`); what the build writes or makes
  itself (a file opened for writing, a folder or temporary file made) is its own, no input.
- :func:`snapshot`: what a read found, as a hash of its bytes (a folder: of its names).
- :func:`memos` and :func:`forget_filled`: the ``functools`` memos of the package's modules; what
  a render or a check put in them is forgotten at its end.
- :func:`own_sessions`: each page's markdown-exec sessions named after the page.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import sys
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from attention_workshop.experiment import cache

T = TypeVar("T")

#: The audit event by which a process keeps one recorder over the package's fresh imports.
_ADOPT = "workshop_site.page_reads.adopt"
_SKIP = tuple({sys.prefix, sys.base_prefix, "/proc", "/dev", "/sys"})
# the audit events of a folder or file made (its path first): what is in them is the build's own
_MADE = ("os.mkdir", "tempfile.mkdtemp", "tempfile.mkstemp")


class Reads:
    """The audit hook: while ``seen`` is a set, what the process opens, lists and runs (and the
    status of each file or folder when it was first seen, in ``status``)."""

    def __init__(self) -> None:
        self.seen: set[tuple[str, str]] | None = None
        self.status: dict[str, tuple[int, int, int] | None] = {}
        # what the build itself wrote or made (no input of it)
        self.written: set[str] = set()

    def start(self, seen: set[tuple[str, str]]) -> None:
        """A new build: nothing seen or written yet."""
        self.status.clear()
        self.written.clear()
        self.seen = seen

    def own(self, where: str) -> bool:
        """Whether ``where`` is, or is in, a file or folder this build wrote or made."""
        path = where
        while True:
            if path in self.written:
                return True
            parent = os.path.dirname(path)
            if parent == path:
                return False
            path = parent

    def _add(self, seen: set[tuple[str, str]], kind: str, where: str) -> None:
        seen.add((kind, where))
        if where not in self.status:
            self.status[where] = status(where)

    def __call__(self, event: str, args: tuple) -> None:
        if event == _ADOPT:
            args[0]["reads"] = self
        seen = self.seen
        if seen is None:
            return
        try:
            if event == "open":
                path, mode, flags = args
                reading = (
                    mode is None and (flags or 0) & os.O_ACCMODE != os.O_WRONLY
                ) or (isinstance(mode, str) and ("r" in mode or "+" in mode))
                reading = reading and not (isinstance(mode, str) and "w" in mode)
                if not isinstance(path, int):
                    where = os.path.abspath(os.fsdecode(path))
                    if reading:
                        self._add(seen, "file", where)
                    else:
                        self.written.add(where)
            elif event in _MADE and not isinstance(args[0], int):
                self.written.add(os.path.abspath(os.fsdecode(args[0])))
            elif event in ("os.listdir", "os.scandir") and not isinstance(args[0], int):
                self._add(seen, "dir", os.path.abspath(os.fsdecode(args[0] or ".")))
            elif event == "subprocess.Popen":
                self._add(seen, "file", os.path.abspath(os.fsdecode(args[0])))
                seen.add(("ran", repr(args[1])))
        # an audit hook must never raise: the read is marked unrecorded
        except Exception:
            seen.add(("unrecorded", event))


def start(outside: set[tuple[str, str]], site_dir: str) -> None:
    """The build's reads recorded into ``outside`` from here; the site's folder is its own.

    The folders the build writes into (the cache's, the site's) are made first. Made during the
    build, each would change the listing of the folder that holds it, the project's (``python -m
    mkdocs`` puts it on ``sys.path``, so imports list it, and every page's reads hold that
    listing): no page would be kept (the first build of ``make serve`` on a fresh clone kept none).
    """
    for folder in (cache.folder(), Path(site_dir)):
        folder.mkdir(parents=True, exist_ok=True)
    reads = recorder()
    reads.start(outside)
    reads.written.add(str(Path(site_dir).resolve()))


def status(where: str) -> tuple[int, int, int] | None:
    """A file's or folder's inode, size and modification time now (None if absent): only to see
    that it changed during a render (a key is never made of them)."""
    try:
        st = os.stat(where)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def inputs(reads: Reads, seen: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """What of ``seen`` the build did not write itself, nor is the interpreter's or the cache's."""
    ours = os.path.join(os.path.abspath(cache.folder()), "")
    return {(k, w) for k, w in seen if _kept(k, w, ours) and not reads.own(w)}


def changed_while_read(reads: Reads, seen: set[tuple[str, str]]) -> list[str]:
    """The files and folders of ``seen`` whose status differs from when they were first read."""
    return sorted(
        w
        for k, w in seen
        if k in ("file", "dir") and w in reads.status and status(w) != reads.status[w]
    )


def installed() -> Reads | None:
    """The process's recorder if one was added, else None (none is added)."""
    box: dict[str, Any] = {"reads": None}
    sys.audit(_ADOPT, box)
    found: Reads | None = box["reads"]
    return found


def recorder() -> Reads:
    """The process's one recorder (the package is imported afresh at every build)."""
    found = installed()
    if found is None:
        found = Reads()
        sys.addaudithook(found)
    return found


def snapshot(
    kind: str, where: str, known: dict[tuple[str, str], str | None] | None = None
) -> str | None:
    """What a recorded read found now: the bytes' hash, a folder's names' hash, None if absent
    (``known``: the hashes this build has already taken, each file hashed once per build)."""
    if known is not None and (kind, where) in known:
        return known[(kind, where)]
    found = _snapshot(kind, where)
    if known is not None:
        known[(kind, where)] = found
    return found


def _snapshot(kind: str, where: str) -> str | None:
    if kind == "ran":
        return where
    if kind == "unrecorded":
        return (
            "unrecorded"  # an entry with a read the hook could not name is never used
        )
    try:
        listed = kind == "dir"
        data = "\0".join(sorted(os.listdir(where))).encode() if listed else b""
        data = data if listed else Path(where).read_bytes()
    except OSError:
        return None
    return hashlib.sha256(data).hexdigest()


def _kept(kind: str, where: str, ours: str) -> bool:
    """Not the interpreter's files, nor the cache's (its folder: ``ours``): an entry is found by
    the key its code's reads make (those are recorded), and holds the one result of that key."""
    if kind not in ("file", "dir"):
        return True
    return not where.startswith(_SKIP) and not (where + os.sep).startswith(ours)


# ------------------------------------------------------------------ memory between renders
#: A module of the packages, by its name (picked out of the 1,200 loaded in C: about 100 times a build)
_OURS = re.compile(r"(?:attention_workshop|workshop_site)(?:\.|$)").match
_MEMO = type(functools.lru_cache(maxsize=1)(len))
# each module's memos, found once per module object (and again if its names change)
_FOUND: weakref.WeakKeyDictionary[Any, tuple[int, tuple[Any, ...]]]
_FOUND = weakref.WeakKeyDictionary()


def _memos_of(module: Any) -> tuple[Any, ...]:
    names = vars(module)
    found = _FOUND.get(module)
    if found is None or found[0] != len(names):
        memo = tuple(v for v in list(names.values()) if isinstance(v, _MEMO))
        found = _FOUND[module] = (len(names), memo)
    return found[1]


def memos() -> dict[int, tuple[int, Any]]:
    """Every ``functools`` memo of the loaded modules of the workshop's package and the site's
    (but a :func:`pure` one): its misses, and itself."""
    out: dict[int, tuple[int, Any]] = {}
    for name in filter(_OURS, list(sys.modules)):
        module = sys.modules.get(name)
        if module is None:
            continue
        for value in _memos_of(module):
            if id(value) not in out and not getattr(value, "pure", False):
                out[id(value)] = (value.cache_info().misses, value)
    return out


def pure(memo: Any) -> Any:
    """Mark a ``functools`` memo whose result is a function of its arguments alone (it reads no
    file and no state): what one page put in it serves the next (:func:`forget_filled` keeps
    it), since computing it again would read nothing."""
    memo.pure = True
    return memo


def forget_filled(before: dict[int, tuple[int, Any]]) -> None:
    """Every memo that computed something since ``before`` forgets all it holds: what a page's
    render (or a check) put in a memo is no later page's, which computes it again and reads
    what it reads. (What the build put in memos before the first page is kept: every page's
    entry holds those reads.)"""
    for memo, (misses, wrapper) in memos().items():
        if misses > before.get(memo, (0, None))[0]:
            wrapper.cache_clear()


_SESSION = re.compile(r'^(\s*(?:`{3,}|~{3,}).*?\bsession=")([^"]*)"', re.M)


def own_sessions(markdown: str, page: str) -> str:
    """Each exec fence's ``session="s"`` named ``page:s``: a markdown-exec session (the globals
    its fences share) never spans two pages, so no page's output depends on another's render."""
    return _SESSION.sub(lambda m: f'{m.group(1)}{page}:{m.group(2)}"', markdown)


@contextlib.contextmanager
def checking() -> Iterator[None]:
    """A check of the pages before they render (a claim's sentence, the notation): what it reads
    is no read of the build's that every page shares, since what a check finds reaches a page
    only as a problem (shown after the render); the memos it filled forget it. Also a value put
    in a page's Markdown before its key is made (the downloads table): the key holds its text."""
    reads = installed()
    outer = None if reads is None else reads.seen
    if reads is None or outer is None:
        yield
        return
    before, reads.seen = memos(), set()
    try:
        yield
    finally:
        reads.seen = outer
        forget_filled(before)


#: What keeps a result between builds (:func:`kept`): the build that may reuse pages
#: (page_cache.Build), with ``find(what)`` -> ``(result, reads)`` or None and
#: ``keep(what, result, reads)``. Empty in a build that never reuses (``FRESH=1``).
KEEPER: list[Any] = []


def kept(
    what: tuple[object, ...] | None,
    compute: Callable[[], T],
    settled: Callable[[], object] = lambda: None,
) -> tuple[T, set[tuple[str, str]] | None]:
    """``compute()`` and what it read (None if nothing was recording), the reads added to those
    of the render (or result) asking. With ``what`` (everything ``compute`` takes from memory,
    picklable) it is kept between builds while one may reuse pages (:data:`KEEPER`): found under
    the site's key and ``what``, used only when every file it read is as it was; not kept when
    it raised, nor when ``settled()`` (what a failure adds to) moved meanwhile."""
    reads = installed()
    outer = None if reads is None else reads.seen
    keeper = KEEPER[0] if KEEPER and what is not None and reads is not None else None
    found = None if keeper is None else keeper.find(what)
    inner: set[tuple[str, str]] | None
    if found is not None:
        value, inner = found[0], set(found[1])
    else:
        inner = set() if outer is not None or keeper is not None else None
        before = settled()
        if reads is not None:
            reads.seen = inner
        try:
            value = compute()
        finally:
            if reads is not None:
                reads.seen = outer
        if keeper is not None and inner is not None and settled() == before:
            keeper.keep(what, value, inner)
    if outer is not None and inner is not None:
        outer |= inner
    return value, inner


class Recorded:
    """A memo of ``fn(arg)`` that keeps, with each result, what computing it read: a render that
    uses a kept result reads that again (into its own reads), so the result may serve every page
    of the build, each page keyed on exactly what its results read. (A ``functools`` memo a
    render fills is forgotten at its end instead, :func:`forget_filled`.) With ``inputs``
    (``arg`` -> everything else ``fn`` takes from memory) a result is :func:`kept` between
    builds too (``settled`` as there)."""

    def __init__(
        self,
        fn: Callable[[str], bytes],
        inputs: Callable[[str], object] | None = None,
        settled: Callable[[], object] = lambda: None,
    ) -> None:
        self.fn, self.inputs, self.settled = fn, inputs, settled
        # arg -> (result, what computing it read, or None if nothing was recording then)
        self.kept: dict[str, tuple[bytes, frozenset[tuple[str, str]] | None]] = {}
        functools.update_wrapper(self, fn)

    def __call__(self, arg: str) -> bytes:
        reads = installed()
        outer = None if reads is None else reads.seen
        if arg in self.kept and (outer is None or self.kept[arg][1] is not None):
            value, read = self.kept[arg]
            if outer is not None and read is not None:
                outer |= read
            return value
        name = f"{self.fn.__module__}.{self.fn.__qualname__}"
        what = None if self.inputs is None else (name, arg, self.inputs(arg))
        value, inner = kept(what, lambda: self.fn(arg), self.settled)
        self.kept[arg] = (value, None if inner is None else frozenset(inner))
        return value

    def cache_clear(self) -> None:
        self.kept.clear()
