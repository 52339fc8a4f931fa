"""Inside the model's toy block: GPT-2's layout at a size whose every number can be read.

5 tokens, ``n_embd`` 8, 2 heads of width 4; weights drawn once from ``numpy.random.default_rng(0)``.
A token's 8 input numbers are its word's 4 named toy axes followed by 4 position numbers
(:func:`positions`). :func:`compute` runs the block one step at a time and keeps every
intermediate; :func:`reference` is what the package's own functions give for the same input.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...core import (
    causal_mask,
    matmul,
    multi_head_attention,
    scaled_dot_product_attention,
    softmax,
)
from ...gpt2 import GPT2Config
from ...toy import AXES, VOCAB, embed

__all__ = [
    "TOY",
    "SEED",
    "WORDS",
    "MAX_TOKENS",
    "FEATURES",
    "TOLERANCE",
    "positions",
    "ToyWeights",
    "toy_weights",
    "token_inputs",
    "Walk",
    "compute",
    "Reference",
    "reference",
]

#: The toy block's sizes, in GPT-2's own names (one layer; ``n_ctx`` is the most tokens the page offers).
TOY = GPT2Config(n_layer=1, n_head=2, n_embd=8, n_ctx=8, vocab_size=len(VOCAB))
#: The seed of the toy weights.
SEED = 0
#: The input the page starts with (5 tokens).
WORDS: tuple[str, ...] = ("the", "boat", "by", "the", "bank")
#: The tokens control goes from 1 to this many tokens.
MAX_TOKENS = TOY.n_ctx
#: Names of the 8 input features: the 4 toy axes, then 4 position numbers.
FEATURES: tuple[str, ...] = (*AXES, "pos sin", "pos cos", "pos sin/4", "pos cos/4")
#: How close the step-by-step walk must be to ``multi_head_attention`` (float64).
TOLERANCE = 1e-12


def _need_T(T: int, most: int = MAX_TOKENS) -> None:
    if (
        isinstance(T, bool)
        or not isinstance(T, (int, np.integer))
        or not 1 <= T <= most
    ):
        raise ValueError(f"the toy block takes 1 to {most} tokens, got {T!r}")


def positions(T: int) -> np.ndarray:
    """Position numbers of tokens ``0 .. T-1``: half-size sine and cosine waves, two speeds.

    Returns:
        ``(T, 4)`` float64: ``0.5 * [sin t, cos t, sin t/4, cos t/4]`` for position ``t``.
    """
    _need_T(T)
    t = np.arange(T, dtype=np.float64)[:, None]  # (T, 1)
    waves = [np.sin(t), np.cos(t), np.sin(t / 4), np.cos(t / 4)]  # 4 x (T, 1)
    return 0.5 * np.hstack(waves)  # (T, 4)


# --------------------------------------------------------------------------- the toy block


@dataclass(frozen=True)
class ToyWeights:
    """The toy block's weights in GPT-2's layout (read-only float64 arrays).

    Attributes:
        c_attn_weight: ``(C, 3C)``, queries, keys and values in one matrix.
        c_attn_bias: ``(3C,)``.
        c_proj_weight: ``(C, C)``, the output projection.
        c_proj_bias: ``(C,)``.
    """

    c_attn_weight: np.ndarray
    c_attn_bias: np.ndarray
    c_proj_weight: np.ndarray
    c_proj_bias: np.ndarray


@lru_cache(maxsize=4)
def toy_weights(seed: int = SEED) -> ToyWeights:
    """The toy block's weights, drawn from ``default_rng(seed)``: ``(8, 24)``, ``(24,)``, ``(8, 8)``, ``(8,)``."""
    rng = np.random.default_rng(seed)
    C = TOY.n_embd
    w = ToyWeights(
        rng.normal(0.0, 0.5, size=(C, 3 * C)),  # c_attn.weight: (C, 3C)
        rng.normal(0.0, 0.1, size=(3 * C,)),  # c_attn.bias: (3C,)
        rng.normal(0.0, 0.3, size=(C, C)),  # c_proj.weight: (C, C)
        rng.normal(0.0, 0.1, size=(C,)),  # c_proj.bias: (C,)
    )
    for a in (w.c_attn_weight, w.c_attn_bias, w.c_proj_weight, w.c_proj_bias):
        a.setflags(write=False)
    return w


def token_inputs(
    words: Sequence[str], nudge: np.ndarray | Sequence[Sequence[float]] | None = None
) -> np.ndarray:
    """The block's input ``x``: each word's 4 toy axes, its 4 position numbers, plus a nudge.

    Args:
        words: 1 to ``MAX_TOKENS`` words of the toy vocabulary.
        nudge: optional ``(T, 8)`` amounts added to ``x`` (the page's "nudge" buttons).

    Returns:
        ``(T, 8)`` float64.

    Raises:
        ValueError: too many words, an unknown word, or a nudge of the wrong shape or not finite.
    """
    words = list(words)
    if len(words) > MAX_TOKENS:
        raise ValueError(
            f"the toy block takes 1 to {MAX_TOKENS} tokens, got {len(words)} words"
        )
    x = np.hstack([embed(words), positions(len(words))])  # (T, 4) | (T, 4) -> (T, 8)
    if nudge is not None:
        d = np.asarray(nudge, dtype=np.float64)
        if d.shape != x.shape:
            raise ValueError(
                f"nudge must have shape {x.shape} (one row per word, {TOY.n_embd} features), got shape {d.shape}"
            )
        if not np.isfinite(d).all():
            raise ValueError("nudge must hold finite numbers")
        x = x + d  # (T, 8)
    return x


@dataclass(frozen=True)
class Walk:
    """Every intermediate of the toy block, step by step (``nh`` heads of width ``hs``).

    Attributes:
        x: ``(T, C)`` the input. qkv: ``(T, 3C)``. q, k, v: ``(nh, T, hs)``.
        scores, scaled, masked, weights: ``(nh, T, T)`` (``masked`` is ``-inf`` above the diagonal).
        heads: ``(nh, T, hs)``. concat, y: ``(T, C)``.
    """

    x: np.ndarray
    qkv: np.ndarray
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    scores: np.ndarray
    scaled: np.ndarray
    masked: np.ndarray
    weights: np.ndarray
    heads: np.ndarray
    concat: np.ndarray
    y: np.ndarray


def compute(
    words: Sequence[str] = WORDS,
    nudge: np.ndarray | Sequence[Sequence[float]] | None = None,
    seed: int = SEED,
) -> Walk:
    """Run the toy block one step at a time and keep every intermediate.

    Args:
        words: 1 to ``MAX_TOKENS`` words of the toy vocabulary.
        nudge: optional ``(T, 8)`` amounts added to the input.
        seed: the seed of the weights.

    Returns:
        The :class:`Walk`: ``x`` ``(T, C)`` through ``y`` ``(T, C)``.
    """
    w = toy_weights(seed)
    x = token_inputs(words, nudge)  # (T, C)
    T, C = x.shape
    nh, hs = TOY.n_head, TOY.head_size
    qkv = matmul(x, w.c_attn_weight) + w.c_attn_bias  # (T, C) x (C, 3C) -> (T, 3C)
    # 3 x (nh, T, hs)
    q, k, v = (
        a.reshape(T, nh, hs).transpose(1, 0, 2) for a in np.split(qkv, 3, axis=-1)
    )
    scores = matmul(q, k.transpose(0, 2, 1))  # (nh, T, hs) x (nh, hs, T) -> (nh, T, T)
    scaled = scores / math.sqrt(hs)  # (nh, T, T)
    # (nh, T, T), -inf above the diagonal
    masked = np.where(causal_mask(T), -np.inf, scaled)
    weights = softmax(masked, axis=-1)  # (nh, T, T)
    heads = matmul(weights, v)  # (nh, T, T) x (nh, T, hs) -> (nh, T, hs)
    concat = heads.transpose(1, 0, 2).reshape(T, C)  # heads side by side: (T, C)
    y = matmul(concat, w.c_proj_weight) + w.c_proj_bias  # (T, C) x (C, C) -> (T, C)
    return Walk(x, qkv, q, k, v, scores, scaled, masked, weights, heads, concat, y)


@dataclass(frozen=True)
class Reference:
    """What the package's own functions give for a walk's input.

    Attributes:
        y: ``(T, C)`` and weights: ``(nh, T, T)``, from ``multi_head_attention(x, ...)``.
        heads: ``(nh, T, hs)`` and sdpa_weights: ``(nh, T, T)``, from
            ``scaled_dot_product_attention(q, k, v, causal=True)`` on the walk's own q, k, v.
    """

    y: np.ndarray
    weights: np.ndarray
    heads: np.ndarray
    sdpa_weights: np.ndarray


def reference(walk: Walk, seed: int = SEED) -> Reference:
    """The package's ``multi_head_attention`` and ``scaled_dot_product_attention`` on ``walk``'s input."""
    w = toy_weights(seed)
    # (T, C), (nh, T, T)
    y, att = multi_head_attention(
        walk.x,
        w.c_attn_weight,
        w.c_attn_bias,
        w.c_proj_weight,
        w.c_proj_bias,
        TOY.n_head,
        causal=True,
    )
    # (nh, T, hs), (nh, T, T)
    heads, sdpa_att = scaled_dot_product_attention(walk.q, walk.k, walk.v, causal=True)
    return Reference(y, att, heads, sdpa_att)
