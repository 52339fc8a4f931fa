"""MkDocs hook: every table sits in a scroll box the keyboard can reach, with a name.

On a narrow screen a wide table scrolls sideways; a box that scrolls must take focus
(``tabindex="0"``) and say what it is (``role="region"`` and an ``aria-label``). Its first column is
its key and stays in view (workshop.css); a bold heading right after it (``**dot product**`` in the
Markdown) makes that column a key too (``data-keys="2"``).
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from _workshop_common import plain_text

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

_TABLE = re.compile(r"<table>(.*?)</table>", re.S)
_BOXED_TABLE = re.compile(
    r'<div class="([^"]+)">(\s*<table\b[^>]*>\s*(?:<caption>(.*?)</caption>)?)', re.S
)


def _table_name(before: str, table: str) -> str:
    """A table's accessible name: its caption, else the section title just above it, else its column headings."""
    caption = re.search(r"<caption>(.*?)</caption>", table, re.S)
    if caption:
        return f"table: {plain_text(caption.group(1))}"
    section = re.findall(r'class="doc-section-title">(.*?)</span>', before[-400:])
    if section:
        return f"table: {plain_text(section[-1]).rstrip(':')}"
    heads = [
        t
        for t in (
            plain_text(h)
            for h in re.findall(
                r"<th\b[^>]*>(.*?)</th>", table.split("</thead>")[0], re.S
            )
        )
        if t
    ]
    return f"table: {', '.join(heads[:6])}" if heads else "table"


def _listing_name(before: str, table: str) -> str | None:
    """A code listing's name (Pygments' table of line numbers beside the code): its file, or the
    lines of results.log it quotes; None for any other table."""
    if 'class="highlighttable"' not in table[:100]:
        return None
    file = re.search(r'<span class="filename">(.*?)</span>', table, re.S)
    if file:
        return f"code: {plain_text(file.group(1))}"
    numbers = re.findall(r'<span class="normal">\s*(\d+)</span>', table)
    lines = f"lines {numbers[0]} to {numbers[-1]}" if numbers else ""
    if re.search(r'<section class="log-excerpt"[^>]*>\s*$', before[-200:]):
        return ", ".join(filter(None, ("results.log", lines)))
    return ", ".join(filter(None, ("code", lines)))


def _keys(table: str) -> str:
    """``data-keys="2"`` when the column after the first has a bold heading (a second key column), else nothing."""
    heads = re.findall(r"<th\b[^>]*>(.*?)</th>", table.split("</tr>")[0], re.S)
    bold = len(heads) > 1 and heads[1].strip().startswith("<strong>")
    return ' data-keys="2"' if bold else ""


def scroll_regions(output: str) -> str:
    """Make every table's sideways-scrolling box reachable by keyboard.

    Markdown's and mkdocstrings' plain ``<table>`` get a ``workshop-scroll`` box (Material's own wrapper,
    added by its JavaScript, then lives inside it and no longer scrolls: see workshop.css); a ``<div>``
    that already holds a table alone (the explorer's static matrices) gets the same attributes.
    """

    def box(m: re.Match) -> str:
        name = html.escape(_table_name(output[: m.start()], m.group(0)), quote=True)
        keys = _keys(m.group(1))
        return f'<div class="workshop-scroll" tabindex="0" role="region" aria-label="{name}"{keys}>{m.group(0)}</div>'

    boxed = _TABLE.sub(box, output)

    def label(m: re.Match) -> str:
        # the whole table, to its end: its name may come from its headings or its lines
        table = boxed[m.start(2) : boxed.find("</table>", m.end()) + len("</table>")]
        name = html.escape(
            f"table: {plain_text(m.group(3))}"
            if m.group(3)
            else _listing_name(boxed[: m.start()], table) or _table_name("", table),
            quote=True,
        )
        return f'<div class="{m.group(1)}" tabindex="0" role="region" aria-label="{name}">{m.group(2)}'

    return _BOXED_TABLE.sub(label, boxed)


def on_page_content(output: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    from workshop_site.page_steps import same  # kept between serve's builds

    return same(scroll_regions, output)
