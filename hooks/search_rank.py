"""MkDocs hook: search lists the lessons first, each term's teaching lesson before the later ones.

Material's search ranks a page's sections by the ``search: boost`` of its front matter (a public
setting of Material's search plugin), which multiplies every score of the page. The boost is set
here, from the nav alone, so no page types its own. A page of the nav's lessons section
(:data:`LESSONS`) gets :data:`LESSON_BOOST` times :data:`LESSON_DECAY` to the power of its place in
the reading order (0 for the first lesson): a term a lesson teaches is quoted again by the lessons
after it, and the earlier lesson, the one that taught it, ranks first. A page of the reference
section (:data:`REFERENCE`) gets :data:`REFERENCE_BOOST`, below the last lesson's; the home page
neither. A page whose front matter sets a boost is a problem naming this hook. A page's
``search: exclude`` (Source, print) is left as it is.
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
LESSON_BOOST = 8.0  # the first lesson's
LESSON_DECAY = 0.5  # each lesson's boost is the one before it's times this
REFERENCE_BOOST = 0.01  # below the last lesson's (the ninth: 8 * 0.5**8 = 0.03)


def boost_of(section_titles: list[str], place: int = 0) -> float | None:
    """The boost of a page under these nav sections, ``place`` its index among its section's pages
    (the reading order); None: Material's own (the home page)."""
    if LESSONS in section_titles:
        return LESSON_BOOST * LESSON_DECAY**place
    if REFERENCE in section_titles:
        return REFERENCE_BOOST
    return None


def _place(page: Page) -> int:
    """The page's index among the pages of its nav section (0 for a page outside the nav)."""
    parent = page.parent
    pages = [c for c in parent.children if c.is_page] if parent else []
    return pages.index(page) if page in pages else 0


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
    boost = boost_of([s.title for s in page.ancestors], _place(page))
    if boost is not None:
        search["boost"] = boost
    return markdown
