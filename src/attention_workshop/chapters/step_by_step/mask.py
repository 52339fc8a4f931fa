"""Step by step, step 5: the causal mask, for "cat" (a blocked key) and "sat" (nothing blocked).

The section ``step_causal`` also checks the whole calculation against the seed's own numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core import causal_mask
from ...handcalc import K_CAT, Q_CAT, V_CAT, WORDS, HandCalc, allowed_grid, by_hand
from .._section import EVERY, Claim, Context, Section
from .steps import CAT, SAT, _sat, sum_lines

__all__ = ["SEED_003", "StepCausal", "STEP_CAUSAL"]

#: The seed's hand calculation of "the cat sat", to 3 decimals (seed 003): what the chapter reproduces.
SEED_003 = {
    "scaled": (0.707, 0.707, 1.414),
    "sqrt_dk": 1.414,
    "exps": (2.028, 2.028, 4.113),
    "total": 8.169,
    "weights": (0.248, 0.248, 0.503),
    "out": (0.500, 0.500),
    "cat_weights": (0.330, 0.670, 0.000),
    "cat_out": (0.330, 0.670),
    "cat_total": 3.028,
}


# --------------------------------------------------------------------------- step 5


@dataclass(frozen=True)
class StepCausal:
    """Step 5: "cat" under the mask, and "sat" under the mask beside "sat" without it (steps 3 and 4)."""

    calc: HandCalc  # "cat", causal
    grid: np.ndarray  # (T, T) "X" allowed, "." blocked
    sat: HandCalc  # "sat", causal
    sat_unmasked: HandCalc  # "sat", no mask
    sat_stands: bool


def _causal(ctx: Context) -> StepCausal:
    f = ctx.fmt
    T = len(WORDS)
    grid = allowed_grid(T)
    ctx.log(
        "allowed (X) and blocked (.): row = query, column = key",
        *f.table(grid.tolist(), WORDS, WORDS, width=5, label_width=8),
    )
    c = by_hand(Q_CAT, K_CAT, V_CAT, CAT, causal=True)
    dots = [
        f"q{CAT + 1} . k{j + 1} = {'blocked' if c.blocked[j] else f.num(c.raw[j])}"
        for j in range(T)
    ]
    parts = ", ".join(
        "-inf" if b else f"{f.num(r)} / {f.num(c.sqrt_dk)}"
        for r, b in zip(c.raw, c.blocked)
    )
    exps = ", ".join(
        f"exp({f.num(s)}) = {f.fixed(e, 3)}" for s, e in zip(c.scaled, c.exps)
    )
    ctx.log(
        f'"{WORDS[CAT]}" again, under the mask (q{CAT + 1} = {f.short_vec(c.q)}):',
        ", ".join(dots),
        f"scaled: [{parts}] = {f.short_vec(c.scaled)}",
        f"{exps}; sum = {f.num(c.total)}",
        f"weights = {f.vec(c.weights)}",
        *sum_lines(f, c, WORDS[CAT]),
    )
    sat, unmasked = by_hand(Q_CAT, K_CAT, V_CAT, SAT, causal=True), _sat()
    stands = bool(np.array_equal(sat.weights, unmasked.weights))
    ctx.log(
        f'"{WORDS[SAT]}" under the mask blocks nothing: weights {f.vec(sat.weights)}',
        f"(the same as step 3: {stands})",
    )
    ctx.show(
        weights=f.vec(c.weights),
        out=f.vec(c.out),
        total=f.num(c.total),
        blocked=str(int(causal_mask(T).sum())),
        allowed=str(int((~causal_mask(T)).sum())),
        pct_the=f"{100 * c.weights[0]:.0f}",
        pct_self=f"{100 * c.weights[CAT]:.0f}",
    )
    return StepCausal(c, grid, sat, unmasked, stands)


def _seed_003(r: StepCausal) -> bool:
    sat, cat = r.sat_unmasked, r.calc
    got = {
        "scaled": sat.scaled,
        "sqrt_dk": sat.sqrt_dk,
        "exps": sat.exps,
        "total": sat.total,
        "weights": sat.weights,
        "out": sat.out,
        "cat_weights": cat.weights,
        "cat_out": cat.out,
        "cat_total": cat.total,
    }
    return all(
        bool(np.all(np.round(np.asarray(got[k], dtype=float), 3) == np.asarray(v)))
        for k, v in SEED_003.items()
    )


STEP_CAUSAL = Section(
    "step_causal",
    'Step by step, "the cat sat", 5: the causal mask',
    _causal,
    claims=(
        Claim(
            "step.seed_003",
            "the build reproduces the seed's hand calculation of 'the cat sat' to 3 decimals",
            _seed_003,
            quantifier=EVERY,
            sentence="against the three-decimal numbers of the hand calculation",
        ),
        Claim(
            "step.cat_future_is_zero",
            "under the mask, cat's weight on sat is exactly 0",
            lambda r: r.calc.weights[2] == 0.0 and r.calc.exps[2] == 0.0,
            quantifier=EVERY,
            sentence="and nothing to the future",
        ),
        Claim(
            "step.sat_row_stands",
            "under the mask, sat (the last word) keeps its row from step 3",
            lambda r: (
                r.sat_stands
                and bool(np.array_equal(r.sat.weights, r.sat_unmasked.weights))
                and not r.sat.blocked.any()
            ),
            quantifier=EVERY,
            sentence="so its row from step 3 stands",
        ),
    ),
)
