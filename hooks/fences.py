"""MkDocs hook: every exec fence has an ``id``, and a fence that fails names the snippet file to edit.

- An exec fence (```` ```python exec="1" ````) without an ``id``, or two fences of a page with one
  ``id``, is a problem (the strict build fails; ``mkdocs serve`` shows it on the page): the id is
  how an error names the fence.
- markdown-exec reports a failing fence as "code block 'm3-log-causal' exited with errors"; this
  hook adds the snippet files the fence includes and the line it stands on, e.g.
  "code block 'm3-log-causal' (snippets/module-3/log_causal.py, fence at docs/module-3.md:113)".
  (hooks/snippet_errors.py puts the page in front.)
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING

import _log_filters
import _workshop_common as common
from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

_BLOCK = re.compile(r"code block '([^']+)' (?!\()")
_current: dict[str, list] = {"fences": [], "page": []}


class _NameSnippet(logging.Filter):
    """Add the snippet files and the fence's line to markdown-exec's report of a failing fence."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("mkdocs.plugins.markdown_exec") and isinstance(
            record.msg, str
        ):
            page = _current["page"][0] if _current["page"] else "?"

            def name(m: re.Match) -> str:
                fence = next(
                    (f for f in _current["fences"] if f.id == m.group(1)), None
                )
                if fence is None:
                    return m.group(0)
                files = ", ".join(fence.snippets) or "no snippet file"
                return f"code block '{fence.id}' ({files}, fence at docs/{page}:{fence.line}) "

            record.msg = _BLOCK.sub(name, record.msg, count=1)
        return True


@event_priority(100)  # before the plugins' on_config, like the other hooks' set-up
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    _log_filters.install(_NameSnippet())
    return config


def _suggest(page: str, snippets: tuple[str, ...]) -> str:
    """An id for a fence: the page's name and the snippet's, ``module-3-log-causal``."""
    stem = Path(snippets[0]).stem if snippets else "snippet"
    return re.sub(r"[^a-z0-9]+", "-", f"{Path(page).stem}-{stem}".lower()).strip("-")


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    src = page.file.src_uri
    fences = common.sources().fences(page.file.content_string)
    # markdown-exec runs this page's fences next
    _current["fences"], _current["page"] = fences, [src]
    seen: set[str] = set()
    for f in fences:
        where = f"docs/{src}:{f.line}"
        if not f.id:
            common.problem(
                f"{where}: an exec fence has no id ({', '.join(f.snippets) or 'no snippet'}): "
                f'write ```{f.language} exec="1" id="{_suggest(src, f.snippets)}"; '
                "the id is how an error names the fence",
                page=src,
            )
        elif f.id in seen:
            common.problem(
                f"{where}: a second exec fence with id '{f.id}': give each fence its own id",
                page=src,
            )
        seen.add(f.id)
    return markdown
