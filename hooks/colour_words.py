"""MkDocs hook: a word that names a colour or a shade is true of what the page draws, in both schemes.

"Darker for more weight" holds on white paper and not on Material's dark one. After a page is
rendered, every sentence, caption and alt text naming a shade (darker, lighter, brighter...) or a hue
(red, blue...) is checked against the page's colour maps in the light and the dark scheme
(``workshop_site.colour_words`` has the rule and reads the maps); a word false in one of them is a
problem naming the page, the word and the scheme, unless the sentence says it for each scheme.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import _workshop_common as common

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page


def on_page_content(output: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    # imported at each page: the build's fresh package
    from workshop_site import colour_words
    from workshop_site.page_steps import same  # kept between serve's builds

    assets = Path(config.docs_dir) / "assets"
    for message in same(colour_words.problems, page.file.src_uri, output, assets):
        common.problem(message, page=page.file.src_uri)
    return output
