"""MkDocs hook: search lists the lessons first, the reference pages after them.

Material's search ranks a page's sections by the ``search: boost`` of its front matter (a public
setting of Material's search plugin). The boost is set here, from the nav alone, so no page types
its own: a page of the nav's lessons section (:data:`LESSONS`) gets :data:`LESSON_BOOST`, a page of
its reference section (:data:`REFERENCE`) gets :data:`REFERENCE_BOOST`, the home page neither. A page
whose front matter sets a boost is a problem naming this hook. A page's ``search: exclude`` (Source,
print) is left as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from _workshop_common import problem

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

LESSONS = "Learn"  # the nav's section of lessons (mkdocs.yml)
REFERENCE = "Behind the numbers"  # the nav's section of reference pages
LESSON_BOOST = 8.0
REFERENCE_BOOST = 0.25


def boost_of(section_titles: list[str]) -> float | None:
    """The boost of a page under these nav sections; None: Material's own (the home page)."""
    if LESSONS in section_titles:
        return LESSON_BOOST
    if REFERENCE in section_titles:
        return REFERENCE_BOOST
    return None


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    search = page.meta.get("search")
    if not isinstance(search, dict):
        search = page.meta["search"] = {}
    if "boost" in search:
        problem(
            f"{page.file.src_uri}: its front matter sets search: boost; hooks/search_rank.py sets it "
            "for every page from the nav: delete the line (or change the hook's constants)",
            page.file.src_uri,
        )
        return markdown
    boost = boost_of([s.title for s in page.ancestors])
    if boost is not None:
        search["boost"] = boost
    return markdown
