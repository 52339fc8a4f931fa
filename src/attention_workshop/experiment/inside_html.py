"""The "Inside the model" page's HTML: each step as static tables (no JavaScript needed), and the
explorer's mount point.

Every cell prints its value (colour is never the only carrier); the numbers come from
:func:`attention_workshop.chapters.inside_the_model.compute`, the costs from
:func:`.inside_page.step_texts`.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import numpy as np

from ..chapters import inside_the_model as inside
from ..chapters.inside_the_model import FEATURES, TOY, WORDS
from ..gpt2 import GPT2, STEPS
from . import fmt
from .inside_page import JSON_PATH, step_texts

__all__ = ["static_step", "explorer_html"]


def _cell(v: float, nd: int = 2) -> str:
    """One coloured cell that also prints its value."""
    if np.isneginf(v):
        return '<td class="ins-cell ins-masked">−∞</td>'
    a = min(abs(float(v)), 1.0)
    sign = "pos" if v >= 0 else "neg"
    return f'<td class="ins-cell ins-{sign}" style="--a:{fmt.fixed(a, 2)}">{fmt.minus(fmt.fixed(v, nd))}</td>'


def _matrix(
    M: np.ndarray, rows: Sequence[str], cols: Sequence[str], caption: str
) -> str:
    """``M`` ``(len(rows), len(cols))`` as a captioned table with row and column headers."""
    head = "".join(f'<th scope="col">{html.escape(c)}</th>' for c in cols)
    body = "".join(
        f'<tr><th scope="row">{html.escape(r)}</th>{"".join(_cell(v) for v in row)}</tr>'
        for r, row in zip(rows, M)
    )
    return (
        f'<div class="ins-matrix"><table class="ins-grid"><caption>{caption}</caption>'
        f"<thead><tr><th></th>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def _costs_table(n: int, T: int) -> str:
    """Step ``n``'s operation and cost at toy scale (``T`` tokens) and at GPT-2's full context."""
    toy, big = step_texts(T)[n], step_texts(GPT2.n_ctx, GPT2)[n]
    rows = [
        ("toy", toy, fmt.plural(T, "token")),
        ("GPT-2", big, fmt.plural(GPT2.n_ctx, "token")),
    ]
    table = "".join(
        f'<tr><th scope="row">{name}</th><td>{html.escape(str(c["op"]))}</td><td>{html.escape(str(c["cost"]))}'
        f"{'<br>' + html.escape(str(c['per_token'])) if c['per_token'] else ''}"
        f"{'<br><small>' + html.escape(str(c['note'])) + '</small>' if c['note'] else ''}</td><td>{at}</td></tr>"
        for name, c, at in rows
    )
    return (
        '<div class="ins-matrix"><table class="ins-costs"><thead><tr><th>scale</th><th>operation (shapes)</th>'
        f"<th>cost</th><th>at</th></tr></thead><tbody>{table}</tbody></table></div>"
    )


def _matrices(
    step_id: str, r: inside.Walk, labels: list[str], head: int
) -> list[tuple[np.ndarray, list[str], str]]:
    """The toy matrices a step shows: ``(matrix, column names, caption)``; rows are the tokens."""
    h, hs = f"head {head + 1}", TOY.head_size
    qk = [f"{i + 1}" for i in range(hs)]
    both = [f"h{1 + j // hs}·{1 + j % hs}" for j in range(TOY.n_embd)]
    return {
        "projections": [
            (r.x, list(FEATURES), "x: the input, one row per token"),
            (r.q[head], qk, f"Q ({h})"),
            (r.k[head], qk, f"K ({h})"),
            (r.v[head], qk, f"V ({h})"),
        ],
        "scores": [(r.scores[head], labels, f"Q·Kᵀ ({h})")],
        "scale": [(r.scaled[head], labels, f"Q·Kᵀ / √{hs} ({h})")],
        "causal-mask": [(r.masked[head], labels, f"masked scores ({h})")],
        "softmax": [
            (r.weights[head], labels, f"attention weights A ({h}); every row sums to 1")
        ],
        "weighted-sum": [(r.heads[head], qk, f"A·V ({h}): this head's output")],
        "output-projection": [
            (r.concat, both, "both heads side by side"),
            (r.y, [str(j + 1) for j in range(TOY.n_embd)], "y = concat · W_O + b"),
        ],
    }[step_id]


def static_step(step_id: str, words: Sequence[str] = WORDS, head: int = 0) -> str:
    """One step as static HTML: its operation and cost at both scales, then its toy matrices (head ``head``).

    Raises:
        ValueError: an unknown step id (the message lists the known ones).
    """
    ids = [s.id for s in STEPS]
    if step_id not in ids:
        raise ValueError(f"unknown step {step_id!r}; the steps are: {', '.join(ids)}")
    n = ids.index(step_id)
    labels = [f"{i + 1} {w}" for i, w in enumerate(words)]
    mats = _matrices(step_id, inside.compute(words), labels, head)
    grids = "".join(_matrix(M, labels, cols, cap) for M, cols, cap in mats)
    return (
        f'<div class="ins-static" data-step="{n + 1}">\n{_costs_table(n, len(words))}\n'
        f'<div class="ins-matrices">{grids}</div>\n</div>\n'
    )


def explorer_html() -> str:
    """The mount point of the interactive explorer; says plainly what happens without JavaScript."""
    return (
        f'<div class="ins-app" id="inside-explorer" data-src="{JSON_PATH}">'
        '<p class="ins-nojs">The interactive explorer needs JavaScript. Every step is also shown below as '
        "static tables, computed when this site was built.</p></div>\n"
    )
