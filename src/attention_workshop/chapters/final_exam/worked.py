"""What every answer of the final exam is made of: the run it reads, and a worked question.

A :class:`Worked` is one question worked out: its answer (a number, an option's name, or the
names of every true option) and the values its words quote. :class:`Run` is what the exam reads
from a run of the experiment (the build passes its ``Results``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import numpy as np

from .. import module_3
from .._section import Section

__all__ = [
    "DOT_PAIRS",
    "SHARE_BUCKETS",
    "TORCH_BUCKETS",
    "Rows",
    "Run",
    "Worked",
    "bucket",
]

R = TypeVar("R")

#: The pairs of the dot-product question, in the order of its options.
DOT_PAIRS: tuple[tuple[str, str], ...] = (
    ("savings", "bank"),
    ("river", "savings"),
    ("river", "bank"),
    ("the", "bank"),
)
#: Which option of the PyTorch question holds a difference: ``(name, lo, hi)``, the first that holds it wins.
TORCH_BUCKETS: tuple[tuple[str, float, float], ...] = (
    ("visible", 0.01, math.inf),
    ("close", 1e-6, 0.01),
    ("rounding", 0.0, 8 * module_3.EPS),
)
#: Which option of the share question holds attention's share of GPT-2's parameters.
SHARE_BUCKETS: tuple[tuple[str, float, float], ...] = (
    ("tenth", 0.0, 0.1),
    ("fifth", 0.2, 0.25),
    ("half", 0.4, 0.6),
    ("most", 0.75, 1.0),
)


class Run(Protocol):
    """What the exam reads from a run of the experiment (the build's ``Results``)."""

    @property
    def sentence(self) -> tuple[str, ...]: ...
    def __getitem__(self, section: Section[R]) -> R: ...


Rows = list[Mapping[str, object]]


@dataclass(frozen=True)
class Worked:
    """One question worked out.

    Attributes:
        answer: a number (numeric), an option name (single) or the names of every true option (multiple);
            ``None`` where no option fits (a claim then fails).
        values: the fields the question's templates quote; a list value is a list of rows
            (mappings, or plain numbers quoted as ``{x}``) the data file's ``lists`` says how to join.
        options: for ``option_each`` questions, one row of values per option, its ``name`` included.
    """

    answer: float | str | tuple[str, ...] | None
    values: Mapping[str, object] = field(default_factory=dict)
    options: Rows = field(default_factory=list)


def bucket(value: float, buckets: Sequence[tuple[str, float, float]]) -> str | None:
    """The name of the first bucket ``[lo, hi]`` that holds ``value``; ``None`` when none does."""
    return next((name for name, lo, hi in buckets if lo <= value <= hi), None)


def _numbers(v: np.ndarray) -> list[float]:
    return [float(x) for x in v]
