"""MkDocs hook: the build's problems, shown where they are.

The other hooks report problems with ``_workshop_common.problem``; this hook counts them itself: a
strict build (``--strict`` or ``strict: true``; ``-q``, ``-v`` or neither) fails at its end listing
each, and MkDocs' own warnings (:class:`Seen`), which MkDocs' count misses under ``-q`` (mkdocs#4126).
A build that is not strict (``mkdocs serve``) goes on, the problems in a box at the top of the page.
"""

from __future__ import annotations

import html
import logging
from typing import TYPE_CHECKING

import _workshop_common as common
import mkdocs
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page


# problems already (markdown-exec's: hooks/snippet_errors.py)
COUNTED = (common.log.name, "mkdocs.plugins.markdown_exec")


class Seen(logging.Handler):
    """A strict build's warnings from MkDocs and plugins. Under ``-q`` the logger lets them through
    and its handlers take the quiet level instead (put back after): the terminal is as quiet."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.top = logging.getLogger(mkdocs.__name__)  # ProperDocs': "properdocs"
        self.messages: list[str] = []
        self.levels: dict[logging.Handler | logging.Logger, int] = {}

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith(COUNTED):
            self.messages.append(f"{record.name}: {record.getMessage()}")

    def listen(self, strict: bool) -> None:
        self.unlisten()
        level = self.top.getEffectiveLevel()
        if strict and level > logging.WARNING:  # -q
            self.levels = {self.top: self.top.level}
            self.levels |= {h: h.level for h in self.top.handlers if h.level < level}
            for h in self.levels:
                h.setLevel(level)
            self.top.setLevel(logging.WARNING)
        if strict:
            self.top.addHandler(self)

    def unlisten(self, **_: object) -> None:
        self.top.removeHandler(self)
        self.messages = []
        for h, level in self.levels.items():
            h.setLevel(level)
        self.levels = {}


SEEN = Seen()
on_build_error = SEEN.unlisten  # a build that raised leaves logging as it found it


# after the hooks' set-up (100: their filters rename the records SEEN then gets), before plugins'
@event_priority(50)
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    SEEN.listen(bool(config.strict))
    return config


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
    messages = common.PROBLEMS.get("", []) + common.PROBLEMS.get(page.file.src_uri, [])
    return box(messages) + output if messages else output


# after every hook that reports a problem, before hooks/publish.py's marker: it is never written
@event_priority(-50)
def on_post_build(config: MkDocsConfig) -> None:
    messages = [m for page in sorted(common.PROBLEMS) for m in common.PROBLEMS[page]]
    messages += SEEN.messages  # MkDocs' own warnings
    SEEN.unlisten()
    if config.strict and messages:
        raise PluginError(
            f"attention_workshop: {len(messages)} problem(s), so the strict build fails:\n  "
            + "\n  ".join(messages)
        )
