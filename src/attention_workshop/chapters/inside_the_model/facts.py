"""What Inside the model states, gathered as :class:`InsideFacts`, and the claims that keep it true.

The build's claims runner checks :data:`CLAIMS` against :func:`facts` on every site build.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core import causal_mask
from ...toy import AXES, VOCAB
from .._section import EVERY, FACT, Claim
from ..layer_sizes import GPT2Facts, GrowthRow, gpt2_facts, growth
from .block import (
    FEATURES,
    MAX_TOKENS,
    TOLERANCE,
    TOY,
    WORDS,
    Reference,
    Walk,
    compute,
    positions,
    reference,
)

__all__ = ["InsideFacts", "facts", "CLAIMS"]


@dataclass(frozen=True)
class InsideFacts:
    """What the page states, gathered for its claims.

    Attributes:
        walk: the toy block on the page's input (:data:`WORDS`); reference: the package on the same input.
        growth: the toy's score grid for 1 .. ``MAX_TOKENS`` tokens.
        gpt2: GPT-2's sizes and costs.
        n_axes, n_positions, n_features, n_embd: the make-up of a token's input row, and the toy's ``n_embd``.
        raw_x: ``(T, C)``, the page's input built straight from the vocabulary and :func:`positions`
            (what the toy's ``x`` is, since it skips GPT-2's LayerNorm ``ln_1``).
    """

    walk: Walk
    reference: Reference
    growth: tuple[GrowthRow, ...]
    gpt2: GPT2Facts
    n_axes: int
    n_positions: int
    n_features: int
    n_embd: int
    raw_x: np.ndarray


def facts() -> InsideFacts:
    """Everything :data:`CLAIMS` tests, for the page's input and sizes."""
    walk = compute(WORDS)
    return InsideFacts(
        walk,
        reference(walk),
        growth(MAX_TOKENS, TOY),
        gpt2_facts(len(WORDS)),
        len(AXES),
        positions(1).shape[1],
        len(FEATURES),
        TOY.n_embd,
        np.hstack([[VOCAB[w] for w in WORDS], positions(len(WORDS))]),
    )


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a - b)))


def _walk_matches(r: InsideFacts) -> bool:
    w, ref = r.walk, r.reference
    pairs = (
        (w.y, ref.y),
        (w.weights, ref.weights),
        (w.heads, ref.heads),
        (w.weights, ref.sdpa_weights),
    )
    return all(_gap(a, b) <= TOLERANCE for a, b in pairs)


def _mask_holds(r: InsideFacts) -> bool:
    weights = r.walk.weights  # (nh, T, T)
    return bool(
        np.all(weights[:, causal_mask(weights.shape[-1])] == 0.0)
        and np.all(weights[:, 0, 0] == 1.0)
    )


def _skips_ln_1(r: InsideFacts) -> bool:
    """The toy's x is the raw input row, and that row is not what LayerNorm would make of it."""
    x = r.walk.x  # (T, C)
    normalised = np.allclose(x.mean(axis=1), 0, atol=1e-6) and np.allclose(
        x.std(axis=1), 1, atol=1e-3
    )
    return bool(np.array_equal(x, r.raw_x)) and not normalised


def _doubling_quadruples(r: InsideFacts) -> bool:
    cells = {row.T: row.cells for row in r.growth}
    pairs = [(cells[T], cells[2 * T]) for T in cells if 2 * T in cells]
    pairs.append((r.gpt2.cells_at_half_ctx, r.gpt2.cells_at_ctx))
    return all(big == 4 * small for small, big in pairs)


#: What the page states about the toy block and GPT-2's costs (checked against :func:`facts`).
CLAIMS: tuple[Claim[InsideFacts], ...] = (
    Claim(
        "inside.walk_matches_package",
        "the step-by-step walk matches multi_head_attention and scaled_dot_product_attention to within TOLERANCE",
        _walk_matches,
        quantifier=EVERY,
        sentence="to within {{ inside.tolerance }} in every number",
    ),
    Claim(
        "inside.rows_sum_to_one",
        "every row of attention weights sums to 1",
        lambda r: bool(
            np.allclose(r.walk.weights.sum(axis=-1), 1.0, rtol=0, atol=1e-12)
        ),
        quantifier=EVERY,
        sentence="Softmax turns each row into weights that are positive and add up to 1",
    ),
    Claim(
        "inside.mask_hides_future",
        "the causal mask hides every later token; the first token sees only itself",
        _mask_holds,
        quantifier=EVERY,
        sentence="every cell above the diagonal",
    ),
    Claim(
        "inside.doubling_quadruples",
        "twice the tokens, four times the cells of the score grid",
        _doubling_quadruples,
        quantifier=EVERY,
        sentence="twice the tokens, four times the cells",
    ),
    Claim(
        "inside.narrow_heads_cost_one_wide",
        "several narrow heads cost what one wide head costs",
        lambda r: r.gpt2.narrow_heads == r.gpt2.one_wide_head,
        quantifier=FACT,
        sentence="Several narrow heads cost about as much as one wide head",
    ),
    Claim(
        "inside.grid_over_a_million",
        "at GPT-2's full context one head's score grid has over a million cells",
        lambda r: r.gpt2.cells_at_ctx > 10**6,
        quantifier=FACT,
        sentence="**{{ inside.cells_at_ctx }}** at GPT-2's full context",
    ),
    Claim(
        "inside.bias_adds_negligible",
        "the bias adds left out are under 0.1% of the two projections",
        lambda r: r.gpt2.bias_share < 1e-3,
        quantifier=FACT,
        sentence="{{ inside.gpt2_bias_share }} of those two matrix products",
    ),
    Claim(
        "inside.toy_skips_ln_1",
        "the toy's x is the raw input (axes and position numbers), not normalised by GPT-2's ln_1",
        _skips_ln_1,
        quantifier=FACT,
        sentence="in the toy, `x` is the raw input",
    ),
    Claim(
        "inside.input_fills_n_embd",
        "a token's word axes and position numbers make up the toy's n_embd",
        lambda r: r.n_axes + r.n_positions == r.n_embd == r.n_features,
        quantifier=EVERY,
        sentence="**{{ inside.n_embd }} numbers per token** in all",
    ),
)
