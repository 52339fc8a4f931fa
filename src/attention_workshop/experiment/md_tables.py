"""The Markdown tables of Modules 0 to 2 and the step-by-step chapter, built from the package's data.

Plain text, no site: the site's pages print them (``snippets/``), and a notebook shows them as
tables (:mod:`.notebook`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..chapters.module_0 import dot_terms
from ..chapters.module_1 import Simple
from ..handcalc import K_CAT, Q_CAT, V_CAT, WORDS
from ..toy import AXES, VOCAB, W_K_WIRED, W_Q_WIRED, WIRED_CHANNELS, embed, lean
from . import fmt

__all__ = [
    "md_table",
    "matrix_table",
    "vocab_table",
    "sentence_table",
    "dot_table",
    "wired_matrices_table",
    "bank_moves_table",
    "inputs_table",
]


def md_table(
    header: Sequence[str], rows: Sequence[Sequence[object]], align: str | None = None
) -> str:
    """A Markdown table; ``align`` is one letter per column (l, r, c), right-aligned numbers by default."""
    align = align or "l" + "r" * (len(header) - 1)
    marks = {"l": ":--", "r": "--:", "c": ":-:"}
    lines = [
        "| " + " | ".join(str(h) for h in header) + " |",
        "|" + "|".join(marks[a] for a in align) + "|",
    ]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def matrix_table(
    M: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    corner: str = "",
    nd: int = 3,
) -> str:
    """A matrix as a Markdown table with labelled rows and columns (negative numbers with a true minus sign)."""
    M = np.asarray(M)
    return md_table(
        [corner, *cols],
        [
            [f"**{r}**", *(fmt.minus(fmt.fixed(v, nd)) for v in row)]
            for r, row in zip(rows, M)
        ],
    )


def vocab_table() -> str:
    """The whole toy vocabulary, one word a row, one named axis a column."""
    return md_table(
        ["word", *AXES],
        [[f"**{w}**", *(fmt.fixed(v, 1) for v in vec)] for w, vec in VOCAB.items()],
    )


def sentence_table(words: Sequence[str]) -> str:
    """A sentence as its matrix ``X``: one row per word, in order."""
    X = embed(words)
    return md_table(
        ["position", "word", *AXES],
        [
            [str(i + 1), f"**{w}**", *(fmt.fixed(v, 1) for v in row)]
            for i, (w, row) in enumerate(zip(words, X))
        ],
    )


def dot_table(pairs: Sequence[tuple[str, str]]) -> str:
    """Dot products of word pairs: their sum, then the product on every axis.

    The sum is the table's result, so it comes right after the pair, with a bold heading: on a
    screen too narrow for the whole table it stays in view while the axes scroll (hooks/tables.py).
    """
    rows = []
    for a, b in pairs:
        terms, total = dot_terms(a, b)
        rows.append(
            [
                f"{a} · {b}",
                f"**{fmt.fixed(total, 2)}**",
                *(fmt.fixed(t, 2) for t in terms),
            ]
        )
    return md_table(["pair", "**dot product**", *(f"{ax} × {ax}" for ax in AXES)], rows)


def wired_matrices_table() -> str:
    """``W_Q_WIRED`` and ``W_K_WIRED`` side by side: one embedding axis a row, one channel a column."""
    header = [
        "axis",
        *(f"W_Q {c}" for c in WIRED_CHANNELS),
        *(f"W_K {c}" for c in WIRED_CHANNELS),
    ]
    rows = [
        [f"**{ax}**", *(fmt.fixed(v, 1) for v in q), *(fmt.fixed(v, 1) for v in k)]
        for ax, q, k in zip(AXES, W_Q_WIRED, W_K_WIRED)
    ]
    return md_table(header, rows)


def bank_moves_table(simple: Simple) -> str:
    """The last word before attention and its output row in both sentences: its lean (the result,
    a key column kept in view, see :func:`dot_table`), then its four axes."""
    first, contrast = simple.first, simple.contrast
    rows: list[tuple[str, np.ndarray]] = [
        (f"{first.sentence[-1]}, before attention", first.X[-1])
    ]
    rows += [
        (f'{d.sentence[-1]} in "{" ".join(d.sentence)}"', d.out[-1])
        for d in (first, contrast)
    ]
    return md_table(
        ["row", "**lean (water − money)**", *AXES],
        [
            [
                f"**{name}**",
                fmt.minus(fmt.signed(float(lean(x)))),
                *(fmt.minus(fmt.fixed(v)) for v in x),
            ]
            for name, x in rows
        ],
    )


def inputs_table() -> str:
    """The step-by-step chapter's inputs, one word a row: its query, key and value."""
    rows = [
        [f"**{w}**", fmt.short_vec(q), fmt.short_vec(k), fmt.short_vec(v)]
        for w, q, k, v in zip(WORDS, Q_CAT, K_CAT, V_CAT)
    ]
    return md_table(["word", "query $q$", "key $k$", "value $v$"], rows, align="lccc")
