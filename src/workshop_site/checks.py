"""Checks the build runs on a page: the names closest to an unknown value, and values left unfilled.

The hooks report what these find, with the file and line to edit (:mod:`.sources`).
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Iterable

__all__ = ["PLACEHOLDER", "closest", "unfilled"]

#: A value the prose quotes: ``{{ section.name }}``.
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][\w.\-]*)\s*\}\}")
# anything in double braces: an unfilled value, or one the placeholder syntax does not accept
_BRACES = re.compile(r"\{\{[^{}\n]{0,100}\}\}")
_PRE = re.compile(r"(<pre\b.*?</pre>)", re.S)
# a file shown verbatim under its title (the Source page): the file's own text, not a value
_TITLED_FILE = re.compile(r'<span class="filename">.*?</table>', re.S)
_INLINE_CODE = re.compile(r"<code\b[^>]*>.*?</code>", re.S)
_TAGS = re.compile(r"<[^>]+>")


def closest(name: str, names: Iterable[str], n: int = 5) -> list[str]:
    """Up to ``n`` known names closest to ``name``, best first; within its section when the section exists."""
    names = sorted(names)
    section = name.split(".", 1)[0] + "."
    same = [k for k in names if k.startswith(section)]
    return difflib.get_close_matches(name, same or names, n=n, cutoff=0.0)


def unfilled(page_html: str) -> list[str]:
    """Every ``{{ ... }}`` left in a page's HTML, in order: in its prose, its tables, its attributes
    (alt texts) and its code blocks. Inline ``<code>`` may show the syntax itself (the API page
    documents it), and so may a file shown verbatim under its title (the Source page, whose
    build checks each block against its file): neither is searched."""
    found = []
    for n, part in enumerate(_PRE.split(_TITLED_FILE.sub("", page_html))):
        # odd parts are <pre> blocks: their text, as a reader sees it
        text = _TAGS.sub("", part) if n % 2 else _INLINE_CODE.sub("", part)
        found += [m.group(0) for m in _BRACES.finditer(html.unescape(text))]
    return found
