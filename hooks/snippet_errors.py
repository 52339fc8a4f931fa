"""MkDocs hook: a snippet that raises is reported with the page it is on.

markdown-exec says "code block 'id' exited with errors"; this puts ``docs/<page>.md:`` in front,
so the message names both the page and the fence.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

_current_page = {"src": "?"}


class _NamePage(logging.Filter):
    """Put the page's path in front of markdown-exec's warnings and errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        if (
            record.name.startswith("mkdocs.plugins.markdown_exec")
            and record.levelno >= logging.WARNING
        ):
            record.msg = f"docs/{_current_page['src']}: {record.msg}"
        return True


@event_priority(100)  # before the plugins' on_config, like the other hooks' set-up
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    for handler in logging.getLogger("mkdocs").handlers:
        if not any(isinstance(f, _NamePage) for f in handler.filters):
            handler.addFilter(_NamePage())
    return config


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    # markdown-exec runs the page's fences next
    _current_page["src"] = page.file.src_uri
    return markdown
