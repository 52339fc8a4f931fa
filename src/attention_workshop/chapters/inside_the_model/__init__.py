"""Inside the model: one causal attention block at toy scale beside GPT-2.

The toy block has GPT-2's layout (``c_attn`` makes queries, keys and values in one
matrix product, ``c_proj`` mixes the heads) at a size whose every number can be read:
5 tokens, ``n_embd`` 8, 2 heads of width 4. Its weights are drawn once from
``numpy.random.default_rng(0)``.

A token's 8 input numbers are its word's 4 named toy axes (:data:`attention_workshop.toy.AXES`)
followed by 4 position numbers (:func:`positions`): GPT-2 also tells attention where each
token sits before the first block, by adding a learned position vector.

:func:`compute` runs the block one step at a time (:data:`attention_workshop.gpt2.STEPS`,
:mod:`.block`); :mod:`attention_workshop.chapters.layer_sizes` gives the sizes and costs the page
quotes, as numbers. :func:`facts` gathers what the page states and :data:`CLAIMS` tests it (the
build checks them on every site build, :mod:`.facts`). The page's text, HTML and JSON are written by
:mod:`attention_workshop.experiment.inside_page`.
"""

from __future__ import annotations

from .block import (
    FEATURES,
    MAX_TOKENS,
    SEED,
    TOLERANCE,
    TOY,
    WORDS,
    Reference,
    ToyWeights,
    Walk,
    compute,
    positions,
    reference,
    token_inputs,
    toy_weights,
)
from .facts import CLAIMS, InsideFacts, facts

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
    "InsideFacts",
    "facts",
    "CLAIMS",
]
