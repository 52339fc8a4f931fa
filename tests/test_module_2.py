"""chapters/module_2.py, "Queries, keys and values": lines and values, claims, and a break for each.

Expected values come from outside the chapter: the wired matrices applied with PyTorch in
float64 (weights read off with ``V = I``), the queries and keys worked out by hand from the
vocabulary, and the sqrt(d_k) measurement redone in PyTorch on the same seeded draws.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_workshop.chapters import module_2
from attention_workshop.experiment.runner import SEED
from attention_workshop.toy import SENT_MONEY, SENT_RIVER

from .breaks import assert_break_fails, assert_claims_hold, cases, claim_keys, edit, row
from .conftest import cells, run_section, table_after
from .references import simple, wired
from .references import sqrt_dk as measure_sqrt_dk

# --------------------------------------------------------------------------- what the head asks


def test_wired_parts_section(results):
    p = results[module_2.WIRED_PARTS]
    Q, K, S, w, _ = wired(SENT_RIVER)
    np.testing.assert_allclose(p.wired.Q, Q, rtol=0, atol=1e-15)
    np.testing.assert_allclose(p.wired.K, K, rtol=0, atol=1e-15)
    np.testing.assert_allclose(p.wired.scores, S, rtol=0, atol=1e-15)
    np.testing.assert_allclose(p.wired.weights, w, rtol=0, atol=1e-15)
    # By hand: "the" (grammar 1) asks on the place channel and advertises nothing; "bank" (place 1.0) asks
    # 2 x 1.0 on the topic channel; "river" advertises topic 2 x (1 + 0) and place 0.3.
    assert p.wired.Q[0].tolist() == [0.0, 1.0] and p.wired.K[0].tolist() == [0.0, 0.0]
    assert p.wired.Q[2].tolist() == [2.0, 0.0] and p.wired.K[1].tolist() == [2.0, 0.3]
    for key, words in (("first", SENT_RIVER), ("contrast", SENT_MONEY)):
        o, s = wired(words)[4][-1], simple(words)[2][-1]
        assert math.isclose(p.lean[key], o[0] - o[1], abs_tol=1e-15), key
        assert math.isclose(p.lean_simple[key], s[0] - s[1], abs_tol=1e-15), key


def test_wired_parts_lines(results):
    lines = results.excerpt("wired_parts")
    Q, K, S, _, _ = wired(SENT_RIVER)
    assert table_after(lines, "Q = X W_Q", 3) == dict(zip(SENT_RIVER, cells(Q, 1)))
    assert table_after(lines, "K = X W_K", 3) == dict(zip(SENT_RIVER, cells(K, 1)))
    assert table_after(lines, "scores Q K^T / sqrt(2):", 3) == dict(
        zip(SENT_RIVER, cells(S))
    )
    for words in (SENT_RIVER, SENT_MONEY):
        o, s = wired(words)[4][-1], simple(words)[2][-1]
        at = lines.index(f'  bank in "{" ".join(words)}", water - money:')
        assert (
            lines[at + 1]
            == f"    wired head {o[0] - o[1]:+.3f}, Module 1 {s[0] - s[1]:+.3f}"
        )
    show = results.show["wired_parts"]
    assert (
        show["top_of_first"] == "bank"
        and show["q_2"] == "[2.0, 0.0]"
        and show["k_1"] == "[2.0, 0.3]"
    )


# --------------------------------------------------------------------------- the head's weights


def test_wired_head_section(results):
    h = results[module_2.WIRED_HEAD]
    _, _, S, w, _ = wired(SENT_RIVER)
    assert h.sentence == SENT_RIVER
    np.testing.assert_allclose(h.scores, S, rtol=0, atol=1e-15)
    np.testing.assert_allclose(h.weights, w, rtol=0, atol=1e-15)
    lines = results.excerpt("wired_head")
    assert table_after(lines, "hand-wired head on", 3) == dict(
        zip(SENT_RIVER, cells(w))
    )
    assert lines[-1] == "    row sums: 1.000000, 1.000000, 1.000000"
    assert results.show["wired_head"]["w_2_1"] == f"{w[2, 1]:.3f}"


# --------------------------------------------------------------------------- why divide by sqrt(d_k)


def test_sqrt_dk_numbers_recomputed_with_torch(results):
    d = results[module_2.SQRT_DK]
    ref = measure_sqrt_dk(
        module_2.DK_VALUES, module_2.DK_KEYS, module_2.DK_TRIALS, SEED
    )
    assert d.dk.tolist() == list(module_2.DK_VALUES) and (d.keys, d.trials) == (
        module_2.DK_KEYS,
        module_2.DK_TRIALS,
    )
    for n, name in enumerate(("var_raw", "var_scaled", "max_raw", "max_scaled")):
        np.testing.assert_allclose(
            getattr(d, name), ref[:, n], rtol=1e-12, atol=0, err_msg=name
        )
    lines = results.excerpt("sqrt_dk")
    for dk, (vr, vs, mr, ms) in zip(module_2.DK_VALUES, ref):
        assert f"  {dk:>5}   {vr:>9.1f} {vs:>11.3f}   {mr:>9.3f} {ms:>11.3f}" in [
            x[2:] for x in lines
        ], dk


def test_sqrt_dk_statistics_match_the_theory(results):
    """Standard normal q and k: var(q.k) = d_k in theory; divided by sqrt(d_k), 1."""
    d = results[module_2.SQRT_DK]
    for d_k, vr, vs in zip(d.dk, d.var_raw, d.var_scaled):
        assert abs(vr / d_k - 1) < 0.05, (
            f"var(q.k) = {vr:.1f} is not within 5% of d_k = {d_k}"
        )
        assert abs(vs - 1) < 0.05, (
            f"scaled variance {vs:.3f} at d_k = {d_k} is not near 1"
        )
    # With equal scores the largest of K weights would be 1/K; raw scores drift far above it, scaled ones stay low.
    assert (
        d.max_raw[-1] > 0.9
        and np.all(d.max_scaled < 0.5)
        and np.all(d.max_scaled > 1 / d.keys)
    )


def test_changing_the_sqrt_dk_constants_changes_what_pages_quote(monkeypatch):
    monkeypatch.setattr(module_2, "DK_VALUES", (4, 9, 36))
    monkeypatch.setattr(module_2, "DK_KEYS", 5)
    monkeypatch.setattr(module_2, "DK_TRIALS", 300)
    d, r = run_section(module_2.SQRT_DK)
    show = r.show["sqrt_dk"]
    assert (
        show["keys"],
        show["trials"],
        show["n_sizes"],
        show["dk_check"],
        show["sqrt_check"],
    ) == ("5", "300", "3", "9", "3")
    assert show["dk_first"] == "4" and show["dk_last"] == "36"
    assert any("300 queries x 5 keys" in line for line in r.lines)
    np.testing.assert_allclose(
        d.var_raw, measure_sqrt_dk((4, 9, 36), 5, 300, SEED)[:, 0], rtol=1e-12
    )


# --------------------------------------------------------------------------- claims and their breaks

BREAKS = {
    "wired_parts.the_looks_at_bank": (
        edit("wired_parts", "wired.weights", lambda w: row(w, 0, [0.3, 0.45, 0.25])),
    ),
    "wired_parts.the_top_share_under_half": (
        edit("wired_parts", "wired.weights", lambda w: row(w, 0, [0.1, 0.1, 0.8])),
    ),
    "wired_parts.the_advertises_nothing": (
        # "the" advertises some place
        edit("wired_parts", "wired.K", lambda K: row(K, 0, [0.0, 0.5])),
        # a score on "the" is not 0
        edit("wired_parts", "wired.scores", lambda S: S + np.eye(len(S)) * 0.1),
    ),
    "wired_parts.stronger_than_simple": (
        # weaker than Module 1's +0.326
        edit("wired_parts", "lean", lambda d: {**d, "first": 0.1}),
        edit("wired_parts", "lean", lambda d: {**d, "contrast": -0.1}),
        # Module 1 did not move bank at all
        edit("wired_parts", "lean_simple", lambda d: {**d, "first": 0.0}),
    ),
    "wired.rows_sum_to_one": (edit("wired_head", "weights", lambda w: w * 1.01),),
    "wired.bank_looks_at_river": (
        edit("wired_head", "weights", lambda w: np.roll(w, 1, axis=1)),
    ),
    "sqrt_dk.variance_grows": (edit("sqrt_dk", "var_raw", lambda v: v[::-1].copy()),),
    "sqrt_dk.variance_follows_dk": (edit("sqrt_dk", "var_raw", lambda v: v * 1.06),),
    "sqrt_dk.scaled_variance_near_one": (
        edit("sqrt_dk", "var_scaled", lambda v: v * 4),
    ),
    "sqrt_dk.raw_saturates": (
        # largest weight ends near 0.5, far from one-hot
        edit("sqrt_dk", "max_raw", lambda m: m * 0.5),
        # falls at the last d_k
        edit("sqrt_dk", "max_raw", lambda m: np.append(m[:-1], m[-2] - 1e-3)),
    ),
    "sqrt_dk.scaled_stays_responsive": (
        edit("sqrt_dk", "max_scaled", lambda m: m + 0.5),
    ),
}


def test_every_claim_of_the_chapter_holds(results):
    assert_claims_hold(results, module_2.SECTIONS)


def test_every_claim_of_the_chapter_has_a_break():
    assert set(BREAKS) == claim_keys(module_2.SECTIONS)


@pytest.mark.parametrize(("key", "brk"), cases(BREAKS))
def test_a_false_claim_fails_and_is_named(results, monkeypatch, key, brk):
    assert_break_fails(results, monkeypatch, key, brk)
