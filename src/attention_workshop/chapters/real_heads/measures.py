"""How the page measures a head: where its attention goes, and the class that follows.

A head's attention for a sentence of ``T`` tokens is a ``(T, T)`` grid: row ``i`` is how
token ``i`` shares its attention among the tokens, and sums to 1. Six numbers describe it,
each an average over the rows:

- **previous**, **next**, **self**: the share a token gives to the token just before it,
  just after it, or to itself (rows that have such a token);
- **[CLS]**, **[SEP]**: the share every token gives to the first and the last token, the
  two markers the tokenizer adds;
- **broad**: how evenly a row spreads, its entropy divided by ``ln T`` (1 is perfectly even,
  0 is all on one token).

A head joins the class of the place that gets the largest share, when that share is at
least :data:`SHARE`. A head no place wins is **broad** when its spread is at least
:data:`BROAD`, and **other** when it is neither: it picks particular words.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = [
    "PLACES",
    "MEASURES",
    "CLASSES",
    "LABELS",
    "NUMBERS",
    "SHARE",
    "BROAD",
    "head_scores",
    "classify",
    "cosine",
    "copy_share",
]

#: The places a head may send its attention to, in the order of :func:`head_scores`' columns.
PLACES: tuple[str, ...] = ("previous", "next", "self", "cls", "sep")
#: Every measure of a head: the five places, then the spread.
MEASURES: tuple[str, ...] = (*PLACES, "broad")
#: Every class a head may get.
CLASSES: tuple[str, ...] = (*MEASURES, "other")
#: How the page names each class.
LABELS: dict[str, str] = {
    "previous": "previous token",
    "next": "next token",
    "self": "self",
    "cls": "[CLS]",
    "sep": "[SEP]",
    "broad": "broad",
    "other": "other",
}
#: What the number that put a head in its class measures (:func:`classify`'s ``score``), by
#: class: the share its place gets, a broad head's normalised entropy (its spread), or, for an
#: "other" head, the largest share any place gets.
NUMBERS: dict[str, str] = {
    **dict.fromkeys(PLACES, "share"),
    "broad": "normalised entropy",
    "other": "largest share",
}
#: A place's class needs at least this share of the head's attention, averaged over the tokens.
SHARE = 0.5
#: A head no place wins is broad when its spread (entropy / ln T, averaged) is at least this.
BROAD = 0.7


def head_scores(att: np.ndarray) -> np.ndarray:
    """The six measures of every head.

    Args:
        att: ``(L, H, T, T)`` attention weights, each row summing to 1 (``T`` at least 2).

    Returns:
        ``(L, H, 6)``: previous, next, self, [CLS], [SEP] shares and the spread, each
        averaged over the rows, in the order of :data:`MEASURES`.
    """
    T = att.shape[-1]
    i = np.arange(T)
    previous = att[..., i[1:], i[1:] - 1].mean(axis=-1)  # (L, H): rows 1 .. T-1
    following = att[..., i[:-1], i[:-1] + 1].mean(axis=-1)  # (L, H): rows 0 .. T-2
    self_ = att[..., i, i].mean(axis=-1)  # (L, H): the diagonal
    cls = att[..., :, 0].mean(axis=-1)  # (L, H): column 0
    sep = att[..., :, T - 1].mean(axis=-1)  # (L, H): the last column
    plogp = np.where(att > 0, att * np.log(np.where(att > 0, att, 1.0)), 0.0)
    spread = (-plogp.sum(axis=-1) / np.log(T)).mean(axis=-1)  # (L, H, T) -> (L, H)
    return np.stack([previous, following, self_, cls, sep, spread], axis=-1)


def classify(scores: np.ndarray) -> tuple[tuple[tuple[str, ...], ...], np.ndarray]:
    """Each head's class, and the score that put it there.

    Args:
        scores: ``(L, H, 6)`` from :func:`head_scores`.

    Returns:
        ``(classes, score)``: ``classes[l][h]`` is a key of :data:`CLASSES`; ``score`` is
        ``(L, H)``: the winning place's share, the spread of a broad head, and for an
        "other" head its largest share (the place that came closest).
    """
    shares = scores[..., : len(PLACES)]  # (L, H, 5)
    spread = scores[..., len(PLACES)]  # (L, H)
    best = shares.argmax(axis=-1)  # (L, H)
    top = shares.max(axis=-1)  # (L, H)
    classes = tuple(
        tuple(
            PLACES[int(b)] if t >= SHARE else "broad" if s >= BROAD else "other"
            for b, t, s in zip(brow, trow, srow)
        )
        for brow, trow, srow in zip(best, top, spread)
    )
    score = np.where((top < SHARE) & (spread >= BROAD), spread, top)  # (L, H)
    return classes, score


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """The cosine of the angle between two vectors ``(C,)``: 1 for the same direction."""
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def copy_share(
    att: np.ndarray, tokens: Sequence[str]
) -> tuple[np.ndarray, tuple[int, ...]]:
    """How much of a repeated word's attention goes to its other copies, in every head.

    A token counts as repeated when it is a word (letters only) that occurs more than once.

    Args:
        att: ``(L, H, T, T)`` attention weights.
        tokens: the ``T`` tokens.

    Returns:
        ``(share, rows)``: ``share`` is ``(L, H)``, the share averaged over the repeated
        tokens; ``rows`` are their positions.

    Raises:
        ValueError: no word occurs twice.
    """
    rows = tuple(i for i, t in enumerate(tokens) if t.isalpha() and tokens.count(t) > 1)
    if not rows:
        raise ValueError(f"no word occurs twice in {' '.join(tokens)!r}")
    per_row = [
        att[..., i, [j for j in rows if tokens[j] == tokens[i] and j != i]].sum(axis=-1)
        for i in rows
    ]  # len(rows) x (L, H)
    return np.mean(per_row, axis=0), rows
