"""chapters/module_3.py, "The real thing": lines and values, claims, and a break for each.

Expected values come from outside the chapter: the seeded weights drawn again here, the wired
head under PyTorch's ``is_causal`` mask in float64, GPT-2 small's published sizes with the
parameter counts written out by hand, and machine epsilon from ``sys.float_info``.
"""

from __future__ import annotations

import copy
import math
import sys

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from attention_workshop.chapters import module_3
from attention_workshop.experiment.runner import SEED
from attention_workshop.toy import SENT_RIVER

from .breaks import assert_break_fails, assert_claims_hold, cases, claim_keys, edit, row
from .conftest import cells, run_section, table_after
from .references import rows, wired

EPS = sys.float_info.epsilon  # 2^-52

#: GPT-2 small as published (Radford et al. 2019; the Hugging Face config).
GPT2_VOCAB, GPT2_CTX, GPT2_C, GPT2_LAYERS, GPT2_HEADS = 50257, 1024, 768, 12, 12


def wired_weights(words, causal) -> np.ndarray:
    return wired(words, causal)[3]


# --------------------------------------------------------------------------- the general head vs PyTorch


def test_general_head_section(results):
    g = results[module_3.GENERAL_HEAD]
    # the chapter's draws, in its order: W_Q, W_K, W_V, each (4, 3)
    rng = np.random.default_rng(SEED)
    for name in ("W_Q", "W_K", "W_V"):
        np.testing.assert_array_equal(
            getattr(g, name), rng.standard_normal((4, 3)), err_msg=name
        )
    assert g.eps == EPS
    for diff in (g.diff, g.diff_causal):
        assert 0 < diff <= module_3.EPS_UNITS * EPS, (
            "two programs agree to rounding, never by sharing code"
        )
    lines = results.excerpt("general_head")
    assert (
        lines[1] == f"  random W_q, W_k, W_v (seed {SEED}), d_model 4 -> d_k 3, float64"
    )
    assert (
        lines[3] == f"    max |difference| = {g.diff:.2e}"
        and lines[5] == f"    max |difference| = {g.diff_causal:.2e}"
    )
    assert (
        lines[6] == f"  machine epsilon 2^-52 = {EPS:.2e}; largest difference = "
        f"{max(g.diff, g.diff_causal) / EPS:.2f} x epsilon"
    )
    assert results.show["general_head"]["eps_sci"] == "2.22 × 10<sup>\u221216</sup>"


# --------------------------------------------------------------------------- the causal mask


def test_causal_section(results):
    c = results[module_3.CAUSAL]
    np.testing.assert_allclose(
        c.weights, wired_weights(SENT_RIVER, True), rtol=0, atol=1e-15
    )
    np.testing.assert_allclose(
        c.unmasked, wired_weights(SENT_RIVER, False), rtol=0, atol=1e-15
    )
    np.testing.assert_array_equal(
        c.future, [[j > i for j in range(3)] for i in range(3)]
    )
    assert c.weights[0].tolist() == [1.0, 0.0, 0.0]
    lines = results.excerpt("causal")
    assert table_after(lines, "causal mask (upper right", 3) == dict(
        zip(SENT_RIVER, cells(wired_weights(SENT_RIVER, True)))
    )
    assert lines[-1] == "  every row still sums to 1: 1.000000, 1.000000, 1.000000"
    w = wired_weights(SENT_RIVER, True)
    assert (
        results.show["causal"]["last_row"]
        == "[" + ", ".join(f"{v:.3f}" for v in w[-1]) + "]"
    )


def test_causal_on_another_sentence(results_other):
    c = results_other[module_3.CAUSAL]
    words = ("fish", "swam", "by", "the", "shore")
    np.testing.assert_allclose(
        c.weights, wired_weights(words, True), rtol=0, atol=1e-15
    )
    assert c.weights.shape == (5, 5) and c.weights[0, 0] == 1.0


# --------------------------------------------------------------------------- order


def test_order_section(results):
    o = results[module_3.ORDER]
    x = rows(SENT_RIVER)
    xr = x.flip(0)
    fwd, rev = (
        F.scaled_dot_product_attention(x, x, x).numpy(),
        F.scaled_dot_product_attention(xr, xr, xr).numpy(),
    )
    np.testing.assert_allclose(o.out_fwd, fwd, rtol=0, atol=1e-15)
    np.testing.assert_allclose(o.out_rev, rev, rtol=0, atol=1e-15)
    assert o.same is True and o.diff <= 1e-15
    assert results.excerpt("order")[1:3] == [
        '  order-blindness: bank\'s output in "the river bank" equals its',
        '  output in "bank river the" to within 1e-12 -> True',
    ]


# --------------------------------------------------------------------------- the price tag


def test_price_section(results):
    p = results[module_3.PRICE]
    C, L, H = GPT2_C, GPT2_LAYERS, GPT2_HEADS
    per_head = 3 * C * (C // H)
    # c_attn's three projections and c_proj, weights only
    attention = L * (3 * C * C + C * C)
    # 2 LNs, attn, MLP
    block = (
        (2 * 2 * C)
        + (C * 3 * C + 3 * C)
        + (C * C + C)
        + (C * 4 * C + 4 * C)
        + (4 * C * C + C)
    )
    # tied unembedding; final LN
    total = GPT2_VOCAB * C + GPT2_CTX * C + L * block + 2 * C
    assert (
        (p.per_head, p.attention, p.total)
        == (per_head, attention, total)
        == (147_456, 28_311_552, 124_439_808)
    )
    assert p.with_bias == attention + L * 4 * C
    # the MLP widens each row to 4 C and narrows it back: c_fc and c_proj, weights only
    mlp = L * (C * 4 * C + 4 * C * C)
    assert p.mlp == mlp == 2 * attention
    assert math.isclose(p.share, attention / total, rel_tol=1e-15)
    assert results.excerpt("price")[1:] == [
        "  one GPT-2 sized head: d_model = 768, d_k = 64",
        "    -> W_q + W_k + W_v = 147,456 numbers",
        "  12 heads x 12 layers (+ output projections)",
        "    -> 28,311,552 attention parameters",
        f"  with biases: {attention + L * 4 * C:,}; GPT-2 in all: 124,439,808",
        f"  attention's share: {100 * attention / total:.1f}%",
        f"  MLP (768 -> 3,072 -> 768): {mlp:,} weights",
        f"    -> 2.0 x attention's; MLP's share: {100 * mlp / total:.1f}%",
    ]
    show = results.show["price"]
    assert show["toy_wired"] == "16"  # two 4 x 2 matrices
    assert (show["mlp_ratio"], show["mlp_share_pct"]) == (
        "2.0",
        f"{100 * mlp / total:.1f}",
    )


# --------------------------------------------------------------------------- multi-head vs PyTorch


def test_multi_head_section(results):
    m = results[module_3.MULTI_HEAD]
    assert (m.B, m.T, m.C, m.n_head) == (2, 5, 8, 2) and m.eps == EPS
    assert 0 < m.diff <= module_3.EPS_UNITS * EPS
    assert results.excerpt("multi_head")[-1] == f"    max |difference| = {m.diff:.2e}"


def test_multi_head_reference_is_gpt2_attention():
    """The chapter's inputs (drawn again from the seed) through our own PyTorch reference agree with the package."""
    from attention_workshop import multi_head_attention

    rng = np.random.default_rng(SEED)
    B, T, C, nh = 2, 5, 8, 2
    x = rng.standard_normal((B, T, C))
    w_attn, b_attn = (
        rng.standard_normal((C, 3 * C)) / np.sqrt(C),
        rng.standard_normal(3 * C) * 0.1,
    )
    w_proj, b_proj = (
        rng.standard_normal((C, C)) / np.sqrt(C),
        rng.standard_normal(C) * 0.1,
    )
    tx = torch.from_numpy(x)
    q, k, v = (tx @ torch.from_numpy(w_attn) + torch.from_numpy(b_attn)).split(C, dim=2)
    # (B, nh, T, hs)
    q, k, v = (t.reshape(B, T, nh, C // nh).transpose(1, 2) for t in (q, k, v))
    y = (
        F.scaled_dot_product_attention(q, k, v, is_causal=True)
        .transpose(1, 2)
        .reshape(B, T, C)
    )
    y = (y @ torch.from_numpy(w_proj) + torch.from_numpy(b_proj)).numpy()
    ours, _ = multi_head_attention(x, w_attn, b_attn, w_proj, b_proj, n_head=nh)
    assert np.max(np.abs(ours - y)) <= module_3.EPS_UNITS * EPS


# --------------------------------------------------------------------------- claims and their breaks

BREAKS = {
    "general_head.matches_torch": (
        edit("general_head", "diff", lambda d: 1e-10),
        edit("general_head", "diff_causal", lambda d: 1e-10),
    ),
    "causal.first_row_on_itself": (
        edit("causal", "weights", lambda w: row(w, 0, [0.9, 0.1, 0.0])),
    ),
    "causal.future_is_zero": (edit("causal", "weights", lambda w: w + 1e-9),),
    "causal.last_row_unchanged": (
        edit("causal", "weights", lambda w: row(w, 2, w[2][::-1])),
    ),
    "causal.rows_sum_to_one": (edit("causal", "weights", lambda w: w * 1.01),),
    "causal.rows_renormalise": (
        edit("causal", "weights", lambda w: row(w, 1, [0.5, 0.5, 0.0])),
    ),
    "order.blind": (
        edit("order", "diff", lambda d: 1e-3),
        edit("order", "same", lambda s: False),
    ),
    "price.per_head": (edit("price", "per_head", lambda n: n + 1),),
    "price.attention": (edit("price", "attention", lambda n: n + 1),),
    # about 110M, not 124M
    "price.total": (edit("price", "total", lambda n: 110_000_000),),
    "price.fifth_to_quarter": (
        edit("price", "share", lambda s: 0.3),
        edit("price", "share", lambda s: 0.19),
    ),
    # an MLP as small as the page once said: half the attention's weights, or three times them
    "price.mlp_twice_attention": (
        edit("price", "mlp", lambda n: n // 4),
        edit("price", "mlp", lambda n: n * 3 // 2),
    ),
    "multi_head.matches_torch": (edit("multi_head", "diff", lambda d: 1e-9),),
}


def test_every_claim_of_the_chapter_holds(results):
    assert_claims_hold(results, module_3.SECTIONS)


def test_every_claim_of_the_chapter_has_a_break():
    assert set(BREAKS) == claim_keys(module_3.SECTIONS)


@pytest.mark.parametrize(("key", "brk"), cases(BREAKS))
def test_a_false_claim_fails_and_is_named(results, monkeypatch, key, brk):
    assert_break_fails(results, monkeypatch, key, brk)


def test_a_mask_that_hides_nothing_breaks_the_causal_claims(monkeypatch, results):
    """Break the maths, not the numbers: a causal mask that hides nothing makes the causal claims false."""
    from attention_workshop import toy
    from workshop_site.claims import ClaimError, verify

    # what wired_head masks with
    monkeypatch.setattr(toy, "causal_mask", lambda T: np.zeros((T, T), dtype=bool))
    causal, _ = run_section(module_3.CAUSAL)
    r = copy.deepcopy(results)
    r.data["causal"] = causal
    with pytest.raises(ClaimError, match=r"causal\.first_row_on_itself"):
        verify(r)
