"""The seven steps of one real head: what the explorer of "A causal model" shows for each head.

For every layer ``i`` and head ``h`` of SmolLM2, from the layer's input (the hidden state the
package's forward pass returns), the same steps as Inside the model: project (step 1), score
(step 2), scale by ``1 / sqrt(64)`` (step 3), mask the future (step 4), softmax (step 5), the
weighted sum of values (step 6). Step 7 mixes the heads back into one ``(T, d_model)`` row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...causal import SmolLM
from ...causal.layers import rms_norm, rope, rope_angles, share_kv_heads
from ...core import matmul, softmax

__all__ = ["HeadSteps", "head_steps"]


@dataclass(frozen=True, eq=False)
class HeadSteps:
    """Every head's steps 3 to 6 for one text.

    Attributes:
        scores: ``(L, H, T, T)``, the scaled scores ``q . k / sqrt(64)`` before the mask.
        weights: ``(L, H, T, T)``, softmax of the masked scores (the upper triangle 0).
        sizes: ``(L, H, T)``, the length of each token's weighted sum of values (step 6).
    """

    scores: np.ndarray
    weights: np.ndarray
    sizes: np.ndarray


def head_steps(model: SmolLM, hidden: np.ndarray) -> HeadSteps:
    """Steps 1 to 6 of every head, from the layers' inputs ``hidden``: ``(L + 1, T, d_model)``."""
    L, T = model.n_layer, hidden.shape[1]
    nh, nkv, hs = model.n_head, model.n_kv_head, model.head_size
    w, eps = model.weights, model.config.eps
    cos, sin = rope_angles(T, hs, model.config.rope_theta, model.dtype)  # (T, hs/2)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    scores, weights, sizes = [], [], []
    for i in range(L):
        x = rms_norm(hidden[i], w[f"blk.{i}.attn_norm.weight"], eps)  # (T, C)
        q, k, v = (
            matmul(x, w[f"blk.{i}.attn_{n}.weight"].T) for n in ("q", "k", "v")
        )  # (T, nh*hs), (T, nkv*hs), (T, nkv*hs)
        q = rope(q.reshape(T, nh, hs).transpose(1, 0, 2), cos, sin)  # (nh, T, hs)
        k = rope(k.reshape(T, nkv, hs).transpose(1, 0, 2), cos, sin)  # (nkv, T, hs)
        k = share_kv_heads(k, nh)  # (nh, T, hs)
        v = share_kv_heads(v.reshape(T, nkv, hs).transpose(1, 0, 2), nh)  # (nh, T, hs)
        s = matmul(q, k.transpose(0, 2, 1)) / np.sqrt(hs)  # (nh, T, T)
        a = softmax(np.where(future, -np.inf, s), axis=-1)  # (nh, T, T)
        y = matmul(a, v)  # (nh, T, T) x (nh, T, hs) -> (nh, T, hs)
        scores.append(s)
        weights.append(a)
        sizes.append(np.linalg.norm(y, axis=-1))  # (nh, T)
    return HeadSteps(np.stack(scores), np.stack(weights), np.stack(sizes))
