"""Which code a page's rendering depends on: the part of a page's key (hooks/render_cache.py)
that stands for the package.

A page that runs code shows what the package computes. Most pages show numbers, tables and
drawings: what the code *does*, hashed without docstrings or comments (build/code_digest.py),
so a docstring edit to ``core.py`` does not render them again. A page that shows the package's
text (:data:`SHOWS_SOURCE`: an API reference ``:::`` block, ``python_source``, the Source
page's ``source_tabs``, or anything reading docstrings) is keyed on every byte of the package.

:data:`READERS` are the package's modules that read source only when a page asks for it by one
of those names; tests/test_page_keys.py fails when another module starts reading source.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from . import cache

__all__ = ["SHOWS_SOURCE", "READERS", "shows_source", "code_key"]

#: A page (its Markdown or an included file) that may show the package's own text.
SHOWS_SOURCE = re.compile(
    r"^\s*:::\s|python_source|source_tabs|getsource|getdoc|__doc__|\binspect\b|linecache",
    re.M,
)
#: Modules that read source, reached only through a name :data:`SHOWS_SOURCE` matches.
READERS = ("attention_workshop/build/render.py",)


def shows_source(markdown: str, includes: Iterable[tuple[str, bytes]]) -> bool:
    """Whether a page's Markdown or one of the files it includes may show the package's text."""
    texts = [
        markdown,
        *(data.decode("utf-8", errors="replace") for _, data in includes),
    ]
    return any(SHOWS_SOURCE.search(text) for text in texts)


def code_key(markdown: str, includes: Iterable[tuple[str, bytes]]) -> str:
    """The package's part of a page's key: every byte where the page may show source, else
    what the code does (:func:`attention_workshop.build.cache.code_digest`)."""
    includes = list(includes)
    if shows_source(markdown, includes):
        return cache.package_digest()
    return cache.code_digest(*READERS)
