"""Module 1, "Attention with nothing learned": every word blends in every other word.

Sections of results.log: ``simple`` (scores and weights on the running sentence and on
"the savings bank", and bank's output) and ``simple_limits`` (the symmetric score table,
the outputs, what each word keeps for itself, bank's lean, and a longer neighbour).
"""

from __future__ import annotations

from typing import Any

from .._section import Section
from .limits import (
    SENT_LONGER,
    SIMPLE_LIMITS,
    Longer,
    SimpleLimits,
    longer_neighbour,
    self_and_best_other,
)
from .simple import SIMPLE, Simple, SimpleRun, simple_scores

__all__ = [
    "SENT_LONGER",
    "SimpleRun",
    "Simple",
    "Longer",
    "SimpleLimits",
    "simple_scores",
    "self_and_best_other",
    "longer_neighbour",
    "SIMPLE",
    "SIMPLE_LIMITS",
    "SECTIONS",
]

SECTIONS: tuple[Section[Any], ...] = (SIMPLE, SIMPLE_LIMITS)
