"""Step by step, the practice session: the starting run and the four experiments.

The section ``practice`` runs :func:`attention_workshop.handcalc.practice_runs` and writes each
experiment's weights, with the claims the chapter's practice prose makes about them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...handcalc import WORDS, PracticeRun, practice_runs
from .._section import EVERY, FACT, Claim, Context, Fmt, Section
from .steps import SAT

__all__ = ["Practice", "PRACTICE"]


# --------------------------------------------------------------------------- practice


@dataclass(frozen=True)
class Practice:
    """The starting run and the four experiments (:func:`attention_workshop.handcalc.practice_runs`)."""

    runs: dict[str, PracticeRun]
    weights_same: bool  # experiment 4: a random V leaves the weights as they were


def _rows(f: Fmt, w: np.ndarray) -> list[str]:
    return ["  " + line for line in f.table(w, WORDS, WORDS, width=7, label_width=8)]


def _practice(ctx: Context) -> Practice:
    f = ctx.fmt
    runs = practice_runs(np.random.default_rng(ctx.seed))
    base, nm, sq, ux, sx, rv = (
        runs[k]
        for k in (
            "base",
            "no_mask",
            "strong_q3",
            "unscaled_x10",
            "scaled_x10",
            "random_v4",
        )
    )
    top, top_scaled = ux.weights.max(axis=1), sx.weights.max(axis=1)
    same = bool(np.array_equal(rv.weights, base.weights))
    ctx.log(
        "the starting run (causal): weights, row = who is looking",
        *_rows(f, base.weights),
        "1. causal=False: weights",
        *_rows(f, nm.weights),
        f'   "{WORDS[0]}" now sees {f.vec(nm.weights[0])} (it was {f.vec(base.weights[0])})',
        f'2. q3 = {f.short_vec(sq.Q[SAT])}: "{WORDS[SAT]}" row {f.vec(sq.weights[SAT])}',
        f"   (it was {f.vec(base.weights[SAT])})",
        "3. Q x 10, no division by sqrt(d_k): weights",
        *_rows(f, ux.weights),
        f"   largest weight in each row: {', '.join(f'{x:.5f}' for x in top)}",
        f"   the same Q x 10 with the division kept: {', '.join(f'{x:.5f}' for x in top_scaled)}",
        f"4. V random (seed-drawn), {rv.V.shape[1]} numbers per word:",
        f"   V {rv.V.shape}, weights {rv.weights.shape}, out {rv.out.shape}",
        f"   the weights are the same as with the first V: {same}",
    )
    ctx.show(
        the_sees=f.vec(nm.weights[0]),
        the_sees_future=f.fixed(nm.weights[0, 2], 3),
        sat_strong=f.vec(sq.weights[SAT]),
        cat_share_strong=f.fixed(sq.weights[SAT, 1], 3),
        top_min_unscaled=f"{top.min():.5f}",
        top_min_scaled_x10=f"{top_scaled.min():.5f}",
        sat_unscaled=f"{top[SAT]:.5f}",
        sat_scaled_x10=f"{sx.weights[SAT].max():.5f}",
        out_shape=str(rv.out.shape),
        v_shape=str(rv.V.shape),
        w_shape=str(rv.weights.shape),
        weights_same=str(same),
    )
    return Practice(runs, same)


def _q3_ties(r: Practice) -> bool:
    w, base = r.runs["strong_q3"].weights, r.runs["base"].weights
    return bool(np.isclose(w[2, 0], w[2, 2], rtol=0, atol=1e-15)) and bool(
        w[2, 1] < base[2, 1]
    )


def _scaling_softens(r: Practice) -> bool:
    scaled, unscaled = (
        r.runs["scaled_x10"].weights.max(axis=1),
        r.runs["unscaled_x10"].weights.max(axis=1),
    )
    return bool(np.all(scaled[1:] < unscaled[1:])) and bool(np.all(scaled > 0.99))


PRACTICE = Section(
    "practice",
    'Step by step, "the cat sat": the four practice experiments',
    _practice,
    claims=(
        Claim(
            "practice.the_sees_the_future",
            "without the mask, 'the' gives weight to 'sat', a word after it",
            lambda r: (
                r.runs["no_mask"].weights[0, 2] > 0
                and r.runs["base"].weights[0, 0] == 1.0
            ),
            quantifier=FACT,
            sentence='it gives {{ practice.the_sees_future }} to "sat", a word that comes after it',
        ),
        Claim(
            "practice.strong_q3_ties",
            "with q3 = [5, 0], sat's attention splits evenly between 'the' and itself, and cat's share drops",
            _q3_ties,
            quantifier=FACT,
            sentence='"sat" now splits {{ practice.sat_strong }}',
        ),
        Claim(
            "practice.unscaled_x10_one_hot",
            "Q x 10 without the scaling: every row is nearly one-hot (largest weight above 0.999)",
            lambda r: bool(np.all(r.runs["unscaled_x10"].weights.max(axis=1) > 0.999)),
            quantifier=EVERY,
            sentence="Every row is now nearly one-hot",
        ),
        Claim(
            "practice.scaling_softens_a_little",
            "keeping the division softens the rows, a little at d_k = 2",
            _scaling_softens,
            quantifier=EVERY,
            sentence='the row of "sat" only relaxes from',
        ),
        Claim(
            "practice.weights_ignore_v",
            "a random 4-number V changes the outputs' shape, never the weights",
            lambda r: r.weights_same and r.runs["random_v4"].out.shape == (3, 4),
            quantifier=EVERY,
            sentence="The weights themselves do not change at all",
        ),
    ),
)
