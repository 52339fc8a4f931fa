"""Module 3, "The real thing": the full head checked against PyTorch, the causal mask,
order-blindness, GPT-2's price tag, and multi-head attention in GPT-2's layout.

Sections of results.log: ``general_head``, ``causal``, ``order``, ``price``, ``multi_head``.
The PyTorch references come from the build (``ctx.refs``), so this chapter needs no PyTorch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import gpt2
from ..core import causal_mask, scaled_dot_product_attention, simple_attention
from ..toy import W_K_WIRED, W_Q_WIRED, embed, wired_head
from ._section import EVERY, Claim, Context, Section
from .may_differ import EPS, EPS_UNITS, ORDER_WITHIN
from .module_3_claims import CAUSAL_CLAIMS, ORDER_CLAIMS, PRICE_CLAIMS

__all__ = [
    "EPS_UNITS",
    "GeneralHead",
    "Causal",
    "Order",
    "Price",
    "MultiHead",
    "SECTIONS",
]


# --------------------------------------------------------------------------- the general head vs PyTorch


@dataclass(frozen=True)
class GeneralHead:
    """Largest |ours - PyTorch| for a random head (seeded), without and with the causal mask."""

    diff: float
    diff_causal: float
    eps: float
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray


def _general_head(ctx: Context) -> GeneralHead:
    f = ctx.fmt
    # A general head: random learned-looking projections, d_model 4 -> 3.
    rng = np.random.default_rng(ctx.seed)
    X = embed(ctx.sentence)
    d_model, d_k = X.shape[1], 3
    W_Q = rng.standard_normal((d_model, d_k))
    W_K = rng.standard_normal((d_model, d_k))
    W_V = rng.standard_normal((d_model, d_k))
    diffs = {
        causal: ctx.refs.compare_with_torch(X, W_Q, W_K, W_V, causal)
        for causal in (False, True)
    }
    ctx.log(
        f"random W_q, W_k, W_v (seed {ctx.seed}), d_model {d_model} -> d_k {d_k}, float64",
        "ours vs torch.nn.functional.scaled_dot_product_attention:",
        f"  max |difference| = {f.sci(diffs[False])}",
        "same comparison with the causal mask on both sides:",
        f"  max |difference| = {f.sci(diffs[True])}",
        f"machine epsilon 2^-52 = {f.sci(EPS)}; largest difference = {f.fixed(max(diffs.values()) / EPS, 2)} x epsilon",
    )
    ctx.show(
        diff=f.sci(diffs[False]),
        diff_causal=f.sci(diffs[True]),
        eps=f.sci(EPS),
        seed=str(ctx.seed),
        diff_sci=f.sci_html(diffs[False]),
        diff_causal_sci=f.sci_html(diffs[True]),
        eps_sci=f.sci_html(EPS),
        eps_units=str(EPS_UNITS),
        ulps=f.fixed(max(diffs.values()) / EPS, 2),
        d_k=str(d_k),
    )
    return GeneralHead(diffs[False], diffs[True], EPS, W_Q, W_K, W_V)


GENERAL_HEAD = Section(
    "general_head",
    "Module 3: the general head, checked against PyTorch",
    _general_head,
    claims=(
        Claim(
            "general_head.matches_torch",
            "ours and PyTorch's agree within a few units of 2^-52",
            lambda r: max(r.diff, r.diff_causal) <= EPS_UNITS * r.eps,
            quantifier=EVERY,
            sentence="the two programs disagree only in the",
        ),
    ),
)


# --------------------------------------------------------------------------- the causal mask


@dataclass(frozen=True)
class Causal:
    """The wired head under the causal mask: ``weights`` and ``unmasked`` ``(T, T)``, ``future`` ``(T, T)`` bool.

    For the pictures: ``scores`` ``(T, T)`` before the mask; ``Q`` and ``K`` ``(T, 2)``; ``heads``
    ``(2, T, T)``, the causal weights when the head is split into two heads of one channel each,
    the split ``multi_head_attention`` makes (``d_k = 1`` per head).
    """

    sentence: tuple[str, ...]
    weights: np.ndarray
    unmasked: np.ndarray
    future: np.ndarray
    scores: np.ndarray
    Q: np.ndarray
    K: np.ndarray
    heads: np.ndarray


def split_heads(a: np.ndarray, n_head: int) -> np.ndarray:
    """``(T, C)`` -> ``(n_head, T, C // n_head)``: each head's columns, as GPT-2 splits them."""
    T, C = a.shape
    return a.reshape(T, n_head, C // n_head).transpose(
        1, 0, 2
    )  # (T, nh, hs) -> (nh, T, hs)


def _causal(ctx: Context) -> Causal:
    f = ctx.fmt
    words = ctx.sentence
    X = embed(words)
    h = wired_head(X)
    w, unmasked = wired_head(X, causal=True).weights, h.weights
    q, k, v = (
        split_heads(a, 2) for a in (h.Q, h.K, X)
    )  # (2, T, 1), (2, T, 1), (2, T, 2)
    heads = scaled_dot_product_attention(q, k, v, causal=True)[1]  # (2, T, T)
    ctx.log(
        "wired head with a causal mask (upper right forced to 0):",
        *("  " + line for line in f.table(w, words, words)),
        "every row still sums to 1: " + ", ".join(f.fixed(s, 6) for s in w.sum(axis=1)),
    )
    T = len(words)
    ctx.show(**{f"w_{i}_{j}": f.fixed(w[i, j]) for i in range(T) for j in range(T)})
    ctx.show(last_row=f.vec(w[-1]), last_row_unmasked=f.vec(unmasked[-1]))
    return Causal(words, w, unmasked, causal_mask(T), h.scores, h.Q, h.K, heads)


CAUSAL = Section(
    "causal",
    "Module 3: the causal mask on the wired head",
    _causal,
    claims=CAUSAL_CLAIMS,
)


# --------------------------------------------------------------------------- order


@dataclass(frozen=True)
class Order:
    """Simple attention on the sentence and on its reverse: ``same`` when the last word's output is unchanged."""

    same: bool
    diff: float
    out_fwd: np.ndarray
    out_rev: np.ndarray


def _order(ctx: Context) -> Order:
    f = ctx.fmt
    sent = ctx.sentence
    rev = tuple(reversed(sent))
    out_fwd, _ = simple_attention(embed(sent))
    out_rev, _ = simple_attention(embed(rev))
    diff = float(np.max(np.abs(out_fwd - out_rev[::-1])))
    same = bool(np.allclose(out_fwd[-1], out_rev[0], rtol=0, atol=ORDER_WITHIN))
    ctx.log(
        f'order-blindness: {sent[-1]}\'s output in "{" ".join(sent)}" equals its',
        f'output in "{" ".join(rev)}" to within {ORDER_WITHIN:g} -> {same}',
        f"(largest difference over all rows: {f.sci(diff)})",
    )
    ctx.show(same=str(same), diff=f.sci(diff), reversed=" ".join(rev))
    return Order(same, diff, out_fwd, out_rev)


ORDER = Section(
    "order", "Module 3: what attention alone cannot see", _order, claims=ORDER_CLAIMS
)


# --------------------------------------------------------------------------- the price tag


@dataclass(frozen=True)
class Price:
    """GPT-2 small's attention parameters: per head, in all (with and without biases), its share; the MLP's weights."""

    per_head: int
    attention: int
    with_bias: int
    total: int
    share: float
    mlp: int


def _price(ctx: Context) -> Price:
    f = ctx.fmt
    cfg = gpt2.GPT2
    per_head, attn = gpt2.head_params(cfg), gpt2.attention_params(cfg)
    attn_b, total = gpt2.attention_params_with_bias(cfg), gpt2.total_params(cfg)
    share, mlp = attn / total, gpt2.mlp_params(cfg)
    ctx.log(
        f"one GPT-2 sized head: d_model = {cfg.n_embd}, d_k = {cfg.head_size}",
        f"  -> W_q + W_k + W_v = {f.count(per_head)} numbers",
        f"{cfg.n_head} heads x {cfg.n_layer} layers (+ output projections)",
        f"  -> {f.count(attn)} attention parameters",
        f"with biases: {f.count(attn_b)}; GPT-2 in all: {f.count(total)}",
        f"attention's share: {f.fixed(100 * share, 1)}%",
        f"MLP ({cfg.n_embd} -> {f.count(cfg.n_inner)} -> {cfg.n_embd}): {f.count(mlp)} weights",
        f"  -> {f.fixed(mlp / attn, 1)} x attention's; MLP's share: {f.fixed(100 * mlp / total, 1)}%",
    )
    ctx.show(
        per_head=f.count(per_head),
        attention=f.count(attn),
        attention_millions=f.fixed(attn / 1e6, 1),
        with_bias=f.count(attn_b),
        total=f.count(total),
        total_millions=str(round(total / 1e6)),
        share_pct=f.fixed(100 * share, 1),
        toy_wired=str(W_Q_WIRED.size + W_K_WIRED.size),
        mlp=f.count(mlp),
        mlp_ratio=f.fixed(mlp / attn, 1),
        mlp_share_pct=f.fixed(100 * mlp / total, 1),
    )
    return Price(per_head, attn, attn_b, total, share, mlp)


PRICE = Section(
    "price", "Module 3: the price tag at GPT-2 size", _price, claims=PRICE_CLAIMS
)


# --------------------------------------------------------------------------- multi-head vs PyTorch


@dataclass(frozen=True)
class MultiHead:
    """``multi_head_attention`` against a PyTorch re-implementation of GPT-2's attention (seeded weights)."""

    diff: float
    eps: float
    B: int
    T: int
    C: int
    n_head: int


def _multi_head(ctx: Context) -> MultiHead:
    rng = np.random.default_rng(ctx.seed)
    B, T, C, nh = 2, 5, 8, 2
    x = rng.standard_normal((B, T, C))
    w_attn = rng.standard_normal((C, 3 * C)) / np.sqrt(C)  # drawn in this order
    b_attn = rng.standard_normal(3 * C) * 0.1
    w_proj = rng.standard_normal((C, C)) / np.sqrt(C)
    b_proj = rng.standard_normal(C) * 0.1
    diff = ctx.refs.gpt2_attention_diff(x, (w_attn, b_attn, w_proj, b_proj), nh)
    ctx.log(
        "multi_head_attention vs GPT-2's causal self-attention, re-implemented",
        "in PyTorch (c_attn, split, view/transpose into heads, masked softmax,",
        f"c_proj), float64; B = {B}, T = {T}, C = {C}, n_head = {nh}:",
        f"  max |difference| = {ctx.fmt.sci(diff)}",
    )
    ctx.show(diff=ctx.fmt.sci(diff), shape=f"({B}, {T}, {C})", n_head=str(nh))
    return MultiHead(diff, EPS, B, T, C, nh)


MULTI_HEAD = Section(
    "multi_head",
    "Module 3: multi-head attention (GPT-2 layout) vs PyTorch",
    _multi_head,
    claims=(
        Claim(
            "multi_head.matches_torch",
            "multi_head_attention agrees with PyTorch's GPT-2 attention within a few units of 2^-52",
            lambda r: r.diff <= EPS_UNITS * r.eps,
            quantifier=EVERY,
            sentence="Here it is checked against a PyTorch",
        ),
    ),
)

SECTIONS: tuple[Section[Any], ...] = (GENERAL_HEAD, CAUSAL, ORDER, PRICE, MULTI_HEAD)
