"""Pictures of the mechanism, drawn with the pages' own numbers: a row blended from its
neighbours (Module 1), one query's path from keys to output (Module 2), the causal mask and a head
split in two (Module 3).

Each is a small table of numbered cells, at most 300 points wide with 11-point text, so a 375-pixel
phone shows it without shrinking its text below 11 CSS px. A cell's fill grows with the weight it
stands for (its number is always printed on it: the fill is never the only carrier). The numbers
come in as plain arrays: this module imports only the drawing helpers, so a cached drawing depends
on its code and its numbers alone (experiment/cache.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import fmt
from .charts import f3
from .plotting import Palette, pyplot, svg

__all__ = ["blend", "one_query", "causal_mask", "heads_split"]

_SIZE = 11  # every text, in points (the figures are drawn at most 300 points wide)
_ROW = 24  # a cell's height
_CELL = 47  # a number cell's width


def _canvas(p: Palette, width: float, height: float) -> tuple[Any, Any]:
    """A figure ``width`` x ``height`` points whose data units are points, y downwards.

    Its limits are set here, which turns Matplotlib's autoscaling off: a cell is added with
    ``add_artist``, not ``add_patch``, which would also grow the data limits nothing reads (the
    same SVG bytes, in less time: a long sentence's grids hold thousands of cells)."""
    plt = pyplot(p)
    fig = plt.figure(figsize=(width / 72, height / 72))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")
    return fig, ax


def _text(ax: Any, x: float, y: float, s: str, p: Palette, **kw: Any) -> None:
    kw.setdefault("ha", "left")
    kw.setdefault("color", p.fg)
    ax.text(x, y, s, va="center", fontsize=_SIZE, **kw)


def _cell(
    ax: Any,
    x: float,
    y: float,
    s: str,
    p: Palette,
    share: float = 0.0,
    w: float = _CELL,
) -> None:
    """A cell with its top left at (x, y), its text centred on it, filled by ``share`` (0 to 1)."""
    import matplotlib.colors as mcolors
    import matplotlib.patches as mpatches

    fill = mcolors.to_rgba(p.series[0], 0.45 * share) if share > 0 else "none"
    ax.add_artist(
        mpatches.Rectangle((x, y), w, _ROW, facecolor=fill, edgecolor=p.grid, lw=1)
    )
    _text(ax, x + w / 2, y + _ROW / 2, s, p, ha="center")


def _masked_cell(ax: Any, x: float, y: float, s: str, p: Palette) -> None:
    """A hidden cell: filled with the grid's colour, its text in the text colour (the muted colour on
    the grid's fill is 4.2:1 in the light scheme, under WCAG's 4.5:1)."""
    import matplotlib.patches as mpatches

    ax.add_artist(
        mpatches.Rectangle(
            (x, y), _CELL, _ROW, facecolor=p.grid, edgecolor=p.grid, lw=1
        )
    )
    _text(ax, x + _CELL / 2, y + _ROW / 2, s, p, ha="center")


def _n(x: float) -> str:
    """A cell's number: exact numbers as they are (``2``, ``0.4``), others to 3 decimals."""
    s = fmt.short(x)
    return fmt.minus(s) if len(s.lstrip("-")) <= 5 else f3(x)


def blend(
    words: Sequence[str],
    X: np.ndarray,
    weights: np.ndarray,
    out: np.ndarray,
    axes: Sequence[str],
    who: int,
    p: Palette,
) -> str:
    """Word ``who``'s output row as the weighted sum of every word's row.

    Args:
        words: the sentence, ``T`` words; ``X`` their rows ``(T, d)``; ``axes`` the ``d`` axes' names.
        weights: word ``who``'s weights ``(T,)``; ``out``: its output row ``(d,)``.
    """
    T, d = X.shape
    left = 100
    width, height = left + d * _CELL + 2, 34 + (T + 2) * (_ROW + 4) + 6
    fig, ax = _canvas(p, width, height)
    _text(ax, 0, 9, f'"{words[who]}" in "{" ".join(words)}"', p, fontweight="bold")
    for c, name in enumerate(axes):
        _text(ax, left + c * _CELL + _CELL / 2, 30, name, p, ha="center", color=p.muted)
    y = 44
    for j in range(T):
        _text(
            ax, left - 6, y + _ROW / 2, f"{f3(weights[j])} × {words[j]}", p, ha="right"
        )
        for c in range(d):
            _cell(ax, left + c * _CELL, y, _n(X[j, c]), p, share=float(weights[j]))
        y += _ROW + 4
    ax.plot([left, left + d * _CELL], [y, y], color=p.fg, lw=1.2)
    y += 6
    _text(
        ax,
        left - 6,
        y + _ROW / 2,
        f"= new {words[who]}",
        p,
        ha="right",
        fontweight="bold",
    )
    for c in range(d):
        _cell(ax, left + c * _CELL, y, f3(out[c]), p)
    desc = _blend_desc(words, X, weights, out, who)
    return svg(fig, f"{words[who]}'s row, blended from its neighbours", fmt.minus(desc))


def _blend_desc(
    words: Sequence[str], X: np.ndarray, weights: np.ndarray, out: np.ndarray, who: int
) -> str:
    """:func:`blend`'s description: the sum, term by term."""
    terms = (
        f"{f3(w)} × {words[j]} {fmt.short_vec(X[j])}" for j, w in enumerate(weights)
    )
    return (
        f'"{words[who]}"\'s output row is the weighted sum of the rows of the sentence: '
        + " + ".join(terms)
        + f" = {fmt.vec(out)}."
    )


def one_query(
    words: Sequence[str],
    q: np.ndarray,
    K: np.ndarray,
    scores: np.ndarray,
    weights: np.ndarray,
    out: np.ndarray,
    who: int,
    p: Palette,
) -> str:
    """Word ``who``'s query against every key: scores, softmax, then the weighted sum of the values.

    Args:
        q: its query ``(d_k,)``; ``K``: the keys ``(T, d_k)``; ``scores`` and ``weights``: its row
            ``(T,)``, scaled and after softmax; ``out``: its output ``(d_v,)``.
    """
    T = len(words)
    kw, left = 78, 52
    width = left + kw + 2 * _CELL + 12
    height = 46 + T * (_ROW + 4) + 3 * _ROW + 8
    fig, ax = _canvas(p, width, height)
    title = f'"{words[who]}" asks q = {fmt.minus(fmt.short_vec(q))}'
    _text(ax, 0, 9, title, p, fontweight="bold")
    y = 34
    for x, head in (
        (left + kw / 2, "key k"),
        (left + kw + 6 + _CELL / 2, "q·k/√d_k"),
        (left + kw + 12 + 1.5 * _CELL, "softmax"),
    ):
        _text(ax, x, y, head, p, ha="center", color=p.muted)
    y += 12
    for j in range(T):
        _text(ax, left - 6, y + _ROW / 2, words[j], p, ha="right")
        _cell(ax, left, y, fmt.minus(fmt.short_vec(K[j])), p, w=kw)
        _cell(ax, left + kw + 6, y, f3(scores[j]), p)
        _cell(ax, left + kw + 12 + _CELL, y, f3(weights[j]), p, share=float(weights[j]))
        y += _ROW + 4
    y += 8
    _text(ax, 0, y + 4, "weighted sum of the values v:", p, color=p.muted)
    y += _ROW
    terms = " + ".join(f"{f3(weights[j])} v({words[j]})" for j in range(T))
    _text(ax, 0, y + 4, terms, p)
    y += _ROW
    _text(ax, 0, y + 4, f"out = {fmt.minus(fmt.vec(out))}", p, fontweight="bold")
    desc = _query_desc(words, q, K, scores, weights, out, who)
    return svg(fig, f"One query's path: {words[who]}", fmt.minus(desc))


def _query_desc(
    words: Sequence[str],
    q: np.ndarray,
    K: np.ndarray,
    scores: np.ndarray,
    weights: np.ndarray,
    out: np.ndarray,
    who: int,
) -> str:
    """:func:`one_query`'s description: each key, its score and weight, then the output."""
    meets = (
        f"{word} k = {fmt.short_vec(K[j])}, score {f3(scores[j])}, weight {f3(weights[j])}"
        for j, word in enumerate(words)
    )
    return (
        f'The query of "{words[who]}", q = {fmt.short_vec(q)}, meets each key: '
        + "; ".join(meets)
        + f". The weighted sum of the values is {fmt.vec(out)}."
    )


def _grid(
    ax: Any,
    x: float,
    y: float,
    words: Sequence[str],
    cells: np.ndarray,
    p: Palette,
    hidden: np.ndarray,
    hidden_text: str,
    shade: bool,
) -> float:
    """A ``T x T`` grid with the key words above and the query words on the left; its bottom's y."""
    T = len(words)
    for j, w in enumerate(words):
        _text(ax, x + j * _CELL + _CELL / 2, y + 8, w, p, ha="center", color=p.muted)
    y += 18
    for i in range(T):
        _text(ax, x - 6, y + _ROW / 2, words[i], p, ha="right")
        for j in range(T):
            at = x + j * _CELL
            if hidden[i, j]:
                _masked_cell(ax, at, y, hidden_text, p)
            else:
                v = float(cells[i, j])
                _cell(ax, at, y, f3(v), p, share=v if shade else 0.0)
        y += _ROW
    return y


def causal_mask(
    words: Sequence[str], scores: np.ndarray, future: np.ndarray, p: Palette
) -> str:
    """The scores before the mask, and the same scores with every later word's set to −∞.

    Args:
        scores: ``(T, T)`` before the mask; ``future``: ``(T, T)``, True where key j comes after query i.
    """
    T = len(words)
    left = 52
    width = left + T * _CELL + 4
    height = 2 * (34 + 18 + T * _ROW) + 8
    fig, ax = _canvas(p, width, height)
    none = np.zeros_like(future)
    _text(ax, 0, 9, "scores Q Kᵀ/√d_k", p, fontweight="bold")
    y = _grid(ax, left, 20, words, scores, p, none, "", shade=False)
    y += 22
    _text(ax, 0, y, "after the mask: later words −∞", p, fontweight="bold")
    _grid(ax, left, y + 11, words, scores, p, future, "−∞", shade=False)
    desc = (
        "The scores, row by row (the query, then each key): "
        + "; ".join(
            f"{words[i]}: " + ", ".join(f3(s) for s in scores[i]) for i in range(T)
        )
        + ". The mask sets every score of a later word to minus infinity: "
        + ", ".join(
            f"{words[i]} on {words[j]}"
            for i in range(T)
            for j in range(T)
            if future[i, j]
        )
        + "."
    )
    return svg(fig, "The causal mask on the scores", fmt.minus(desc))


def heads_split(
    words: Sequence[str],
    Q: np.ndarray,
    K: np.ndarray,
    heads: np.ndarray,
    future: np.ndarray,
    channels: Sequence[str],
    p: Palette,
) -> str:
    """A head split in two: each head takes one column of Q and of K, and has its own causal weights.

    Args:
        Q, K: ``(T, n_head)``, one column per head; ``heads``: ``(n_head, T, T)`` each head's weights;
            ``channels``: each column's name.
    """
    T, nh = len(words), len(heads)
    left = 52
    width = left + T * _CELL + 4
    block = 2 * _ROW + 18 + T * _ROW + 16
    fig, ax = _canvas(p, width, nh * block)
    y = 9.0
    for h in range(nh):
        _text(ax, 0, y, f"head {h + 1}: the {channels[h]} column", p, fontweight="bold")
        qs = ", ".join(_n(x) for x in Q[:, h])
        ks = ", ".join(_n(x) for x in K[:, h])
        _text(ax, 0, y + _ROW - 2, f"queries {qs}; keys {ks}", p, color=p.muted)
        y = _grid(
            ax, left, y + 2 * _ROW - 8, words, heads[h], p, future, "0", shade=True
        )
        y += 25
    desc = (
        "The head split in two, each with one column of Q and K and its own causal weights: "
        + "; ".join(
            f"head {h + 1} ({channels[h]}), q {fmt.short_vec(Q[:, h])}, k {fmt.short_vec(K[:, h])}, weights "
            + " / ".join(", ".join(f3(w) for w in heads[h, i]) for i in range(T))
            for h in range(nh)
        )
    )
    return svg(fig, "Two heads, each with its own weights", fmt.minus(desc) + ".")
