"""The toy world: a tiny embedding table with named axes, and a hand-wired head.

Real models learn embeddings with hundreds of unnamed axes. Ours has four axes
with names, so every number can be read: how watery, how money-ish, how much
of a place, and how much of a grammar word a word is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .core import causal_mask, softmax

__all__ = [
    "AXES",
    "VOCAB",
    "D_MODEL",
    "SENT_RIVER",
    "SENT_MONEY",
    "W_Q_WIRED",
    "W_K_WIRED",
    "WIRED_CHANNELS",
    "embed",
    "known_words",
    "parse_sentence",
    "lean",
    "WiredHead",
    "wired_head",
]

#: The names of the toy embedding's axes, in column order.
AXES: tuple[str, ...] = ("water", "money", "place", "grammar")
D_MODEL: int = len(AXES)

#: The toy vocabulary: word -> its coordinates on ``AXES``.
VOCAB: dict[str, tuple[float, float, float, float]] = {
    # grammar words: all "grammar", a little "place" for the prepositions
    "the": (0.0, 0.0, 0.0, 1.0),
    "a": (0.0, 0.0, 0.0, 0.8),
    "by": (0.0, 0.0, 0.3, 0.7),
    "at": (0.0, 0.0, 0.4, 0.6),
    # the water side
    "river": (1.0, 0.0, 0.3, 0.0),
    "water": (1.0, 0.0, 0.0, 0.0),
    "boat": (0.8, 0.1, 0.2, 0.0),
    "fish": (0.9, 0.0, 0.0, 0.0),
    "shore": (0.6, 0.0, 0.8, 0.0),
    "swam": (0.5, 0.0, 0.0, 0.2),
    # the money side
    "money": (0.0, 1.0, 0.0, 0.0),
    "savings": (0.0, 1.0, 0.1, 0.0),
    "cash": (0.0, 0.9, 0.0, 0.0),
    "loan": (0.0, 0.8, 0.0, 0.1),
    "vault": (0.0, 0.6, 0.7, 0.0),
    "paid": (0.0, 0.5, 0.0, 0.2),
    # the word this workshop is about: half water, half money, very much a place
    "bank": (0.4, 0.4, 1.0, 0.0),
}

#: The workshop's running example, and a sentence where "bank" means money.
SENT_RIVER: tuple[str, ...] = ("the", "river", "bank")
SENT_MONEY: tuple[str, ...] = ("the", "savings", "bank")

#: What each of the wired head's two channels does (column order of the matrices).
WIRED_CHANNELS: tuple[str, ...] = ("topic", "place")

#: The hand-wired head's query matrix, ``(d_model, 2)``.
#: Channel "topic": a place asks "what am I about?" (2 x its place axis).
#: Channel "place": a grammar word asks "which place do I belong to?".
W_Q_WIRED: np.ndarray = np.array(
    [
        [0.0, 0.0],  # water
        [0.0, 0.0],  # money
        [2.0, 0.0],  # place
        [0.0, 1.0],  # grammar
    ]
)
#: The hand-wired head's key matrix, ``(d_model, 2)``.
#: Channel "topic": a word advertises its topic (2 x (water + money)).
#: Channel "place": a word advertises how much of a place it is.
W_K_WIRED: np.ndarray = np.array(
    [
        [2.0, 0.0],  # water
        [2.0, 0.0],  # money
        [0.0, 1.0],  # place
        [0.0, 0.0],  # grammar
    ]
)
W_Q_WIRED.setflags(write=False)
W_K_WIRED.setflags(write=False)


def known_words() -> str:
    """The toy vocabulary as one readable, sorted, comma-separated string."""
    return ", ".join(sorted(VOCAB))


def embed(words: Iterable[str] | str) -> np.ndarray:
    """Look words up in the toy embedding table.

    Args:
        words: a list of words, or one string of words separated by spaces.

    Returns:
        ``(T, d_model)`` float64 array, one row per word, columns in ``AXES`` order.

    Raises:
        ValueError: a word is not in the toy vocabulary (the message lists the
            words it knows), or there are no words at all.
    """
    if isinstance(words, str):
        words = words.split()
    try:
        words = list(words)
    except TypeError:
        raise ValueError(
            f"embed needs a list of words (or one string), got {words!r}"
        ) from None
    if not words:
        raise ValueError(
            f"embed needs at least one word; the toy vocabulary knows: {known_words()}"
        )
    unknown = [w for w in words if not isinstance(w, str) or w not in VOCAB]
    if unknown:
        shown = ", ".join(repr(w) for w in dict.fromkeys(unknown))
        raise ValueError(
            f"unknown word(s) {shown}; the toy vocabulary knows: {known_words()}"
        )
    return np.array([VOCAB[w] for w in words], dtype=np.float64)  # (T, d_model)


def parse_sentence(text: str) -> tuple[str, ...]:
    """Split a sentence into toy-vocabulary words (lower-cased), checking each one.

    Raises:
        ValueError: the sentence has no words, or a word is not in the toy vocabulary
            (the message lists the words it knows).
    """
    words = tuple(text.lower().split())
    if not words:
        raise ValueError(
            f"the sentence is empty: write at least one word; the toy vocabulary knows: {known_words()}"
        )
    embed(words)  # raises with the list of known words
    return words


_WATER, _MONEY = AXES.index("water"), AXES.index("money")


def lean(X: np.ndarray) -> np.ndarray | float:
    """Which sense a row leans to: its water coordinate minus its money coordinate.

    Positive leans to water, negative to money. ``X``: ``(d_model,)`` or ``(T, d_model)``.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.shape[-1:] != (len(AXES),):
        raise ValueError(
            f"lean needs rows on the axes {', '.join(AXES)} (last size {len(AXES)}), got shape {X.shape}"
        )
    d = X[..., _WATER] - X[..., _MONEY]
    return float(d) if d.ndim == 0 else d


@dataclass(frozen=True)
class WiredHead:
    """Every intermediate of the hand-wired head on one sentence.

    Attributes:
        Q: ``(T, 2)``, what each word asks (``X W_Q``).
        K: ``(T, 2)``, what each word advertises (``X W_K``).
        scores: ``(T, T)``, ``Q K^T / sqrt(2)``; ``-inf`` above the diagonal under the causal mask.
        weights: ``(T, T)``, softmax of each row.
        out: ``(T, d_model)``, the weights times the rows of ``X`` (no ``W_V`` yet).
    """

    Q: np.ndarray
    K: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    out: np.ndarray


def wired_head(X: np.ndarray, causal: bool = False) -> WiredHead:
    """Module 2's hand-wired head; each word hands over its own embedding (no ``W_V`` yet).

    Args:
        X: ``(T, d_model)`` rows of the toy embedding.
        causal: hide the future, as Module 3 does.

    Returns:
        A :class:`WiredHead` with ``Q``, ``K``, ``scores``, ``weights`` and ``out``.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != W_Q_WIRED.shape[0]:
        raise ValueError(
            f"X must have shape (T, {W_Q_WIRED.shape[0]}) for the wired head, got shape {X.shape}"
        )
    Q = X @ W_Q_WIRED  # (T, 4) x (4, 2) -> (T, 2): what each word asks
    K = X @ W_K_WIRED  # (T, 4) x (4, 2) -> (T, 2): what each word advertises
    scores = Q @ K.T / math.sqrt(K.shape[1])  # (T, 2) x (2, T) -> (T, T)
    if causal:
        scores = np.where(causal_mask(len(X)), -np.inf, scores)
    weights = softmax(scores)  # (T, T)
    return WiredHead(Q, K, scores, weights, weights @ X)  # (T, T) x (T, 4) -> (T, 4)
