"""chapters/module_0.py, "Words as vectors": its sections' lines and values, its claims, and a break for each.

Expected values come from outside the chapter: the vocabulary's tuples multiplied out in
plain Python, softmax written with ``math.exp``, and float64's limits from ``sys.float_info``.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest

from attention_workshop.chapters import module_0
from attention_workshop.toy import VOCAB

from .breaks import assert_break_fails, assert_claims_hold, cases, claim_keys, edit


def dot(a: str, b: str) -> float:
    return sum(x * y for x, y in zip(VOCAB[a], VOCAB[b]))


def softmax(xs: list[float]) -> list[float]:
    """Softmax by the textbook formula, shifted by the maximum, in plain Python."""
    e = [math.exp(x - max(xs)) if x != -math.inf else 0.0 for x in xs]
    return [v / sum(e) for v in e]


def _formulas(t) -> tuple[float, float]:
    """(log of the largest number, log of 2 over the smallest subnormal) of the type ``t``."""
    fi = np.finfo(t)
    return math.log(float(fi.max)), math.log(2) - math.log(float(fi.smallest_subnormal))


#: float64, float32, float16: what the formulas give, and the numbers of each type the package
#: should land on (the first one past each limit).
FORMULAS = [_formulas(t) for t in (np.float64, np.float32, np.float16)]
LIMITS = [(709.78, 745.13), (88.72, 103.97), (11.09, 17.34)]


def vec(v) -> str:
    return "[" + ", ".join(f"{x:.3f}" for x in v) + "]"


# --------------------------------------------------------------------------- vocabulary


def test_dot_terms_multiply_axis_by_axis():
    for a, b in (
        ("river", "bank"),
        ("savings", "bank"),
        ("the", "bank"),
        ("shore", "vault"),
    ):
        terms, total = module_0.dot_terms(a, b)
        expected = [x * y for x, y in zip(VOCAB[a], VOCAB[b])]
        assert terms.tolist() == expected, (a, b)
        assert math.isclose(total, sum(expected), abs_tol=1e-15), (a, b)
    assert module_0.dot_terms("the", "bank")[1] == 0.0, "nothing in common"


def test_vocabulary_section(results):
    v = results[module_0.VOCABULARY]
    assert v.pairs == (
        ("river", "bank"),
        ("savings", "bank"),
        ("river", "savings"),
        ("water", "fish"),
        ("the", "bank"),
    )
    for a, b in v.pairs:
        assert math.isclose(v.dots[f"{a}.{b}"], dot(a, b), abs_tol=1e-15), (a, b)
    lines = results.excerpt("vocabulary")[1:]
    assert lines[0] == "  dot products (how much two words point the same way):"
    assert lines[1:] == [f"    {a:>8} . {b:<8} = {dot(a, b):.2f}" for a, b in v.pairs]
    show = results.show["vocabulary"]
    assert (
        show["dot_river_bank"] == "0.70"
        and show["dot_savings_bank"] == "0.50"
        and show["dot_the_bank"] == "0.00"
    )


# --------------------------------------------------------------------------- softmax


def test_softmax_naive_is_the_formula_and_overflows():
    np.testing.assert_allclose(
        module_0.softmax_naive(np.array([2.0, 1.0, 0.0])),
        softmax([2, 1, 0]),
        rtol=0,
        atol=1e-15,
    )
    assert np.isnan(module_0.softmax_naive(np.array([1000.0, 999.0, 998.0]))).all(), (
        "exp(1000) / inf is NaN"
    )


def test_softmax_section(results):
    s = results[module_0.SOFTMAX]
    np.testing.assert_allclose(s.w_small, softmax([2, 1, 0]), rtol=0, atol=1e-15)
    np.testing.assert_allclose(s.w_zero, softmax([2, 0, 0]), rtol=0, atol=1e-15)
    np.testing.assert_allclose(
        s.w_silenced, softmax([2, 0, -math.inf]), rtol=0, atol=1e-15
    )
    assert s.w_silenced[2] == 0.0
    assert np.isnan(s.naive_big).all()
    np.testing.assert_allclose(s.w_big, softmax([1000, 999, 998]), rtol=0, atol=1e-15)
    assert 0 <= s.naive_vs_stable_small <= 2 * sys.float_info.epsilon
    lines = results.excerpt("softmax")[1:]
    assert (
        lines[0] == f"  scores [2, 1, 0]    -> {vec(softmax([2, 1, 0]))}  sum 1.000000"
    )
    assert (
        lines[1]
        == f"  scores [2, 0, 0]    -> {vec(softmax([2, 0, 0]))}  a 0 still gets a share"
    )
    assert (
        lines[2]
        == f"  scores [2, 0, -inf] -> {vec(softmax([2, 0, -math.inf]))}  -inf gets exactly 0"
    )
    assert lines[3].startswith(
        "  naive vs max-subtracted on [2, 1, 0]: max |difference| = "
    )
    assert (
        lines[4]
        == "  [1000, 999, 998], naive formula  -> [nan, nan, nan]  exp overflows"
    )
    assert (
        lines[5]
        == f"  [1000, 999, 998], max subtracted -> {vec(softmax([1000, 999, 998]))}"
    )
    assert results.show["softmax"]["zero_share"] == f"{softmax([2, 0, 0])[1]:.3f}"


def test_softmax_shift_section(results):
    s = results[module_0.SOFTMAX_SHIFT]
    np.testing.assert_allclose(s.equal, [1 / 3] * 3, rtol=0, atol=1e-16)
    assert s.identical is True
    assert s.exp_1000 == math.inf
    assert math.isclose(s.largest_x, math.log(sys.float_info.max), rel_tol=1e-15)
    assert math.isfinite(math.exp(s.largest_x - 1e-9))
    with pytest.raises(OverflowError):
        math.exp(s.largest_x + 1e-3)
    assert results.excerpt("softmax_shift")[1:] == [
        "  scores [0, 0, 0] -> weights [0.333, 0.333, 0.333]  (equal shares)",
        "  minus its maximum, [1000, 999, 998] is [0, -1, -2]; so is [2, 1, 0]",
        "  softmax([1000, 999, 998]) == softmax([2, 1, 0]), bit for bit: True",
        f"  exp(1000) in float64 = inf; the largest finite exp(x) is at x = {math.log(sys.float_info.max):.2f}",
        "  largest x with exp(x) finite; smallest g with exp(-g) == 0:",
        *(
            f"    {t}  x = {x:>6.2f}  g = {g:>6.2f}"
            for t, (x, g) in zip(("float64", "float32", "float16"), LIMITS)
        ),
    ]
    show = results.show["softmax_shift"]
    assert show["largest_x"] == "709.78"
    for t, (x, g) in zip(("float64", "float32", "float16"), LIMITS):
        assert (show[f"exp_{t}"], show[f"gap_{t}"]) == (f"{x:.2f}", f"{g:.2f}"), t


def test_softmax_shift_limits_are_the_types_own(results):
    """Each limit within one step of its formula: log(max), and log(2 / smallest subnormal)."""
    limits = results[module_0.SOFTMAX_SHIFT].limits
    assert list(limits) == ["float64", "float32", "float16"]
    for (x, g), (x_formula, g_formula) in zip(limits.values(), FORMULAS):
        assert abs(x - x_formula) < 0.01 and abs(g - g_formula) < 0.02, (x, g)
    for t, w in results[module_0.SOFTMAX_SHIFT].silenced.items():
        assert w.dtype == np.dtype(t), t
        assert w[0].tolist() == [1.0, 0.0], f"{t}: the gap silences the second score"
        assert 0 < w[1, 1] <= np.finfo(t).smallest_subnormal, (
            f"{t}: one step less does not"
        )


# --------------------------------------------------------------------------- claims and their breaks

#: How each claim of Module 0 is made false (the comment says which sentence stops being true).
BREAKS = {
    # the shares add to 1.1
    "softmax.sums_to_one": (edit("softmax", "w_small", lambda w: w * 1.1),),
    # zeros get nothing
    "softmax.zero_gets_share": (
        edit("softmax", "w_zero", lambda w: np.array([1.0, 0.0, 0.0])),
        # only the second zero loses its share: "the two zeros each get" is false
        edit("softmax", "w_zero", lambda w: np.array([0.9, 0.1, 0.0])),
    ),
    # -inf gets a sliver
    "softmax.neg_inf_is_zero": (edit("softmax", "w_silenced", lambda w: w + 1e-300),),
    # finite
    "softmax.naive_overflows": (
        edit("softmax", "naive_big", lambda w: np.array([0.665, 0.245, 0.090])),
    ),
    "softmax.max_trick_changes_nothing": (
        # the two formulas disagree on small scores
        edit("softmax", "naive_vs_stable_small", lambda d: 1e-3),
        # the stable one overflows too
        edit("softmax", "w_big", lambda w: np.array([np.nan, np.nan, np.nan])),
    ),
    "softmax_shift.equal_shares": (
        edit("softmax_shift", "equal", lambda w: np.array([0.5, 0.25, 0.25])),
    ),
    "softmax_shift.shift_changes_nothing": (
        edit("softmax_shift", "identical", lambda s: False),
    ),
    "softmax_shift.exp_overflows": (
        # exp(1000) stays finite
        edit("softmax_shift", "exp_1000", lambda e: sys.float_info.max),
        edit("softmax_shift", "largest_x", lambda x: 1000.5),  # finite past 1000
    ),
    # float32 holding exp as far as float64
    "softmax_shift.smaller_types_overflow_sooner": (
        edit(
            "softmax_shift",
            "limits",
            lambda d: {**d, "float32": (d["float64"][0], d["float32"][1])},
        ),
    ),
    "softmax_shift.far_below_is_zero": (
        # float32's gap leaves a sliver
        edit(
            "softmax_shift",
            "silenced",
            lambda d: {
                **d,
                "float32": np.array([[1.0, 1e-45], [1.0, 1e-45]], np.float32),
            },
        ),
        # float16's gap is one step too short: the step below it gives 0 already
        edit(
            "softmax_shift",
            "silenced",
            lambda d: {**d, "float16": np.array([[1.0, 0.0], [1.0, 0.0]], np.float16)},
        ),
    ),
}


def test_every_claim_of_the_chapter_holds(results):
    assert_claims_hold(results, module_0.SECTIONS)


def test_every_claim_of_the_chapter_has_a_break():
    assert set(BREAKS) == claim_keys(module_0.SECTIONS)


@pytest.mark.parametrize(("key", "brk"), cases(BREAKS))
def test_a_false_claim_fails_and_is_named(results, monkeypatch, key, brk):
    assert_break_fails(results, monkeypatch, key, brk)
