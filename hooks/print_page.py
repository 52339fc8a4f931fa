"""MkDocs hook: the whole workshop on one page, to print (docs/print.md).

Every page of the nav's "Learn" section, in order, as this build rendered it, made ready for paper
by ``workshop_site.print_page`` (what goes, what stays, the answers at the end). The page's
own Markdown marks where the pages go with ``<!-- workshop:print -->``; its head gets the printed
pages' own stylesheets and the print stylesheet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import _workshop_common as common
from mkdocs.exceptions import PluginError
from mkdocs.structure.toc import get_toc

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page

#: The print page's head links, by page file: on_page_context leaves them for on_post_page.
_HEAD_LINKS: dict[str, str] = {}


def _learn_pages(nav: Navigation) -> list[Page]:
    pp = common.print_page()
    section = next((s for s in nav.items if s.title == pp.SECTION), None)
    if section is None:
        raise PluginError(
            f"docs/{pp.PRINT_PAGE}: the nav has no section {pp.SECTION!r} to print"
        )
    return [
        p
        for p in section.children
        if p.is_page and p.file.src_uri not in pp.ONLINE_ONLY  # type: ignore[attr-defined]
    ]  # type: ignore[misc]


def on_page_context(
    context: dict, page: Page, config: MkDocsConfig, nav: Navigation
) -> dict:
    from workshop_site.page_steps import same  # kept between serve's builds

    pp = common.print_page()
    if page.file.src_uri != pp.PRINT_PAGE:
        return context
    if pp.MARKER not in (page.content or ""):
        raise PluginError(f"docs/{pp.PRINT_PAGE}: the page lacks {pp.MARKER}")
    pages = _learn_pages(nav)
    slugs = {pp.slug(p.file.src_uri): pp.slug(p.file.src_uri) for p in pages}
    printed = [
        same(
            pp.for_paper,
            p.content or "",
            pp.slug(p.file.src_uri),
            p.title or pp.slug(p.file.src_uri),
            slugs,
        )
        for p in pages
    ]
    headings = {
        pp.slug(p.file.src_uri): [
            (a.id, a.title) for item in p.toc for a in item.children
        ]
        for p in pages
    }
    page.content = page.content.replace(pp.MARKER, pp.body(printed))  # type: ignore[union-attr]
    page.toc = get_toc(pp.toc(printed, headings))  # type: ignore[arg-type]
    root = "../" * page.file.url.count("/")
    _HEAD_LINKS[page.file.src_uri] = pp.stylesheet_links(printed, root)
    return context


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    """The print page alone loads the print stylesheet, and the printed pages' own."""
    links = _HEAD_LINKS.get(page.file.src_uri)
    if links is None:
        return output
    return output.replace("</head>", f"{links}</head>", 1)


def on_files(files: Files, config: MkDocsConfig) -> Files:
    stylesheet = common.print_page().STYLESHEET
    if files.get_file_from_path(stylesheet) is None:
        raise PluginError(f"docs/{stylesheet} is missing: the print page needs it")
    return files
