"""MkDocs hook: a page's render reused when nothing it read has changed (workshop_site/page_cache.py).

From the build's start, what it reads goes to the build's own reads; from a page's
``on_pre_page`` (first) to its ``on_page_content`` (first), to the page's. ``on_page_markdown``
runs last: the page's Markdown is final. On a hit it returns "" (MkDocs renders nothing) and
``on_page_content`` returns the kept HTML and sets the page's fields again; on a miss the render
is kept with its reads and the build's so far, if it reported no problem, logged no warning and
no file it read changed meanwhile. Off with ``FRESH=1`` or the cache off: then this hook only
gives each page its own markdown-exec sessions, as in every build.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

import _workshop_common as common
from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page

#: What this build read outside the pages' renders.
_OUTSIDE: set[tuple[str, str]] = set()
#: This build's page_cache.Build ([] when reuse is off).
_BUILD: list[Any] = []


def _page_cache() -> ModuleType:
    """workshop_site.page_cache as this build imported it (``Build``, ``recorder``...)."""
    from workshop_site import page_cache

    return page_cache


def _problems(src: str) -> int:
    """The problems reported so far for a page, or for no page in particular."""
    return len(common.PROBLEMS.get(src, ())) + len(common.PROBLEMS.get("", ()))


def _release() -> None:
    if _BUILD:
        _BUILD[0].release()
    _BUILD.clear()


# Before everything: the build's reads from its very start; its output is no input.
@event_priority(1000)
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    _release()
    _OUTSIDE.clear()
    reuse = _page_cache()
    if reuse.may_reuse():
        from workshop_site.page_reads import start  # the build's fresh package

        start(_OUTSIDE, config.site_dir)
    return config


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    reuse = _page_cache()
    if reuse.usable():
        _BUILD.append(reuse.Build(_OUTSIDE, config, nav, _problems))
    elif (
        reuse.installed() is not None
    ):  # nothing is recorded in a build that never reuses
        reuse.installed().seen = None
    return nav


# Before every other hook and plugin: all the page's reads are its own.
@event_priority(1000)
def on_pre_page(page: Page, config: MkDocsConfig, files: Files) -> Page:
    if _BUILD:
        _BUILD[0].begin()
    return page


# After every other hook and plugin: the Markdown is final.
@event_priority(-100)
def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    markdown = _page_cache().own_sessions(markdown, page.file.src_uri)
    if _BUILD and _BUILD[0].lookup(markdown, page):
        return ""
    return markdown


# Before every other hook and plugin: the HTML as the render made it.
@event_priority(100)
def on_page_content(output: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return _BUILD[0].end(output, page, files) if _BUILD else output


def on_env(env: Any, config: MkDocsConfig, files: Files) -> Any:
    """Every page is rendered: nothing more to record; the templates' compiled code reused."""
    if _BUILD:
        _BUILD[0].stop(env)
        common.REUSED[:] = [_BUILD[0].reused]
    return env


# Before every other on_post_build: the site's files are what every on_env left.
@event_priority(100)
def on_post_build(config: MkDocsConfig) -> None:
    if _BUILD:
        _BUILD[0].files(config.site_dir)


def on_build_error(error: Exception) -> None:
    _release()
    if _page_cache().installed() is not None:
        _page_cache().installed().seen = None
