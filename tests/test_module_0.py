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
    ]
    assert results.show["softmax_shift"]["largest_x"] == "709.78"


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
}


def test_every_claim_of_the_chapter_holds(results):
    assert_claims_hold(results, module_0.SECTIONS)


def test_every_claim_of_the_chapter_has_a_break():
    assert set(BREAKS) == claim_keys(module_0.SECTIONS)


@pytest.mark.parametrize(("key", "brk"), cases(BREAKS))
def test_a_false_claim_fails_and_is_named(results, monkeypatch, key, brk):
    assert_break_fails(results, monkeypatch, key, brk)
