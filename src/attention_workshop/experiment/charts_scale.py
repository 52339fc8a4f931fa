"""The pictures of scale: GPT-2's matrices beside the toy's, each step's FLOPs, and a map of results.log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import fmt
from .charts import plain_axes
from .plotting import Palette, pyplot, svg

# Types only: a cached drawing is keyed on the code it imports (experiment/cache.py), not the maths
if TYPE_CHECKING:
    from ..gpt2 import GPT2Config

__all__ = ["Block", "matrix_blocks", "blocks", "flop_bars", "log_map"]


# --------------------------------------------------------------------------- inside the model

Block = tuple[str, int, int, int]


def matrix_blocks(toy: GPT2Config, big: GPT2Config) -> list[Block]:
    """One layer's two weight matrices at GPT-2's size and at the toy's: ``(name, rows, columns, colour)``."""
    return [
        ("GPT-2 c_attn (W_Q, W_K, W_V)", big.n_embd, 3 * big.n_embd, 0),
        ("GPT-2 c_proj (W_O)", big.n_embd, big.n_embd, 1),
        ("toy c_attn", toy.n_embd, 3 * toy.n_embd, 0),
        ("toy c_proj", toy.n_embd, toy.n_embd, 1),
    ]


def _big_blocks(ax: Any, big: Sequence[Block], gap: int, p: Palette) -> int:
    """GPT-2's matrices side by side, each split into its parts; returns the width they take."""
    import matplotlib.patches as mpatches

    x = 0
    for name, rows, cols, colour in big:
        ax.add_patch(
            mpatches.Rectangle(
                (x, 0),
                cols,
                rows,
                facecolor=p.series[colour],
                alpha=0.35,
                edgecolor=p.series[colour],
                lw=1.5,
            )
        )
        parts = name[name.find("(") + 1 : name.find(")")].split(", ")
        for t, part in enumerate(parts):
            if t:
                ax.plot([x + t * rows] * 2, [0, rows], color=p.series[colour], lw=1)
            ax.text(
                x + (t + 0.5) * cols / len(parts),
                rows - 60,
                part,
                ha="center",
                va="top",
                fontsize=10,
            )
        # the size above the block, under its name: inside, it would cross the parts' borders
        ax.text(
            x + cols / 2,
            rows + 40,
            f"{name}\n{rows} × {cols}",
            ha="center",
            va="bottom",
            fontsize=10,
        )
        x += cols + gap
    return x


def _small_blocks(ax: Any, small: Sequence[Block], gap: int, p: Palette) -> None:
    """The toy's matrices below GPT-2's, each named by a pointer (they are specks at this scale)."""
    import matplotlib.patches as mpatches

    sx = 0
    for name, rows, cols, colour in small:
        ax.add_patch(
            mpatches.Rectangle(
                (sx, -gap - rows),
                cols,
                rows,
                facecolor=p.series[colour],
                edgecolor=p.series[colour],
                lw=0.8,
            )
        )
        ax.annotate(
            f"{name}: {rows} × {cols}",
            (sx + cols / 2, -gap - rows / 2),
            xytext=(18 + 150 * small.index((name, rows, cols, colour)), -18),
            textcoords="offset points",
            fontsize=10,
            va="top",
            arrowprops={"arrowstyle": "-", "color": p.muted, "lw": 0.8},
        )
        sx += cols + 40


def blocks(items: Sequence[Block], p: Palette) -> str:
    """Weight matrices as rectangles drawn to one scale (a column per unit of width, a row per unit of height)."""

    plt = pyplot(p)
    big = [b for b in items if b[0].startswith("GPT-2")]
    small = [b for b in items if not b[0].startswith("GPT-2")]
    gap = 160
    fig, ax = plt.subplots(figsize=(5.0, 2.9))
    tallest = max(b[1] for b in items)
    x = _big_blocks(ax, big, gap, p)
    _small_blocks(ax, small, gap, p)
    ax.set_xlim(-40, x)
    ax.set_ylim(-gap - 420, tallest + 400)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(
        "One layer's attention weights, all drawn to the same scale",
        loc="left",
        fontsize=11,
    )
    desc = (
        "Weight matrices as rectangles, one unit per row and per column: "
        + "; ".join(
            f"{name} {rows} × {cols} ({fmt.count(rows * cols)} numbers)"
            for name, rows, cols, _ in items
        )
    )
    return svg(fig, "GPT-2's attention matrices beside the toy's, to scale", desc + ".")


def flop_bars(bars: Sequence[tuple[str, int]], T: int, p: Palette) -> str:
    """Each step's FLOPs as a horizontal bar (a step with none says so)."""
    plt = pyplot(p)
    fig, ax = plt.subplots(figsize=(4.2, 3.2))
    names = [f"{n}. {name}" for n, (name, _) in enumerate(bars, 1)]
    values = [v / 1e9 for _, v in bars]
    y = np.arange(len(bars))
    ax.barh(y, values, color=p.series[0], height=0.6)
    for yi, (_, v) in zip(y, bars):
        text = fmt.flops(v).split(" (")[0] if v else "0: no arithmetic"
        ax.annotate(
            text,
            (v / 1e9, yi),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=10,
        )
    ax.set_yticks(y, labels=names)
    ax.invert_yaxis()
    ax.set_xlim(0, max(values) * 1.35)
    ax.set_xlabel("GFLOPs (a multiply-add counts 2)")
    ax.set_title(
        f"One GPT-2 layer's attention, {fmt.count(T)} tokens", loc="left", fontsize=11
    )
    plain_axes(ax, p)
    ax.grid(False, axis="y")
    desc = f"FLOPs of each step at {fmt.count(T)} tokens: " + "; ".join(
        f"{name} {fmt.count(v)}" for name, v in zip(names, (v for _, v in bars))
    )
    return svg(fig, "FLOPs per step at GPT-2's size", desc + ".")


# --------------------------------------------------------------------------- results.log


def log_map(
    spans: Sequence[tuple[str, str, int, int]],
    pages: Sequence[str],
    n_lines: int,
    p: Palette,
) -> str:
    """results.log's sections as bars along its lines, one row per section (named on the left),
    coloured by the page that quotes it; the page's name follows its first section's bar."""
    plt = pyplot(p)
    fig, ax = plt.subplots(figsize=(5.0, 0.24 * len(spans) + 1.2))
    colour_of = {page: p.series[i % 4] for i, page in enumerate(pages)}
    named: set[str] = set()
    for y, (page, _, a, b) in enumerate(spans):
        ax.barh(y, b - a + 1, left=a, height=0.7, color=colour_of.get(page, p.muted))
        if page not in named:
            named.add(page)
            ax.text(b + 6, y, page, va="center", fontsize=10, color=p.fg)
    ax.set_yticks(range(len(spans)), labels=[label for _, label, _, _ in spans])
    ax.tick_params(axis="y", labelsize=10)
    ax.invert_yaxis()
    ax.set_xlim(0, n_lines * 1.3)
    ax.set_xlabel("line of results.log")
    ax.set_title(
        "Where each page's numbers are in results.log", loc="left", fontsize=11
    )
    plain_axes(ax, p)
    ax.grid(False, axis="y")
    desc = "Sections of results.log by page: " + "; ".join(
        f"{label} ({page}) lines {a}–{b}" for page, label, a, b in spans
    )
    return svg(fig, "A map of results.log", desc + ".")
