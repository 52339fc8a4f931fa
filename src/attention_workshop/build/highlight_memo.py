"""Pygments' HTML for a code block, made once per block's text and options in a process.

``mkdocs serve`` renders a page again when something it shows changed: the Source page holds
every module of the experiment as a highlighted, line-numbered listing, and an edit to one file
used to highlight all of them again (most of the page's rendering time). pymdownx.highlight
calls ``pygments.highlight(src, lexer, formatter)``; :func:`install` puts a memo in front of
that call, keyed on the source text, the lexer's class and options and the formatter's class
and options: the same inputs give Pygments' same bytes, so the site does not change.

A lexer with filters (whose state a key cannot name) is highlighted every time. The memo keeps
the :data:`SIZE` most recent blocks.
"""

from __future__ import annotations

import collections
from typing import Any

__all__ = ["SIZE", "install", "key"]

#: How many highlighted blocks are kept (the whole site has a few hundred).
SIZE = 1024


def key(src: str, lexer: Any, formatter: Any) -> tuple[object, ...] | None:
    """What Pygments' output depends on, or None when a key cannot name it all."""
    if getattr(lexer, "filters", None):
        return None
    return (
        src,
        type(lexer).__module__,
        type(lexer).__qualname__,
        repr(sorted(lexer.options.items())),
        type(formatter).__module__,
        type(formatter).__qualname__,
        repr(sorted(formatter.options.items())),
    )


def _memo(highlight: Any) -> Any:
    kept: collections.OrderedDict[tuple[object, ...], str] = collections.OrderedDict()

    def memo(src: str, lexer: Any, formatter: Any, outfile: Any = None) -> Any:
        k = key(src, lexer, formatter) if outfile is None else None
        if k is None:
            return highlight(src, lexer, formatter, outfile)
        if k in kept:
            kept.move_to_end(k)
            return kept[k]
        out = highlight(src, lexer, formatter)
        kept[k] = out
        while len(kept) > SIZE:
            kept.popitem(last=False)
        return out

    memo.__wrapped__ = highlight  # type: ignore[attr-defined]
    memo.kept = kept  # type: ignore[attr-defined]
    return memo


def install() -> None:
    """The memo in front of pymdownx.highlight's ``highlight`` (once per process)."""
    try:
        from pymdownx import highlight as module  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - pymdownx is pinned
        return
    if not hasattr(module.highlight, "kept"):
        module.highlight = _memo(module.highlight)
