"""The chapter "the cat sat": self-attention by hand, one number at a time.

Three words, two dimensions, inputs small enough to check on paper. :func:`by_hand`
walks one query through the five steps (score, scale, softmax, weighted sum, and the
causal mask) with plain Python arithmetic, keeping every intermediate number, so the
chapter can print each one. :func:`attend` is the chapter's practice function: the
package's softmax and causal mask, with a switch that removes the scaling.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .core import causal_mask, softmax

__all__ = [
    "WORDS",
    "Q_CAT",
    "K_CAT",
    "V_CAT",
    "HandCalc",
    "by_hand",
    "allowed_grid",
    "attend",
    "PracticeRun",
    "practice_runs",
]

#: The chapter's sentence and its fixed inputs: one row per word, d_k = d_v = 2.
WORDS: tuple[str, ...] = ("the", "cat", "sat")
Q_CAT: np.ndarray = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # (3, 2)
K_CAT: np.ndarray = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # (3, 2)
V_CAT: np.ndarray = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])  # (3, 2)
for _a in (Q_CAT, K_CAT, V_CAT):
    _a.setflags(write=False)


@dataclass(frozen=True)
class HandCalc:
    """Every intermediate number of one query's attention, in the order a person computes them.

    Attributes:
        query: the row of ``Q`` that is asking (0-based).
        q: that query, ``(d_k,)``.
        products: ``(S, d_k)``, ``q[a] * K[j, a]``: the terms of each dot product.
        raw: ``(S,)``, the dot products ``q . K[j]`` (step 1).
        sqrt_dk: the square root of ``d_k`` (step 2).
        scaled: ``(S,)``, ``raw / sqrt_dk``, ``-inf`` where blocked (steps 2 and 5).
        blocked: ``(S,)`` bool, the keys the causal mask hides from this query.
        exps: ``(S,)``, ``exp(scaled)``; exactly 0 where blocked (step 3).
        total: the sum of ``exps``.
        weights: ``(S,)``, ``exps / total`` (step 3).
        terms: ``(S, d_v)``, ``weights[j] * V[j]`` (step 4).
        out: ``(d_v,)``, the sum of ``terms`` (step 4).
    """

    query: int
    q: np.ndarray
    products: np.ndarray
    raw: np.ndarray
    sqrt_dk: float
    scaled: np.ndarray
    blocked: np.ndarray
    exps: np.ndarray
    total: float
    weights: np.ndarray
    terms: np.ndarray
    out: np.ndarray


def _matrix(name: str, a: object) -> np.ndarray:
    arr = np.asarray(a, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must have one row per word, shape (T, d), got shape {arr.shape}"
        )
    return arr


def _check(
    Q: object, K: object, V: object, query: object
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``Q``, ``K``, ``V`` as float64 matrices that fit together, and ``query`` one of Q's rows."""
    Q, K, V = _matrix("Q", Q), _matrix("K", K), _matrix("V", V)
    if Q.shape[1] != K.shape[1]:
        raise ValueError(
            f"Q and K must share their width d_k: Q has shape {Q.shape}, K has shape {K.shape}"
        )
    if K.shape[0] != V.shape[0]:
        raise ValueError(
            f"K and V need one row per word: K has shape {K.shape}, V has shape {V.shape}"
        )
    if (
        isinstance(query, bool)
        or not isinstance(query, (int, np.integer))
        or not 0 <= query < len(Q)
    ):
        raise ValueError(f"query must be a row of Q, 0 to {len(Q) - 1}, got {query!r}")
    return Q, K, V


def by_hand(
    Q: np.ndarray, K: np.ndarray, V: np.ndarray, query: int, causal: bool = False
) -> HandCalc:
    """One query's attention, step by step, in plain Python arithmetic (no matrix products).

    Args:
        Q: ``(T, d_k)`` queries.
        K: ``(S, d_k)`` keys.
        V: ``(S, d_v)`` values.
        query: which row of ``Q`` asks (0-based).
        causal: hide the keys after the query (``j > query``), as step 5 does.

    Returns:
        A :class:`HandCalc` with every intermediate number.
    """
    Q, K, V = _check(Q, K, V, query)
    S, d_k = K.shape
    q = Q[query]
    # (S, d_k)
    products = np.array([[q[a] * K[j, a] for a in range(d_k)] for j in range(S)])
    raw = np.array([math.fsum(row) for row in products])  # (S,)
    sqrt_dk = math.sqrt(d_k)
    blocked = np.array([causal and j > query for j in range(S)])
    scaled = np.array([-math.inf if blocked[j] else raw[j] / sqrt_dk for j in range(S)])
    exps = np.array([0.0 if blocked[j] else math.exp(scaled[j]) for j in range(S)])
    total = math.fsum(exps)
    weights = exps / total
    terms = np.array([weights[j] * V[j] for j in range(S)])  # (S, d_v)
    out = np.array([math.fsum(terms[:, c]) for c in range(V.shape[1])])  # (d_v,)
    return HandCalc(
        query,
        q.copy(),
        products,
        raw,
        sqrt_dk,
        scaled,
        blocked,
        exps,
        total,
        weights,
        terms,
        out,
    )


def allowed_grid(T: int) -> np.ndarray:
    """Step 5's picture: ``"X"`` where query ``i`` may look at key ``j`` (``j <= i``), ``"."`` where blocked.

    Returns:
        ``(T, T)`` array of one-character strings.
    """
    return np.where(causal_mask(T), ".", "X")


def attend(
    Q: np.ndarray,
    K: np.ndarray,
    V: np.ndarray,
    causal: bool = True,
    scaled: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """The chapter's practice function: attention with switches for the mask and the scaling.

    ``scaled=False`` leaves out the division by ``sqrt(d_k)`` (practice experiment 3).

    Args:
        Q: ``(T, d_k)``; K: ``(T, d_k)``; V: ``(T, d_v)``.

    Returns:
        ``(out, weights)``: ``out`` is ``(T, d_v)``, ``weights`` is ``(T, T)``.
    """
    Q, K, V = _matrix("Q", Q), _matrix("K", K), _matrix("V", V)
    if (
        Q.shape[1] != K.shape[1]
        or len(Q) != len(K)
        or len(K) != len(V)
        or 0 in (*Q.shape, *V.shape)
    ):
        raise ValueError(
            f"attend needs Q (T, d_k), K (T, d_k), V (T, d_v) with T, d_k, d_v at least 1: "
            f"got Q {Q.shape}, K {K.shape}, V {V.shape}"
        )
    scores = Q @ K.T  # (T, d_k) x (d_k, T) -> (T, T): step 1
    if scaled:
        scores = scores / math.sqrt(K.shape[1])  # step 2
    if causal:
        scores = np.where(causal_mask(len(Q)), -np.inf, scores)  # step 5
    weights = softmax(scores)  # step 3
    return weights @ V, weights  # (T, T) x (T, d_v) -> (T, d_v): step 4


@dataclass(frozen=True)
class PracticeRun:
    """One run of :func:`attend`.

    ``Q`` is ``(T, d_k)``, ``V`` and ``out`` are ``(T, d_v)``, ``weights`` is ``(T, T)``.
    """

    Q: np.ndarray
    V: np.ndarray
    out: np.ndarray
    weights: np.ndarray


def practice_runs(rng: np.random.Generator) -> dict[str, PracticeRun]:
    """The chapter's starting run and its four practice experiments, by name.

    - ``base``: the inputs as given, causal.
    - ``no_mask``: experiment 1, ``causal=False``.
    - ``strong_q3``: experiment 2, the third query set to ``[5, 0]``.
    - ``unscaled_x10``: experiment 3, ``Q * 10`` and no division by ``sqrt(d_k)``;
      ``scaled_x10`` is the same ``Q * 10`` with the division kept, for comparison.
    - ``random_v4``: experiment 4, ``V`` drawn from ``rng``, four numbers per word.
    """
    q3 = Q_CAT.copy()
    q3[2] = [5.0, 0.0]
    v4 = rng.standard_normal((len(WORDS), 4))  # (3, 4)
    cases = {
        "base": (Q_CAT, V_CAT, True, True),
        "no_mask": (Q_CAT, V_CAT, False, True),
        "strong_q3": (q3, V_CAT, True, True),
        "unscaled_x10": (Q_CAT * 10, V_CAT, True, False),
        "scaled_x10": (Q_CAT * 10, V_CAT, True, True),
        "random_v4": (Q_CAT, v4, True, True),
    }
    runs = {}
    for name, (Q, V, causal, scaled) in cases.items():
        out, w = attend(Q, K_CAT, V, causal=causal, scaled=scaled)
        runs[name] = PracticeRun(np.array(Q), np.array(V), out, w)
    return runs
