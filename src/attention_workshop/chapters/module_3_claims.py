"""Module 3's claims about the causal mask, order-blindness and GPT-2's price tag.

Each tuple is the ``claims`` of its section in :mod:`.module_3` (``CAUSAL``, ``ORDER``,
``PRICE``); the tests read the section's typed result (:class:`.module_3.Causal`, ``Order``,
``Price``). They sit here to keep the chapter module short.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..gpt2 import GPT2
from ._section import EVERY, FACT, Claim
from .may_differ import ORDER_WITHIN

__all__ = ["CAUSAL_CLAIMS", "ORDER_CLAIMS", "PRICE_CLAIMS"]


def _renormalised(unmasked: np.ndarray, masked: np.ndarray) -> bool:
    """Row i of the masked table equals row i of the unmasked one, cut to j <= i and rescaled to sum 1."""
    for i in range(len(unmasked)):
        visible = unmasked[i, : i + 1]
        if not np.allclose(
            masked[i, : i + 1], visible / visible.sum(), rtol=0, atol=1e-12
        ):
            return False
    return True


def _per_layer() -> int:
    """One layer's attention weights: every head's W_Q, W_K, W_V, and the layer's W_O."""
    c = GPT2
    return c.n_head * 3 * c.n_embd * c.head_size + c.n_embd * c.n_embd


CAUSAL_CLAIMS: tuple[Claim[Any], ...] = (
    Claim(
        "causal.first_row_on_itself",
        "the first causal row puts all its weight on itself",
        lambda r: r.weights[0, 0] == 1.0 and not r.weights[0, 1:].any(),
        measure=lambda r: r.weights[0],
        quantifier=FACT,
        sentence="its whole row collapses to weight {{ causal.w_0_0 }} on itself",
    ),
    Claim(
        "causal.future_is_zero",
        "every weight above the diagonal is exactly 0",
        lambda r: not r.weights[r.future].any(),
        quantifier=EVERY,
        sentence="The mask only hides words",
    ),
    Claim(
        "causal.last_row_unchanged",
        "the last causal row equals its unmasked row",
        lambda r: bool(np.allclose(r.weights[-1], r.unmasked[-1], rtol=0, atol=1e-15)),
        quantifier=FACT,
        sentence="is exactly its unmasked row",
    ),
    Claim(
        "causal.rows_sum_to_one",
        "every causal row still sums to 1",
        lambda r: bool(np.allclose(r.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)),
        measure=lambda r: r.weights.sum(axis=1),
        quantifier=EVERY,
        sentence="Every row still sums to 1",
    ),
    Claim(
        "causal.rows_renormalise",
        "each causal row is its unmasked row, shared again over the visible words",
        lambda r: _renormalised(r.unmasked, r.weights),
        quantifier=EVERY,
        sentence="softmax then shares the weight again among the",
    ),
)

ORDER_CLAIMS: tuple[Claim[Any], ...] = (
    Claim(
        "order.blind",
        "bank's output is the same in the reversed sentence",
        lambda r: r.same and r.diff <= ORDER_WITHIN,  # diff: the largest over every row
        quantifier=EVERY,
        sentence="shuffles the output rows in the same way",
    ),
)

PRICE_CLAIMS: tuple[Claim[Any], ...] = (
    Claim(
        "price.per_head",
        "one GPT-2 head holds 147,456 numbers in W_Q, W_K, W_V",
        lambda r: r.per_head == 147_456,
        quantifier=FACT,
        sentence="One head's three matrices hold {{ price.per_head }} learned numbers",
    ),
    Claim(
        "price.attention",
        "GPT-2's attention holds 28,311,552 weights: each layer's heads and its W_O",
        lambda r: r.attention == 28_311_552 == _per_layer() * GPT2.n_layer,
        quantifier=EVERY,
        sentence="attention holds {{ price.attention }} weights",
    ),
    Claim(
        "price.total",
        "GPT-2 small has about 124M parameters",
        lambda r: round(r.total / 1e6) == 124,
        quantifier=FACT,
        sentence="GPT-2 small's {{ price.total_millions }} million parameters",
    ),
    Claim(
        "price.fifth_to_quarter",
        "attention is between a fifth and a quarter of GPT-2",
        lambda r: 0.2 < r.share < 0.25,
        quantifier=FACT,
        sentence="between a fifth and a quarter of the model",
    ),
    Claim(
        "price.mlp_twice_attention",
        "GPT-2's MLP holds about twice the attention's weights",
        lambda r: 1.9 < r.mlp / r.attention < 2.1,
        quantifier=FACT,
        sentence="The MLPs hold {{ price.mlp_ratio }} times the attention's weights",
    ),
)
