"""The maths of self-attention, in NumPy, one function per formula.

Every function here works for float32 and float64 alike and returns the dtype
it was given. Shapes that do not fit raise ``ValueError`` naming the shapes.
"""

from __future__ import annotations

import itertools
import math
import os
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import numpy as np

from .validation import (
    as_float,
    check_gpt2_layer,
    check_head,
    check_qkv,
    check_scores,
    need_bool,
    need_ndim,
)

__all__ = [
    "matmul",
    "softmax",
    "causal_mask",
    "scaled_dot_product_attention",
    "attention",
    "simple_attention",
    "multi_head_attention",
]


def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b``, with every sum taken in one fixed order: the same bits on every processor.

    NumPy's ``@`` hands a product to BLAS, and BLAS picks its kernel by processor (AVX-512,
    AVX2, plain SSE3...) and splits the work by thread count; each way rounds the last bit
    differently. Here NumPy's own loops multiply and add (``einsum``, no BLAS), in an order
    set by the shapes alone, so a difference of one unit in the last place, such as the
    PyTorch cross-checks print, is the same on every x86-64 machine. A large product (SmolLM2's
    vocabulary, its feed-forward layers) is cut into slices of its rows or columns, one per
    processor, each taken by the same loops: every element is the same sum, in the same order,
    however many processors there are.

    Args:
        a: ``(..., n, k)``.
        b: ``(..., k, m)``; leading dimensions broadcast as they do for ``@``.

    Returns:
        ``(..., n, m)``, in the dtype ``a @ b`` would have.

    Raises:
        ValueError: an operand has fewer than two dimensions, or the inner sizes differ.
    """
    a, b = np.asarray(a), np.asarray(b)
    if a.ndim < 2 or b.ndim < 2 or a.shape[-1] != b.shape[-2]:
        raise ValueError(
            f"matmul needs a (..., n, k) and b (..., k, m): got a {a.shape}, b {b.shape}"
        )
    n, m = a.shape[-2], b.shape[-1]
    lead = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    threads = _threads()
    if threads < 2 or math.prod(lead) * n * m * a.shape[-1] < _SLICED:
        return _einsum(a, b)
    # one slice of the output's longer side per thread; each element's sum is untouched
    cuts = [max(n, m) * i // threads for i in range(threads + 1)]
    parts = [slice(lo, hi) for lo, hi in itertools.pairwise(cuts)]
    if m >= n:
        done = _pool().map(lambda s: _einsum(a, b[..., s]), parts)
        return np.concatenate(list(done), axis=-1)
    done = _pool().map(lambda s: _einsum(a[..., s, :], b), parts)
    return np.concatenate(list(done), axis=-2)


#: Products of at least this many multiply-adds are sliced among threads (about 5 ms on one core).
_SLICED = 1 << 24


def _einsum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.einsum("...ij,...jk->...ik", a, b)  # (..., n, k) x (..., k, m)
    return out


@lru_cache(maxsize=1)
def _threads() -> int:
    """The processors this process may use, at most 4."""
    usable = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return min(len(usable) if usable else os.cpu_count() or 1, 4)


def _pool() -> ThreadPoolExecutor:
    """This process's threads: a process forked from one that had them gets its own."""
    return _pool_of(os.getpid())


@lru_cache(maxsize=1)
def _pool_of(pid: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(_threads(), thread_name_prefix="matmul")


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Turn scores into weights that are positive and sum to 1 along ``axis``.

    softmax(x)_i = exp(x_i - max(x)) / sum_j exp(x_j - max(x))

    Subtracting the maximum changes nothing mathematically (it cancels between
    top and bottom) but keeps ``exp`` from overflowing on large scores. A score
    of ``-inf`` gets a weight of exactly 0.

    Args:
        x: scores, any shape.
        axis: the axis along which the weights sum to 1.

    Returns:
        Weights with the shape and dtype of ``x``.

    Raises:
        ValueError: a slice along ``axis`` is all ``-inf`` (nothing left to
            attend to), or ``x`` holds NaN or ``+inf``.
    """
    x = check_scores(x, axis)
    m = np.max(x, axis=axis, keepdims=True)  # the largest score of each slice
    e = np.exp(x - m)  # exp(-inf) == 0 exactly
    weights: np.ndarray = e / np.sum(e, axis=axis, keepdims=True)
    return weights


def causal_mask(T: int) -> np.ndarray:
    """The future, as a boolean grid: ``True`` strictly above the diagonal.

    Entry ``[i, j]`` is ``True`` when word ``j`` comes after word ``i``, that
    is, when word ``i`` must not look at it.

    Args:
        T: number of positions (a positive whole number).

    Returns:
        ``(T, T)`` bool array.
    """
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 1:
        raise ValueError(
            f"causal_mask needs a positive whole number of positions, got {T!r}"
        )
    return np.triu(np.ones((T, T), dtype=bool), k=1)


def scaled_dot_product_attention(
    Q: np.ndarray, K: np.ndarray, V: np.ndarray, causal: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The attention core: softmax(Q K^T / sqrt(d_k)) V.

    Args:
        Q: queries, ``(..., T, d_k)``.
        K: keys, ``(..., S, d_k)``.
        V: values, ``(..., S, d_v)``.
        causal: hide the future: query ``i`` sees keys ``j <= i`` only (PyTorch's
            ``is_causal`` alignment when ``T != S``).

    Returns:
        ``(out, weights)``: ``out`` is ``(..., T, d_v)``, ``weights`` is ``(..., T, S)``.
    """
    causal = need_bool("causal", causal)
    Q, K, V = check_qkv(Q, K, V)
    dtype = Q.dtype
    T, S = Q.shape[-2], K.shape[-2]
    # keep float32 as float32 under NumPy 2
    scale = dtype.type(1.0 / np.sqrt(Q.shape[-1]))
    # (..., T, d_k) x (..., d_k, S) -> (..., T, S)
    scores = matmul(Q, np.swapaxes(K, -1, -2)) * scale
    if causal:
        future = np.triu(np.ones((T, S), dtype=bool), k=1)  # as PyTorch's is_causal
        scores = np.where(future, dtype.type(-np.inf), scores)
    weights = softmax(scores, axis=-1)  # (..., T, S)
    # (..., T, S) x (..., S, d_v) -> (..., T, d_v)
    return matmul(weights, V), weights


def attention(
    X: np.ndarray,
    W_Q: np.ndarray,
    W_K: np.ndarray,
    W_V: np.ndarray,
    causal: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """One full head of self-attention: the real thing, in seven lines.

    Args:
        X: one row per word, ``(T, d_model)``.
        W_Q: ``(d_model, d_k)``, what each word is looking for.
        W_K: ``(d_model, d_k)``, what each word advertises.
        W_V: ``(d_model, d_v)``, what each word hands over.
        causal: hide the future (word ``i`` sees words ``j <= i``).

    Returns:
        ``(out, weights)``: ``out`` is ``(T, d_v)``, ``weights`` is ``(T, T)``.
    """
    X, W_Q, W_K, W_V = check_head(X, W_Q, W_K, W_V, causal)

    # Project each word into its three roles.
    Q = matmul(X, W_Q)  # (T, d_model) x (d_model, d_k) -> (T, d_k): what it looks for
    K = matmul(X, W_K)  # (T, d_model) x (d_model, d_k) -> (T, d_k): what it advertises
    V = matmul(X, W_V)  # (T, d_model) x (d_model, d_v) -> (T, d_v): what it hands over

    # Every query meets every key: scores[i, j] = Q[i] . K[j], scaled by sqrt(d_k).
    scores = matmul(Q, K.T) / math.sqrt(W_K.shape[1])  # (T, d_k) x (d_k, T) -> (T, T)

    # The causal mask hides the future: -inf makes a weight exactly 0.
    if causal:
        scores = np.where(causal_mask(len(X)), -np.inf, scores)

    # Each row of scores becomes weights; each output row blends the value rows.
    weights = softmax(scores)  # (T, T), every row sums to 1
    return matmul(weights, V), weights  # (T, T) x (T, d_v) -> (T, d_v)


def simple_attention(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Module 1's attention: nothing learned, each word's embedding plays every role.

    weights = softmax(X X^T / sqrt(d_model)); out = weights X.

    Args:
        X: one row per word, ``(T, d_model)``.

    Returns:
        ``(out, weights)``: ``out`` is ``(T, d_model)``, ``weights`` is ``(T, T)``.
    """
    X = as_float("X", X)
    need_ndim("X", X, 2, "(T, d_model)")
    return scaled_dot_product_attention(X, X, X)


def multi_head_attention(
    x: np.ndarray,
    c_attn_weight: np.ndarray,
    c_attn_bias: np.ndarray,
    c_proj_weight: np.ndarray,
    c_proj_bias: np.ndarray,
    n_head: int,
    causal: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """GPT-2's causal self-attention, with GPT-2's weight layout.

    Args:
        x: ``(T, C)`` or ``(B, T, C)``.
        c_attn_weight: ``(C, 3C)``, queries, keys and values in one matrix.
        c_attn_bias: ``(3C,)``.
        c_proj_weight: ``(C, C)``, the output projection.
        c_proj_bias: ``(C,)``.
        n_head: number of heads; must divide ``C``.
        causal: hide the future (GPT-2 always does).

    Returns:
        ``(y, weights)``: ``y`` has the shape of ``x``; ``weights`` is
        ``(n_head, T, T)`` or ``(B, n_head, T, T)``.
    """
    causal = need_bool("causal", causal)
    x, w_attn, b_attn, w_proj, b_proj = check_gpt2_layer(
        x, c_attn_weight, c_attn_bias, c_proj_weight, c_proj_bias, n_head
    )

    single = x.ndim == 2
    if single:
        x = x[None]  # (T, C) -> (1, T, C)
    B, T, C = x.shape
    hs = C // n_head
    qkv = matmul(x, w_attn) + b_attn  # (B, T, C) x (C, 3C) -> (B, T, 3C)
    q, k, v = np.split(qkv, 3, axis=-1)  # each (B, T, C)
    q = q.reshape(B, T, n_head, hs).transpose(0, 2, 1, 3)  # (B, nh, T, hs)
    k = k.reshape(B, T, n_head, hs).transpose(0, 2, 1, 3)  # (B, nh, T, hs)
    v = v.reshape(B, T, n_head, hs).transpose(0, 2, 1, 3)  # (B, nh, T, hs)
    # (B, nh, T, hs), (B, nh, T, T)
    y, att = scaled_dot_product_attention(q, k, v, causal=causal)
    y = y.transpose(0, 2, 1, 3).reshape(B, T, C)  # heads side by side: (B, T, C)
    y = matmul(y, w_proj) + b_proj  # (B, T, C) x (C, C) -> (B, T, C)
    if single:
        return y[0], att[0]
    return y, att
