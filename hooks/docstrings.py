"""MkDocs hook: a Sphinx role in a docstring (``:func:`run```) shows as the code it names.

The package's docstrings name other functions the Sphinx way; mkdocstrings renders them as
Markdown, so the API page showed ":func:" before each name. ``workshop_site.site.plain_roles`` drops the
role and keeps the code (tests/test_site_api.py checks the API page has none left).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import _workshop_common as common

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page


def on_page_content(output: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return str(common.pages().plain_roles(output))
