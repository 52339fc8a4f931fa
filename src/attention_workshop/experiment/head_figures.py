"""Attention heads as SVG, written by hand: all of a model's heads at once, and one head large.

Plain SVG text (no Matplotlib): fast enough for 72 heads per sentence, deterministic (no
dates, no random ids). Like every figure of the site, each is drawn once per colour scheme
(:func:`attention_workshop.experiment.figures.themed` with a :class:`~.plotting.Palette`), on a
transparent background: the cells' colours are the rules of one ``<style>`` block, the text
carries its colour itself (as Matplotlib's figures do). Each figure starts with a ``<title>``
and a ``<desc>`` that state what it shows. Their unrotated texts are checked for overlaps by their
own geometry (:func:`.overlaps.check_svg`: no renderer, so each box is estimated from its font size).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from xml.sax.saxutils import escape

import numpy as np

from . import fmt
from .overlaps import check_svg
from .plotting import LIGHT, Palette, contrast

__all__ = [
    "LEVELS",
    "SHORT",
    "NUMBER_SHORT",
    "GRID_KEY",
    "strong",
    "grid_svg",
    "head_svg",
]

#: Shades of a thumbnail cell: a weight is drawn at the nearest tenth; under 0.05 it is not drawn.
LEVELS = 10
#: Short class names under each thumbnail of the grid.
SHORT: dict[str, str] = {
    "previous": "prev",
    "next": "next",
    "self": "self",
    "cls": "CLS",
    "sep": "SEP",
    "broad": "broad",
    "other": "other",
}

#: Short names of what the number under a thumbnail measures (keys: the chapter's ``NUMBERS``).
NUMBER_SHORT: dict[str, str] = {
    "share": "share",
    "normalised entropy": "entropy",
    "largest share": "max",
}
#: The grid's key to those numbers, printed under it, a line each.
GRID_KEY: tuple[str, ...] = (
    "Under each head: its class, then the number that put it there, named for what it measures.",
    "share: the share of attention its class's place gets; entropy (broad): "
    "its normalised entropy; max (other): the largest share any place gets.",
)

_FONT = "font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif"


def _level(w: float) -> int:
    """The shade of a weight: the nearest tenth, 0 .. LEVELS."""
    return int(np.rint(w * LEVELS))


def _shade(p: Palette, level: int) -> str:
    """The colour of a cell of shade ``level``: the scheme's ``high`` over its ``low``."""
    t = level / LEVELS
    low, high = (
        [int(c.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)] for c in (p.low, p.high)
    )
    return "#" + "".join(f"{round(a * (1 - t) + b * t):02x}" for a, b in zip(low, high))


def strong(p: Palette) -> int:
    """The first shade whose value is printed in the background's colour: from there on, the
    page's background reads better on the cell than the page's text does."""
    return next(
        k
        for k in range(LEVELS + 1)
        if contrast(p.bg, _shade(p, k)) >= contrast(p.fg, _shade(p, k))
    )


def _style(p: Palette) -> str:
    rules = [
        # a thumbnail is outlined with one pixel, whatever its scale
        f".cell-bg{{fill:{p.low};stroke:{p.grid};stroke-width:1px;vector-effect:non-scaling-stroke}}",
        f".w{{fill:{p.high}}}",
        f".rule{{fill:none;stroke:{p.bg};stroke-width:0.04}}",
    ]
    rules += [f".o{k}{{fill-opacity:{k / LEVELS:g}}}" for k in range(1, LEVELS + 1)]
    rules.append(f"text{{{_FONT}}}")
    return "<style>" + "".join(rules) + "</style>"


def _fill(colour: str) -> str:
    """A text's colour, as an attribute."""
    return f'style="fill: {colour}"'


def _open(width: float, height: float, title: str, desc: str, p: Palette) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
        f'width="{width:g}" height="{height:g}" role="img">',
        f"<title>{escape(title)}</title>",
        f"<desc>{escape(desc)}</desc>",
        _style(p),
    ]


def _cells(weights: np.ndarray) -> str:
    """One head's weights ``(T, T)`` as paths in unit cells, one path per shade (runs merged)."""
    level = np.rint(np.asarray(weights) * LEVELS).astype(int)  # (T, T), 0 .. LEVELS
    paths: dict[int, list[str]] = {}
    for i, row in enumerate(level):
        j = 0
        while j < len(row):
            k, start = int(row[j]), j
            while j < len(row) and row[j] == k:
                j += 1
            if k > 0:
                paths.setdefault(k, []).append(
                    f"M{start} {i}h{j - start}v1h-{j - start}z"
                )
    return "".join(
        f'<path class="w o{k}" d="{"".join(d)}"/>' for k, d in sorted(paths.items())
    )


def _thumb(att: np.ndarray, label: str, x: int, y: int, size: int, ink: str) -> str:
    """One head's thumbnail in :func:`grid_svg` at ``(x, y)``, its label's lines under it."""
    T = att.shape[0]
    return (
        f'<g transform="translate({x} {y}) scale({size / T:.6g})">'
        f'<rect class="cell-bg" width="{T}" height="{T}"/>'
        f"{_cells(att)}</g>"
        + "".join(
            f'<text {ink} x="{x + size / 2:g}" y="{y + size + 13 * (k + 1)}" '
            f'font-size="11" text-anchor="middle">{escape(line)}</text>'
            for k, line in enumerate(label.split("\n"))
        )
    )


def _title_lines(title: str, width: float, ink: str) -> list[str]:
    """A figure's title as ``<text>`` lines, wrapped to ``width``: 0.6 em a character is wider
    than the average of any sans-serif font, so a long title (a reader's own sentence) never
    runs past the edge."""
    lines = textwrap.wrap(title, max(20, int((width - 16) / (0.6 * 15)))) or [""]
    return [
        f'<text {ink} x="8" y="{20 + 20 * k}" font-size="15">{escape(line)}</text>'
        for k, line in enumerate(lines)
    ]


def grid_svg(
    attentions: np.ndarray,
    labels: Sequence[Sequence[str]],
    title: str,
    desc: str,
    p: Palette = LIGHT,
    size: int = 64,
    key: Sequence[str] = (),
) -> str:
    """Every head of a model at once: layers down, heads across, each a small heatmap.

    Args:
        attentions: ``(L, H, T, T)`` weights between 0 and 1.
        labels: ``labels[l][h]``, the lines printed under each thumbnail (its class, then its
            number), separated by ``\n``.
        title: the figure's title; desc: its text alternative.
        p: the colour scheme.
        size: a thumbnail's side, in pixels.
        key: lines printed under the grid (what the labels mean).
    """
    L, H = attentions.shape[:2]
    lines = max(label.count("\n") + 1 for row in labels for label in row)
    gap, left, below = 10, 64, 6 + 13 * lines
    width = left + H * (size + gap)
    heading = _title_lines(title, width, _fill(p.fg))
    top = 52 + 20 * (len(heading) - 1)
    grid_bottom = top + L * (size + below + gap)
    height = grid_bottom + 18 * len(key) + (8 if key else 0)
    ink, muted = _fill(p.fg), _fill(p.muted)
    out = _open(width, height, title, desc, p) + heading
    for h in range(H):
        x = left + h * (size + gap) + size / 2
        out.append(
            f'<text {muted} x="{x:g}" y="{top - 8}" font-size="12" '
            f'text-anchor="middle">head {h + 1}</text>'
        )
    for layer in range(L):
        y = top + layer * (size + below + gap)
        out.append(
            f'<text {muted} x="8" y="{y + size / 2 + 4:g}" font-size="12">layer {layer + 1}</text>'
        )
        for h in range(H):
            x = left + h * (size + gap)
            out.append(_thumb(attentions[layer, h], labels[layer][h], x, y, size, ink))
    out += [
        f'<text {muted} x="8" y="{grid_bottom + 18 * k + 12}" font-size="12">{escape(line)}</text>'
        for k, line in enumerate(key)
    ]
    return check_svg("\n".join([*out, "</svg>"]) + "\n")


def _rules(T: int) -> str:
    """Thin lines between the cells of a ``T`` by ``T`` grid of unit cells."""
    return "".join(f"M{k} 0v{T}M0 {k}h{T}" for k in range(1, T))


def _two(w: float) -> str:
    """A weight in a cell: two decimals, without the leading zero (``.68``, ``1.00``)."""
    s = fmt.fixed(w, 2)
    return s[1:] if s.startswith("0.") else s


def _column_labels(
    tokens: Sequence[str], ink: str, left: float, top: float, cell: int
) -> list[str]:
    """The tokens above the columns of :func:`head_svg`'s grid, slanted."""
    out = []
    for j, t in enumerate(tokens):
        x = left + j * cell + cell / 2 + 4
        out.append(
            f'<text {ink} font-size="12" transform="translate({x:g} {top - 6:g}) rotate(-60)">'
            f"{escape(t)}</text>"
        )
    return out


def _row_labels(
    tokens: Sequence[str], ink: str, left: float, top: float, cell: int
) -> list[str]:
    """The tokens left of the rows of :func:`head_svg`'s grid, right-aligned."""
    out = []
    for i, t in enumerate(tokens):
        y = top + i * cell + cell / 2 + 4
        out.append(
            f'<text {ink} x="{left - 6:g}" y="{y:g}" font-size="12" '
            f'text-anchor="end">{escape(t)}</text>'
        )
    return out


def _printed_weights(
    weights: np.ndarray,
    p: Palette,
    left: float,
    top: float,
    cell: int,
    causal: bool = False,
) -> list[str]:
    """Each ``(T, T)`` weight printed in its cell: from shade :func:`strong` up in the
    background's colour, below in the text's (one group per colour). ``causal``: a cell above the
    diagonal (a later token, masked) is left blank, as the explorer leaves it, not printed ``.00``."""
    out = []
    from_shade = strong(p)
    for colour, on_strong in ((p.fg, False), (p.bg, True)):
        out.append('<g font-size="11" text-anchor="middle">')
        out += [
            f'<text {_fill(colour)} x="{left + (j + 0.5) * cell:g}" y="{top + (i + 0.5) * cell + 4:g}">'
            f"{_two(float(w))}</text>"
            for (i, j), w in np.ndenumerate(weights)
            if (_level(float(w)) >= from_shade) == on_strong and not (causal and j > i)
        ]
        out.append("</g>")
    return out


def head_svg(
    weights: np.ndarray,
    tokens: Sequence[str],
    title: str,
    desc: str,
    p: Palette = LIGHT,
    cell: int = 34,
    causal: bool = False,
) -> str:
    """One head large: a cell per pair of tokens, its weight printed in it, tokens as labels.

    Args:
        weights: ``(T, T)``; row ``i`` is where token ``i`` looks, and sums to 1.
        tokens: the ``T`` token labels.
        title: the figure's title; desc: its text alternative.
        p: the colour scheme: a weight from shade :func:`strong` up is printed in its background's
            colour, below in its text's.
        cell: a cell's side, in pixels.
        causal: a causal model's head: the masked cells (above the diagonal) print no weight.
    """
    T = len(tokens)
    if weights.shape != (T, T):
        raise ValueError(f"weights has shape {weights.shape}, tokens {T}")
    longest = max(len(t) for t in tokens)
    left, top = 16 + 7.5 * longest, 44 + 5.5 * longest
    width, height = left + T * cell + 16, top + T * cell + 28
    out = _open(width, height, title, desc, p)
    ink = _fill(p.fg)
    out.append(f'<text {ink} x="8" y="20" font-size="15">{escape(title)}</text>')
    out += _column_labels(tokens, ink, left, top, cell)
    out.append(
        f'<g transform="translate({left:g} {top:g}) scale({cell})">'
        f'<rect class="cell-bg" width="{T}" height="{T}"/>{_cells(weights)}'
        f'<path class="rule" d="{_rules(T)}"/></g>'
    )
    out += _row_labels(tokens, ink, left, top, cell)
    out += _printed_weights(weights, p, left, top, cell, causal)
    out.append(
        f'<text {_fill(p.muted)} x="8" y="{height - 8:g}" font-size="12">'
        "rows: the token looking; columns: the token looked at; each row sums to 1</text>"
    )
    out.append("</svg>")
    return check_svg("\n".join(out) + "\n")
