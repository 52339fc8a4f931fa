"""Heatmaps and line charts: the two kinds of Matplotlib figure the chapters' results share.

Each returns deterministic SVG text in one :class:`.plotting.Palette`;
:func:`attention_workshop.build.figures.themed` draws it in both schemes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .plotting import LIGHT, Palette, contrast, pyplot, svg

__all__ = ["LABELLED_WORDS", "heatmap_svg", "lines_svg"]


#: Up to this many words a heatmap prints every cell's value on it. Past it the cells shrink
#: to fit the size of a heatmap of this many words and carry no text (too small to read; the
#: CSV twin and the SVG's <desc> hold every number): the canvas, its memory and its text
#: stop growing with the sentence.
LABELLED_WORDS = 12


def _cell_text(p: Palette, rgba: tuple[float, ...]) -> str:
    """The text colour (the scheme's fg or bg) that reads best on a cell of colour ``rgba``."""
    cell = "#" + "".join(f"{round(c * 255):02x}" for c in rgba[:3])
    return p.fg if contrast(p.fg, cell) >= contrast(p.bg, cell) else p.bg


def _label_cells(
    ax: Any, weights: np.ndarray, masked: np.ndarray | None, p: Palette, cmap: Any
) -> None:
    """Print every cell's value on it (colour is never the only carrier); hatch and label masked cells."""
    import matplotlib.patches as mpatches

    T, S = weights.shape
    for i in range(T):
        for j in range(S):
            v = weights[i, j]
            hidden = masked is not None and bool(masked[i, j])
            ax.text(
                j,
                i,
                f"{v:.3f}" + ("\n(masked)" if hidden else ""),
                ha="center",
                va="center",
                fontsize=10 if hidden else 11,
                color=_cell_text(p, cmap(float(v))),
            )
            ax.add_patch(
                mpatches.Rectangle(
                    (j - 0.5, i - 0.5),
                    1,
                    1,
                    fill=False,
                    hatch="///" if hidden else None,
                    edgecolor=p.grid,
                    lw=1,
                )
            )


def heatmap_svg(
    weights: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    title: str,
    p: Palette = LIGHT,
    masked: np.ndarray | None = None,
) -> str:
    """A grid of coloured cells that also prints each value (colour is never the only carrier).

    Args:
        weights: ``(T, S)`` values between 0 and 1.
        rows: one label per row (who is looking).
        cols: one label per column (who is looked at).
        title: the figure's title.
        p: the colour scheme.
        masked: optional ``(T, S)`` bool, cells hidden by a mask, hatched and labelled.

    Past :data:`LABELLED_WORDS` rows or columns the cells shrink to a fixed canvas and
    carry no labels; the ``<desc>`` still states every value.
    """
    from matplotlib.colors import LinearSegmentedColormap

    weights = np.asarray(weights, dtype=float)
    if weights.shape != (len(rows), len(cols)):
        raise ValueError(
            f"weights has shape {weights.shape} but there are {len(rows)} row and {len(cols)} column labels"
        )
    plt = pyplot(p)
    cmap = LinearSegmentedColormap.from_list(f"weights-{p.name}", [p.low, p.high])
    T, S = weights.shape
    # cells shrink past LABELLED_WORDS words: the figure's size stops growing
    n = max(T, S, LABELLED_WORDS)
    cell = LABELLED_WORDS / n
    fig, ax = plt.subplots(figsize=(1.1 * S * cell + 1.6, 0.8 * T * cell + 1.2))
    ax.imshow(weights, cmap=cmap, vmin=0.0, vmax=1.0)
    if n == LABELLED_WORDS:
        _label_cells(ax, weights, masked, p, cmap)
    _heatmap_axes(ax, rows, cols, title, rotation=0 if cell == 1 else 90)
    return svg(fig, title, _heatmap_desc(weights, rows, cols, masked))


def _heatmap_axes(
    ax: Any, rows: Sequence[str], cols: Sequence[str], title: str, rotation: int
) -> None:
    """A heatmap's labels: the keys on top, the queries on the left, the title; no ticks or frame."""
    ax.set_xticks(range(len(cols)), labels=list(cols), rotation=rotation)
    ax.set_yticks(range(len(rows)), labels=list(rows))
    ax.xaxis.tick_top()
    ax.set_xlabel("looked at (key)")
    ax.xaxis.set_label_position("top")
    ax.set_ylabel("looking (query)")
    ax.set_title(title, pad=12, fontsize=12, loc="left")
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)


def _heatmap_desc(
    weights: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    masked: np.ndarray | None,
) -> str:
    """A heatmap's text alternative: every ``(T, S)`` value, row by row."""
    return (
        f"Attention weights; each row is a looking word, each column a word looked at ({', '.join(cols)}). "
        + "; ".join(
            f"row {r}: " + ", ".join(f"{v:.3f}" for v in row)
            for r, row in zip(rows, weights)
        )
        + (". Masked cells are 0." if masked is not None else ".")
    )


def lines_svg(
    x: Sequence[float],
    series: Mapping[str, Sequence[float] | np.ndarray],
    title: str,
    xlabel: str,
    ylabel: str,
    p: Palette = LIGHT,
    logx: bool = True,
    legend_below: bool = False,
) -> str:
    """A line chart with markers and a legend; each series also gets its own marker shape and line style.

    ``legend_below`` puts the legend under the chart, clear of every point (for series that fill the
    chart's corners); otherwise Matplotlib picks the emptiest corner.
    """
    plt = pyplot(p)
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    markers, styles = ["o", "s", "^", "D"], ["-", "--", ":", "-."]
    for n, (name, ys) in enumerate(series.items()):
        ax.plot(
            list(x),
            list(ys),
            marker=markers[n % 4],
            linestyle=styles[n % 4],
            color=p.series[n % 4],
            label=name,
        )
    if logx:
        ax.set_xscale("log", base=2)
        ax.set_xticks(list(x), labels=[str(v) for v in x])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=12, loc="left")
    ax.grid(True)
    if legend_below:
        ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(0, -0.2))
    else:
        ax.legend(frameon=False)
    desc = f"{ylabel} against {xlabel}. " + "; ".join(
        f"{name}: " + ", ".join(f"{xv} -> {float(yv):.3f}" for xv, yv in zip(x, ys))
        for name, ys in series.items()
    )
    return svg(fig, title, desc)
