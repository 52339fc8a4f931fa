"""GPT-2 (the 124M "small" model) by the numbers: its sizes, parameters and FLOPs.

Sizes are GPT-2's published configuration; every count is computed from them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "GPT2Config",
    "GPT2",
    "head_params",
    "attention_params",
    "attention_params_with_bias",
    "mlp_params",
    "total_params",
    "attention_flops",
    "Step",
    "STEPS",
]


@dataclass(frozen=True)
class GPT2Config:
    """The sizes of a GPT-2 model, with GPT-2's own names."""

    n_layer: int = 12
    n_head: int = 12
    n_embd: int = 768
    n_ctx: int = 1024
    vocab_size: int = 50257

    @property
    def head_size(self) -> int:
        """Width of one head's queries, keys and values: n_embd // n_head."""
        return self.n_embd // self.n_head

    @property
    def n_inner(self) -> int:
        """Width of the MLP's hidden layer: 4 x n_embd (``n_inner`` in Hugging Face's config)."""
        return 4 * self.n_embd


#: GPT-2 small, the model behind "124M".
GPT2 = GPT2Config()


def head_params(cfg: GPT2Config = GPT2) -> int:
    """Numbers in one head's W_Q, W_K and W_V (no biases): 3 x n_embd x head_size."""
    return 3 * cfg.n_embd * cfg.head_size


def attention_params(cfg: GPT2Config = GPT2) -> int:
    """Attention weights in the whole model, no biases.

    Per layer: every head's three matrices, plus the output projection
    (n_embd x n_embd).
    """
    per_layer = cfg.n_head * head_params(cfg) + cfg.n_embd * cfg.n_embd
    return cfg.n_layer * per_layer


def attention_params_with_bias(cfg: GPT2Config = GPT2) -> int:
    """As :func:`attention_params`, plus c_attn's bias (3 x n_embd) and c_proj's (n_embd) per layer."""
    return attention_params(cfg) + cfg.n_layer * (3 * cfg.n_embd + cfg.n_embd)


def mlp_params(cfg: GPT2Config = GPT2) -> int:
    """MLP weights in the whole model, no biases.

    Per layer: ``c_fc`` (n_embd x n_inner) widens each token's row, ``c_proj``
    (n_inner x n_embd) narrows it back.
    """
    return cfg.n_layer * 2 * cfg.n_embd * cfg.n_inner


def total_params(cfg: GPT2Config = GPT2) -> int:
    """Every parameter of GPT-2 (token and position embeddings, 12 blocks, final layer norm).

    The output layer shares its matrix with the token embedding, so it adds nothing.
    """
    C = cfg.n_embd
    layer_norm = 2 * C
    block = (
        layer_norm  # ln_1
        + C * 3 * C
        + 3 * C  # attn.c_attn
        + C * C
        + C  # attn.c_proj
        + layer_norm  # ln_2
        + C * cfg.n_inner
        + cfg.n_inner  # mlp.c_fc
        + cfg.n_inner * C
        + C  # mlp.c_proj
    )
    return cfg.vocab_size * C + cfg.n_ctx * C + cfg.n_layer * block + layer_norm


def attention_flops(T: int, cfg: GPT2Config = GPT2) -> dict[str, int]:
    """Floating-point operations of one attention layer for ``T`` tokens (a multiply-add counts 2).

    Returns a dict with, per step: ``qkv`` (the c_attn GEMM), ``scores`` (Q K^T, all heads),
    ``scale``, ``softmax`` (counted as 1 op per cell, a convention), ``weighted_sum``
    (weights times V, all heads), ``proj`` (c_proj), and ``score_cells`` (T x T, one head).
    """
    if isinstance(T, bool) or not isinstance(T, int) or T < 1:
        raise ValueError(f"T must be a positive whole number of tokens, got {T!r}")
    C, nh, hs = cfg.n_embd, cfg.n_head, cfg.head_size
    return {
        "qkv": 2 * T * C * 3 * C,
        "scores": nh * 2 * T * T * hs,
        "scale": nh * T * T,
        "softmax": nh * T * T,
        "weighted_sum": nh * 2 * T * T * hs,
        "proj": 2 * T * C * C,
        "score_cells": T * T,
    }


@dataclass(frozen=True)
class Step:
    """One step of an attention layer, as Inside the model walks through it.

    Attributes:
        id: the page's anchor for the step (``"scores"``).
        title: its name (``"Scores"``).
        flops: its key in :func:`attention_flops`; ``None`` for the causal mask, which overwrites
            cells and does no arithmetic.
    """

    id: str
    title: str
    flops: str | None


#: The seven steps of causal self-attention, in order.
STEPS: tuple[Step, ...] = (
    Step("projections", "Projections", "qkv"),
    Step("scores", "Scores", "scores"),
    Step("scale", "Scale", "scale"),
    Step("causal-mask", "Causal mask", None),
    Step("softmax", "Softmax", "softmax"),
    Step("weighted-sum", "Weighted sum", "weighted_sum"),
    Step("output-projection", "Output projection", "proj"),
)
