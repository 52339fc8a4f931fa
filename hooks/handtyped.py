"""MkDocs hook: no result typed by hand. A number in a page's prose that the build computes is a problem.

The rules are the package's (``workshop_site.handtyped``): a decimal, a count or a
number in scientific notation that equals a computed value, a whole number of 10 or more that
does, a small whole number written as a value (``d = 4``) or beside a placeholder that gives
it. The message names the line and the placeholders to write instead. A number that is a
definition where it stands is allowed, with a reason, in ``hooks/handtyped_numbers.toml``; an
allowance that no longer matches anything is a problem too. Problems fail the strict build;
``mkdocs serve`` shows them on the page.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import _workshop_common as common

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

ALLOW = Path(__file__).with_name("handtyped_numbers.toml")
ALLOW_NAME = f"hooks/{ALLOW.name}"
_allowed: list = []
_pages: set[str] = set()


def on_pre_build(config: MkDocsConfig) -> None:
    _pages.clear()
    try:
        _allowed[:] = common.handtyped().load_allowed(ALLOW)
    except ValueError as err:
        _allowed.clear()
        common.problem(f"{ALLOW_NAME}: {err}")


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    # imported at each page: the build's fresh package (page_steps: kept between serve's builds)
    from workshop_site.page_steps import same

    check, src = common.handtyped(), page.file.src_uri
    _pages.add(src)
    source, ctx = page.file.content_string, common.pages().context()
    allowed = [a for a in _allowed if a.page == src]
    findings, unused = same(check.report, source, ctx, allowed)
    for finding in findings:
        common.problem(check.message(src, finding, ALLOW_NAME), page=src)
    for a in unused:
        common.problem(
            f"{ALLOW_NAME}: {a.number} is allowed on docs/{src} beside {a.context!r}, "
            "but no such number stands there any more: remove the entry",
            page=src,
        )
    return markdown


def on_post_build(config: MkDocsConfig) -> None:
    for a in _allowed:
        if a.page not in _pages:
            common.problem(
                f"{ALLOW_NAME}: an entry allows {a.number} on docs/{a.page}, a page this site does not have"
            )
