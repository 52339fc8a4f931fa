"""A page's kept renders: several under one key, each found only when all it read is unchanged.

A page's key (:func:`.page_cache.page_key`) holds its final Markdown and what every page shares;
what its render read (files, folders, programs) is recorded with the render and checked at each
lookup, not keyed. With one render per key, the render of an edit replaced the one before it
whenever the page's Markdown stayed the same, and undoing the edit found the edit's render, whose
reads no longer held: tests/test_sound.py's third round (the first round's tree again) rendered
all 17 pages, and so would a contributor's undo or a return to another branch.

So a key has an index (kind ``page-index``): its renders, newest first, at most
:data:`VARIANTS`, each with what it read. Each render is kept (kind ``page``) under the hash of
the key and those reads; the first of the index whose reads are all unchanged is used. Both
kinds are entries of experiment/cache.py: checksummed, a damaged one named in the build's log
and never used (a damaged index: the key's older renders are forgotten, never wrongly used).
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from attention_workshop.experiment import cache

from .page_reads import snapshot

__all__ = ["KIND", "INDEX", "VARIANTS", "find", "keep"]

KIND = "page"
INDEX = "page-index"
#: Renders kept under one key (the newest; an older one leaves the index when a new one comes).
VARIANTS = 4
log = logging.getLogger("mkdocs.hooks.page_reuse")

Reads = list[tuple[str, str, str | None]]


def _index(key: str) -> list[tuple[str, Reads]]:
    # a key never kept is no computed result of the cache's count (hooks/experiment.py's line)
    found = cache.lookup(INDEX, key) if cache.holds(INDEX, key) else None
    return found if isinstance(found, list) else []


def find(key: str, known: dict | None = None) -> tuple[str, dict[str, Any]] | None:
    """``(its own key, the render)``: the newest render kept under ``key`` whose every read is
    unchanged (``known``: the hashes this build has taken), or None."""
    for own, reads in _index(key):
        changed = next(
            (w for k, w, seen in reads if snapshot(k, w, known) != seen), None
        )
        if changed is not None:
            log.debug("page_reuse: %s changed since a render was kept", changed)
            continue
        entry = cache.lookup(KIND, own) if cache.holds(KIND, own) else None
        if isinstance(entry, dict) and entry.get("reads") == reads:
            return own, entry
    return None


def keep(key: str, entry: dict[str, Any]) -> str:
    """Keep ``entry`` (a render with its ``reads``) as the newest under ``key``; its own key."""
    reads: Reads = entry["reads"]
    own = hashlib.sha256(repr((key, reads)).encode()).hexdigest()
    cache.store(KIND, own, entry)
    older = [(k, r) for k, r in _index(key) if k != own]
    cache.store(INDEX, key, [(own, reads), *older][:VARIANTS])
    return own
