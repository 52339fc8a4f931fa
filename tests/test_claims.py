"""claims.py: every claim holds for this build, and a claim that stops being true fails loudly."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from attention_workshop import claims, experiment


@pytest.fixture(scope="module")
def results():
    return experiment.run()


def test_every_claim_holds(results):
    assert claims.verify(results) == len(claims.CLAIMS)


def _broken(results, section, key, change):
    r = copy.deepcopy(results)
    r.data[section][key] = change(r.data[section][key])
    return r


BREAKS = {
    "causal.first_row_on_itself": ("causal", "weights", lambda w: np.vstack([[0.9, 0.1, 0.0], w[1:]])),
    "causal.last_row_unchanged": ("causal", "weights", lambda w: np.vstack([w[:-1], [w[-1][::-1]]])),
    "causal.rows_renormalise": ("causal", "weights", lambda w: np.vstack([w[:1], [[0.5, 0.5, 0.0]], w[2:]])),
    "causal.rows_sum_to_one": ("causal", "weights", lambda w: w * 1.01),
    "causal.future_is_zero": ("causal", "weights", lambda w: w + 1e-9),
    "general_head.matches_torch": ("general_head", "diff", lambda d: 1e-10),
    "multi_head.matches_torch": ("multi_head", "diff", lambda d: 1e-9),
    "order.blind": ("order", "diff", lambda d: 1e-3),
    "price.per_head": ("price", "per_head", lambda n: n + 1),
    "sqrt_dk.scaled_variance_near_one": ("sqrt_dk", "var_scaled", lambda v: v * 4),
    "softmax.neg_inf_is_zero": ("softmax", "w_silenced", lambda w: w + 1e-300),
    "wired.bank_looks_at_river": ("wired_head", "weights", lambda w: np.roll(w, 1, axis=1)),
    "sqrt_dk.variance_follows_dk": ("sqrt_dk", "var_raw", lambda v: v * 1.06),
    "simple_limits.own_dot_largest": ("simple_limits", "best_other_dot", lambda v: v + 1),
    "simple_limits.longer_neighbour_wins": ("simple_limits", "longer", lambda d: {**d, "other_w": d["self_w"] - 0.01}),
    "step.sat_row_stands": ("step_causal", "sat_stands", lambda s: False),
    "wired_parts.the_top_share_under_half": (
        "wired_parts", "wired", lambda h: {**h, "weights": np.vstack([[0.1, 0.1, 0.8], h["weights"][1:]])}),
}


def test_self_below_half_is_checked(results):
    r = copy.deepcopy(results)
    w = r.data["simple"]["contrast"]["weights"]
    w[1] = [0.2, 0.6, 0.2]  # savings keeps more than half
    with pytest.raises(claims.ClaimError, match="simple_limits.self_below_half"):
        claims.verify(r)


@pytest.mark.parametrize("key", sorted(BREAKS))
def test_a_false_claim_fails_and_is_named(results, key):
    section, name, change = BREAKS[key]
    with pytest.raises(claims.ClaimError) as err:
        claims.verify(_broken(results, section, name, change))
    assert key in str(err.value)


def test_claims_about_the_default_sentence_are_skipped_for_others():
    r = experiment.run("fish swam by the shore")
    checked = {c.key for c, _ in claims.check(r)}
    assert "wired.bank_looks_at_river" not in checked
    assert "causal.last_row_unchanged" in checked
