"""The lines of results.log that may differ on another computer, and by how much.

With the exact lock, on x86-64 Linux, results.log is the same byte for byte on every machine.
Elsewhere (macOS, Windows, another processor, PyTorch from another index) two kinds of line may
differ, and no other:

- **environment lines** (:data:`STAMPS`): the versions stamped at the top of results.log,
  ``# os: ...`` to ``# matplotlib: ...``. They say where the run was made.
- **rounding-level figures** (:data:`FIGURES`): the measured distance between two computations
  that agree up to rounding (ours and PyTorch's, the naive and the stable softmax). Their last
  digits depend on the processor's instructions and on the order in which a library adds up a
  sum. Each is declared here with the bound its claim checks, so a reader's run may print
  another figure, but never one past the bound the page promises.

Every other line (every weight, score, count and table) must be the same everywhere.
:mod:`attention_workshop.experiment.compare` reads these declarations when it compares two logs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

__all__ = [
    "EPS",
    "EPS_UNITS",
    "NAIVE_VS_STABLE",
    "ORDER_WITHIN",
    "STAMPS",
    "Figure",
    "FIGURES",
    "environment_line",
]

#: Machine epsilon of float64, 2^-52.
EPS = float(np.finfo(np.float64).eps)
#: "Within a few units of 2^-52": the agreement the pages promise with PyTorch
#: (claims ``general_head.matches_torch`` and ``multi_head.matches_torch``).
EPS_UNITS = 4
#: How far the naive softmax may be from the max-subtracted one on [2, 1, 0]
#: (claim ``softmax.max_trick_changes_nothing``).
NAIVE_VS_STABLE = 1e-15
#: How far attention's outputs on a sentence and on its reverse may be apart (claim ``order.blind``).
ORDER_WITHIN = 1e-12

#: The versions stamped at the top of results.log, ``# name: version``, in their order there.
STAMPS = ("os", "python", "numpy", "torch", "matplotlib")


def environment_line(line: str) -> bool:
    """True of a version stamp line at the top of results.log (``# torch: 2.13.0+cpu ...``)."""
    return any(line.startswith(f"# {name}: ") for name in STAMPS)


@dataclass(frozen=True)
class Figure:
    """A rounding-level figure: the lines of section ``[section]`` that ``pattern`` matches.

    Attributes:
        section: the section's key, its label in results.log.
        pattern: a regular expression for the whole line (its indent left out) with one group,
            the figure; the rest of the line is the pattern's own text, the same everywhere.
        bound: the largest value the figure may take anywhere, the bound of ``claim``.
        claim: the key of the claim that checks the bound.
    """

    section: str
    pattern: str
    bound: float
    claim: str

    def value(self, line: str) -> float | None:
        """The figure on ``line``; None when the line is not this figure's."""
        m = re.fullmatch(self.pattern, line.strip())
        if m is None:
            return None
        try:
            return float(m.group(1))
        except ValueError:
            return None


_DIFF = r"max \|difference\| = (\S+)"

#: Every rounding-level figure of results.log, in its order there.
FIGURES: tuple[Figure, ...] = (
    Figure(
        "softmax",
        r"naive vs max-subtracted on \[2, 1, 0\]: " + _DIFF,
        NAIVE_VS_STABLE,
        "softmax.max_trick_changes_nothing",
    ),
    # ours vs PyTorch, without and with the causal mask: two lines, one pattern
    Figure("general_head", _DIFF, EPS_UNITS * EPS, "general_head.matches_torch"),
    Figure(
        "general_head",
        rf"machine epsilon 2\^-52 = {re.escape(f'{EPS:.2e}')}; largest difference = (\S+) x epsilon",
        EPS_UNITS,
        "general_head.matches_torch",
    ),
    Figure(
        "order",
        r"\(largest difference over all rows: (\S+)\)",
        ORDER_WITHIN,
        "order.blind",
    ),
    Figure("multi_head", _DIFF, EPS_UNITS * EPS, "multi_head.matches_torch"),
)
