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


def _nav_entries(nav: object, path: str = "") -> list[tuple[str, str]]:
    """The navigation's Markdown files, in order, each with its entry (``Learn > Real heads``)."""
    if isinstance(nav, str):
        return [(path or nav, nav)] if nav.endswith(".md") else []
    if isinstance(nav, dict):
        return [
            e
            for k, v in nav.items()
            for e in _nav_entries(v, f"{path} > {k}" if path else str(k))
        ]
    if isinstance(nav, list):
        return [e for v in nav for e in _nav_entries(v, path)]
    return []


def on_pre_build(config: MkDocsConfig) -> None:
    docs = Path(config.docs_dir)
    entries = _nav_entries(config.nav)
    missing = [(e, f) for e, f in entries if not (docs / f).is_file()]
    # MkDocs would say so only after the build; the check below reads every page first
    if missing:
        raise PluginError(
            "\n".join(
                f"mkdocs.yml: the nav entry '{e}' names {f}, which is not a file of "
                f"{docs.name}/ (create {docs.name}/{f}, or fix or remove the entry)"
                for e, f in missing
            )
        )
    from workshop_site.page_reads import checking  # its reads are no page's

    with checking():  # what it finds fails the build
        pages = [(f, (docs / f).read_text(encoding="utf-8")) for _, f in entries]
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
