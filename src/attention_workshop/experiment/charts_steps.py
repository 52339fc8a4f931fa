"""The pictures of Step by step: the dot products as projections, the weights with and without the mask."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import fmt
from .charts import Point, arrow, f3, plain_axes
from .plotting import Palette, pyplot, svg

__all__ = ["projections", "mask_bars"]


# --------------------------------------------------------------------------- step by step


def _keys_and_shadows(
    ax: Any,
    keys: Sequence[tuple[str, Point]],
    unit: np.ndarray,
    dots: Sequence[float],
    p: Palette,
) -> None:
    """Each key as an arrow, its shadow on the query's line (``unit``), and the dot products there."""
    feet: dict[Point, list[str]] = {}
    for n, ((word, k), d) in enumerate(zip(keys, dots), 1):
        kv = np.array(k)
        foot = (kv @ unit) * unit
        arrow(ax, k, p.series[0], width=2)
        on_line = bool(
            np.allclose(foot, kv)
        )  # the query's line runs on past it: label it on the left
        ax.annotate(
            f'k{n} "{word}"',
            k,
            xytext=(-6, 6) if on_line else (6, 6),
            textcoords="offset points",
            ha="right" if on_line else "left",
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
        # a shadow shared by several keys sits where their dashed lines meet: its text goes
        # right of the query's line, with a pointer
        shared = len(texts) > 1
        ax.annotate(
            "\n".join(texts),
            at,
            xytext=(70, -12) if shared else (8, -26),
            textcoords="offset points",
            fontsize=10,
            va="top" if shared else "baseline",
            arrowprops={"arrowstyle": "-", "color": p.muted, "lw": 0.8}
            if shared
            else None,
        )


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
    arrow(ax, q, p.series[1], width=6, z=2)
    ax.annotate(
        f'q = [{fmt.short(q[0])}, {fmt.short(q[1])}]\n(the query of "{who}")',
        (reach * unit[0], reach * unit[1]),
        xytext=(-4, 6),
        textcoords="offset points",
        color=p.series[1],
        ha="left",
        fontsize=10,
    )
    _keys_and_shadows(ax, keys, unit, dots, p)
    ax.set_xlim(-0.3, 1.8)
    ax.set_ylim(-0.3, 1.5)
    ax.set_aspect("equal")
    ax.set_xlabel("dimension 1")
    ax.set_ylabel("dimension 2")
    ax.set_title("Dot products as shadows on the query's line", loc="left", fontsize=11)
    plain_axes(ax, p)
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
                text = "0 (masked)" if hidden and name == "causal mask" else f3(w)
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
        plain_axes(ax, p)
        ax.grid(False, axis="y")
    np.atleast_1d(axs)[0].legend(loc="lower right", frameon=False, fontsize=10)
    np.atleast_1d(axs)[-1].set_xlabel("weight")
    fig.tight_layout()
    desc = "Each word's weights, without the mask and with it: " + "; ".join(
        f'"{words[i]}" without {", ".join(f3(w) for w in unmasked[i])}, '
        f"with {', '.join(f3(w) for w in masked[i])}"
        for i in range(T)
    )
    return svg(fig, "The weights with and without the causal mask", desc + ".")
