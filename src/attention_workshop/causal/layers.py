"""The pieces of a Llama layer that GPT-2 does not have, one small function each.

RMSNorm instead of LayerNorm, rotary position embeddings (RoPE) instead of learned
positions, key/value heads shared between query heads (grouped-query attention), and
the SwiGLU feed-forward network. Each works for float32 and float64 alike and returns
the dtype it was given.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..core import matmul

__all__ = ["rms_norm", "rope_angles", "rope", "share_kv_heads", "silu", "swiglu"]

Array = NDArray[np.floating[Any]]


def rms_norm(x: Array, weight: Array, eps: float) -> Array:
    """RMSNorm over the last axis: ``x / sqrt(mean(x**2) + eps) * weight``.

    Unlike LayerNorm it subtracts no mean and adds no shift: it only rescales each
    vector to a root-mean-square of 1, then applies the learned gain.

    Args:
        x: ``(..., C)``.
        weight: ``(C,)``, the learned gain.
        eps: keeps the division finite (SmolLM2's is ``1e-5``).

    Returns:
        An array with the shape and dtype of ``x``.
    """
    ms = (x * x).mean(axis=-1, keepdims=True)  # (..., 1): mean square of each vector
    out: Array = weight * (x / np.sqrt(ms + x.dtype.type(eps)))
    return out


def rope_angles(T: int, hs: int, theta: float, dtype: Any) -> tuple[Array, Array]:
    """The rotary angles' cosines and sines: position ``t`` turns pair ``i`` by ``t * theta**(-2i/hs)``.

    Args:
        T: number of positions, ``0 .. T - 1``.
        hs: head size (even); a head's vector holds ``hs / 2`` pairs.
        theta: the base of the frequencies (SmolLM2's is 100000).
        dtype: the dtype the angles are computed in (float32 or float64).

    Returns:
        ``(cos, sin)``, each ``(T, hs / 2)``.
    """
    dt = np.dtype(dtype)
    inv_freq = dt.type(1.0) / dt.type(theta) ** (np.arange(0, hs, 2, dtype=dt) / hs)
    # (T, 1) x (1, hs/2) -> (T, hs/2): one angle per position and pair
    angles = np.arange(T, dtype=dt)[:, None] * inv_freq[None, :]
    return np.cos(angles), np.sin(angles)


def rope(x: Array, cos: Array, sin: Array) -> Array:
    """Rotate each query or key by its position (RoPE, in Hugging Face's "rotate half" order).

    Pair ``i`` is ``(x[i], x[i + hs/2])``; it is turned by the angle of its position:
    ``(a, b) -> (a cos - b sin, b cos + a sin)``. A dot product of two rotated vectors
    then depends on how far apart their positions are, not on where they are.

    Args:
        x: queries or keys, ``(..., T, hs)``.
        cos: ``(T, hs / 2)``, from :func:`rope_angles`.
        sin: ``(T, hs / 2)``.

    Returns:
        An array with the shape and dtype of ``x``.
    """
    half = x.shape[-1] // 2
    a, b = x[..., :half], x[..., half:]  # each (..., T, hs/2)
    # (..., T, hs/2) twice -> (..., T, hs)
    return np.concatenate([a * cos - b * sin, b * cos + a * sin], axis=-1)


def share_kv_heads(kv: Array, n_head: int) -> Array:
    """Grouped-query attention: each key/value head serves ``n_head / n_kv_head`` query heads.

    SmolLM2 has 9 query heads and 3 key/value heads: query heads 0, 1, 2 read
    key/value head 0, heads 3, 4, 5 read head 1, and heads 6, 7, 8 read head 2.

    Args:
        kv: keys or values, ``(n_kv_head, T, hs)``.
        n_head: number of query heads, a multiple of ``n_kv_head``.

    Returns:
        ``(n_head, T, hs)``: each key/value head repeated for its group.

    Raises:
        ValueError: ``n_head`` is not a multiple of ``n_kv_head``.
    """
    n_kv = kv.shape[0]
    if n_head % n_kv:
        raise ValueError(
            f"{n_head} query heads cannot share {n_kv} key/value heads evenly"
        )
    return np.repeat(kv, n_head // n_kv, axis=0)  # (n_kv, T, hs) -> (nh, T, hs)


def silu(x: Array) -> Array:
    """SiLU (swish): ``x * sigmoid(x) = x / (1 + exp(-x))``; same shape and dtype as ``x``."""
    # exp(-x) overflows to inf for very negative x, and x / inf = -0, the right limit
    with np.errstate(over="ignore"):
        out: Array = x / (1 + np.exp(-x))
    return out


def swiglu(x: Array, w_gate: Array, w_up: Array, w_down: Array) -> Array:
    """The SwiGLU feed-forward network: ``down(silu(gate(x)) * up(x))``.

    Weights in PyTorch's ``(out, in)`` layout, as the GGUF file and ``nn.Linear`` keep them.

    Args:
        x: ``(T, C)``.
        w_gate: ``(F, C)``.
        w_up: ``(F, C)``.
        w_down: ``(C, F)``.

    Returns:
        ``(T, C)``.
    """
    gate = silu(matmul(x, w_gate.T))  # (T, C) x (C, F) -> (T, F)
    up = matmul(x, w_up.T)  # (T, C) x (C, F) -> (T, F)
    return matmul(gate * up, w_down.T)  # (T, F) x (F, C) -> (T, C)
