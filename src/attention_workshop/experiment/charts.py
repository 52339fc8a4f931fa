"""The pictures of Modules 0 and 1: each function draws one kind of figure in one :class:`~.plotting.Palette`.

Every function takes its numbers (from the chapters' typed results, gathered by
:func:`attention_workshop.experiment.figures.draw`) and a palette, and returns SVG text whose
``<desc>`` states those numbers. Figures are about 5 inches wide or less, with 10-point text or
larger, so the text stays legible (about 10 pixels) when a 375-pixel phone shrinks them.

Step by step's pictures are in :mod:`.charts_steps`, Inside the model's and results.log's in
:mod:`.charts_scale`; the helpers here (:func:`f3`, :func:`arrow`, :func:`plain_axes`) serve all three.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import fmt
from .plotting import Palette, pyplot, svg

# Types only: a drawing's code is charts, plotting and fmt alone, so an edit to the maths or a
# chapter leaves a cached drawing of the same numbers valid (experiment/cache.py keys it on its imports).
if TYPE_CHECKING:
    from ..chapters.module_0 import SoftmaxDemo
    from ..chapters.module_1 import Simple

__all__ = [
    "Point",
    "f3",
    "arrow",
    "plain_axes",
    "word_arrows",
    "softmax_cases",
    "softmax_bars",
    "bank_moves",
    "bank_arrows",
]

Point = tuple[float, float]


def f3(x: float, nd: int = 3) -> str:
    """A number as the figures print it: fixed decimals, a true minus sign."""
    return fmt.minus(fmt.fixed(x, nd))


def arrow(ax: Any, xy: Point, colour: str, width: float = 2.0, z: int = 3) -> None:
    """An arrow from the origin to ``xy``."""
    ax.annotate(
        "",
        xy=xy,
        xytext=(0, 0),
        arrowprops={
            "arrowstyle": "-|>",
            "color": colour,
            "lw": width,
            "shrinkA": 0,
            "shrinkB": 0,
        },
        zorder=z,
    )


def plain_axes(ax: Any, p: Palette) -> None:
    """Axes without the top and right spines, on a light grid behind the data."""
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.grid(True, lw=0.6)
    ax.set_axisbelow(True)


# --------------------------------------------------------------------------- Module 0


def word_arrows(points: dict[str, Point], axes: Sequence[str], p: Palette) -> str:
    """Words as arrows from the origin on two named axes (a word at the origin is a dot)."""
    plt = pyplot(p)
    fig, ax = plt.subplots(figsize=(4.6, 4.3))
    for word, xy in points.items():
        # water-side words in one colour, money-side words in another, a balanced word in a third
        colour = p.series[0 if xy[0] > xy[1] else 1 if xy[1] > xy[0] else 2]
        if xy == (0.0, 0.0):
            ax.plot([0], [0], "o", color=p.fg, ms=6, zorder=4)
            # below the origin's right: the arrows leave it up and to the right
            ax.annotate(
                f"{word} (0, 0)",
                (0, 0),
                xytext=(6, -3),
                textcoords="offset points",
                va="top",
            )
            continue
        arrow(ax, xy, colour)
        ax.annotate(
            word,
            xy,
            xytext=(6, 4),
            textcoords="offset points",
            color=colour,
            fontweight="bold",
        )
    top = max(max(x, y) for x, y in points.values()) + 0.25
    ax.set_xlim(-0.08, top)
    ax.set_ylim(-0.08, top)
    ax.set_aspect("equal")
    ax.set_xlabel(f"{axes[0]} →")
    ax.set_ylabel(f"{axes[1]} →")
    ax.set_title(f"Words on two of the four axes: {axes[0]} and {axes[1]}", loc="left")
    plain_axes(ax, p)
    desc = "Each word as an arrow from 0 to its coordinates (" + ", ".join(axes) + "): "
    desc += "; ".join(f"{w} ({f3(x, 1)}, {f3(y, 1)})" for w, (x, y) in points.items())
    return svg(fig, f"Words as arrows on the {axes[0]} and {axes[1]} axes", desc + ".")


SoftmaxCase = tuple[str, list[str], list[float], str]


def softmax_cases(s: SoftmaxDemo) -> list[SoftmaxCase]:
    """Module 0's four softmax cases: ``(scores as text, each score as text, weights, note)``."""
    nan = " ".join(str(x) for x in s.naive_big)
    return [
        ("[2, 1, 0]", ["2", "1", "0"], [float(x) for x in s.w_small], ""),
        (
            "[2, 0, 0]",
            ["2", "0", "0"],
            [float(x) for x in s.w_zero],
            "a 0 still gets a share",
        ),
        (
            "[2, 0, −∞]",
            ["2", "0", "−∞"],
            [float(x) for x in s.w_silenced],
            "−∞ gets exactly 0",
        ),
        (
            "[1000, 999, 998]",
            ["1000", "999", "998"],
            [float(x) for x in s.w_big],
            f"max subtracted;\nnaive formula:\n{nan}",
        ),
    ]


def softmax_bars(cases: Sequence[SoftmaxCase], p: Palette) -> str:
    """Softmax as bars: one panel per case, each score under its bar, each weight on it."""
    plt = pyplot(p)
    fig, axs = plt.subplots(2, 2, figsize=(5.0, 4.8), sharey=True)
    for ax, (label, scores, weights, note) in zip(axs.flat, cases):
        x = np.arange(len(weights))
        ax.bar(x, weights, color=p.series[0], width=0.6)
        for xi, w in zip(x, weights):
            ax.annotate(
                f3(w),
                (xi, w),
                xytext=(0, 3),
                textcoords="offset points",
                ha="center",
                fontsize=10,
            )
        ax.set_xticks(x, labels=scores)
        ax.set_ylim(0, 1.15)
        ax.set_title(f"scores {label}", loc="left", fontsize=11)
        if note:
            ax.text(
                0.98,
                0.96,
                note,
                transform=ax.transAxes,
                ha="right",
                va="top",
                fontsize=10,
                color=p.muted,
            )
        plain_axes(ax, p)
        ax.grid(False, axis="x")
    for ax in axs[:, 0]:
        ax.set_ylabel("weight")
    fig.suptitle("Softmax turns scores into weights", x=0.02, ha="left")
    fig.tight_layout()
    desc = "Softmax weights for four rows of scores: " + "; ".join(
        f"scores {label} give {', '.join(f3(w) for w in ws)}" + (f" ({n})" if n else "")
        for label, _, ws, n in cases
    )
    return svg(fig, "Softmax as bars", desc.replace("\n", " ") + ".")


# --------------------------------------------------------------------------- Module 1


def bank_moves(simple: Simple) -> list[tuple[str, Point]]:
    """The last word's (water, money) before attention and after it in Module 1's two sentences."""
    first, contrast = simple.first, simple.contrast
    word = first.sentence[-1]

    def xy(row: np.ndarray) -> Point:
        return (float(row[0]), float(row[1]))

    return [
        (f"{word}, before attention", xy(first.X[-1])),
        *(
            (f'{word} in "{" ".join(d.sentence)}"', xy(d.out[-1]))
            for d in (first, contrast)
        ),
    ]


def bank_arrows(moves: Sequence[tuple[str, Point]], p: Palette) -> str:
    """bank's row on water and money: before attention, and after it in each sentence."""
    plt = pyplot(p)
    fig, ax = plt.subplots(figsize=(4.6, 4.4))
    top = max(max(xy) for _, xy in moves) + 0.25
    ax.plot([0, top], [0, top], ls="--", color=p.muted, lw=1)
    # the diagonal's name above its far end; each label on the side of the diagonal its point is on
    ax.text(top * 0.9, top * 0.98, "water = money", color=p.muted, ha="right", va="top")
    colours = [p.fg, p.series[0], p.series[1]]
    offsets = [(8, -4), (6, -14), (-4, 6)]
    aligns = [("left", "top"), ("left", "baseline"), ("left", "bottom")]
    for (name, xy), colour, off, (ha, va) in zip(moves, colours, offsets, aligns):
        arrow(ax, xy, colour, width=2.2)
        ax.annotate(
            name.replace(" in ", " in\n") + f"\n({f3(xy[0])}, {f3(xy[1])})",
            xy,
            xytext=off,
            textcoords="offset points",
            color=colour,
            ha=ha,
            va=va,
            fontsize=10,
        )
    ax.set_xlim(0, top)
    ax.set_ylim(0, top)
    ax.set_aspect("equal")
    ax.set_xlabel("water →")
    ax.set_ylabel("money →")
    ax.set_title("bank moves toward its neighbour's topic", loc="left")
    plain_axes(ax, p)
    desc = "bank's water and money coordinates: " + "; ".join(
        f"{name}: ({f3(x)}, {f3(y)})" for name, (x, y) in moves
    )
    return svg(fig, "bank before and after attention", desc + ".")
