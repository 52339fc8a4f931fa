"""Attention heads as SVG, written by hand: all of a model's heads at once, and one head large.

Plain SVG text (no Matplotlib): fast enough for 72 heads per sentence, deterministic (no
dates, no random ids), and easy to restyle: every colour is a CSS rule of one ``<style>``
block (:data:`PALETTE`), so a figure can follow the page's colour scheme by changing that
block alone. Each figure starts with a ``<title>`` and a ``<desc>`` that state what it shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

import numpy as np

from . import fmt

__all__ = ["PALETTE", "LEVELS", "DARK", "SHORT", "grid_svg", "head_svg"]

#: The colours of every head figure: CSS for the classes the figures use.
PALETTE: dict[str, str] = {
    "card": "fill:#ffffff",
    "cell-bg": "fill:#f4f6fb;stroke:#c9cfdd;stroke-width:0.04",
    "w": "fill:#173f85",
    "ink": "fill:#1a1a1a",
    "ink-on-dark": "fill:#ffffff",
    "muted": "fill:#4a4a4a",
    "rule": "fill:none;stroke:#ffffff;stroke-width:0.04",
}
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

_FONT = "font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif"


#: From this shade up, a cell's value is printed in white (both inks keep a contrast near 4.5:1).
DARK = 7


def _level(w: float) -> int:
    """The shade of a weight: the nearest tenth, 0 .. LEVELS."""
    return int(np.rint(w * LEVELS))


def _style() -> str:
    rules = [f".{name}{{{css}}}" for name, css in PALETTE.items()]
    rules += [f".o{k}{{fill-opacity:{k / LEVELS:g}}}" for k in range(1, LEVELS + 1)]
    rules.append(f"text{{{_FONT}}}")
    return "<style>" + "".join(rules) + "</style>"


def _open(width: float, height: float, title: str, desc: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
        f'width="{width:g}" height="{height:g}" role="img">',
        f"<title>{escape(title)}</title>",
        f"<desc>{escape(desc)}</desc>",
        _style(),
        f'<rect class="card" width="{width:g}" height="{height:g}"/>',
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


def grid_svg(
    attentions: np.ndarray,
    labels: Sequence[Sequence[str]],
    title: str,
    desc: str,
    size: int = 64,
) -> str:
    """Every head of a model at once: layers down, heads across, each a small heatmap.

    Args:
        attentions: ``(L, H, T, T)`` weights between 0 and 1.
        labels: ``labels[l][h]``, the line printed under each thumbnail (its class and score).
        title: the figure's title; desc: its text alternative.
        size: a thumbnail's side, in pixels.
    """
    L, H, T, _ = attentions.shape
    gap, left, top, below = 10, 64, 52, 18
    width = left + H * (size + gap)
    height = top + L * (size + below + gap)
    out = _open(width, height, title, desc)
    out.append(f'<text class="ink" x="8" y="20" font-size="15">{escape(title)}</text>')
    for h in range(H):
        x = left + h * (size + gap) + size / 2
        out.append(
            f'<text class="muted" x="{x:g}" y="{top - 8}" font-size="12" '
            f'text-anchor="middle">head {h + 1}</text>'
        )
    for layer in range(L):
        y = top + layer * (size + below + gap)
        out.append(
            f'<text class="muted" x="8" y="{y + size / 2 + 4:g}" font-size="12">layer {layer + 1}</text>'
        )
        for h in range(H):
            x = left + h * (size + gap)
            out.append(
                f'<g transform="translate({x} {y}) scale({size / T:.6g})">'
                f'<rect class="cell-bg" width="{T}" height="{T}"/>'
                f"{_cells(attentions[layer, h])}</g>"
                f'<text class="ink" x="{x + size / 2:g}" y="{y + size + 13}" font-size="11" '
                f'text-anchor="middle">{escape(labels[layer][h])}</text>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _rules(T: int) -> str:
    """Thin lines between the cells of a ``T`` by ``T`` grid of unit cells."""
    return "".join(f"M{k} 0v{T}M0 {k}h{T}" for k in range(1, T))


def _two(w: float) -> str:
    """A weight in a cell: two decimals, without the leading zero (``.68``, ``1.00``)."""
    s = fmt.fixed(w, 2)
    return s[1:] if s.startswith("0.") else s


def head_svg(
    weights: np.ndarray, tokens: Sequence[str], title: str, desc: str, cell: int = 34
) -> str:
    """One head large: a cell per pair of tokens, its weight printed in it, tokens as labels.

    Args:
        weights: ``(T, T)``; row ``i`` is where token ``i`` looks, and sums to 1.
        tokens: the ``T`` token labels.
        title: the figure's title; desc: its text alternative.
        cell: a cell's side, in pixels.
    """
    T = len(tokens)
    if weights.shape != (T, T):
        raise ValueError(f"weights has shape {weights.shape}, tokens {T}")
    longest = max(len(t) for t in tokens)
    left, top = 16 + 7.5 * longest, 44 + 5.5 * longest
    width, height = left + T * cell + 16, top + T * cell + 28
    out = _open(width, height, title, desc)
    out.append(f'<text class="ink" x="8" y="20" font-size="15">{escape(title)}</text>')
    for j, t in enumerate(tokens):
        x = left + j * cell + cell / 2 + 4
        out.append(
            f'<text class="ink" font-size="12" transform="translate({x:g} {top - 6:g}) rotate(-60)">'
            f"{escape(t)}</text>"
        )
    out.append(
        f'<g transform="translate({left:g} {top:g}) scale({cell})">'
        f'<rect class="cell-bg" width="{T}" height="{T}"/>{_cells(weights)}'
        f'<path class="rule" d="{_rules(T)}"/></g>'
    )
    for i, t in enumerate(tokens):
        y = top + i * cell + cell / 2 + 4
        out.append(
            f'<text class="ink" x="{left - 6:g}" y="{y:g}" font-size="12" '
            f'text-anchor="end">{escape(t)}</text>'
        )
    for ink, dark in (("ink", False), ("ink-on-dark", True)):
        out.append(f'<g class="{ink}" font-size="11" text-anchor="middle">')
        out += [
            f'<text x="{left + (j + 0.5) * cell:g}" y="{top + (i + 0.5) * cell + 4:g}">'
            f"{_two(float(w))}</text>"
            for (i, j), w in np.ndenumerate(weights)
            if (_level(float(w)) >= DARK) == dark
        ]
        out.append("</g>")
    out.append(
        f'<text class="muted" x="8" y="{height - 8:g}" font-size="12">'
        "rows: the token looking; columns: the token looked at; each row sums to 1</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"
