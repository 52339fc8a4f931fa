"""core.py against the seed's hand calculation, PyTorch in float64, and properties.

Expected values never come from the package itself: they are the numbers of seed 003's
hand calculation, PyTorch's own functions, or an independent formula.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_workshop import (
    attention,
    causal_mask,
    matmul,
    multi_head_attention,
    scaled_dot_product_attention,
    simple_attention,
    softmax,
)

# Seed 003 ("the cat sat"): its inputs, exactly.
Q_CAT = np.array([[1, 0], [0, 1], [1, 1]], dtype=float)
K_CAT = Q_CAT.copy()
V_CAT = np.array([[1, 0], [0, 1], [0.5, 0.5]], dtype=float)


# ---------------------------------------------------------------- the seed's hand calculation


def test_sat_row_matches_hand_calculation():
    out, w = scaled_dot_product_attention(Q_CAT, K_CAT, V_CAT)
    assert [round(float(x), 3) for x in w[2]] == [0.248, 0.248, 0.503], (
        "weights of 'sat' (seed 003, step 3)"
    )
    assert [round(float(x), 3) for x in out[2]] == [0.500, 0.500], (
        "output of 'sat' (seed 003, step 4)"
    )


def test_cat_row_under_mask_matches_hand_calculation():
    out, w = scaled_dot_product_attention(Q_CAT, K_CAT, V_CAT, causal=True)
    assert [round(float(x), 3) for x in w[1]] == [0.330, 0.670, 0.000], (
        "weights of 'cat' with the mask (step 5)"
    )
    assert w[1, 2] == 0.0, "the blocked future gets exactly 0"
    assert [round(float(x), 3) for x in out[1]] == [0.330, 0.670], (
        "output of 'cat' with the mask"
    )


# ---------------------------------------------------------------- softmax


def test_softmax_matches_torch_float64():
    x = np.random.default_rng(1).standard_normal((4, 6)) * 5
    for axis in (0, 1, -1):
        expected = torch.softmax(torch.from_numpy(x), dim=axis).numpy()
        np.testing.assert_allclose(
            softmax(x, axis=axis), expected, rtol=0, atol=1e-15, err_msg=f"axis {axis}"
        )


def test_softmax_is_stable_for_large_scores():
    w = softmax(np.array([1000.0, 999.0, 998.0]))
    e = [math.exp(0), math.exp(-1), math.exp(-2)]  # the same scores shifted by hand
    np.testing.assert_allclose(w, [v / sum(e) for v in e], rtol=1e-15)


def test_softmax_minus_inf_gets_exactly_zero():
    w = softmax(np.array([[0.5, -np.inf, 1.0], [-np.inf, -np.inf, 2.0]]))
    assert w[0, 1] == 0.0 and w[1, 0] == 0.0 and w[1, 1] == 0.0
    assert w[1, 2] == 1.0


def test_softmax_all_minus_inf_is_an_error():
    with pytest.raises(ValueError, match="all -inf"):
        softmax(np.array([[1.0, 2.0], [-np.inf, -np.inf]]))


def test_softmax_rejects_nan_and_scalars():
    with pytest.raises(ValueError, match="NaN"):
        softmax(np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="scalar"):
        softmax(np.float64(1.0))
    with pytest.raises(ValueError, match="numbers"):
        softmax(np.array(["a", "b"]))


# ---------------------------------------------------------------- causal_mask


@pytest.mark.parametrize("T", [1, 2, 5])
def test_causal_mask_is_the_strict_upper_triangle(T):
    expected = np.array([[j > i for j in range(T)] for i in range(T)])
    np.testing.assert_array_equal(causal_mask(T), expected)
    np.testing.assert_array_equal(
        causal_mask(T), torch.ones(T, T).triu(1).bool().numpy()
    )
    assert causal_mask(T).dtype == bool


@pytest.mark.parametrize("bad", [0, -1, 2.5, "3", True])
def test_causal_mask_rejects_non_positive_whole_numbers(bad):
    with pytest.raises(ValueError, match="positive whole number"):
        causal_mask(bad)


# ---------------------------------------------------------------- scaled_dot_product_attention


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("shape", [(5, 3), (2, 4, 3), (2, 3, 6, 4)])
def test_sdpa_matches_torch_float64(shape, causal):
    rng = np.random.default_rng(sum(shape))
    Q, K = rng.standard_normal(shape), rng.standard_normal(shape)
    V = rng.standard_normal((*shape[:-1], 7))
    out, w = scaled_dot_product_attention(Q, K, V, causal=causal)
    expected = F.scaled_dot_product_attention(
        *(torch.from_numpy(a) for a in (Q, K, V)), is_causal=causal
    ).numpy()
    np.testing.assert_allclose(
        out, expected, rtol=0, atol=1e-14, err_msg=f"shape {shape}, causal {causal}"
    )
    tQ, tK = torch.from_numpy(Q), torch.from_numpy(K)
    scores = tQ @ tK.transpose(-2, -1) / math.sqrt(shape[-1])
    if causal:
        scores = scores.masked_fill(
            torch.ones(shape[-2], shape[-2]).triu(1).bool(), float("-inf")
        )
    np.testing.assert_allclose(
        w, torch.softmax(scores, dim=-1).numpy(), rtol=0, atol=1e-15, err_msg="weights"
    )


def test_sdpa_with_more_keys_than_queries():
    rng = np.random.default_rng(3)
    Q, K, V = (
        rng.standard_normal((2, 4)),
        rng.standard_normal((5, 4)),
        rng.standard_normal((5, 3)),
    )
    for causal in (False, True):
        out, w = scaled_dot_product_attention(Q, K, V, causal=causal)
        expected = F.scaled_dot_product_attention(
            *(torch.from_numpy(a) for a in (Q, K, V)), is_causal=causal
        ).numpy()
        np.testing.assert_allclose(
            out, expected, rtol=0, atol=1e-14, err_msg=f"T=2, S=5, causal {causal}"
        )
        assert w.shape == (2, 5)


def test_sdpa_shape_errors_name_both_shapes():
    with pytest.raises(ValueError, match=r"\(3, 2\).*\(3, 4\)"):
        scaled_dot_product_attention(np.ones((3, 2)), np.ones((3, 4)), np.ones((3, 4)))
    with pytest.raises(ValueError, match=r"\(3, 2\).*\(4, 5\)"):
        scaled_dot_product_attention(np.ones((3, 2)), np.ones((3, 2)), np.ones((4, 5)))
    with pytest.raises(ValueError, match="Q must have shape"):
        scaled_dot_product_attention(np.ones(3), np.ones((3, 2)), np.ones((3, 2)))


# ---------------------------------------------------------------- attention and simple_attention


@pytest.mark.parametrize("causal", [False, True])
def test_attention_matches_torch(causal):
    rng = np.random.default_rng(7)
    X = rng.standard_normal((6, 4))
    W_Q, W_K, W_V = (
        rng.standard_normal((4, 3)),
        rng.standard_normal((4, 3)),
        rng.standard_normal((4, 5)),
    )
    tX = torch.from_numpy(X)
    expected = F.scaled_dot_product_attention(
        tX @ torch.from_numpy(W_Q),
        tX @ torch.from_numpy(W_K),
        tX @ torch.from_numpy(W_V),
        is_causal=causal,
    ).numpy()
    out, w = attention(X, W_Q, W_K, W_V, causal=causal)
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-14)
    assert out.shape == (6, 5) and w.shape == (6, 6)


def test_attention_shape_errors():
    X = np.ones((3, 4))
    with pytest.raises(ValueError, match=r"\(3, 4\).*\(5, 2\)"):
        attention(X, np.ones((5, 2)), np.ones((4, 2)), np.ones((4, 2)))
    with pytest.raises(ValueError, match=r"W_Q \(4, 2\), W_K \(4, 3\)"):
        attention(X, np.ones((4, 2)), np.ones((4, 3)), np.ones((4, 2)))
    with pytest.raises(
        ValueError, match=r"X must have shape \(T, d_model\), got shape \(4,\)"
    ):
        attention(np.ones(4), np.ones((4, 2)), np.ones((4, 2)), np.ones((4, 2)))


def test_simple_attention_is_softmax_of_xxt_over_sqrt_d():
    X = np.random.default_rng(2).standard_normal((4, 6))
    tX = torch.from_numpy(X)
    w_expected = torch.softmax(tX @ tX.T / math.sqrt(6), dim=-1)
    out, w = simple_attention(X)
    np.testing.assert_allclose(w, w_expected.numpy(), rtol=0, atol=1e-15)
    np.testing.assert_allclose(out, (w_expected @ tX).numpy(), rtol=0, atol=1e-14)


# ---------------------------------------------------------------- multi_head_attention


def _torch_mha(x, w_attn, b_attn, w_proj, b_proj, n_head, causal):
    """An independent reference: torch.nn.MultiheadAttention-free, via F.scaled_dot_product_attention."""
    x = torch.from_numpy(x)
    B, T, C = x.shape
    qkv = torch.nn.functional.linear(
        x, torch.from_numpy(w_attn).T, torch.from_numpy(b_attn)
    )
    q, k, v = (
        t.reshape(B, T, n_head, C // n_head).permute(0, 2, 1, 3)
        for t in qkv.chunk(3, dim=-1)
    )
    y = F.scaled_dot_product_attention(q, k, v, is_causal=causal)  # (B, nh, T, hs)
    y = y.permute(0, 2, 1, 3).reshape(B, T, C)
    return torch.nn.functional.linear(
        y, torch.from_numpy(w_proj).T, torch.from_numpy(b_proj)
    ).numpy()


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("B,T,C,nh", [(1, 5, 8, 2), (3, 4, 12, 3), (2, 7, 16, 4)])
def test_multi_head_attention_matches_torch(B, T, C, nh, causal):
    rng = np.random.default_rng(B * 100 + T * 10 + C)
    x = rng.standard_normal((B, T, C))
    params = (
        rng.standard_normal((C, 3 * C)),
        rng.standard_normal(3 * C),
        rng.standard_normal((C, C)),
        rng.standard_normal(C),
    )
    y, att = multi_head_attention(x, *params, n_head=nh, causal=causal)
    np.testing.assert_allclose(
        y,
        _torch_mha(x, *params, nh, causal),
        rtol=0,
        atol=1e-12,
        err_msg=f"B{B} T{T} C{C} nh{nh}",
    )
    assert att.shape == (B, nh, T, T)
    # one sequence, no batch axis
    y2, att2 = multi_head_attention(x[0], *params, n_head=nh, causal=causal)
    np.testing.assert_allclose(
        y2,
        _torch_mha(x[:1], *params, nh, causal)[0],
        rtol=0,
        atol=1e-12,
        err_msg="unbatched",
    )
    assert att2.shape == (nh, T, T)


def test_multi_head_attention_errors():
    x = np.ones((4, 8))
    ok = (np.ones((8, 24)), np.ones(24), np.ones((8, 8)), np.ones(8))
    with pytest.raises(
        ValueError, match=r"n_head must divide the width C.*\(4, 8\).*n_head = 3"
    ):
        multi_head_attention(x, *ok, n_head=3)
    with pytest.raises(
        ValueError,
        match=r"c_attn_weight must have shape \(8, 24\).*got shape \(8, 16\)",
    ):
        multi_head_attention(x, np.ones((8, 16)), *ok[1:], n_head=2)
    with pytest.raises(ValueError, match=r"\(T, C\) or \(B, T, C\)"):
        multi_head_attention(np.ones(8), *ok, n_head=2)


# ---------------------------------------------------------------- properties


finite = st.floats(-20, 20, allow_nan=False, width=64)


@settings(max_examples=60, deadline=None)
@given(
    arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 6)), elements=finite)
)
def test_softmax_rows_sum_to_one(x):
    np.testing.assert_allclose(softmax(x).sum(axis=-1), 1.0, rtol=0, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 7), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_causal_weights_are_exactly_zero_above_the_diagonal_and_rows_sum_to_one(
    T, d, seed
):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((T, d)) * 3
    _, w = attention(
        X,
        rng.standard_normal((d, 2)),
        rng.standard_normal((d, 2)),
        rng.standard_normal((d, 2)),
        causal=True,
    )
    upper = np.triu_indices(T, k=1)
    assert (w[upper] == 0.0).all()
    np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert w[0, 0] == 1.0


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 7), st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_permuting_the_words_permutes_the_outputs(T, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((T, d))
    W = [rng.standard_normal((d, 3)) for _ in range(3)]
    perm = rng.permutation(T)
    out, w = attention(X, *W)
    out_p, w_p = attention(X[perm], *W)
    np.testing.assert_allclose(out_p, out[perm], rtol=0, atol=1e-12)
    np.testing.assert_allclose(w_p, w[perm][:, perm], rtol=0, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dtypes_are_kept(dtype):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((4, 4)).astype(dtype)
    W = rng.standard_normal((4, 2)).astype(dtype)
    for causal in (False, True):
        out, w = attention(X, W, W, W, causal=causal)
        assert out.dtype == dtype and w.dtype == dtype, f"attention, causal {causal}"
        out, w = scaled_dot_product_attention(X, X, X, causal=causal)
        assert out.dtype == dtype and w.dtype == dtype, f"sdpa, causal {causal}"
    assert softmax(X).dtype == dtype
    out, w = simple_attention(X)
    assert out.dtype == dtype and w.dtype == dtype
    C = 4
    y, att = multi_head_attention(
        X,
        np.ones((C, 3 * C), dtype),
        np.zeros(3 * C, dtype),
        np.eye(C, dtype=dtype),
        np.zeros(C, dtype),
        n_head=2,
    )
    assert y.dtype == dtype and att.dtype == dtype


def test_float32_agrees_with_pytorch_float64_to_float32_precision():
    rng = np.random.default_rng(5)
    X, W = (
        rng.standard_normal((5, 4)).astype(np.float32),
        rng.standard_normal((4, 3)).astype(np.float32),
    )
    tX, tW = (
        torch.from_numpy(X.astype(np.float64)),
        torch.from_numpy(W.astype(np.float64)),
    )
    expected = F.scaled_dot_product_attention(tX @ tW, tX @ tW, tX @ tW).numpy()
    out32, _ = attention(X, W, W, W)
    np.testing.assert_allclose(out32, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda: attention(
                np.ones((0, 4)), np.ones((4, 2)), np.ones((4, 2)), np.ones((4, 2))
            ),
            r"X needs .*\(0, 4\)",
        ),
        (
            lambda: scaled_dot_product_attention(
                np.ones((3, 0)), np.ones((3, 0)), np.ones((3, 2))
            ),
            r"Q needs .*\(3, 0\)",
        ),
        (
            lambda: softmax(np.ones((3, 0))),
            r"at least one score along axis -1, got shape \(3, 0\)",
        ),
        (
            lambda: softmax(np.ones(3), axis=4),
            r"axis 4 does not exist for scores of shape \(3,\)",
        ),
        (lambda: simple_attention(np.ones((0, 2))), r"\(0, 2\)"),
        (
            lambda: multi_head_attention(
                np.ones((0, 8)),
                np.ones((8, 24)),
                np.ones(24),
                np.ones((8, 8)),
                np.ones(8),
                2,
            ),
            r"x needs .*\(0, 8\)",
        ),
    ],
)
def test_empty_inputs_get_a_clear_error(call, words):
    with pytest.raises(ValueError, match=words):
        call()


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda: attention(
                np.ones((3, 4)), np.ones((4, 0)), np.ones((4, 0)), np.ones((4, 2))
            ),
            r"W_Q .*\(4, 0\)",
        ),
        (
            lambda: attention(
                np.ones((3, 4)), np.ones((4, 2)), np.ones((4, 2)), np.ones((4, 0))
            ),
            r"W_V .*\(4, 0\)",
        ),
        (lambda: softmax(np.ones(3), axis=None), "axis must be a whole number"),
        (lambda: softmax(np.ones(3), axis=0.0), "axis must be a whole number"),
        (
            lambda: attention(np.ones((3, 4)), *(np.ones((4, 2)),) * 3, causal="no"),
            "causal must be True or False",
        ),
        (
            lambda: scaled_dot_product_attention(*(np.ones((3, 2)),) * 3, causal=None),
            "causal must be True or False",
        ),
    ],
)
def test_odd_arguments_get_a_clear_error(call, words):
    with pytest.raises(ValueError, match=words):
        call()


# ---------------------------------------------------------------- matmul: a @ b in a fixed order


def _fsum_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Every entry as math.fsum of its products: an independent, exactly summed reference."""
    return np.array(
        [
            [
                math.fsum(a[i, k] * b[k, j] for k in range(a.shape[1]))
                for j in range(b.shape[1])
            ]
            for i in range(a.shape[0])
        ]
    )


@pytest.mark.parametrize("n, k, m", [(1, 1, 1), (3, 2, 3), (5, 8, 4), (7, 64, 9)])
def test_matmul_is_the_product(n, k, m):
    rng = np.random.default_rng(n * 100 + k)
    a, b = rng.standard_normal((n, k)), rng.standard_normal((k, m))
    got = matmul(a, b)
    assert got.shape == (n, m) and got.dtype == np.float64
    np.testing.assert_allclose(got, _fsum_product(a, b), rtol=0, atol=k * 4e-16)


def test_matmul_broadcasts_leading_dimensions_as_at_does():
    rng = np.random.default_rng(1)
    q, k = rng.standard_normal((2, 3, 5, 4)), rng.standard_normal((4, 6))
    w = rng.standard_normal((2, 3, 5, 5))
    v = rng.standard_normal((3, 5, 4))
    np.testing.assert_allclose(matmul(q, k), q @ k, rtol=0, atol=1e-14)
    np.testing.assert_allclose(matmul(w, v), w @ v, rtol=0, atol=1e-14)
    assert matmul(q.astype(np.float32), k.astype(np.float32)).dtype == np.float32


@pytest.mark.parametrize("threads", [1, 2, 3, 4])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_large_matmul_sliced_among_threads_has_numpys_own_bits(
    threads, dtype, monkeypatch
):
    """Above the size where matmul slices a product among threads (a transposed weight, a batch
    of heads, more rows than columns), every element has the bits of NumPy's own einsum of the
    whole product, for any number of threads."""
    import attention_workshop.core as core

    monkeypatch.setattr(core, "_threads", lambda: threads)
    rng = np.random.default_rng(threads)
    cases = [  # just above the size, with SmolLM2's inner lengths (576, 1536, 64)
        ((16, 576), (2048, 576), True),  # transposed, as the tied embedding is used
        ((8, 1536), (1536, 1536), False),
        ((9, 16, 64), (9, 64, 2048), False),
        ((3, 1024, 576), (576, 16), False),  # more rows than columns: sliced by rows
    ]
    for sa, sb, transposed in cases:
        a = rng.standard_normal(sa).astype(dtype)
        b = rng.standard_normal(sb).astype(dtype)
        b = b.T if transposed else b
        assert (
            math.prod(np.broadcast_shapes(sa[:-2], b.shape[:-2]))
            * sa[-2]
            * b.shape[-1]
            * sa[-1]
            >= core._SLICED
        )
        got = matmul(a, b)
        want = np.einsum("...ij,...jk->...ik", a, b)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want), (sa, sb, threads)


@pytest.mark.parametrize(
    "a, b", [(np.ones(3), np.ones((3, 2))), (np.ones((2, 3)), np.ones((2, 3)))]
)
def test_matmul_names_both_shapes(a, b):
    with pytest.raises(ValueError, match=rf"got a \({a.shape[0]},"):
        matmul(a, b)
