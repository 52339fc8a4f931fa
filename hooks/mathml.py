"""MkDocs hook: formulas become MathML at build time; search indexes their TeX.

pymdownx.arithmatex (``generic: true``) marks ``$...$`` and ``$$...$$``; each becomes MathML here
(latex2mathml), so no script runs and nothing is fetched from outside the site. Search would
flatten MathML to "exi∑jexj", so it indexes the TeX instead, kept in a hidden ``<code>`` on one
line (a display formula may be written over several lines).
A formula latex2mathml cannot read fails the build, naming the page.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from mkdocs.exceptions import PluginError

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

_MATH = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)
_DELIMITERS = (("\\(", "\\)"), ("\\[", "\\]"), ("$$", "$$"), ("$", "$"))


def _tex(marked: str) -> str:
    """The TeX inside arithmatex's delimiters."""
    tex = html.unescape(marked).strip()
    for a, b in _DELIMITERS:
        if tex.startswith(a) and tex.endswith(b):
            return tex[len(a) : len(tex) - len(b)].strip()
    return tex.strip()


def on_page_content(output: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    from workshop_site.page_steps import same  # kept between serve's builds

    return same(to_mathml, output, page.file.src_uri)


def to_mathml(output: str, src: str) -> str:
    """Every formula of a page's HTML (page ``src``) as MathML, and its TeX for search."""
    from latex2mathml.converter import convert

    def fix(m: re.Match) -> str:
        tag, tex = m.group(1), _tex(m.group(2))
        try:
            mathml = convert(tex, display="block" if tag == "div" else "inline")
        except Exception as err:
            raise PluginError(
                f"docs/{src}: cannot render the formula {tex!r}: {err}"
            ) from err
        # search reads the TeX below
        mathml = mathml.replace("<math ", "<math data-search-exclude ", 1)
        # one line, as the search index keeps text: a display formula may span several lines
        flat = html.escape(" ".join(tex.split()), quote=False)
        code = f'<code class="workshop-tex" hidden>{flat}</code>'
        return f'<{tag} class="math">{mathml}{code}</{tag}>'

    return _MATH.sub(fix, output)
