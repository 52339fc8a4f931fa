"""The pictures of the lessons: each function draws one kind of figure in one :class:`~.plotting.Palette`.

Every function takes its numbers (from the chapters' typed results, gathered by
:func:`attention_workshop.build.figures.draw`) and a palette, and returns SVG text whose
``<desc>`` states those numbers. Figures are about 5 inches wide or less, with 10-point text or
larger, so the text stays legible (about 10 pixels) when a 375-pixel phone shrinks them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..chapters.module_0 import SoftmaxDemo
from ..chapters.module_1 import Simple
from ..gpt2 import GPT2Config
from . import fmt
from .plotting import Palette, pyplot, svg

__all__ = [
    "word_arrows",
    "softmax_cases",
    "softmax_bars",
    "bank_moves",
    "bank_arrows",
    "projections",
    "mask_bars",
    "matrix_blocks",
    "blocks",
    "flop_bars",
    "log_map",
]

Point = tuple[float, float]


def _f(x: float, nd: int = 3) -> str:
    return fmt.minus(fmt.fixed(x, nd))


def _arrow(ax: Any, xy: Point, colour: str, width: float = 2.0, z: int = 3) -> None:
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


def _plain_axes(ax: Any, p: Palette) -> None:
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
            ax.annotate(
                f"{word} (0, 0)", (0, 0), xytext=(8, 8), textcoords="offset points"
            )
            continue
        _arrow(ax, xy, colour)
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
    _plain_axes(ax, p)
    desc = "Each word as an arrow from 0 to its coordinates (" + ", ".join(axes) + "): "
    desc += "; ".join(f"{w} ({_f(x, 1)}, {_f(y, 1)})" for w, (x, y) in points.items())
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
                _f(w),
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
        _plain_axes(ax, p)
        ax.grid(False, axis="x")
    for ax in axs[:, 0]:
        ax.set_ylabel("weight")
    fig.suptitle("Softmax turns scores into weights", x=0.02, ha="left")
    fig.tight_layout()
    desc = "Softmax weights for four rows of scores: " + "; ".join(
        f"scores {label} give {', '.join(_f(w) for w in ws)}" + (f" ({n})" if n else "")
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
    top = max(max(xy) for _, xy in moves) + 0.15
    ax.plot([0, top], [0, top], ls="--", color=p.muted, lw=1)
    ax.text(top * 0.97, top * 0.8, "water = money", color=p.muted, ha="right")
    colours = [p.fg, p.series[0], p.series[1]]
    offsets = [(8, -10), (6, -14), (6, 2)]
    aligns = ["left", "left", "left"]
    for (name, xy), colour, off, ha in zip(moves, colours, offsets, aligns):
        _arrow(ax, xy, colour, width=2.2)
        ax.annotate(
            f"{name}\n({_f(xy[0])}, {_f(xy[1])})",
            xy,
            xytext=off,
            textcoords="offset points",
            color=colour,
            ha=ha,
            fontsize=10,
        )
    ax.set_xlim(0, top)
    ax.set_ylim(0, top)
    ax.set_aspect("equal")
    ax.set_xlabel("water →")
    ax.set_ylabel("money →")
    ax.set_title("bank moves toward its neighbour's topic", loc="left")
    _plain_axes(ax, p)
    desc = "bank's water and money coordinates: " + "; ".join(
        f"{name}: ({_f(x)}, {_f(y)})" for name, (x, y) in moves
    )
    return svg(fig, "bank before and after attention", desc + ".")


# --------------------------------------------------------------------------- step by step


def projections(
    keys: Sequence[tuple[str, Point]],
    q: Point,
    who: str,
    dots: Sequence[float],
    p: Palette,
) -> str:
    """The keys and one query as arrows; each key's shadow on the query's line; each dot product."""
    plt = pyplot(p)
    fig, ax = plt.subplots(figsize=(4.6, 4.4))
    qv = np.array(q)
    unit = qv / np.linalg.norm(qv)
    reach = 1.7
    ax.plot(
        [-0.3 * unit[0], reach * unit[0]],
        [-0.3 * unit[1], reach * unit[1]],
        ls=":",
        color=p.muted,
        lw=1.2,
    )
    _arrow(ax, q, p.series[1], width=6, z=2)
    ax.annotate(
        f'q = [{fmt.short(q[0])}, {fmt.short(q[1])}]\n(the query of "{who}")',
        (reach * unit[0], reach * unit[1]),
        xytext=(-4, 6),
        textcoords="offset points",
        color=p.series[1],
        ha="left",
        fontsize=10,
    )
    feet: dict[Point, list[str]] = {}
    for n, ((word, k), d) in enumerate(zip(keys, dots), 1):
        kv = np.array(k)
        foot = (kv @ unit) * unit
        _arrow(ax, k, p.series[0], width=2)
        ax.annotate(
            f'k{n} "{word}"',
            k,
            xytext=(6, 6),
            textcoords="offset points",
            color=p.series[0],
            fontweight="bold",
        )
        if not np.allclose(foot, kv):
            ax.plot([kv[0], foot[0]], [kv[1], foot[1]], ls="--", color=p.muted, lw=1)
        feet.setdefault((round(foot[0], 9), round(foot[1], 9)), []).append(
            f"q · k{n} = {fmt.short(d)}"
        )
    for at, texts in feet.items():
        ax.plot([at[0]], [at[1]], "o", color=p.fg, ms=4, zorder=4)
        ax.annotate(
            "\n".join(texts),
            at,
            xytext=(8, -26),
            textcoords="offset points",
            fontsize=10,
        )
    ax.set_xlim(-0.3, 1.8)
    ax.set_ylim(-0.3, 1.5)
    ax.set_aspect("equal")
    ax.set_xlabel("dimension 1")
    ax.set_ylabel("dimension 2")
    ax.set_title("Dot products as shadows on the query's line", loc="left", fontsize=11)
    _plain_axes(ax, p)
    desc = (
        f'The keys of the three words and the query of "{who}", q = [{fmt.short(q[0])}, '
        f"{fmt.short(q[1])}]; each key's shadow on q's line, times q's length, is its dot product: "
        + "; ".join(
            f"k{n} ({word}) = [{fmt.short(k[0])}, {fmt.short(k[1])}], q · k{n} = {fmt.short(d)}"
            for n, ((word, k), d) in enumerate(zip(keys, dots), 1)
        )
    )
    return svg(fig, "Dot products as projections", desc + ".")


def mask_bars(
    words: Sequence[str], unmasked: np.ndarray, masked: np.ndarray, p: Palette
) -> str:
    """Each word's weights as bars, without the mask and with it: one panel per looking word."""
    plt = pyplot(p)
    T = len(words)
    fig, axs = plt.subplots(T, 1, figsize=(4.8, 1.5 * T + 0.6), sharex=True)
    y = np.arange(T)
    for i, ax in enumerate(np.atleast_1d(axs)):
        for off, row, name, colour, hatch in (
            (-0.2, unmasked[i], "no mask", p.series[0], "//"),
            (0.2, masked[i], "causal mask", p.series[1], None),
        ):
            ax.barh(
                y + off,
                row,
                height=0.38,
                color=colour if hatch is None else "none",
                edgecolor=colour,
                hatch=hatch,
                label=name,
            )
            for yi, w, hidden in zip(y + off, row, np.arange(T) > i):
                text = "0 (masked)" if hidden and name == "causal mask" else _f(w)
                ax.annotate(
                    text,
                    (w, yi),
                    xytext=(4, 0),
                    textcoords="offset points",
                    va="center",
                    fontsize=10,
                )
        ax.set_yticks(y, labels=list(words))
        ax.invert_yaxis()
        ax.set_xlim(0, 1.2)
        ax.set_title(f'"{words[i]}" looks at', loc="left", fontsize=11)
        _plain_axes(ax, p)
        ax.grid(False, axis="y")
    np.atleast_1d(axs)[0].legend(loc="lower right", frameon=False, fontsize=10)
    np.atleast_1d(axs)[-1].set_xlabel("weight")
    fig.tight_layout()
    desc = "Each word's weights, without the mask and with it: " + "; ".join(
        f'"{words[i]}" without {", ".join(_f(w) for w in unmasked[i])}, '
        f"with {', '.join(_f(w) for w in masked[i])}"
        for i in range(T)
    )
    return svg(fig, "The weights with and without the causal mask", desc + ".")


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


def blocks(items: Sequence[Block], p: Palette) -> str:
    """Weight matrices as rectangles drawn to one scale (a column per unit of width, a row per unit of height)."""
    import matplotlib.patches as mpatches

    plt = pyplot(p)
    big = [b for b in items if b[0].startswith("GPT-2")]
    small = [b for b in items if not b[0].startswith("GPT-2")]
    gap = 160
    fig, ax = plt.subplots(figsize=(5.0, 2.9))
    x, tallest = 0, max(b[1] for b in items)
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
        ax.text(x + cols / 2, rows + 40, name, ha="center", va="bottom", fontsize=10)
        ax.text(
            x + cols / 2,
            rows / 2,
            f"{rows} × {cols}",
            ha="center",
            va="center",
            fontsize=12,
            fontweight="bold",
        )
        x += cols + gap
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
    ax.set_xlim(-40, x)
    ax.set_ylim(-gap - 420, tallest + 200)
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
    _plain_axes(ax, p)
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
    """results.log's sections as bars along its lines, one row per page that quotes them."""
    plt = pyplot(p)
    fig, ax = plt.subplots(figsize=(5.0, 0.5 * len(pages) + 1.4))
    row = {page: i for i, page in enumerate(pages)}
    for n, (page, label, a, b) in enumerate(spans):
        y = row.get(page, len(pages))
        colour = p.series[y % 4]
        ax.barh(
            y,
            b - a + 1,
            left=a,
            height=0.55,
            color=colour,
            alpha=0.85,
            edgecolor=p.bg,
            lw=1,
        )
        ax.text(
            (a + b) / 2,
            y + (0.42 if n % 2 else -0.42),
            label.lstrip("S"),
            ha="center",
            va="center",
            fontsize=9.5,
        )
    ax.set_yticks(range(len(pages)), labels=list(pages))
    ax.invert_yaxis()
    ax.set_xlim(0, n_lines + 1)
    ax.set_xlabel("line of results.log (each bar a section, S1, S2, ...)")
    ax.set_title(
        "Where each page's numbers are in results.log", loc="left", fontsize=11
    )
    _plain_axes(ax, p)
    ax.grid(False, axis="y")
    desc = "Sections of results.log by page: " + "; ".join(
        f"{label} ({page}) lines {a}–{b}" for page, label, a, b in spans
    )
    return svg(fig, "A map of results.log", desc + ".")
