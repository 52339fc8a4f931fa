"""A page's search entries reused when everything Material's search reads of it is unchanged.

Material's search plugin (``material/plugins/search/plugin.py``) makes a page's entries in its
``on_page_context``: it parses the page's HTML (``Parser().feed``) into sections and turns each
into an entry from the page's HTML, toc, URL, title and front matter (``search``, ``tags``,
``title``). On a ``mkdocs serve`` rebuild that parse was a quarter of the time: every page's
HTML (a megabyte), though one page changed. It skips, before parsing, a page whose front
matter says ``search: exclude: true`` (its documented setting).

So hooks/search_reuse.py, just before Material's ``on_page_context``, looks the page's entries
up in the build's cache (kind ``search`` of experiment/cache.py: checksummed, a damaged entry is
named in the log and the page parsed again) under :func:`key`: the hash of all of those inputs,
of Material's search settings, and (as every key) of every installed distribution's version.
On a hit it sets the page's ``search: exclude`` for Material's step alone (it is put back at
the page's ``on_post_page``); after Material has written ``search/search_index.json``,
:func:`merge` puts the kept entries back in their pages' places. What Material wrote is then
split by page and kept under each page's key.

Nothing is reused unless Material's file reads as :func:`merge` expects (the JSON written as
``json.dumps(..., separators=(",", ":"), default=str)`` writes it, each page's entries together
and in the build's order of pages): otherwise no entry is kept, so none is ever used. ``FRESH=1``
reads none. ``search_index.json`` is byte for byte the one a ``FRESH=1`` build writes
(tests/test_sound.py, tests/test_reproducible.py).
"""

from __future__ import annotations

import json
from typing import Any

from attention_workshop.experiment import cache

__all__ = ["KIND", "key", "page_of", "merge"]

KIND = "search"


def _toc(items: Any) -> list[Any]:
    return [(i.id, i.url, i.title, i.level, _toc(i.children)) for i in items]


def key(page: Any, settings: Any) -> str:
    """The key of a page's entries: all that Material's search reads of the page (its HTML, toc,
    URL, title, front matter) and the search plugin's settings."""
    meta = json.dumps(page.meta, sort_keys=True, default=repr)
    plugin = json.dumps(dict(settings), sort_keys=True, default=repr)
    return cache.key(
        KIND,
        page.content or "",
        _toc(page.toc),
        page.url,
        str(page.title),
        meta,
        plugin,
    )


def page_of(entry: dict[str, Any]) -> str:
    """The URL of the page an entry belongs to (Material's location: the page's URL, then an anchor)."""
    return str(entry["location"]).partition("#")[0]


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), default=str)


def merge(
    text: str, order: list[str], kept: dict[str, list[Any]]
) -> tuple[str, dict[str, list[Any]]] | None:
    """``text``, Material's ``search_index.json``, with the ``kept`` entries of the pages it skipped
    put in their places (``order``: the URLs of the indexed pages, in the build's order), and
    what it holds of each page it parsed; None if it does not read as expected (see the
    module's docstring): then nothing is kept or put back."""
    data = json.loads(text)
    docs = data.get("docs") if isinstance(data, dict) else None
    if not isinstance(docs, list) or _dumps(data) != text:
        return None
    parsed: dict[str, list[Any]] = {url: [] for url in order if url not in kept}
    for entry in docs:
        if not isinstance(entry, dict) or page_of(entry) not in parsed:
            return None
        parsed[page_of(entry)].append(entry)
    if [e for url in parsed for e in parsed[url]] != docs:
        return None  # not each page's entries together, in the build's order
    if kept:
        merged = [
            e for url in order for e in (kept[url] if url in kept else parsed[url])
        ]
        text = _dumps({**data, "docs": merged})
    return text, parsed
