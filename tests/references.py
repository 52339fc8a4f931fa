"""Independent references the tests compare the package with: PyTorch in float64, from the vocabulary's tuples.

Nothing here calls the package's maths; the wired matrices and the vocabulary are its data.
"""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F

from attention_workshop.toy import VOCAB, W_K_WIRED, W_Q_WIRED


def rows(words) -> torch.Tensor:
    """The sentence's rows, straight from the vocabulary's tuples: ``(T, 4)``, float64."""
    return torch.tensor([VOCAB[w] for w in words], dtype=torch.float64)


def torch_attention(Q, K, V, causal=False, scale=None) -> tuple[np.ndarray, np.ndarray]:
    """PyTorch's fused attention in float64: ``(out, weights)`` as NumPy; the weights are its output for V = I."""
    q, k, v = (torch.tensor(np.asarray(a), dtype=torch.float64) for a in (Q, K, V))
    out = F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale).numpy()
    eye = torch.eye(k.shape[0], dtype=torch.float64)  # each row of I picks one weight
    return out, F.scaled_dot_product_attention(
        q, k, eye, is_causal=causal, scale=scale
    ).numpy()


def simple(words) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Module 1's attention by PyTorch, Q = K = V = X: ``(scores (T, T), weights (T, T), out (T, 4))``."""
    x = rows(words)
    out, w = torch_attention(x, x, x)
    return (x @ x.T / 2.0).numpy(), w, out


def wired(words, causal=False) -> tuple[np.ndarray, ...]:
    """Module 2's wired head by PyTorch, V = X: ``(Q, K, scores, weights, out)`` (scores before any mask)."""
    x = rows(words)
    q, k = (
        x @ torch.from_numpy(np.array(W_Q_WIRED)),
        x @ torch.from_numpy(np.array(W_K_WIRED)),
    )
    out, w = torch_attention(q, k, x, causal=causal)
    return q.numpy(), k.numpy(), (q @ k.T / math.sqrt(2)).numpy(), w, out


def sqrt_dk(sizes, keys, trials, seed=0) -> np.ndarray:
    """The sqrt(d_k) measurement on numpy's default_rng(seed) draws, in the chapter's order, the arithmetic in PyTorch:
    ``(len(sizes), 4)``: variance of q.k raw and scaled, mean largest softmax weight raw and scaled."""
    rng = np.random.default_rng(seed)
    out = []
    for d in sizes:
        q = torch.from_numpy(rng.standard_normal((trials, d)))  # (N, d)
        k = torch.from_numpy(rng.standard_normal((trials, keys, d)))  # (N, keys, d)
        raw = (k @ q.unsqueeze(-1)).squeeze(-1)  # (N, keys, d) x (N, d, 1) -> (N, keys)
        scaled = raw / math.sqrt(d)
        out.append(
            (
                raw.var(unbiased=False).item(),
                scaled.var(unbiased=False).item(),
                torch.softmax(raw, -1).max(-1).values.mean().item(),
                torch.softmax(scaled, -1).max(-1).values.mean().item(),
            )
        )
    return np.array(out)
