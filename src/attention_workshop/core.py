"""The maths of self-attention, in NumPy, one function per formula.

Every function here works for float32 and float64 alike and returns the dtype
it was given. Shapes that do not fit raise ``ValueError`` naming the shapes.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "softmax",
    "causal_mask",
    "scaled_dot_product_attention",
    "attention",
    "simple_attention",
    "multi_head_attention",
]


def _as_float(name: str, a: object) -> np.ndarray:
    """Return ``a`` as a floating array (ints become float64), or explain why not."""
    arr = np.asarray(a)
    if arr.dtype == object or not (
        np.issubdtype(arr.dtype, np.floating)
        or np.issubdtype(arr.dtype, np.integer)
        or arr.dtype == bool
    ):
        raise ValueError(f"{name} must be an array of numbers, got dtype {arr.dtype}")
    if not np.issubdtype(arr.dtype, np.floating):
        arr = arr.astype(np.float64)
    return arr


def _need_bool(name: str, flag: object) -> bool:
    if not isinstance(flag, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {flag!r}")
    return bool(flag)


def _need_ndim(
    name: str, a: np.ndarray, ndim: int | tuple[int, ...], form: str
) -> None:
    allowed = (ndim,) if isinstance(ndim, int) else ndim
    if a.ndim not in allowed:
        raise ValueError(f"{name} must have shape {form}, got shape {a.shape}")


def _check_scores(x: object, axis: object) -> np.ndarray:
    """Scores for softmax, with errors a reader can act on."""
    x = _as_float("x", x)
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise ValueError(f"axis must be a whole number (an axis of x), got {axis!r}")
    if x.ndim == 0:
        raise ValueError("softmax needs at least one axis, got a scalar (shape ())")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"axis {axis} does not exist for scores of shape {x.shape}")
    if x.shape[axis] == 0:
        raise ValueError(
            f"softmax needs at least one score along axis {axis}, got shape {x.shape}"
        )
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError(
            "softmax got NaN or +inf among its scores; only finite scores and -inf are allowed"
        )
    if np.isneginf(np.max(x, axis=axis)).any():
        raise ValueError(
            "softmax got a slice whose scores are all -inf: every position is masked, "
            "so there is nothing to share the weight between"
        )
    return x


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
    x = _check_scores(x, axis)
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
    causal = _need_bool("causal", causal)
    Q, K, V = _as_float("Q", Q), _as_float("K", K), _as_float("V", V)
    for name, a, form in (
        ("Q", Q, "(..., T, d_k)"),
        ("K", K, "(..., S, d_k)"),
        ("V", V, "(..., S, d_v)"),
    ):
        if a.ndim < 2:
            raise ValueError(f"{name} must have shape {form}, got shape {a.shape}")
    for name, a in (("Q", Q), ("K", K), ("V", V)):
        if 0 in a.shape[-2:]:
            raise ValueError(
                f"{name} needs at least one row and one column, got shape {a.shape}"
            )
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(
            f"Q and K must share their last size d_k: Q has shape {Q.shape}, K has shape {K.shape}"
        )
    if K.shape[-2] != V.shape[-2]:
        raise ValueError(
            f"K and V must have one row per key (S): K has shape {K.shape}, V has shape {V.shape}"
        )
    try:
        np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    except ValueError:
        raise ValueError(
            f"the leading (batch) sizes of Q, K, V do not fit together: "
            f"Q {Q.shape}, K {K.shape}, V {V.shape}"
        ) from None
    dtype = np.result_type(Q, K, V)
    Q, K, V = (
        Q.astype(dtype, copy=False),
        K.astype(dtype, copy=False),
        V.astype(dtype, copy=False),
    )
    T, S = Q.shape[-2], K.shape[-2]
    # keep float32 as float32 under NumPy 2
    scale = dtype.type(1.0 / np.sqrt(Q.shape[-1]))
    # (..., T, d_k) x (..., d_k, S) -> (..., T, S)
    scores = (Q @ np.swapaxes(K, -1, -2)) * scale
    if causal:
        future = np.triu(np.ones((T, S), dtype=bool), k=1)  # as PyTorch's is_causal
        scores = np.where(future, dtype.type(-np.inf), scores)
    weights = softmax(scores, axis=-1)  # (..., T, S)
    return weights @ V, weights  # (..., T, S) x (..., S, d_v) -> (..., T, d_v)


def _check_head(
    X: object, W_Q: object, W_K: object, W_V: object, causal: object = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Shapes and dtypes of one head's inputs, with errors a reader can act on."""
    _need_bool("causal", causal)
    X, W_Q, W_K, W_V = (
        _as_float(n, a) for n, a in (("X", X), ("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V))
    )
    _need_ndim("X", X, 2, "(T, d_model)")
    if 0 in X.shape:
        raise ValueError(f"X needs at least one word and one axis, got shape {X.shape}")
    for name, W, form in (
        ("W_Q", W_Q, "(d_model, d_k)"),
        ("W_K", W_K, "(d_model, d_k)"),
        ("W_V", W_V, "(d_model, d_v)"),
    ):
        _need_ndim(name, W, 2, form)
        if W.shape[0] != X.shape[1]:
            raise ValueError(
                f"{name} must have one row per embedding axis: X has shape {X.shape} "
                f"(d_model {X.shape[1]}), {name} has shape {W.shape}"
            )
    if W_Q.shape[1] != W_K.shape[1]:
        raise ValueError(
            f"W_Q and W_K must have the same width d_k: W_Q {W_Q.shape}, W_K {W_K.shape}"
        )
    for name, W in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V)):
        if W.shape[1] == 0:
            raise ValueError(f"{name} needs at least one column, got shape {W.shape}")
    dtype = np.result_type(X, W_Q, W_K, W_V)
    return (
        X.astype(dtype, copy=False),
        W_Q.astype(dtype, copy=False),
        W_K.astype(dtype, copy=False),
        W_V.astype(dtype, copy=False),
    )


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
    X, W_Q, W_K, W_V = _check_head(X, W_Q, W_K, W_V, causal)

    # Project each word into its three roles.
    Q = X @ W_Q  # (T, d_model) x (d_model, d_k) -> (T, d_k): what it looks for
    K = X @ W_K  # (T, d_model) x (d_model, d_k) -> (T, d_k): what it advertises
    V = X @ W_V  # (T, d_model) x (d_model, d_v) -> (T, d_v): what it hands over

    # Every query meets every key: scores[i, j] = Q[i] . K[j], scaled by sqrt(d_k).
    scores = Q @ K.T / math.sqrt(W_K.shape[1])  # (T, d_k) x (d_k, T) -> (T, T)

    # The causal mask hides the future: -inf makes a weight exactly 0.
    if causal:
        scores = np.where(causal_mask(len(X)), -np.inf, scores)

    # Each row of scores becomes weights; each output row blends the value rows.
    weights = softmax(scores)  # (T, T), every row sums to 1
    return weights @ V, weights  # (T, T) x (T, d_v) -> (T, d_v)


def simple_attention(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Module 1's attention: nothing learned, each word's embedding plays every role.

    weights = softmax(X X^T / sqrt(d_model)); out = weights X.

    Args:
        X: one row per word, ``(T, d_model)``.

    Returns:
        ``(out, weights)``: ``out`` is ``(T, d_model)``, ``weights`` is ``(T, T)``.
    """
    X = _as_float("X", X)
    _need_ndim("X", X, 2, "(T, d_model)")
    return scaled_dot_product_attention(X, X, X)


def _check_gpt2_layer(
    x: object,
    c_attn_weight: object,
    c_attn_bias: object,
    c_proj_weight: object,
    c_proj_bias: object,
    n_head: object,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Shapes and dtypes of a GPT-2 attention layer's input and weights, with errors a reader can act on."""
    x = _as_float("x", x)
    _need_ndim("x", x, (2, 3), "(T, C) or (B, T, C)")
    C = x.shape[-1]
    if 0 in x.shape:
        raise ValueError(
            f"x needs at least one token and one channel, got shape {x.shape}"
        )
    if (
        isinstance(n_head, bool)
        or not isinstance(n_head, (int, np.integer))
        or n_head < 1
    ):
        raise ValueError(f"n_head must be a positive whole number, got {n_head!r}")
    if C % n_head:
        raise ValueError(
            f"n_head must divide the width C: x has shape {x.shape} (C = {C}), n_head = {n_head}"
        )
    expected = (
        ("c_attn_weight", c_attn_weight, (C, 3 * C)),
        ("c_attn_bias", c_attn_bias, (3 * C,)),
        ("c_proj_weight", c_proj_weight, (C, C)),
        ("c_proj_bias", c_proj_bias, (C,)),
    )
    params = []
    for name, a, shape in expected:
        a = _as_float(name, a)
        if a.shape != shape:
            raise ValueError(
                f"{name} must have shape {shape} for x of shape {x.shape}, got shape {a.shape}"
            )
        params.append(a)
    dtype = np.result_type(x, *params)
    w_attn, b_attn, w_proj, b_proj = (p.astype(dtype, copy=False) for p in params)
    return x.astype(dtype, copy=False), w_attn, b_attn, w_proj, b_proj


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
    causal = _need_bool("causal", causal)
    x, w_attn, b_attn, w_proj, b_proj = _check_gpt2_layer(
        x, c_attn_weight, c_attn_bias, c_proj_weight, c_proj_bias, n_head
    )

    single = x.ndim == 2
    if single:
        x = x[None]  # (T, C) -> (1, T, C)
    B, T, C = x.shape
    hs = C // n_head
    qkv = x @ w_attn + b_attn  # (B, T, C) x (C, 3C) -> (B, T, 3C)
    q, k, v = np.split(qkv, 3, axis=-1)  # each (B, T, C)
    q = q.reshape(B, T, n_head, hs).transpose(0, 2, 1, 3)  # (B, nh, T, hs)
    k = k.reshape(B, T, n_head, hs).transpose(0, 2, 1, 3)  # (B, nh, T, hs)
    v = v.reshape(B, T, n_head, hs).transpose(0, 2, 1, 3)  # (B, nh, T, hs)
    # (B, nh, T, hs), (B, nh, T, T)
    y, att = scaled_dot_product_attention(q, k, v, causal=causal)
    y = y.transpose(0, 2, 1, 3).reshape(B, T, C)  # heads side by side: (B, T, C)
    y = y @ w_proj + b_proj  # (B, T, C) x (C, C) -> (B, T, C)
    if single:
        return y[0], att[0]
    return y, att
