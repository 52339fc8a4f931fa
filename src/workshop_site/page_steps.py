"""A hook's step on a page kept in memory between the builds of one process (issue 28): a check
or a transform of a page's HTML (its colour words, its MathML, what it must not show...) is not
run again for a page whose HTML, and everything else the step reads, is as it was.

:func:`same` runs ``fn(*args)``, or gives back what it returned before, found under the site's
key (:func:`.page_cache.site_key`: the project's code, ``src/`` and ``hooks/`` included, so the
step's own code; the nav; the interpreter, platform and every environment variable; the config's
address: another key forgets every step), the step's module and name, and the bytes of its
arguments (``pickle``: the page's HTML). It is used only when every file it read as it ran
(recorded by :class:`.page_reads.Reads`, never listed by hand; a memo it used was forgotten first,
so it read what it needed), and every file the build had read before the pages then (the
experiment, the generated files: :class:`.page_cache.Build`'s ``outside``), has the bytes it had.
A step that raised is not kept, nor one whose files changed while it ran. Without a build that
may reuse pages (``FRESH=1``, the cache off, a plain run) the step just runs. Memory stays level:
a build keeps only the steps the build before it used.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
from collections.abc import Callable
from typing import Any, TypeVar

from .page_reads import (
    KEEPER,
    changed_while_read,
    forget_filled,
    inputs,
    memos,
    snapshot,
)

__all__ = ["same", "Steps"]

T = TypeVar("T")
log = logging.getLogger("mkdocs.hooks.page_reuse")


def same(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, kept between builds as the module says (``fn`` reads no other memory)."""
    build = KEEPER[0] if KEEPER else None
    steps = getattr(build, "steps", None)
    # a lambda or a nested function has no name of its own: it just runs
    if steps is None or "<" in fn.__qualname__:
        return fn(*args)
    result: T = steps.run(fn, args)
    return result


class Steps:
    """One build's view of the process's kept steps (held by the recorder, which outlives the
    package's fresh imports): those the last build used, if the site's key is the same."""

    def __init__(self, build: Any) -> None:
        self.build = build
        store = vars(build.reads).setdefault("steps", {})
        used = store.get("used", set()) if store.get("site") == build.site else set()
        entries = store.get("entries", {})
        store.update(site=build.site, used=set())
        store["entries"] = {k: entries[k] for k in used if k in entries}
        self.store = store
        self.before: tuple[tuple[str, str, str | None], ...] | None = None
        self.checked: dict[int, tuple[Any, bool]] = {}
        self.found = self.ran = 0

    def report(self) -> None:
        log.info("page_steps: %d step(s) kept, %d run", self.found, self.ran)

    def _before(self) -> tuple[tuple[str, str, str | None], ...]:
        """What the build read before the pages, with the hash of each (taken once a build)."""
        if self.before is None:
            b = self.build
            reads = sorted(inputs(b.reads, b.outside))
            self.before = tuple((k, w, snapshot(k, w, b.known)) for k, w in reads)
        return self.before

    def _holds(self, seen: tuple[tuple[str, str, str | None], ...]) -> bool:
        """Whether each of ``seen`` (a step's reads, or an earlier build's before its pages) has
        the hash it had then (one earlier build's are checked once)."""
        b = self.build
        if id(seen) not in self.checked:
            ok = all(snapshot(k, w, b.known) == h for k, w, h in seen)
            self.checked[id(seen)] = (seen, ok)
        return self.checked[id(seen)][1]

    def run(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        b = self.build
        what = (fn.__module__, fn.__qualname__, args)
        key = hashlib.sha256(pickle.dumps(what, protocol=5)).hexdigest()
        entry = self.store["entries"].get(key)
        if entry is not None and self._holds(entry[2]) and self._holds(entry[1]):
            self.store["used"].add(key)
            self.found += 1
            return pickle.loads(entry[0])
        outer, seen = b.reads.seen, set[tuple[str, str]]()
        forget_filled(b.gap)  # a memo an earlier step of the page filled: read again
        before = memos()
        b.reads.seen = seen
        try:
            value = fn(*args)
        finally:
            b.reads.seen = outer
            forget_filled(before)
        self.ran += 1
        read = inputs(b.reads, seen)
        if not changed_while_read(b.reads, read):
            own = tuple(sorted((k, w, snapshot(k, w, b.known)) for k, w in read))
            value_bytes = pickle.dumps(value, protocol=5)
            self.store["entries"][key] = (value_bytes, own, self._before())
            self.store["used"].add(key)
        return value
