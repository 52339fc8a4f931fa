"""MkDocs hook: a page whose inputs have not changed is not rendered from Markdown again.

What a page's rendering is kept under, what a hit restores, and why a rendering that warned is
never kept: ``attention_workshop.build.render_cache``. This hook only plugs it into MkDocs: each
page's ``render`` is the cache's (kept or rendered and kept), Material's search entries are kept
the same way, and the theme's templates are compiled once (Jinja's bytecode cache).
"""

from __future__ import annotations

from types import MethodType
from typing import TYPE_CHECKING

import _workshop_common as common
from jinja2 import Environment, FileSystemBytecodeCache
from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    """What every page's rendering shares, once per build."""
    common.render_cache().start(config, files)
    return nav


def on_env(env: Environment, config: MkDocsConfig, files: Files) -> Environment:
    """The theme's templates, compiled once: Jinja keeps their bytecode keyed on each template's text."""
    cache = common.cache()
    if cache.enabled():
        folder = cache.folder() / "jinja"
        folder.mkdir(parents=True, exist_ok=True)
        env.bytecode_cache = FileSystemBytecodeCache(str(folder))
    return env


def on_pre_build(config: MkDocsConfig) -> None:
    common.render_cache().keep_theme_listing(config)
    common.render_cache().compile_templates_once(config)
    search = config.plugins.get("material/search")
    index = getattr(search, "search_index", None)
    if index is not None:
        index.add_entry_from_context = common.render_cache().indexed(index, config)


# after every other hook has changed the Markdown: the key is what rendering reads
@event_priority(-100)
def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    render = common.render_cache().renderer(markdown, page)
    if render is not None:
        # MkDocs calls page.render(config, files) next: this page's own render, for this build
        page.render = MethodType(render, page)  # type: ignore[method-assign]
    return markdown
