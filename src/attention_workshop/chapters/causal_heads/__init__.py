"""A causal model: what the 270 heads of SmolLM2-135M-Instruct do with the site's sentences.

:func:`facts` runs :data:`SENTENCES` through :mod:`attention_workshop.causal` (the package's
own NumPy forward pass) and measures every head (:mod:`.measures`): previous-token heads,
the weight parked on the first token, and induction heads on the repeated phrase;
:mod:`.position` measures what RoPE does to order; :mod:`.reads` the logit lens, weight beside norm, prefix matching and
copying; :mod:`.steps` counts the seven steps'
FLOPs at the model's real sizes. :data:`CLAIMS` tests what the page says. The page's text,
figures and JSON are written by :mod:`attention_workshop.experiment.causal_page`.
"""

from __future__ import annotations

from .claims import (
    CLAIMS,
    CLEAR,
    ENDS,
    LAST_LAYERS,
    MIDDLE,
    SINK_HEADS,
    WEAK_RANK,
    WORD,
)
from .facts import CausalHeads, Head, Run, best_head, facts, measure_all
from .measures import (
    SHARE,
    first_score,
    induction_pairs,
    induction_score,
    last_row,
    previous_score,
)
from .position import Position, position, scores
from .reads import CausalReads, causal_reads
from .sentences import PHRASE, REPEAT, SENTENCES, Sentence
from .seven import HeadSteps, head_steps
from .steps import StepFlops, causal_flops, step_table

__all__ = [
    "SUBJECT",
    "CLAIMS",
    "CLEAR",
    "ENDS",
    "LAST_LAYERS",
    "MIDDLE",
    "SINK_HEADS",
    "WEAK_RANK",
    "WORD",
    "CausalReads",
    "causal_reads",
    "CausalHeads",
    "Head",
    "Run",
    "best_head",
    "facts",
    "measure_all",
    "SHARE",
    "first_score",
    "induction_pairs",
    "induction_score",
    "last_row",
    "previous_score",
    "Position",
    "position",
    "scores",
    "HeadSteps",
    "head_steps",
    "PHRASE",
    "REPEAT",
    "SENTENCES",
    "Sentence",
    "StepFlops",
    "causal_flops",
    "step_table",
]

#: The key of the page's subject in the build's claims runner.
SUBJECT = "causal_heads"
