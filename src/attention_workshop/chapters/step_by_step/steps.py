"""Step by step, steps 1 to 4 for "sat": score, scale, softmax, weighted sum.

Each step is a section of results.log (``step_score``, ``step_scale``, ``step_softmax``,
``step_sum``); the arithmetic is :func:`attention_workshop.handcalc.by_hand`'s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...core import scaled_dot_product_attention
from ...handcalc import K_CAT, Q_CAT, V_CAT, WORDS, HandCalc, by_hand
from .._section import EVERY, FACT, Claim, Context, Fmt, Section

__all__ = [
    "SAT",
    "CAT",
    "Step",
    "StepSoftmax",
    "sum_lines",
    "STEP_SCORE",
    "STEP_SCALE",
    "STEP_SOFTMAX",
    "STEP_SUM",
]

# the rows the chapter computes by hand: "sat" in full, "cat" under the mask
SAT, CAT = (2, 1)


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


def _hand_gap(_: object = None) -> float:
    """The largest difference between a row computed by hand and the package's attention
    on the chapter's inputs, weights and outputs, with and without the mask."""
    from ... import (
        handcalc,  # looked up at call time, so a test can swap by_hand for a broken one
    )

    gap = 0.0
    for causal in (False, True):
        out, w = scaled_dot_product_attention(Q_CAT, K_CAT, V_CAT, causal=causal)
        for i in range(len(Q_CAT)):
            c = handcalc.by_hand(Q_CAT, K_CAT, V_CAT, i, causal=causal)
            gap = max(
                gap,
                float(np.abs(c.weights - w[i]).max()),
                float(np.abs(c.out - out[i]).max()),
            )
    return gap


def _hand_matches_package(_: object) -> bool:
    """Every row computed by hand equals the package's attention on the chapter's inputs."""
    return _hand_gap() <= 1e-15


STEP_SCORE = Section(
    "step_score",
    'Step by step, "the cat sat", 1: score',
    _score,
    claims=(
        Claim(
            "step.hand_equals_package",
            "the hand calculation equals the package's attention, row by row",
            _hand_matches_package,
            measure=_hand_gap,
            quantifier=EVERY,
            sentence="then checked against the package's attention function",
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
            quantifier=FACT,
            sentence="unrounded, the weights sum to {{ step_softmax.exact_sum }}",
        ),
        Claim(
            "step.rounded_weights_show_0999",
            "rounded to 3 decimals, sat's weights add to 0.999, and the log says so",
            lambda r: (
                r.rounded_sum == 0.999 and any("0.999" in line for line in r.note)
            ),
            quantifier=FACT,
            sentence="add up to {{ step_softmax.shown_sum }}, not 1",
        ),
    ),
)


# --------------------------------------------------------------------------- step 4


def sum_lines(f: Fmt, c: HandCalc, who: str) -> list[str]:
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
    ctx.log(*sum_lines(f, c, WORDS[SAT]), *_unrounded_note(f, c))
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
            quantifier=EVERY,
            sentence="is an exact half on both axes",
        ),
    ),
)
