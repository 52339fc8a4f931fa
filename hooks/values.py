"""MkDocs hook: ``{{ section.name }}`` in a page's prose becomes the value this build computed.

The names are the keys of the package's ``pages.context()`` (``section.name``, ``section.lines``,
``gpt2.*``, ``build.*``). An unknown name fails the build and lists the names there are.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import _workshop_common as common
from mkdocs.exceptions import PluginError

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][\w.\-]*)\s*\}\}")


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    if "{{" not in markdown:
        return markdown
    ctx = common.pages().context()

    def value(m: re.Match) -> str:
        key = m.group(1)
        if key not in ctx:
            raise PluginError(
                f"docs/{page.file.src_uri}: unknown value {{{{ {key} }}}}; known values: {', '.join(sorted(ctx))}"
            )
        return ctx[key]

    return _PLACEHOLDER.sub(value, markdown)
