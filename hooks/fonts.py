"""MkDocs hook: the math font the site serves holds only the glyphs its formulas use.

The full Latin Modern Math (``docs/assets/fonts/latinmodern-math.otf``, 734 KB) stays in docs/
and out of the site. After the build, every character of every ``<math>`` element in the site's
pages and JSON (the widgets draw formulas too) is gathered, and the font is cut to them and to
what OpenType reaches from them (the ``MATH`` table's stretchy variants included) as
``assets/fonts/latinmodern-math-subset.woff`` (``workshop_site.fonts``; kept by the build's cache),
which ``docs/assets/workshop.css`` names.

Then every character the formulas draw is looked up in that subset (``workshop_site.fonts.lacking``): a
character it lacks, or a radical or stretchy fence whose sizes and assembly parts it lacks, is a
problem naming the character and the first page, in reading order, that draws it. Under
``mkdocs serve`` that page is already written, so the problem's box is added to it then.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import TYPE_CHECKING

import _workshop_common as common
from mkdocs.exceptions import PluginError
from problems import box  # the warning box a page shows its problems in

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation

#: The site's pages in reading order (the nav's, then the pages outside it): file -> docs/ source.
_PAGES: dict[str, str] = {}


def on_files(files: Files, config: MkDocsConfig) -> Files:
    fonts = common.fonts()
    full = files.get_file_from_path(fonts.FONT)
    if full is None:
        raise PluginError(f"docs/{fonts.FONT} is missing: the formulas need it")
    # the site serves the subset written after the build, never the whole font
    files.remove(full)
    return files


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    _PAGES.clear()
    _PAGES.update({page.file.dest_uri: page.file.src_uri for page in nav.pages})
    for file in files.documentation_pages():
        _PAGES.setdefault(file.dest_uri, file.src_uri)
    return nav


def _texts(site: Path) -> list[tuple[str, str]]:
    """``(where, text)`` of every page and JSON file of the built site: pages in reading order,
    named by their docs/ source, then the other files, named by their path in the site."""
    files = {
        p.relative_to(site).as_posix(): p
        for p in [*site.rglob("*.html"), *site.rglob("*.json")]
    }
    named = [(f"docs/{src}", dest) for dest, src in _PAGES.items() if dest in files]
    named += [
        (f"{dest} (a file of the site)", dest)
        for dest in sorted(files.keys() - _PAGES.keys())
    ]
    return [
        (where, files[dest].read_text(encoding="utf-8", errors="replace"))
        for where, dest in named
    ]


def on_post_build(config: MkDocsConfig) -> None:
    fonts, cache = common.fonts(), common.cache()
    uses = fonts.first_uses(_texts(Path(config.site_dir)))
    # and the few characters a browser may draw whatever the formulas hold (math_text of nothing)
    chars = {ch for ch, _, _ in uses} | fonts.math_text("")
    font = Path(config.docs_dir, fonts.FONT).read_bytes()
    shipped = cache.call(fonts.subset, font, "".join(sorted(chars)))
    out = Path(config.site_dir, fonts.SUBSET)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(shipped)
    found = cache.call(fonts.lacking, shipped, font, uses)
    for where, message in found:
        common.problem(
            message,
            page=where.removeprefix("docs/") if where.startswith("docs/") else "",
        )
    if found and not config.strict:
        _show(Path(config.site_dir), found)


#: Where a written page's content starts; the box problems.py drew there, and each message in it.
_ARTICLE = '<article class="md-content__inner md-typeset">'
_BOX = re.compile(
    r'<div class="admonition warning workshop-problems".*?</ul></div>\n', re.S
)
_ITEM = re.compile(r"<li><pre[^>]*>(.*?)</pre></li>", re.S)


def _show(site: Path, found: list[tuple[str, str]]) -> None:
    """Under ``mkdocs serve`` the pages are written before the font can be checked: each page a
    problem names gets it in its warning box now (one box a page, as problems.py draws it)."""

    dest_of = {f"docs/{src}": dest for dest, src in _PAGES.items()}
    by_page: dict[str, list[str]] = {}
    for where, message in found:
        by_page.setdefault(where, []).append(message)
    for where, messages in by_page.items():
        path = site / dest_of.get(where, "")
        if where not in dest_of or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        old = _BOX.search(text)
        if old:  # the page's own problems first, then the font's
            shown = [html.unescape(m) for m in _ITEM.findall(old.group(0))]
            text = text[: old.start()] + box(shown + messages) + text[old.end() :]
        else:
            text = text.replace(_ARTICLE, _ARTICLE + box(messages), 1)
        path.write_text(text, encoding="utf-8")
