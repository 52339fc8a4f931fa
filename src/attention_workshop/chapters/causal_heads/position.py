"""What RoPE does to position, measured in the first layer, where nothing else knows it.

The first layer's queries and keys are made from the token embeddings alone, so without
RoPE the score of two tokens would not depend on where they stand. RoPE turns each query
and key by an angle proportional to its position (:func:`attention_workshop.causal.rope`):
the score of a query at ``i`` and a key at ``j`` then depends on ``i - j``. Reversing the
tokens turns every ``i - j`` into ``j - i``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...causal import SmolLM, rms_norm, rope, rope_angles, share_kv_heads
from ...core import matmul
from .sentences import PHRASE

__all__ = ["Position", "scores", "position"]


@dataclass(frozen=True, eq=False)
class Position:
    """The first layer's scores of a sentence, forwards and with its tokens reversed.

    Attributes:
        plain_diff: ``(H,)``, per head the largest change of a token pair's score, without RoPE.
        rope_diff: ``(H,)``, the same with RoPE (as the model runs).
        head: the head the curve is drawn for (0, the first).
        distances: ``(D,)``, how far the key stands before the query, 1 .. T - 1.
        curve: ``(D,)``, that head's score of the phrase's two words at each distance, with RoPE.
        flat: the same score without RoPE (one number: it has no distance in it).
    """

    plain_diff: np.ndarray
    rope_diff: np.ndarray
    head: int
    distances: np.ndarray
    curve: np.ndarray
    flat: float


def scores(model: SmolLM, ids: np.ndarray, turn: bool) -> np.ndarray:
    """The first layer's scores ``q k^T / sqrt(hs)`` before the mask: ``(H, T, T)``.

    ``turn``: with RoPE (the model's way) or without it.
    """
    w, T = model.weights, len(ids)
    nh, nkv, hs = model.n_head, model.n_kv_head, model.head_size
    x = rms_norm(
        w["token_embd.weight"][ids], w["blk.0.attn_norm.weight"], model.config.eps
    )
    q = matmul(x, w["blk.0.attn_q.weight"].T).reshape(T, nh, hs).transpose(1, 0, 2)
    k = matmul(x, w["blk.0.attn_k.weight"].T).reshape(T, nkv, hs).transpose(1, 0, 2)
    if turn:
        cos, sin = rope_angles(T, hs, model.config.rope_theta, model.dtype)  # (T, hs/2)
        q, k = rope(q, cos, sin), rope(k, cos, sin)  # (nh, T, hs), (nkv, T, hs)
    k = share_kv_heads(k, nh)  # (nkv, T, hs) -> (nh, T, hs)
    out: np.ndarray = matmul(q, k.transpose(0, 2, 1)) / np.sqrt(hs)  # (nh, T, T)
    return out


def _largest_change(model: SmolLM, ids: np.ndarray, turn: bool) -> np.ndarray:
    """Per head, the largest change of a pair's score when the tokens are reversed: ``(H,)``."""
    forwards = scores(model, ids, turn).astype(np.float64)  # (H, T, T)
    backwards = scores(model, ids[::-1].copy(), turn).astype(np.float64)
    # the pair at (i, j) stands at (T-1-i, T-1-j) once reversed
    return np.abs(forwards - backwards[:, ::-1, ::-1]).max(axis=(1, 2))


def _curve(model: SmolLM, ids: np.ndarray, tokens: list[str], head: int) -> tuple:
    """The score of the phrase's word (query) and the word after it (key), at every distance."""
    word, after = PHRASE
    q_id, k_id = ids[tokens.index(word)], ids[tokens.index(after)]
    T = len(ids)
    curve = []
    for d in range(1, T):
        # the key first, the query d places later: ids (k, filler..., q)
        pair = np.array([k_id] * d + [q_id], dtype=np.int64)
        curve.append(float(scores(model, pair, True)[head, d, 0]))
    flat = float(scores(model, np.array([k_id, q_id]), False)[head, 1, 0])
    return np.arange(1, T), np.array(curve), flat


def position(model: SmolLM, text: str) -> Position:
    """Measure the first layer's scores of ``text``, forwards and reversed."""
    _, ids = model.tokenize(text)
    words = [model.tokenizer.decode([int(i)]).strip() for i in ids]
    distances, curve, flat = _curve(model, ids, words, 0)
    return Position(
        _largest_change(model, ids, False),
        _largest_change(model, ids, True),
        0,
        distances,
        curve,
        flat,
    )
