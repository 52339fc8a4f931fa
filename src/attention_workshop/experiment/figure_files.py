"""The files a figure becomes, for any page: both schemes' SVGs, the dark twin's name, the
link that opens a figure full size, and a small CSV of its numbers.

Kept apart from :mod:`.figures` (the toy experiment's own drawings, which import the chapters): a
page's figures that use these alone (the causal and Real heads pages) import no chapter, so a
drawing cached on what it imports (:mod:`.cache`) holds after another chapter's edit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from . import cache
from .overlaps import OverlapError
from .plotting import DARK, LIGHT, Palette, unchecked

__all__ = ["dark_name", "open_full_size", "themed", "table_csv"]


def dark_name(name: str) -> str:
    """The file name of a figure's dark-scheme twin: ``"sqrt-dk.svg"`` -> ``"sqrt-dk-dark.svg"``."""
    stem, dot, ext = name.rpartition(".")
    return f"{stem}-dark.{ext}" if dot else f"{name}-dark"


def open_full_size(src: str) -> str:
    """A link that opens a figure's light SVG by itself, at its own size: its text as large as it was
    drawn (11 CSS pixels or more), where a phone's page shrinks it. The light drawing, since a file
    opened alone has the browser's white background."""
    return f'<a class="workshop-full-size" href="{src}">Open full size (SVG, light colours)</a>'


def themed(
    name: str, draw_one: Callable[[Palette], str], strict: bool = True
) -> dict[str, str]:
    """A figure in both schemes: ``{name: light SVG, dark_name(name): dark SVG}``.

    Args:
        name: the light figure's file name (``"my-figure.svg"``): the one a reader downloads.
        draw_one: draws the figure in one palette and returns its SVG text.
        strict: whether overlapping labels are an error. The site's figures are strict; a
            reader's own sentence (:func:`.figures.draw` with another sentence) may put its words
            anywhere, so its figures are drawn as they fall.

    Raises:
        OverlapError: (``strict``) in either scheme, a text of the figure overlaps another, a
            data mark or the legend; each problem names the figure, the scheme and the artists.
    """
    drawn = {}
    for palette, file in ((LIGHT, name), (DARK, dark_name(name))):
        # a reader's sentence: drawn as it falls, never cached (the cache holds checked drawings)
        if not strict:
            with unchecked():
                drawn[file] = draw_one(palette)
            continue
        # each drawing is cached on its code and its numbers (experiment/cache.py): a hit needs
        # no Matplotlib
        try:
            drawn[file] = cache.call(draw_one, palette)
        except OverlapError as e:
            raise OverlapError(
                [f"figure {name} ({palette.name} scheme): {p}" for p in e.problems]
            ) from None
    return drawn


def table_csv(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A small CSV (comma-separated, ``\\n`` line ends, floats with 6 decimals)."""

    def cell(v: object) -> str:
        if isinstance(v, (float, np.floating)):
            return f"{float(v):.6f}"
        s = str(v)
        return '"' + s.replace('"', '""') + '"' if "," in s or '"' in s else s

    return "".join(
        ",".join(cell(v) for v in row) + "\n" for row in [list(header), *rows]
    )
