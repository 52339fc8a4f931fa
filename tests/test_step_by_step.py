"""chapters/step_by_step.py, "the cat sat": lines and values, claims, and a break for each.

Expected values come from outside the chapter: seed 003's hand calculation (typed below from
the seed, to 3 decimals, with its lines as the seed writes them), PyTorch's attention in
float64, and the practice experiments' formulas written out here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_workshop import handcalc
from attention_workshop.chapters import step_by_step

from .breaks import assert_break_fails, assert_claims_hold, cases, claim_keys, edit, row
from .references import torch_attention

# Seed 003's inputs and its hand calculation: "sat" unmasked, "cat" under the causal mask.
Q = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
K = Q
V = [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]
SEED_SAT = {
    "raw": [1, 1, 2],
    "sqrt_dk": 1.414,
    "scaled": [0.707, 0.707, 1.414],
    "exps": [2.028, 2.028, 4.113],
    "total": 8.169,
    "weights": [0.248, 0.248, 0.503],
    "terms": [[0.248, 0.0], [0.0, 0.248], [0.252, 0.252]],
    "out": [0.500, 0.500],
}
SEED_CAT = {
    "exps": [1.000, 2.028, 0.000],
    "total": 3.028,
    "weights": [0.330, 0.670, 0.000],
    "out": [0.330, 0.670],
}


def r3(x) -> list:
    return np.round(np.asarray(x, dtype=float), 3).tolist()


def lines_of(results, key: str) -> list[str]:
    """A section's lines without its title and without the two-space indent of results.log."""
    return [line[2:] for line in results.excerpt(key)[1:]]


def test_the_chapters_copy_of_the_seed_is_the_seed():
    s = step_by_step.SEED_003
    assert (
        list(s["scaled"]) == SEED_SAT["scaled"] and s["sqrt_dk"] == SEED_SAT["sqrt_dk"]
    )
    assert list(s["exps"]) == SEED_SAT["exps"] and s["total"] == SEED_SAT["total"]
    assert (
        list(s["weights"]) == SEED_SAT["weights"] and list(s["out"]) == SEED_SAT["out"]
    )
    assert (
        list(s["cat_weights"]) == SEED_CAT["weights"]
        and list(s["cat_out"]) == SEED_CAT["out"]
    )
    assert s["cat_total"] == SEED_CAT["total"]
    assert (step_by_step.SAT, step_by_step.CAT) == (2, 1)


# --------------------------------------------------------------------------- steps 1 to 4, for "sat"


def test_step_1_score(results):
    c = results[step_by_step.STEP_SCORE].calc
    assert (
        c.query == 2
        and c.q.tolist() == [1.0, 1.0]
        and c.raw.tolist() == SEED_SAT["raw"]
    )
    assert (
        lines_of(results, "step_score")
        == [
            '"sat" asks with q3 = [1, 1]',
            'keys: k1 = [1, 0] ("the"), k2 = [0, 1] ("cat"), k3 = [1, 1] ("sat")',
            'q3 . k1 = (1 x 1) + (1 x 0) = 1    fit of "the"',  # the seed's lines, word for word
            'q3 . k2 = (1 x 0) + (1 x 1) = 1    fit of "cat"',
            'q3 . k3 = (1 x 1) + (1 x 1) = 2    fit of "sat"',
            "raw scores: [1, 1, 2]",
        ]
    )


def test_step_2_scale(results):
    c = results[step_by_step.STEP_SCALE].calc
    assert c.sqrt_dk == math.sqrt(2) and r3(c.scaled) == SEED_SAT["scaled"]
    assert lines_of(results, "step_scale") == [
        "d_k = 2, so sqrt(d_k) = 1.414",
        "scaled scores: [1 / 1.414, 1 / 1.414, 2 / 1.414]",
        "             = [0.707, 0.707, 1.414]",
    ]


def test_step_3_softmax(results):
    s = results[step_by_step.STEP_SOFTMAX]
    _, w = torch_attention(Q, K, V)
    np.testing.assert_allclose(s.calc.weights, w[2], rtol=0, atol=1e-15)
    assert (
        r3(s.calc.exps) == SEED_SAT["exps"]
        and round(s.calc.total, 3) == SEED_SAT["total"]
    )
    assert r3(s.calc.weights) == SEED_SAT["weights"]
    # the seed's rounded weights add to 0.999
    assert s.rounded_sum == round(sum(SEED_SAT["weights"]), 3) == 0.999
    lines = lines_of(results, "step_softmax")
    assert lines[:6] == [
        'exp(0.707) = 2.028    ("the")',
        'exp(0.707) = 2.028    ("cat")',
        'exp(1.414) = 4.113    ("sat")',
        "sum = 8.169",
        "weights = [2.028 / 8.169, 2.028 / 8.169, 4.113 / 8.169]",
        "        = [0.248, 0.248, 0.503]",
    ]
    assert lines[6:] == list(s.note) and "add to 0.999" in s.note[0]
    assert f"unrounded, they sum to {math.fsum(w[2]):.6f}" in s.note[1]
    show = results.show["step_softmax"]
    assert (show["shown_sum"], show["pct_self"], show["pct_other"]) == (
        "0.999",
        "50",
        "25",
    )


def test_step_4_weighted_sum(results):
    c = results[step_by_step.STEP_SUM].calc
    out, _ = torch_attention(Q, K, V)
    np.testing.assert_allclose(c.out, out[2], rtol=0, atol=1e-15)
    assert r3(c.terms) == SEED_SAT["terms"] and r3(c.out) == SEED_SAT["out"]
    assert lines_of(results, "step_sum") == [
        'output for "sat" = 0.248 x v1 + 0.248 x v2 + 0.503 x v3',
        "  0.248 x [1, 0]     = [0.248, 0.000]",
        "  0.248 x [0, 1]     = [0.000, 0.248]",
        "  0.503 x [0.5, 0.5] = [0.252, 0.252]",
        "  sum                = [0.500, 0.500]",
    ]


# --------------------------------------------------------------------------- step 5 and the practice


def test_step_5_causal(results):
    s = results[step_by_step.STEP_CAUSAL]
    out, w = torch_attention(Q, K, V, causal=True)
    np.testing.assert_array_equal(
        s.grid, [["X", ".", "."], ["X", "X", "."], ["X", "X", "X"]]
    )
    np.testing.assert_allclose(s.calc.weights, w[1], rtol=0, atol=1e-15)
    np.testing.assert_allclose(s.calc.out, out[1], rtol=0, atol=1e-15)
    assert (
        r3(s.calc.exps) == SEED_CAT["exps"]
        and round(s.calc.total, 3) == SEED_CAT["total"]
    )
    assert r3(s.calc.weights) == SEED_CAT["weights"] and s.calc.weights[2] == 0.0
    _, w_free = torch_attention(Q, K, V)
    # "sat" under the mask keeps its row
    np.testing.assert_allclose(s.sat.weights, w_free[2], rtol=0, atol=1e-15)
    assert s.sat_stands is True
    lines = lines_of(results, "step_causal")
    for expected in (
        "q2 . k1 = 0, q2 . k2 = 1, q2 . k3 = blocked",
        "scaled: [0 / 1.414, 1 / 1.414, -inf] = [0, 0.707, -inf]",
        "exp(0) = 1.000, exp(0.707) = 2.028, exp(-inf) = 0.000; sum = 3.028",
        "weights = [0.330, 0.670, 0.000]",
        "  sum            = [0.330, 0.670]",
        '"sat" under the mask blocks nothing: weights [0.248, 0.248, 0.503]',
        "(the same as step 3: True)",
    ):
        assert expected in lines, expected
    show = results.show["step_causal"]
    assert (show["blocked"], show["allowed"], show["pct_the"], show["pct_self"]) == (
        "3",
        "6",
        "33",
        "67",
    )


def test_practice(results):
    p = results[step_by_step.PRACTICE]
    runs = p.runs
    np.testing.assert_allclose(
        runs["base"].weights,
        torch_attention(Q, K, V, causal=True)[1],
        rtol=0,
        atol=1e-15,
    )
    np.testing.assert_allclose(
        runs["no_mask"].weights, torch_attention(Q, K, V)[1], rtol=0, atol=1e-15
    )
    # experiment 1 by formula: "the" scores [1, 0, 1] / sqrt(2)
    e = math.exp(1 / math.sqrt(2))
    np.testing.assert_allclose(
        runs["no_mask"].weights[0],
        [e / (2 * e + 1), 1 / (2 * e + 1), e / (2 * e + 1)],
        atol=1e-15,
    )
    # experiment 2 by formula: q3 = [5, 0] scores [5, 0, 5] / sqrt(2)
    e5 = math.exp(5 / math.sqrt(2))
    np.testing.assert_allclose(
        runs["strong_q3"].weights[2],
        [e5 / (2 * e5 + 1), 1 / (2 * e5 + 1), e5 / (2 * e5 + 1)],
        atol=1e-15,
    )
    # experiment 3: Q x 10 with scale 1, and with the usual scale
    x10 = np.array(Q) * 10
    np.testing.assert_allclose(
        runs["unscaled_x10"].weights,
        torch_attention(x10, K, V, True, scale=1.0)[1],
        atol=1e-15,
    )
    np.testing.assert_allclose(
        runs["scaled_x10"].weights, torch_attention(x10, K, V, True)[1], atol=1e-15
    )
    # experiment 4: V drawn from the seed, 4 numbers a word
    V4 = np.random.default_rng(0).standard_normal((3, 4))
    np.testing.assert_array_equal(runs["random_v4"].V, V4)
    out4, w4 = torch_attention(Q, K, V4, causal=True)
    np.testing.assert_allclose(runs["random_v4"].out, out4, rtol=0, atol=1e-15)
    np.testing.assert_allclose(runs["random_v4"].weights, w4, rtol=0, atol=1e-15)
    assert p.weights_same is True
    lines = lines_of(results, "practice")
    top = torch_attention(x10, K, V, True, scale=1.0)[1].max(axis=1)
    assert (
        "   largest weight in each row: " + ", ".join(f"{x:.5f}" for x in top) in lines
    )
    assert '2. q3 = [5, 0]: "sat" row [0.493, 0.014, 0.493]' in lines
    assert "   V (3, 4), weights (3, 3), out (3, 4)" in lines
    assert results.show["practice"]["the_sees_future"] == f"{e / (2 * e + 1):.3f}"


# --------------------------------------------------------------------------- claims and their breaks


def _hand_forgets_the_scaling(r, monkeypatch):
    """The hand calculation skips the division by sqrt(d_k): it no longer equals the package's attention."""
    original = handcalc.by_hand
    monkeypatch.setattr(
        handcalc,
        "by_hand",
        lambda Q, K, V, i, causal=False: original(
            np.asarray(Q) * np.sqrt(K.shape[1]), K, V, i, causal=causal
        ),
    )


def _scaling_softens_nothing(r, monkeypatch):
    """The division by sqrt(d_k) changes nothing: the scaled run is the unscaled one."""
    edit(
        "practice",
        "runs.scaled_x10",
        lambda run: r.data["practice"].runs["unscaled_x10"],
    )(r, monkeypatch)


BREAKS = {
    "step.hand_equals_package": (_hand_forgets_the_scaling,),
    "step.weights_sum_to_one": (
        edit("step_softmax", "calc.weights", lambda w: w * 1.001),
    ),
    "step.rounded_weights_show_0999": (
        edit("step_softmax", "rounded_sum", lambda s: 1.0),
        # the log says nothing about the rounding
        edit("step_softmax", "note", lambda n: ()),
    ),
    "step.sat_output_is_half": (
        edit("step_sum", "calc.out", lambda o: np.array([0.5, 0.6])),
    ),
    "step.seed_003": (
        # the seed's sum is 8.169
        edit("step_causal", "sat_unmasked.total", lambda t: 8.2),
        # the seed's sum for "cat" is 3.028
        edit("step_causal", "calc.total", lambda t: 3.1),
    ),
    "step.cat_future_is_zero": (
        # cat gives 0.1 to sat
        edit("step_causal", "calc.weights", lambda w: np.array([0.3, 0.6, 0.1])),
        edit("step_causal", "calc.exps", lambda e: np.array([e[0], e[1], 1.0])),
    ),
    "step.sat_row_stands": (
        edit("step_causal", "sat_stands", lambda s: False),
        edit("step_causal", "sat.weights", lambda w: np.array([0.3, 0.3, 0.4])),
        edit("step_causal", "sat.blocked", lambda b: np.array([False, False, True])),
    ),
    "practice.the_sees_the_future": (
        # "the" sees only itself
        edit("practice", "runs.no_mask.weights", lambda w: row(w, 0, [1.0, 0.0, 0.0])),
        # the masked start sees more
        edit("practice", "runs.base.weights", lambda w: row(w, 0, [0.9, 0.1, 0.0])),
    ),
    "practice.strong_q3_ties": (
        # no tie
        edit(
            "practice", "runs.strong_q3.weights", lambda w: row(w, 2, [0.6, 0.1, 0.3])
        ),
        # cat's share grows
        edit(
            "practice", "runs.strong_q3.weights", lambda w: row(w, 2, [0.25, 0.5, 0.25])
        ),
    ),
    "practice.unscaled_x10_one_hot": (
        edit(
            "practice",
            "runs.unscaled_x10.weights",
            lambda w: row(w, 1, [0.5, 0.5, 0.0]),
        ),
    ),
    "practice.scaling_softens_a_little": (
        _scaling_softens_nothing,
        # far more than a little
        edit(
            "practice", "runs.scaled_x10.weights", lambda w: row(w, 1, [0.4, 0.6, 0.0])
        ),
    ),
    "practice.weights_ignore_v": (
        edit("practice", "weights_same", lambda s: False),
        # the outputs do not take V's width
        edit("practice", "runs.random_v4.out", lambda o: o[:, :2]),
    ),
}


def test_every_claim_of_the_chapter_holds(results):
    assert_claims_hold(results, step_by_step.SECTIONS)


def test_every_claim_of_the_chapter_has_a_break():
    assert set(BREAKS) == claim_keys(step_by_step.SECTIONS)


@pytest.mark.parametrize(("key", "brk"), cases(BREAKS))
def test_a_false_claim_fails_and_is_named(results, monkeypatch, key, brk):
    assert_break_fails(results, monkeypatch, key, brk)
