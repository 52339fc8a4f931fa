"""MkDocs hook: the build's problems, shown where they are.

The other hooks report a problem with ``_workshop_common.problem`` (an unknown or unfilled
``{{ value }}``, a number typed by hand, an exec fence without an ``id``, a stale capture, a
broken link, a snippet that raised, a page showing a traceback): a warning, and this hook counts
them itself. A strict build (``--strict`` or ``strict: true``, with ``-q``, ``-v`` or neither)
fails at its end with a list of every one: MkDocs' own count of warnings misses them under
``-q``, which drops warnings before they are counted (mkdocs#4126). A build that is not strict
(``mkdocs serve``, ``make serve``) goes on, and this hook puts the page's problems, and the whole
site's, in a warning box at the top of the page.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import _workshop_common as common
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page


# before every other hook's on_pre_build: a rebuild starts with no problems
@event_priority(100)
def on_pre_build(config: MkDocsConfig) -> None:
    common.PROBLEMS.clear()


def box(messages: list[str]) -> str:
    """The warning box a page shows its problems in."""
    items = "".join(
        f'<li><pre style="white-space: pre-wrap; margin: 0">{html.escape(m)}</pre></li>'
        for m in messages
    )
    title = (
        "A problem the strict build fails on"
        if len(messages) == 1
        else f"{len(messages)} problems the strict build fails on"
    )
    return (
        f'<div class="admonition warning workshop-problems" role="alert">'
        f'<p class="admonition-title">{title}</p>'
        f"<ul>{items}</ul></div>\n"
    )


# after every other hook's on_page_content: the problems found on this page are all known
@event_priority(-100)
def on_page_content(output: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    if config.strict:
        return output
    messages = [
        *common.PROBLEMS.get("", []),
        *common.PROBLEMS.get(page.file.src_uri, []),
    ]
    return box(messages) + output if messages else output


# after every hook that reports a problem (some do in on_post_build), before hooks/publish.py's
# completion marker: a strict build with a problem never reaches its end
@event_priority(-50)
def on_post_build(config: MkDocsConfig) -> None:
    messages = [m for page in sorted(common.PROBLEMS) for m in common.PROBLEMS[page]]
    if config.strict and messages:
        raise PluginError(
            f"attention_workshop: {len(messages)} problem(s), so the strict build fails:\n  "
            + "\n  ".join(messages)
        )
