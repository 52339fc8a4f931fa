"""MkDocs hook: a page's render reused when nothing it read has changed (workshop_site/page_cache.py).

``on_page_markdown`` runs last: the page's Markdown is final. On a hit it returns "" (MkDocs
renders nothing) and ``on_page_content``, first, returns the kept HTML and sets the page's fields
again; on a miss the render is recorded (files opened, folders listed, programs run) from the
one event to the other, and kept if it reported no problem and logged no warning. Off with
``FRESH=1`` or the cache off: then this hook does nothing at all.
"""

from __future__ import annotations

import logging
from types import ModuleType
from typing import TYPE_CHECKING, Any

import _workshop_common as common
from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page

_SITE: list[str] = []  # this build's site key ([] when reuse is off)
_RENDERING: dict[str, Any] = {}  # the page being rendered: its key, or the entry found


class _Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def _page_cache() -> ModuleType:
    """workshop_site.page_cache as this build imported it (``find``, ``keep``, ``give_back``...)."""
    from workshop_site import page_cache

    return page_cache


def _stop() -> None:
    """No recording and no warning counter left on (a render that raised left them)."""
    warnings = _RENDERING.pop("warnings", None)
    for name in ("", "mkdocs"):
        if warnings is not None:
            logging.getLogger(name).removeHandler(warnings)
    _RENDERING.clear()
    if _SITE:
        _page_cache().recorder().seen = None


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    _stop()
    _SITE.clear()
    reuse = _page_cache()
    if reuse.usable():
        reuse.recorder()
        _SITE.append(reuse.site_key(config, nav))
    return nav


def _problems(src: str) -> int:
    return len(common.PROBLEMS.get(src, ())) + len(common.PROBLEMS.get("", ()))


@event_priority(-100)  # after every other hook and plugin: the Markdown is final
def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    _stop()
    reuse = _page_cache()
    if not _SITE or not reuse.reusable(markdown):
        return markdown
    key = reuse.page_key(_SITE[0], markdown, page)
    entry = reuse.find(key)
    if entry is not None:
        _RENDERING.update(entry=entry)
        return ""
    warnings = _Warnings()
    for name in ("", "mkdocs"):
        logging.getLogger(name).addHandler(warnings)
    reads = reuse.recorder()
    _RENDERING.update(key=key, warnings=warnings, problems=_problems(page.file.src_uri))
    reads.seen = set()
    return markdown


@event_priority(
    100
)  # before every other hook and plugin: the HTML as the render made it
def on_page_content(output: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    reuse = _page_cache()
    if "entry" in _RENDERING:
        output = reuse.give_back(_RENDERING["entry"], page, files)
        autorefs = config.plugins.get("autorefs")
        if (
            autorefs is not None
        ):  # its heading scanner registers every heading as it renders
            for anchor, title in reuse.headings(page.toc):
                autorefs.register_anchor(page, anchor, title=title)
    elif "key" in _RENDERING:
        reads = reuse.recorder()
        seen, reads.seen = reads.seen, None
        warnings = _RENDERING["warnings"]
        for name in ("", "mkdocs"):
            logging.getLogger(name).removeHandler(warnings)
        clean = (
            warnings.count == 0
            and _problems(page.file.src_uri) == _RENDERING["problems"]
        )
        if clean and seen is not None:
            reuse.keep(_RENDERING["key"], seen, page, output)
    _RENDERING.clear()
    return output
