"""Deterministic SVG figures (no dates, no random ids) and their CSV twins.

:func:`draw` makes every figure of a run from the chapters' typed results; the other
functions draw one kind of figure.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..chapters import module_2, module_3
from .results import Results

__all__ = ["draw", "heatmap_svg", "lines_svg", "table_csv"]


def draw(r: Results) -> None:
    """Add the run's figures (SVG) and their numbers (CSV) to ``r.figures`` and ``r.tables``."""
    words = r.sentence
    wired, dk, causal = r[module_2.WIRED_HEAD], r[module_2.SQRT_DK], r[module_3.CAUSAL]
    r.figures["wired-weights.svg"] = heatmap_svg(
        wired.weights, words, words, f'Wired head, "{" ".join(words)}", no mask'
    )
    r.tables["wired-weights.csv"] = table_csv(
        ["query", *words], [[q, *row] for q, row in zip(words, wired.weights)]
    )
    r.figures["sqrt-dk.svg"] = lines_svg(
        module_2.DK_VALUES,
        {"without scaling": dk.max_raw, "divided by sqrt(d_k)": dk.max_scaled},
        f"Largest softmax weight among {dk.keys} keys, averaged",
        "d_k (log scale)",
        "mean largest weight",
    )
    rows = zip(module_2.DK_VALUES, dk.var_raw, dk.var_scaled, dk.max_raw, dk.max_scaled)
    r.tables["sqrt-dk.csv"] = table_csv(
        ["d_k", "var_raw", "var_scaled", "max_weight_raw", "max_weight_scaled"],
        [list(x) for x in rows],
    )
    r.figures["wired-weights-causal.svg"] = heatmap_svg(
        causal.weights,
        words,
        words,
        f'Wired head, "{" ".join(words)}", causal mask',
        masked=causal.future,
    )
    r.tables["wired-weights-causal.csv"] = table_csv(
        ["query", *words], [[q, *row] for q, row in zip(words, causal.weights)]
    )


_SALT = "attention-workshop"
#: Up to this many words a heatmap prints every cell's value on it. Past it the cells shrink
#: to fit the size of a heatmap of this many words and carry no text (too small to read; the
#: CSV twin and the SVG's <desc> hold every number): the canvas, its memory and its text
#: stop growing with the sentence.
LABELLED_WORDS = 12


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(
        {
            "svg.hashsalt": _SALT,  # stable ids inside the SVG
            "svg.fonttype": "none",  # text stays text: smaller, selectable, no embedded glyph paths
            "font.family": "sans-serif",
            "font.size": 11,
            "figure.facecolor": "white",  # a light card that reads well in both colour schemes
            "axes.facecolor": "white",
            "text.color": "#1a1a1a",
            "axes.labelcolor": "#1a1a1a",
            "xtick.color": "#1a1a1a",
            "ytick.color": "#1a1a1a",
        }
    )
    return plt


def _svg(fig: Any, title: str, desc: str) -> str:
    """The figure as SVG text, with a <title> and a <desc> that state its numbers (for a
    reader who downloads the file, or whose screen reader opens it)."""
    from xml.sax.saxutils import escape

    buf = io.StringIO()
    fig.savefig(
        buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None}
    )
    fig.clf()
    import matplotlib.pyplot as plt

    plt.close(fig)
    svg = buf.getvalue()
    at = svg.index(">", svg.index("<svg")) + 1
    return f"{svg[:at]}\n <title>{escape(title)}</title>\n <desc>{escape(desc)}</desc>{svg[at:]}"


def _label_cells(
    plt: Any, ax: Any, weights: np.ndarray, masked: np.ndarray | None
) -> None:
    """Print every cell's value on it (colour is never the only carrier); hatch and label masked cells."""
    T, S = weights.shape
    for i in range(T):
        for j in range(S):
            v = weights[i, j]
            hidden = masked is not None and bool(masked[i, j])
            label = f"{v:.3f}" + ("\n(masked)" if hidden else "")
            ax.text(
                j,
                i,
                label,
                ha="center",
                va="center",
                fontsize=10 if hidden else 11,
                color="white" if v > 0.55 else "#1a1a1a",
            )
            if hidden:
                ax.add_patch(
                    plt.Rectangle(
                        (j - 0.5, i - 0.5),
                        1,
                        1,
                        fill=False,
                        hatch="///",
                        edgecolor="#888888",
                        lw=0,
                    )
                )


def heatmap_svg(
    weights: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    title: str,
    masked: np.ndarray | None = None,
) -> str:
    """A grid of coloured cells that also prints each value (colour is never the only carrier).

    Args:
        weights: ``(T, S)`` values between 0 and 1.
        rows: one label per row (who is looking).
        cols: one label per column (who is looked at).
        title: the figure's title.
        masked: optional ``(T, S)`` bool, cells hidden by a mask, hatched and labelled.

    Past :data:`LABELLED_WORDS` rows or columns the cells shrink to a fixed canvas and
    carry no labels; the ``<desc>`` still states every value.
    """
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (len(rows), len(cols)):
        raise ValueError(
            f"weights has shape {weights.shape} but there are {len(rows)} row and {len(cols)} column labels"
        )
    plt = _pyplot()
    T, S = weights.shape
    # cells shrink past LABELLED_WORDS words: the figure's size stops growing
    n = max(T, S, LABELLED_WORDS)
    cell = LABELLED_WORDS / n
    fig, ax = plt.subplots(figsize=(1.1 * S * cell + 1.6, 0.8 * T * cell + 1.2))
    ax.imshow(weights, cmap="Blues", vmin=0.0, vmax=1.0)
    if n == LABELLED_WORDS:
        _label_cells(plt, ax, weights, masked)
    ax.set_xticks(range(S), labels=list(cols), rotation=0 if cell == 1 else 90)
    ax.set_yticks(range(T), labels=list(rows))
    ax.xaxis.tick_top()
    ax.set_xlabel("looked at (key)")
    ax.xaxis.set_label_position("top")
    ax.set_ylabel("looking (query)")
    ax.set_title(title, pad=12, fontsize=12, loc="left")
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    desc = (
        f"Attention weights; each row is a looking word, each column a word looked at ({', '.join(cols)}). "
        + "; ".join(
            f"row {r}: " + ", ".join(f"{v:.3f}" for v in row)
            for r, row in zip(rows, weights)
        )
        + (". Masked cells are 0." if masked is not None else ".")
    )
    return _svg(fig, title, desc)


def lines_svg(
    x: Sequence[float],
    series: dict[str, Sequence[float] | np.ndarray],
    title: str,
    xlabel: str,
    ylabel: str,
    logx: bool = True,
) -> str:
    """A line chart with markers and a legend; each series also gets its own marker shape."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    markers = ["o", "s", "^", "D"]
    styles = ["-", "--", ":", "-."]
    for n, (name, ys) in enumerate(series.items()):
        ax.plot(
            list(x),
            list(ys),
            marker=markers[n % 4],
            linestyle=styles[n % 4],
            label=name,
        )
    if logx:
        ax.set_xscale("log", base=2)
        ax.set_xticks(list(x), labels=[str(v) for v in x])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=12, loc="left")
    ax.grid(True, color="#dddddd")
    ax.legend(frameon=False)
    desc = f"{ylabel} against {xlabel}. " + "; ".join(
        f"{name}: " + ", ".join(f"{xv} -> {float(yv):.3f}" for xv, yv in zip(x, ys))
        for name, ys in series.items()
    )
    return _svg(fig, title, desc)


def table_csv(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A small CSV (comma-separated, ``\\n`` line ends, floats with 6 decimals)."""

    def cell(v: object) -> str:
        if isinstance(v, (float, np.floating)):
            return f"{float(v):.6f}"
        s = str(v)
        return f'"{s}"' if "," in s or '"' in s else s

    return "".join(
        ",".join(cell(v) for v in row) + "\n" for row in [list(header), *rows]
    )
