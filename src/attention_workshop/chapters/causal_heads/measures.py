"""How the page measures a causal head: three scores, each an average over rows of its weights.

A head's weights for ``T`` tokens are a ``(T, T)`` grid; row ``i`` is how token ``i`` shares
its attention among tokens ``0 .. i`` (the mask hides the rest) and sums to 1.

- **previous**: the weight a token gives the token just before it (rows ``1 .. T-1``);
- **first**: the weight a token gives the very first token (rows ``1 .. T-1``; row 0 has
  nothing else to look at). A head that parks most of its weight there is an *attention sink*;
- **induction**: in a text that repeats itself, the weight a repeated token gives the token
  that came *after* its first copy (the ``cat`` of "the cat sat ... the cat" looks at ``sat``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = [
    "SHARE",
    "previous_score",
    "first_score",
    "induction_pairs",
    "induction_score",
    "last_row",
]

#: A head "does" something when it gives it at least this much of its weight, on average.
SHARE = 0.5


def previous_score(att: np.ndarray) -> np.ndarray:
    """``(L, H, T, T)`` weights -> ``(L, H)``: the mean weight on the token just before."""
    i = np.arange(1, att.shape[-1])
    return att[..., i, i - 1].mean(axis=-1)  # (L, H, T-1) -> (L, H)


def first_score(att: np.ndarray) -> np.ndarray:
    """``(L, H, T, T)`` weights -> ``(L, H)``: the mean weight on the first token, rows 1 on."""
    return att[..., 1:, 0].mean(axis=-1)  # (L, H, T-1) -> (L, H)


def induction_pairs(tokens: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """``(query, target)`` pairs: each token seen before, and the token after its first copy.

    A pair is kept only when the target is not the query's own previous token (that
    would be a previous-token head's choice, not an induction head's).

    Raises:
        ValueError: no token repeats.
    """
    pairs = []
    for q, t in enumerate(tokens):
        j = tokens.index(t)
        if j < q and j + 1 < q - 1:
            pairs.append((q, j + 1))
    if not pairs:
        raise ValueError(f"no token repeats in {' '.join(tokens)!r}")
    return tuple(pairs)


def induction_score(att: np.ndarray, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
    """``(L, H, T, T)`` weights -> ``(L, H)``: the mean weight from each query to its target."""
    q, t = (np.array(x) for x in zip(*pairs))
    return att[..., q, t].mean(axis=-1)  # (L, H, pairs) -> (L, H)


def last_row(att: np.ndarray, layers: int) -> np.ndarray:
    """``(L, H, T, T)`` weights -> ``(T,)``: the last token's row, averaged over every head of
    the last ``layers`` layers (where the prediction is made)."""
    if not 1 <= layers <= att.shape[0]:
        raise ValueError(f"layers must be 1 .. {att.shape[0]}, got {layers!r}")
    return att[-layers:, :, -1, :].mean(axis=(0, 1))  # (layers, H, T) -> (T,)
