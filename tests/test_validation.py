"""validation.py: what the maths accepts, and the errors a reader gets otherwise.

The public functions of core.py reach these checks (tests/test_core.py shows their errors end to
end); here each check is shown on its own, with inputs written out by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from attention_workshop.validation import (
    as_float,
    check_gpt2_layer,
    check_head,
    check_qkv,
    check_scores,
    need_bool,
    need_ndim,
)


def test_as_float_keeps_floats_and_widens_the_rest():
    assert as_float("x", np.ones(2, dtype=np.float32)).dtype == np.float32
    assert as_float("x", [1, 2]).dtype == np.float64
    assert as_float("x", [True, False]).tolist() == [1.0, 0.0]
    with pytest.raises(
        ValueError, match=r"x must be an array of numbers, got dtype <U1"
    ):
        as_float("x", ["a"])


def test_need_bool_and_need_ndim_name_what_they_got():
    assert need_bool("causal", np.bool_(True)) is True
    with pytest.raises(ValueError, match=r"causal must be True or False, got 1"):
        need_bool("causal", 1)
    need_ndim("X", np.zeros((2, 3)), 2, "(T, d_model)")
    with pytest.raises(
        ValueError, match=r"X must have shape \(T, d_model\), got shape \(3,\)"
    ):
        need_ndim("X", np.zeros(3), 2, "(T, d_model)")


@pytest.mark.parametrize(
    ("x", "axis", "message"),
    [
        (np.zeros(3), 1, r"axis 1 does not exist for scores of shape \(3,\)"),
        (np.zeros((2, 0)), -1, r"at least one score along axis -1, got shape \(2, 0\)"),
        (np.array([1.0, np.nan]), -1, r"NaN or \+inf"),
        (np.array([-np.inf, -np.inf]), -1, r"all -inf"),
        (np.zeros(3), 0.5, r"axis must be a whole number"),
        (np.float64(1.0), -1, r"got a scalar"),
    ],
)
def test_check_scores_refuses_what_softmax_cannot_share(x, axis, message):
    with pytest.raises(ValueError, match=message):
        check_scores(x, axis)


def test_check_qkv_gives_one_dtype_and_names_the_shapes_that_clash():
    Q = np.zeros((2, 3, 4), dtype=np.float32)
    K = np.zeros((5, 4), dtype=np.float32)
    V = np.zeros((5, 6), dtype=np.float64)
    out = check_qkv(Q, K, V)
    assert [a.dtype for a in out] == [np.float64] * 3
    assert [a.shape for a in out] == [(2, 3, 4), (5, 4), (5, 6)]
    with pytest.raises(ValueError, match=r"Q has shape \(3, 4\), K has shape \(5, 2\)"):
        check_qkv(np.zeros((3, 4)), np.zeros((5, 2)), V)
    with pytest.raises(ValueError, match=r"K has shape \(5, 4\), V has shape \(4, 6\)"):
        check_qkv(Q, K, np.zeros((4, 6)))
    with pytest.raises(ValueError, match=r"V must have shape \(\.\.\., S, d_v\)"):
        check_qkv(Q, K, np.zeros(5))
    with pytest.raises(ValueError, match=r"leading \(batch\) sizes"):
        check_qkv(Q, np.zeros((3, 5, 4)), np.zeros((3, 5, 6)))


def test_check_head_names_both_shapes():
    X, W = np.zeros((3, 4)), np.zeros((4, 2))
    out = check_head(X, W, W, np.zeros((4, 5)))
    assert [a.shape for a in out] == [(3, 4), (4, 2), (4, 2), (4, 5)]
    with pytest.raises(
        ValueError, match=r"X has shape \(3, 4\) \(d_model 4\), W_Q has shape \(5, 2\)"
    ):
        check_head(X, np.zeros((5, 2)), W, W)


def test_check_gpt2_layer_wants_gpt2s_layout():
    C = 4
    x, good = (
        np.zeros((2, C)),
        (np.zeros((C, 3 * C)), np.zeros(3 * C), np.zeros((C, C)), np.zeros(C)),
    )
    assert check_gpt2_layer(x, *good, 2)[1].shape == (C, 3 * C)
    with pytest.raises(
        ValueError, match=r"n_head must divide the width C: .* \(C = 4\), n_head = 3"
    ):
        check_gpt2_layer(x, *good, 3)
    with pytest.raises(
        ValueError, match=r"c_proj_bias must have shape \(4,\) for x of shape \(2, 4\)"
    ):
        check_gpt2_layer(x, *good[:3], np.zeros(3), 2)
