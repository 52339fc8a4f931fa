"""Step by step, "the cat sat": self-attention by hand, then four practice experiments.

Sections of results.log: ``step_score``, ``step_scale``, ``step_softmax``, ``step_sum``,
``step_causal`` (the five steps for "sat", and "cat" under the mask) and ``practice``.
The arithmetic is :mod:`attention_workshop.handcalc`'s; this chapter writes it out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import causal_mask, scaled_dot_product_attention
from ..handcalc import (
    K_CAT,
    Q_CAT,
    V_CAT,
    WORDS,
    HandCalc,
    PracticeRun,
    allowed_grid,
    by_hand,
    practice_runs,
)
from ._section import Claim, Context, Fmt, Section

__all__ = [
    "SAT",
    "CAT",
    "SEED_003",
    "Step",
    "StepSoftmax",
    "StepCausal",
    "Practice",
    "SECTIONS",
]

# the rows the chapter computes by hand: "sat" in full, "cat" under the mask
SAT, CAT = (2, 1)

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


def _sat() -> HandCalc:
    return by_hand(Q_CAT, K_CAT, V_CAT, SAT)


@dataclass(frozen=True)
class Step:
    """One step of the hand calculation of "sat"."""

    calc: HandCalc


# --------------------------------------------------------------------------- steps 1 and 2


def _dot_line(f: Fmt, c: HandCalc, j: int) -> str:
    terms = " + ".join(f"({f.num(a)} x {f.num(b)})" for a, b in zip(c.q, K_CAT[j]))
    return f"q{c.query + 1} . k{j + 1} = {terms} = {f.num(c.raw[j])}"


def _score(ctx: Context) -> Step:
    f, c = ctx.fmt, _sat()
    keys = ", ".join(
        f'k{j + 1} = {f.short_vec(k)} ("{w}")'
        for j, (k, w) in enumerate(zip(K_CAT, WORDS))
    )
    ctx.log(
        f'"{WORDS[SAT]}" asks with q{SAT + 1} = {f.short_vec(c.q)}', f"keys: {keys}"
    )
    ctx.log(
        *(f'{_dot_line(f, c, j)}    fit of "{WORDS[j]}"' for j in range(len(WORDS)))
    )
    ctx.log(f"raw scores: {f.short_vec(c.raw)}")
    ctx.show(raw=f.short_vec(c.raw), q=f.short_vec(c.q))
    return Step(c)


def _hand_matches_package(_: object) -> bool:
    """Every row computed by hand equals the package's attention on the chapter's inputs."""
    from .. import (
        handcalc,  # looked up at call time, so a test can swap by_hand for a broken one
    )

    ok = True
    for causal in (False, True):
        out, w = scaled_dot_product_attention(Q_CAT, K_CAT, V_CAT, causal=causal)
        for i in range(len(Q_CAT)):
            c = handcalc.by_hand(Q_CAT, K_CAT, V_CAT, i, causal=causal)
            ok &= bool(
                np.allclose(c.weights, w[i], rtol=0, atol=1e-15)
                and np.allclose(c.out, out[i], rtol=0, atol=1e-15)
            )
    return ok


STEP_SCORE = Section(
    "step_score",
    'Step by step, "the cat sat", 1: score',
    _score,
    claims=(
        Claim(
            "step.hand_equals_package",
            "the hand calculation equals the package's attention, row by row",
            _hand_matches_package,
        ),
    ),
)


def _scale(ctx: Context) -> Step:
    f, c = ctx.fmt, _sat()
    d_k = len(c.q)
    parts = ", ".join(f"{f.num(s)} / {f.num(c.sqrt_dk)}" for s in c.raw)
    ctx.log(
        f"d_k = {d_k}, so sqrt(d_k) = {f.num(c.sqrt_dk)}",
        f"scaled scores: [{parts}]",
        f"             = {f.vec(c.scaled)}",
    )
    ctx.show(sqrt_dk=f.num(c.sqrt_dk), scaled=f.vec(c.scaled), d_k=str(d_k))
    return Step(c)


STEP_SCALE = Section("step_scale", 'Step by step, "the cat sat", 2: scale', _scale)


# --------------------------------------------------------------------------- step 3


@dataclass(frozen=True)
class StepSoftmax:
    """Step 3 for "sat": the weights, what they add to when rounded to 3 decimals, and the note that says so."""

    calc: HandCalc
    rounded_sum: float
    # the lines results.log prints about the rounding (empty when nothing to say)
    note: tuple[str, ...]


def _rounding_note(values: np.ndarray, exact_total: float, what: str) -> list[str]:
    """A line saying so when values rounded to 3 decimals do not add up to the rounded total."""
    shown = math.fsum(round(float(v), 3) for v in values)
    if f"{shown:.3f}" == f"{exact_total:.3f}":
        return []
    return [
        f"note: rounded to 3 decimals, these {what} add to {shown:.3f};",
        f"      unrounded, they sum to {exact_total:.6f}",
        "      (the gap is rounding, no share is lost)",
    ]


def _softmax(ctx: Context) -> StepSoftmax:
    f, c = ctx.fmt, _sat()
    ctx.log(
        *(
            f'exp({f.num(s)}) = {f.num(e)}    ("{w}")'
            for s, e, w in zip(c.scaled, c.exps, WORDS)
        )
    )
    parts = ", ".join(f"{f.num(e)} / {f.num(c.total)}" for e in c.exps)
    ctx.log(
        f"sum = {f.num(c.total)}",
        f"weights = [{parts}]",
        f"        = {f.vec(c.weights)}",
    )
    note = _rounding_note(c.weights, math.fsum(c.weights), "weights")
    ctx.log(*note)
    shown_sum = math.fsum(round(float(w), 3) for w in c.weights)
    ctx.show(
        exps=f.vec(c.exps),
        total=f.num(c.total),
        weights=f.vec(c.weights),
        shown_sum=f"{shown_sum:.3f}",
        exact_sum=f"{math.fsum(c.weights):.6f}",
        pct_self=f"{100 * c.weights[SAT]:.0f}",
        pct_other=f"{100 * c.weights[0]:.0f}",
    )
    for j, w in enumerate(WORDS):
        ctx.show(**{f"exp_{w}": f.num(c.exps[j]), f"w_{w}": f.num(c.weights[j])})
    return StepSoftmax(c, shown_sum, tuple(note))


STEP_SOFTMAX = Section(
    "step_softmax",
    'Step by step, "the cat sat", 3: softmax',
    _softmax,
    claims=(
        Claim(
            "step.weights_sum_to_one",
            "unrounded, sat's weights sum to 1",
            lambda r: abs(float(np.sum(r.calc.weights)) - 1) <= 1e-15,
        ),
        Claim(
            "step.rounded_weights_show_0999",
            "rounded to 3 decimals, sat's weights add to 0.999, and the log says so",
            lambda r: (
                r.rounded_sum == 0.999 and any("0.999" in line for line in r.note)
            ),
        ),
    ),
)


# --------------------------------------------------------------------------- step 4


def _sum_lines(f: Fmt, c: HandCalc, who: str) -> list[str]:
    terms = " + ".join(f"{f.num(w)} x v{j + 1}" for j, w in enumerate(c.weights))
    width = max(len(f"{f.num(w)} x {f.short_vec(v)}") for w, v in zip(c.weights, V_CAT))
    lines = [f'output for "{who}" = {terms}']
    lines += [
        f"  {f'{f.num(w)} x {f.short_vec(v)}':<{width}} = {f.vec(t)}"
        for w, v, t in zip(c.weights, V_CAT, c.terms)
    ]
    return [*lines, f"  {'sum':<{width}} = {f.vec(c.out)}"]


def _unrounded_note(f: Fmt, c: HandCalc) -> list[str]:
    """Where a term's third decimal comes from the unrounded weight, one line that says so."""
    for w, v, t in zip(c.weights, V_CAT, c.terms):
        for x, y in zip(v, t):
            if x and f"{round(float(w), 3) * x:.3f}" != f"{y:.3f}":
                return [
                    f"(each term uses the unrounded weight: {w:.5f} x {f.num(x)} = {y:.5f}, shown as {y:.3f})"
                ]
    return []


def _weighted_sum(ctx: Context) -> Step:
    f, c = ctx.fmt, _sat()
    ctx.log(*_sum_lines(f, c, WORDS[SAT]), *_unrounded_note(f, c))
    ctx.show(out=f.vec(c.out), terms="; ".join(f.vec(t) for t in c.terms))
    return Step(c)


STEP_SUM = Section(
    "step_sum",
    'Step by step, "the cat sat", 4: weighted sum',
    _weighted_sum,
    claims=(
        Claim(
            "step.sat_output_is_half",
            "sat's output is one half on both axes",
            lambda r: bool(np.allclose(r.calc.out, 0.5, rtol=0, atol=1e-15)),
        ),
    ),
)


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
        *_sum_lines(f, c, WORDS[CAT]),
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
        ),
        Claim(
            "step.cat_future_is_zero",
            "under the mask, cat's weight on sat is exactly 0",
            lambda r: r.calc.weights[2] == 0.0 and r.calc.exps[2] == 0.0,
        ),
        Claim(
            "step.sat_row_stands",
            "under the mask, sat (the last word) keeps its row from step 3",
            lambda r: (
                r.sat_stands
                and bool(np.array_equal(r.sat.weights, r.sat_unmasked.weights))
                and not r.sat.blocked.any()
            ),
        ),
    ),
)


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
        ),
        Claim(
            "practice.strong_q3_ties",
            "with q3 = [5, 0], sat's attention splits evenly between 'the' and itself, and cat's share drops",
            _q3_ties,
        ),
        Claim(
            "practice.unscaled_x10_one_hot",
            "Q x 10 without the scaling: every row is nearly one-hot (largest weight above 0.999)",
            lambda r: bool(np.all(r.runs["unscaled_x10"].weights.max(axis=1) > 0.999)),
        ),
        Claim(
            "practice.scaling_softens_a_little",
            "keeping the division softens the rows, a little at d_k = 2",
            _scaling_softens,
        ),
        Claim(
            "practice.weights_ignore_v",
            "a random 4-number V changes the outputs' shape, never the weights",
            lambda r: r.weights_same and r.runs["random_v4"].out.shape == (3, 4),
        ),
    ),
)

SECTIONS: tuple[Section[Any], ...] = (
    STEP_SCORE,
    STEP_SCALE,
    STEP_SOFTMAX,
    STEP_SUM,
    STEP_CAUSAL,
    PRACTICE,
)
