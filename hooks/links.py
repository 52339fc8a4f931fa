"""MkDocs hook: links in snippet output and raw HTML reach their files.

MkDocs rewrites the links of a page's Markdown, not those inside HTML (what a snippet prints, a
page's raw HTML). Here each ``href``/``src`` written docs-relative, as ``page.md#anchor``,
``generated/...`` or ``assets/...``, becomes the URL of that file seen from the page. A link to a
file the site does not have is a problem (the strict build fails; ``mkdocs serve`` shows it on
the page), reported where it is written: the page's line, or the snippet file that prints it.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

import _workshop_common as common
from mkdocs.utils import get_relative_url

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

_LOCAL_LINK = re.compile(
    r'(href|src)="(?![a-z][a-z0-9+.-]*:|/|#)([^"#?]+\.md|(?:generated|assets)/[^"#?]+)(#[^"]*)?"'
)


def on_page_content(output: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Point links written as ``page.md#anchor`` or ``generated/x.svg`` at their real URLs."""
    from workshop_site.page_steps import same  # kept between serve's builds

    src = page.file.src_uri
    urls = {file.src_uri: file.url for file in files}
    fixed, missing = same(pointed, output, src, page.file.url, urls)
    for target in missing:
        message = f"a link to {target!r}, which is not a file of the site (write links "
        message += "docs-relative: page.md#anchor, generated/..., assets/...)"
        common.problem(message, page=src, at=(page.file.content_string, target))
    return fixed


def pointed(
    output: str, src: str, url: str, urls: dict[str, str]
) -> tuple[str, list[str]]:
    """``output`` of the page ``src`` (at ``url``) with its docs-relative links pointed at the
    URLs of their files (``urls``: each file of the site's URL, by its path under docs/), and
    the targets that are no file of the site, each where it stands."""
    base, missing = posixpath.dirname(src), []

    def fix(m: re.Match) -> str:
        attr, target, anchor = m.group(1), m.group(2), m.group(3) or ""
        path = posixpath.normpath(posixpath.join(base, target))
        if path not in urls:
            missing.append(target)
            return m.group(0)
        return f'{attr}="{get_relative_url(urls[path], url)}{anchor}"'

    return _LOCAL_LINK.sub(fix, output), missing
