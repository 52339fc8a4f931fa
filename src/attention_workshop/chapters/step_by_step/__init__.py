"""Step by step, "the cat sat": self-attention by hand, then four practice experiments.

Sections of results.log: ``step_score``, ``step_scale``, ``step_softmax``, ``step_sum``
(:mod:`.steps`: the four steps for "sat"), ``step_causal`` (:mod:`.mask`: "cat" under the
mask) and ``practice`` (:mod:`.practice`). The arithmetic is
:mod:`attention_workshop.handcalc`'s; this chapter writes it out.
"""

from __future__ import annotations

from typing import Any

from .._section import Section
from .mask import SEED_003, STEP_CAUSAL, StepCausal
from .practice import PRACTICE, Practice
from .steps import (
    CAT,
    SAT,
    STEP_SCALE,
    STEP_SCORE,
    STEP_SOFTMAX,
    STEP_SUM,
    Step,
    StepSoftmax,
)

__all__ = [
    "SAT",
    "CAT",
    "SEED_003",
    "Step",
    "StepSoftmax",
    "StepCausal",
    "Practice",
    "STEP_SCORE",
    "STEP_SCALE",
    "STEP_SOFTMAX",
    "STEP_SUM",
    "STEP_CAUSAL",
    "PRACTICE",
    "SECTIONS",
]

SECTIONS: tuple[Section[Any], ...] = (
    STEP_SCORE,
    STEP_SCALE,
    STEP_SOFTMAX,
    STEP_SUM,
    STEP_CAUSAL,
    PRACTICE,
)
