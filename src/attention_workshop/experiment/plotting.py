"""The figures' two colour schemes, and the Matplotlib set-up every figure shares.

A figure is drawn once per :class:`Palette`: :data:`LIGHT` for Material's light scheme,
:data:`DARK` for its slate scheme. Each is drawn on a transparent background, so the page
shows through; text, lines and cells take the scheme's own colours. SVG output is
deterministic: no date, no creator, ids from a fixed salt.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from .overlaps import OverlapError, check

__all__ = [
    "Palette",
    "LIGHT",
    "DARK",
    "PALETTES",
    "pyplot",
    "svg",
    "unchecked",
    "contrast",
]


@dataclass(frozen=True)
class Palette:
    """The colours of one scheme.

    Attributes:
        name: ``"light"`` or ``"dark"``.
        bg: the page's background (Material's ``--md-default-bg-color``); figures stay transparent.
        fg: text and axes, as the page's own text.
        muted: secondary text (captions inside a figure, masked cells).
        grid: grid lines and faint guides.
        series: the colours of up to four series, in order (each 3:1 or more against ``bg``).
        low, high: a heatmap's colours for 0 and for 1.
    """

    name: str
    bg: str
    fg: str
    muted: str
    grid: str
    series: tuple[str, str, str, str]
    low: str
    high: str


#: Material's light scheme ("default"): white page, near-black text.
LIGHT = Palette(
    "light",
    bg="#ffffff",
    fg="#212121",
    muted="#5f6368",
    grid="#d5d8de",
    series=("#3949ab", "#c2410c", "#2e7d32", "#8e24aa"),
    low="#ffffff",
    high="#1a3a8f",
)
#: Material's dark scheme ("slate"): the page's dark blue-grey, light text.
DARK = Palette(
    "dark",
    bg="#1e2029",
    fg="#e3e5ea",
    muted="#aeb2bd",
    grid="#3b3f4d",
    series=("#8fa4ff", "#ffa26b", "#7fd18a", "#e39cf0"),
    low="#1e2029",
    high="#9cc0ff",
)
PALETTES: tuple[Palette, ...] = (LIGHT, DARK)

_SALT = "attention-workshop"
#: Whether :func:`svg` looks for overlapping texts (False inside :func:`unchecked`).
_CHECKED: ContextVar[bool] = ContextVar("overlaps_checked", default=True)


@contextlib.contextmanager
def unchecked() -> Iterator[None]:
    """Figures drawn inside are not checked for overlapping texts: a reader's own sentence, whose
    figures are kept as they fall (the check's answer would be thrown away, and it takes about a
    third of a long sentence's drawing time)."""
    token = _CHECKED.set(False)
    try:
        yield
    finally:
        _CHECKED.reset(token)


def pyplot(p: Palette) -> Any:
    """Matplotlib's pyplot, set up for palette ``p``: transparent background, the scheme's text colours."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(
        {
            "svg.hashsalt": _SALT,  # stable ids inside the SVG
            "svg.fonttype": "none",  # text stays text: smaller, selectable, no embedded glyph paths
            "font.family": "sans-serif",
            "font.size": 11,
            "figure.facecolor": "none",  # the page shows through, in either scheme
            "axes.facecolor": "none",
            "savefig.facecolor": "none",
            "savefig.transparent": True,
            "text.color": p.fg,
            "axes.labelcolor": p.fg,
            "axes.edgecolor": p.muted,
            "axes.titlecolor": p.fg,
            "xtick.color": p.fg,
            "ytick.color": p.fg,
            "grid.color": p.grid,
            "legend.labelcolor": p.fg,
            "hatch.color": p.muted,
        }
    )
    return plt


def svg(fig: Any, title: str, desc: str) -> str:
    """The figure as SVG text, with a ``<title>`` and a ``<desc>`` that state its numbers (for a
    reader who downloads the file, or whose screen reader opens it). Closes the figure.

    Raises:
        OverlapError: two of its texts overlap, or a text overlaps a data mark or the legend
            (:func:`.overlaps.check`, on the figure as drawn); its ``svg`` is the figure drawn
            all the same. Never inside :func:`unchecked`.
    """
    import matplotlib.pyplot as plt

    clash = None
    if _CHECKED.get():
        try:
            check(fig)
        except OverlapError as e:
            clash = e
    buf = io.StringIO()
    fig.savefig(
        buf,
        format="svg",
        bbox_inches="tight",
        transparent=True,
        metadata={"Date": None, "Creator": None},
    )
    fig.clf()
    plt.close(fig)
    text = buf.getvalue()
    at = text.index(">", text.index("<svg")) + 1
    drawn = f"{text[:at]}\n <title>{escape(title)}</title>\n <desc>{escape(desc)}</desc>{text[at:]}"
    if clash is not None:
        raise OverlapError(clash.problems, svg=drawn)
    return drawn


def _luminance(hex_colour: str) -> float:
    """WCAG's relative luminance of ``#rrggbb``."""
    h = hex_colour.lstrip("#")
    channels = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [
        c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels
    ]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
