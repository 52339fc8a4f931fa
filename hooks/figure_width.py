"""MkDocs hook: every figure shown at a width where its smallest text is 11 CSS px, on a phone too.

A figure's SVG image gets the least width at which its text is still readable (read from the SVG
itself), inside a box that scrolls sideways, with its "scroll →" cue, when the column is narrower:
a phone reader reads the figure on the page instead of opening it full size
(``workshop_site.legible`` has the rule). A caption's "·" between its links stays at the end of a
line, never at the start of the next (``legible.glue_separators``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page


def on_page_content(output: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    # imported at each page: the build's fresh package (page_steps: kept between serve's builds)
    from workshop_site import legible
    from workshop_site.page_steps import same

    def read(path: str) -> str | None:
        file = files.get_file_from_path(path)
        return file.content_string if file is not None else None

    def measure(svg: str) -> int | None:
        return same(legible.least_width, svg)

    return legible.glue_separators(legible.widen(output, page.url, read, measure))
