"""handcalc.py, the maths of "the cat sat": by_hand, allowed_grid, attend and practice_runs.

Expected values come from outside the code under test: the three-decimal numbers of
seed 003's hand calculation, PyTorch's scaled_dot_product_attention in float64, and
formulas written out here. (The chapter's log lines and claims: test_step_by_step.py.)
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_workshop.handcalc import (
    K_CAT,
    Q_CAT,
    V_CAT,
    WORDS,
    allowed_grid,
    attend,
    by_hand,
    practice_runs,
)

from .references import torch_attention

# Seed 003, typed from its hand calculation: "sat" unmasked, "cat" under the causal mask.
SEED_SAT = {
    "raw": [1, 1, 2],
    "sqrt_dk": 1.414,
    "scaled": [0.707, 0.707, 1.414],
    "exps": [2.028, 2.028, 4.113],
    "total": 8.169,
    "weights": [0.248, 0.248, 0.503],
    "out": [0.500, 0.500],
}
SEED_CAT = {
    "scaled": [0.0, 0.707, -math.inf],
    "exps": [1.000, 2.028, 0.000],
    "total": 3.028,
    "weights": [0.330, 0.670, 0.000],
    "out": [0.330, 0.670],
}


def r3(x):
    return np.round(np.asarray(x, dtype=float), 3)


# --------------------------------------------------------------------------- the seed's numbers


def test_sat_by_hand_matches_the_seed_to_3_decimals():
    c = by_hand(Q_CAT, K_CAT, V_CAT, query=2)
    assert list(c.raw) == SEED_SAT["raw"], "step 1: raw scores of sat"
    assert round(c.sqrt_dk, 3) == SEED_SAT["sqrt_dk"], "step 2: sqrt(d_k)"
    assert list(r3(c.scaled)) == SEED_SAT["scaled"], "step 2: scaled scores"
    assert list(r3(c.exps)) == SEED_SAT["exps"], "step 3: exponentials"
    assert round(c.total, 3) == SEED_SAT["total"], "step 3: their sum"
    assert list(r3(c.weights)) == SEED_SAT["weights"], "step 3: weights"
    assert list(r3(c.out)) == SEED_SAT["out"], "step 4: output of sat"
    # the seed's terms: 0.248 x v1, 0.248 x v2, 0.503 x v3
    assert r3(c.terms).tolist() == [[0.248, 0.0], [0.0, 0.248], [0.252, 0.252]], (
        "step 4: terms"
    )


def test_cat_under_the_mask_matches_the_seed_to_3_decimals():
    c = by_hand(Q_CAT, K_CAT, V_CAT, query=1, causal=True)
    assert list(c.blocked) == [False, False, True]
    assert c.scaled[2] == -math.inf and list(r3(c.scaled[:2])) == SEED_CAT["scaled"][:2]
    assert list(r3(c.exps)) == SEED_CAT["exps"] and c.exps[2] == 0.0, (
        "exp(-inf) is exactly 0"
    )
    assert round(c.total, 3) == SEED_CAT["total"]
    assert list(r3(c.weights)) == SEED_CAT["weights"] and c.weights[2] == 0.0
    assert list(r3(c.out)) == SEED_CAT["out"]


def test_allowed_grid_is_the_lower_triangle():
    for T in (1, 3, 6):
        expected = np.array(
            [["X" if j <= i else "." for j in range(T)] for i in range(T)]
        )
        assert (allowed_grid(T) == expected).all(), f"T = {T}"


# --------------------------------------------------------------------------- against PyTorch


@pytest.mark.parametrize("causal", [False, True])
def test_by_hand_equals_pytorch_row_by_row(causal):
    rng = np.random.default_rng(3)
    for Q, K, V in (
        (Q_CAT, K_CAT, V_CAT),
        (
            rng.standard_normal((5, 3)),
            rng.standard_normal((5, 3)),
            rng.standard_normal((5, 4)),
        ),
    ):
        out, w = torch_attention(Q, K, V, causal)
        for i in range(len(Q)):
            c = by_hand(Q, K, V, i, causal=causal)
            np.testing.assert_allclose(
                c.weights,
                w[i],
                rtol=0,
                atol=1e-14,
                err_msg=f"weights row {i}, causal={causal}",
            )
            np.testing.assert_allclose(
                c.out,
                out[i],
                rtol=0,
                atol=1e-14,
                err_msg=f"output row {i}, causal={causal}",
            )


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("scaled", [False, True])
def test_attend_equals_pytorch(causal, scaled):
    rng = np.random.default_rng(4)
    Q, K, V = (
        rng.standard_normal((4, 3)),
        rng.standard_normal((4, 3)),
        rng.standard_normal((4, 2)),
    )
    out, w = attend(Q, K, V, causal=causal, scaled=scaled)
    t_out, t_w = torch_attention(Q, K, V, causal, scale=None if scaled else 1.0)
    np.testing.assert_allclose(out, t_out, rtol=0, atol=1e-14)
    np.testing.assert_allclose(w, t_w, rtol=0, atol=1e-14)


def test_practice_runs_against_pytorch_and_formulas():
    runs = practice_runs(np.random.default_rng(0))
    assert list(runs) == [
        "base",
        "no_mask",
        "strong_q3",
        "unscaled_x10",
        "scaled_x10",
        "random_v4",
    ]
    np.testing.assert_allclose(
        runs["base"].weights,
        torch_attention(Q_CAT, K_CAT, V_CAT, True)[1],
        rtol=0,
        atol=1e-15,
    )
    np.testing.assert_allclose(
        runs["no_mask"].weights,
        torch_attention(Q_CAT, K_CAT, V_CAT, False)[1],
        atol=1e-15,
    )
    # Experiment 1 by formula: "the" scores [1, 0, 1] / sqrt(2)
    e = math.exp(1 / math.sqrt(2))
    np.testing.assert_allclose(
        runs["no_mask"].weights[0],
        [e / (2 * e + 1), 1 / (2 * e + 1), e / (2 * e + 1)],
        atol=1e-15,
    )
    # Experiment 2 by formula: q3 = [5, 0] scores [5, 0, 5] / sqrt(2)
    assert runs["strong_q3"].Q[2].tolist() == [5.0, 0.0]
    e5 = math.exp(5 / math.sqrt(2))
    np.testing.assert_allclose(
        runs["strong_q3"].weights[2],
        [e5 / (2 * e5 + 1), 1 / (2 * e5 + 1), e5 / (2 * e5 + 1)],
        atol=1e-15,
    )
    # Experiment 3: Q x 10 with scale 1, and with the usual scale
    np.testing.assert_allclose(
        runs["unscaled_x10"].weights,
        torch_attention(Q_CAT * 10, K_CAT, V_CAT, True, scale=1.0)[1],
        atol=1e-15,
    )
    np.testing.assert_allclose(
        runs["scaled_x10"].weights,
        torch_attention(Q_CAT * 10, K_CAT, V_CAT, True)[1],
        atol=1e-15,
    )
    assert (runs["unscaled_x10"].weights.max(axis=1) > 0.999).all()
    # Experiment 4: random V of width 4, drawn from the generator it was given; PyTorch's weights do not see V
    V4 = np.random.default_rng(0).standard_normal((3, 4))
    np.testing.assert_array_equal(runs["random_v4"].V, V4)
    out4, _ = torch_attention(Q_CAT, K_CAT, V4, True)
    np.testing.assert_allclose(runs["random_v4"].out, out4, atol=1e-15)
    np.testing.assert_allclose(
        runs["random_v4"].weights,
        torch_attention(Q_CAT, K_CAT, V_CAT, True)[1],
        atol=1e-15,
    )
    assert runs["random_v4"].out.shape == (3, 4)


def test_sat_row_stands_under_the_mask():
    # PyTorch, float64: the causal row of the last word equals its unmasked row.
    _, w_free = torch_attention(Q_CAT, K_CAT, V_CAT, causal=False)
    _, w_mask = torch_attention(Q_CAT, K_CAT, V_CAT, causal=True)
    np.testing.assert_allclose(w_mask[2], w_free[2], rtol=0, atol=1e-15)
    c = by_hand(Q_CAT, K_CAT, V_CAT, 2, causal=True)
    np.testing.assert_allclose(c.weights, w_free[2], rtol=0, atol=1e-15)
    assert not c.blocked.any()


def test_the_inputs_are_the_seeds_and_read_only():
    assert WORDS == ("the", "cat", "sat")
    assert Q_CAT.tolist() == [[1, 0], [0, 1], [1, 1]] and K_CAT.tolist() == [
        [1, 0],
        [0, 1],
        [1, 1],
    ]
    assert V_CAT.tolist() == [[1, 0], [0, 1], [0.5, 0.5]]
    with pytest.raises(ValueError, match="read-only"):
        Q_CAT[0, 0] = 2.0


# --------------------------------------------------------------------------- errors


def test_bad_inputs_raise_readable_errors():
    with pytest.raises(ValueError, match=r"query must be a row of Q, 0 to 2"):
        by_hand(Q_CAT, K_CAT, V_CAT, query=3)
    with pytest.raises(ValueError, match=r"Q has shape \(3, 2\), K has shape \(3, 3\)"):
        by_hand(Q_CAT, np.ones((3, 3)), V_CAT, query=0)
    with pytest.raises(ValueError, match=r"K has shape \(3, 2\), V has shape \(2, 2\)"):
        by_hand(Q_CAT, K_CAT, V_CAT[:2], query=0)
    with pytest.raises(ValueError, match=r"got Q \(3, 2\), K \(3, 2\), V \(4, 2\)"):
        attend(Q_CAT, K_CAT, np.ones((4, 2)))
    with pytest.raises(ValueError, match=r"shape \(T, d\), got shape \(2,\)"):
        attend([1.0, 2.0], K_CAT, V_CAT)


def test_attend_on_empty_input_names_the_shapes():
    with pytest.raises(
        ValueError, match=r"got Q \(0, 2\), K \(0, 2\), V \(0, 2\)"
    ) as err:
        attend(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 2)))
    assert "causal_mask" not in str(err.value)
    with pytest.raises(ValueError, match=r"got Q \(3, 0\), K \(3, 0\), V \(3, 2\)"):
        attend(np.zeros((3, 0)), np.zeros((3, 0)), V_CAT)
