"""MkDocs hook: a page's search entries reused when nothing Material's search reads of it changed.

How, and why it is sound: workshop_site/search_reuse.py. Before Material's ``on_page_context``
(priority 0) a page whose entries the cache holds gets ``search: exclude`` (Material's own
front matter setting) until its ``on_post_page``; after Material writes its index, the kept
entries go back in their places, and what Material parsed is kept. ``FRESH=1`` reads nothing.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import _workshop_common as common
from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.hooks.search_reuse")
#: (URL, key) of each page Material's search indexes, in the build's order.
_ORDER: list[tuple[str, str]] = []
#: URL -> the entries of a page whose parse Material skipped.
_KEPT: dict[str, list[Any]] = {}
#: page -> its own front matter's ``search`` (None: it had none), until its on_post_page.
_OWN: dict[str, Any] = {}


def _settings(config: MkDocsConfig) -> Any:
    """Material's search plugin's settings; None when it is not on."""
    plugin = config.plugins.get("material/search") or config.plugins.get("search")
    settings = getattr(plugin, "config", None)
    return settings if settings is not None and settings.get("enabled") else None


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    _ORDER.clear()
    _KEPT.clear()
    _OWN.clear()
    return config


# before Material's search (priority 0)
@event_priority(50)
def on_page_context(
    context: dict, page: Page, config: MkDocsConfig, nav: Navigation
) -> dict:
    from workshop_site import search_reuse

    own = page.meta.get("search")
    settings = _settings(config)
    if settings is None or (isinstance(own, dict) and own.get("exclude")):
        return context
    key = search_reuse.key(page, settings)
    _ORDER.append((page.url, key))
    found = common.cache().lookup(search_reuse.KIND, key)
    if isinstance(found, list):
        _KEPT[page.url] = found
        _OWN[page.file.src_uri] = own
        page.meta["search"] = {**(own or {}), "exclude": True}
    return context


# first: the page's front matter is its own again before anything else reads it
@event_priority(100)
def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    if page.file.src_uri in _OWN:
        own = _OWN.pop(page.file.src_uri)
        if own is None:
            page.meta.pop("search", None)
        else:
            page.meta["search"] = own
    return output


# after Material's search writes its index (0); before hooks/problems.py lists the problems (-50)
@event_priority(-40)
def on_post_build(config: MkDocsConfig) -> None:
    from workshop_site import search_reuse

    path = Path(config.site_dir) / "search" / "search_index.json"
    if not _ORDER or not path.is_file():
        return
    merged = search_reuse.merge(
        path.read_text(encoding="utf-8"), [url for url, _ in _ORDER], _KEPT
    )
    if merged is None:
        if _KEPT:
            common.problem(
                "search/search_index.json is not as hooks/search_reuse.py expects (has Material "
                "changed?): the entries of the pages it skipped are missing. Build with FRESH=1."
            )
        return
    text, parsed = merged
    if _KEPT:
        path.write_text(text, encoding="utf-8")
    log.info(
        "search_reuse: %d page(s)' search entries reused, %d parsed",
        len(_KEPT),
        len(parsed),
    )
    for url, key in _ORDER:
        if url in parsed:
            common.cache().store(search_reuse.KIND, key, parsed[url])
