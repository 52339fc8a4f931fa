"""What the maths accepts: shapes and dtypes checked before any arithmetic, with errors a reader can act on.

Every check raises ``ValueError`` naming the argument and its shape (both shapes when two must
fit together), so a wrong input never fails deep inside NumPy. Used by :mod:`.core`.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "as_float",
    "need_bool",
    "need_ndim",
    "check_scores",
    "check_qkv",
    "check_head",
    "check_gpt2_layer",
]


def as_float(name: str, a: object) -> np.ndarray:
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


def need_bool(name: str, flag: object) -> bool:
    if not isinstance(flag, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {flag!r}")
    return bool(flag)


def need_ndim(name: str, a: np.ndarray, ndim: int | tuple[int, ...], form: str) -> None:
    allowed = (ndim,) if isinstance(ndim, int) else ndim
    if a.ndim not in allowed:
        raise ValueError(f"{name} must have shape {form}, got shape {a.shape}")


def check_scores(x: object, axis: object) -> np.ndarray:
    """Scores for softmax, with errors a reader can act on."""
    x = as_float("x", x)
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


def check_qkv(
    Q: object, K: object, V: object
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Queries, keys and values for the attention core, in one dtype, with errors a reader can act on.

    Shapes: ``Q`` ``(..., T, d_k)``, ``K`` ``(..., S, d_k)``, ``V`` ``(..., S, d_v)``.
    """
    Q, K, V = as_float("Q", Q), as_float("K", K), as_float("V", V)
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
    return (
        Q.astype(dtype, copy=False),
        K.astype(dtype, copy=False),
        V.astype(dtype, copy=False),
    )


def check_head(
    X: object, W_Q: object, W_K: object, W_V: object, causal: object = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Shapes and dtypes of one head's inputs, with errors a reader can act on."""
    need_bool("causal", causal)
    X, W_Q, W_K, W_V = (
        as_float(n, a) for n, a in (("X", X), ("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V))
    )
    need_ndim("X", X, 2, "(T, d_model)")
    if 0 in X.shape:
        raise ValueError(f"X needs at least one word and one axis, got shape {X.shape}")
    for name, W, form in (
        ("W_Q", W_Q, "(d_model, d_k)"),
        ("W_K", W_K, "(d_model, d_k)"),
        ("W_V", W_V, "(d_model, d_v)"),
    ):
        need_ndim(name, W, 2, form)
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


def check_gpt2_layer(
    x: object,
    c_attn_weight: object,
    c_attn_bias: object,
    c_proj_weight: object,
    c_proj_bias: object,
    n_head: object,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Shapes and dtypes of a GPT-2 attention layer's input and weights, with errors a reader can act on."""
    x = as_float("x", x)
    need_ndim("x", x, (2, 3), "(T, C) or (B, T, C)")
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
        a = as_float(name, a)
        if a.shape != shape:
            raise ValueError(
                f"{name} must have shape {shape} for x of shape {x.shape}, got shape {a.shape}"
            )
        params.append(a)
    dtype = np.result_type(x, *params)
    w_attn, b_attn, w_proj, b_proj = (p.astype(dtype, copy=False) for p in params)
    return x.astype(dtype, copy=False), w_attn, b_attn, w_proj, b_proj
