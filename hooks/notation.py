"""MkDocs hook: one notation across the site (``src/workshop_site/notation.toml``).

- Before the build, every page must keep to the notation: each symbol written first on the page that
  introduces it, an alias only there, no spelling the notation rules out (``notation.check``). A page
  that breaks it fails the build, named with the symbol.
- Every page gets the terms' hover definitions, as Markdown abbreviations appended to its text.
- A formula that is exactly one symbol (``$W_Q$``, ``$d_k$``) gets that symbol's definition on hover.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import TYPE_CHECKING

import _workshop_common as common
from mkdocs.exceptions import PluginError

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

# A formula as hooks/mathml.py writes it: its MathML, then its TeX (hidden, for search).
_INLINE_MATH = re.compile(
    r'<span class="math">(?:(?!</span>).)*?<code class="workshop-tex" hidden>(.*?)</code></span>',
    re.S,
)


def _nav_files(nav: object) -> list[str]:
    """The Markdown files of the navigation, in order."""
    if isinstance(nav, str):
        return [nav] if nav.endswith(".md") else []
    if isinstance(nav, dict):
        return [f for v in nav.values() for f in _nav_files(v)]
    if isinstance(nav, list):
        return [f for v in nav for f in _nav_files(v)]
    return []


def on_pre_build(config: MkDocsConfig) -> None:
    docs = Path(config.docs_dir)
    pages = [
        (name, (docs / name).read_text(encoding="utf-8"))
        for name in _nav_files(config.nav)
    ]
    problems = common.notation().check(pages)
    if problems:
        raise PluginError(
            "attention_workshop: the pages break the notation (src/workshop_site/notation.toml):\n  "
            + "\n  ".join(problems)
        )


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    return f"{markdown.rstrip()}\n\n{common.notation().abbreviations()}"


def on_page_content(output: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    titles = common.notation().symbol_titles()

    def hover(m: re.Match) -> str:
        title = titles.get(html.unescape(m.group(1)).strip())
        if title is None:
            return m.group(0)
        return f'<abbr class="workshop-symbol" title="{html.escape(title, quote=True)}">{m.group(0)}</abbr>'

    return _INLINE_MATH.sub(hover, output)
