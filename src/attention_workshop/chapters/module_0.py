"""Module 0, "Words as vectors": the toy vocabulary, the dot product, and softmax.

Sections of results.log: ``vocabulary`` (dot products of word pairs), ``softmax`` (scores
to weights, the -inf and overflow cases), ``softmax_shift`` (equal shares, the shift, and
where ``exp`` overflows, and the gap below the maximum that already gives a weight of 0, in
float64, float32 and float16).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core import softmax
from ..floats import DTYPES, exp_limit, zero_gap
from ..toy import embed
from ._section import EVERY, FACT, Claim, Context, Section
from .may_differ import NAIVE_VS_STABLE

__all__ = [
    "PAIRS",
    "PLOTTED",
    "Vocabulary",
    "SoftmaxDemo",
    "SoftmaxShift",
    "dot_terms",
    "softmax_naive",
    "SECTIONS",
]

#: The word pairs whose dot products Module 0 compares.
PAIRS: tuple[tuple[str, str], ...] = (
    ("river", "bank"),
    ("savings", "bank"),
    ("river", "savings"),
    ("water", "fish"),
    ("the", "bank"),
)
#: The words Module 0's figure draws on its first two axes (water, money).
PLOTTED: tuple[str, ...] = ("river", "boat", "savings", "vault", "bank", "the")


def dot_terms(a: str, b: str) -> tuple[np.ndarray, float]:
    """The dot product of two words, axis by axis: ``(terms (d_model,), total)``."""
    x, y = embed([a, b])  # (2, d_model)
    terms = x * y  # (d_model,)
    return terms, math.fsum(terms)


def softmax_naive(x: np.ndarray) -> np.ndarray:
    """Softmax straight from the formula, without subtracting the maximum (overflows)."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(np.asarray(x, dtype=np.float64))
        return e / e.sum()


# --------------------------------------------------------------------------- vocabulary


@dataclass(frozen=True)
class Vocabulary:
    """Dot products of :data:`PAIRS`: ``dots["river.bank"]`` is river · bank; ``points`` are the
    :data:`PLOTTED` words on the first two axes (water, money), ``(water, money)`` each."""

    pairs: tuple[tuple[str, str], ...]
    dots: dict[str, float]
    plotted: tuple[str, ...] = PLOTTED
    points: dict[str, tuple[float, float]] = field(default_factory=dict)


def _vocabulary(ctx: Context) -> Vocabulary:
    f = ctx.fmt
    dots = {f"{a}.{b}": float(embed([a])[0] @ embed([b])[0]) for a, b in PAIRS}
    ctx.log("dot products (how much two words point the same way):")
    for a, b in PAIRS:
        ctx.log(f"  {a:>8} . {b:<8} = {f.fixed(dots[f'{a}.{b}'], 2)}")
    ctx.show(**{f"dot_{a}_{b}": f.fixed(dots[f"{a}.{b}"], 2) for a, b in PAIRS})
    X = embed(PLOTTED)  # (n, d_model)
    points = {w: (float(x[0]), float(x[1])) for w, x in zip(PLOTTED, X)}
    return Vocabulary(PAIRS, dots, PLOTTED, points)


# --------------------------------------------------------------------------- softmax


@dataclass(frozen=True)
class SoftmaxDemo:
    """Softmax on small scores, a zero, a -inf, and scores near 1000 (naive and stable)."""

    w_small: np.ndarray  # softmax([2, 1, 0])
    w_zero: np.ndarray  # softmax([2, 0, 0])
    w_silenced: np.ndarray  # softmax([2, 0, -inf])
    naive_big: np.ndarray  # the naive formula on [1000, 999, 998]: NaN
    w_big: np.ndarray  # softmax([1000, 999, 998])
    naive_vs_stable_small: float  # max |naive - stable| on [2, 1, 0]


def _softmax(ctx: Context) -> SoftmaxDemo:
    f = ctx.fmt
    small, big = np.array([2.0, 1.0, 0.0]), np.array([1000.0, 999.0, 998.0])
    w_small, w_zero = softmax(small), softmax(np.array([2.0, 0.0, 0.0]))
    w_sil = softmax(np.array([2.0, 0.0, -np.inf]))
    naive_big, w_big = softmax_naive(big), softmax(big)
    same_small = float(np.max(np.abs(softmax_naive(small) - w_small)))
    ctx.log(
        f"scores [2, 1, 0]    -> {f.vec(w_small)}  sum {f.fixed(w_small.sum(), 6)}",
        f"scores [2, 0, 0]    -> {f.vec(w_zero)}  a 0 still gets a share",
        f"scores [2, 0, -inf] -> {f.vec(w_sil)}  -inf gets exactly 0",
        f"naive vs max-subtracted on [2, 1, 0]: max |difference| = {f.sci(same_small)}",
        f"[1000, 999, 998], naive formula  -> {f.vec(naive_big)}  exp overflows",
        f"[1000, 999, 998], max subtracted -> {f.vec(w_big)}",
    )
    ctx.show(
        w_small=f.vec(w_small),
        zero_share=f.fixed(w_zero[1]),
        w_big=f.vec(w_big),
        naive_vs_stable_small=f.sci(same_small),
        exp_1000="inf",
    )
    return SoftmaxDemo(w_small, w_zero, w_sil, naive_big, w_big, same_small)


# --------------------------------------------------------------------------- the shift


@dataclass(frozen=True)
class SoftmaxShift:
    """Equal scores, a shift by a constant, and where floating point runs out.

    ``limits`` maps each type's name (``"float32"``) to ``(exp_limit, zero_gap)``, the largest
    ``x`` with a finite ``exp(x)`` and the smallest gap with ``exp(-gap) == 0``; ``silenced``
    to the package's softmax of ``[0, -zero_gap]`` and ``[0, -(the number just below it)]``
    in that type, ``(2, 2)``.
    """

    equal: np.ndarray  # softmax([0, 0, 0])
    identical: bool  # softmax([1000, 999, 998]) == softmax([2, 1, 0]) bit for bit
    exp_1000: float  # exp(1000) in float64: inf
    largest_x: float  # log of the largest float64
    limits: dict[str, tuple[float, float]] = field(default_factory=dict)
    silenced: dict[str, np.ndarray] = field(default_factory=dict)


def _silenced(dtype: type[np.floating], gap: float) -> np.ndarray:
    """softmax([0, -gap]) and softmax([0, -(the number of ``dtype`` just below gap)]): (2, 2)."""
    g = dtype(gap)
    below = np.nextafter(g, dtype(0))
    return np.stack([softmax(np.array([0, -x], dtype)) for x in (g, below)])


def _softmax_shift(ctx: Context) -> SoftmaxShift:
    f = ctx.fmt
    equal = softmax(np.zeros(3))
    small, big = (
        softmax(np.array([2.0, 1.0, 0.0])),
        softmax(np.array([1000.0, 999.0, 998.0])),
    )
    identical = bool(np.array_equal(small, big))
    largest = math.log(np.finfo(np.float64).max)  # the largest x with a finite exp(x)
    with np.errstate(over="ignore"):
        e1000 = float(np.exp(np.float64(1000.0)))
    limits = {np.dtype(t).name: (exp_limit(t), zero_gap(t)) for t in DTYPES}
    silenced = {
        np.dtype(t).name: _silenced(t, limits[np.dtype(t).name][1]) for t in DTYPES
    }
    ctx.log(
        f"scores [0, 0, 0] -> weights [{', '.join(f.fixed(x) for x in equal)}]  (equal shares)",
        "minus its maximum, [1000, 999, 998] is [0, -1, -2]; so is [2, 1, 0]",
        f"softmax([1000, 999, 998]) == softmax([2, 1, 0]), bit for bit: {identical}",
        f"exp(1000) in float64 = {e1000}; the largest finite exp(x) is at x = {largest:.2f}",
        "largest x with exp(x) finite; smallest g with exp(-g) == 0:",
        *(
            f"  {t}  x = {f.fixed(x, 2):>6}  g = {f.fixed(g, 2):>6}"
            for t, (x, g) in limits.items()
        ),
    )
    ctx.show(
        equal_share=f.fixed(equal[0]),
        identical=str(identical),
        exp_1000=str(e1000),
        largest_x=f"{largest:.2f}",
        **{f"exp_{t}": f.fixed(x, 2) for t, (x, _) in limits.items()},
        **{f"gap_{t}": f.fixed(g, 2) for t, (_, g) in limits.items()},
    )
    return SoftmaxShift(equal, identical, e1000, largest, limits, silenced)


# --------------------------------------------------------------------------- sections and claims

VOCABULARY = Section(
    "vocabulary", "Module 0: words as vectors, and the dot product", _vocabulary
)

SOFTMAX = Section(
    "softmax",
    "Module 0: softmax, and why the maximum is subtracted first",
    _softmax,
    claims=(
        Claim(
            "softmax.sums_to_one",
            "softmax's weights sum to 1",
            lambda r: bool(np.isclose(r.w_small.sum(), 1.0, rtol=0, atol=1e-12)),
            quantifier=FACT,
            sentence="and the shares add up to 1",
        ),
        Claim(
            "softmax.zero_gets_share",
            "a zero score still gets a share (e^0 = 1): both zeros of [2, 0, 0]",
            lambda r: bool((r.w_zero[1:] > 0).all()),
            quantifier=EVERY,
            sentence="the two zeros each get",
        ),
        Claim(
            "softmax.neg_inf_is_zero",
            "a score of -inf gets exactly 0",
            lambda r: bool(r.w_silenced[2] == 0.0),
            quantifier=FACT,
            sentence="gets a share of exactly 0",
        ),
        Claim(
            "softmax.naive_overflows",
            "the naive formula overflows on scores near 1000",
            lambda r: bool(np.isnan(r.naive_big).any()),
            quantifier=FACT,
            sentence="divides infinity by infinity",
        ),
        Claim(
            "softmax.max_trick_changes_nothing",
            "subtracting the maximum changes nothing but overflow",
            lambda r: (
                r.naive_vs_stable_small <= NAIVE_VS_STABLE
                and bool(np.isfinite(r.w_big).all())
            ),
            quantifier=EVERY,
            sentence="the shortcut and the textbook formula differ by at most {{ softmax.naive_vs_stable_small }}",
        ),
    ),
)

SOFTMAX_SHIFT = Section(
    "softmax_shift",
    "Module 0: equal shares, the shift, where exp overflows",
    _softmax_shift,
    claims=(
        Claim(
            "softmax_shift.equal_shares",
            "equal scores get equal shares",
            lambda r: bool(np.allclose(r.equal, 1 / 3, rtol=0, atol=1e-15)),
            quantifier=EVERY,
            sentence="Equal scores always share equally",
        ),
        Claim(
            "softmax_shift.shift_changes_nothing",
            "softmax([1000, 999, 998]) equals softmax([2, 1, 0]) bit for bit",
            lambda r: r.identical,
            quantifier=EVERY,
            sentence="so their shares are identical to the last bit",
        ),
        Claim(
            "softmax_shift.exp_overflows",
            "exp(1000) overflows to inf; exp stays finite only below about 709.78",
            lambda r: bool(np.isposinf(r.exp_1000)) and 700 < r.largest_x < 1000,
            quantifier=FACT,
            sentence="comes out as `{{ softmax_shift.exp_1000 }}`",
        ),
        Claim(
            "softmax_shift.smaller_types_overflow_sooner",
            "exp overflows far sooner in float32 and float16 than in float64",
            lambda r: (
                r.limits["float16"][0] < r.limits["float32"][0] < r.limits["float64"][0]
            ),
            measure=lambda r: {t: x for t, (x, _) in r.limits.items()},
            quantifier=FACT,
            sentence="their limits come much sooner",
        ),
        Claim(
            "softmax_shift.far_below_is_zero",
            "a score zero_gap or more below the row's largest gets a weight of exactly 0, "
            "and one just less far below does not, in every type",
            lambda r: all(w[0, 1] == 0 and w[1, 1] > 0 for w in r.silenced.values()),
            measure=lambda r: {t: w[:, 1] for t, w in r.silenced.items()},
            quantifier=EVERY,
            sentence="{{ softmax_shift.gap_float64 }} or more below it gets a share of exactly 0",
        ),
    ),
)

SECTIONS: tuple[Section[Any], ...] = (VOCABULARY, SOFTMAX, SOFTMAX_SHIFT)
