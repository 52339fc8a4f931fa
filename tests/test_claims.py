"""claims.py: every claim holds for this build, and a claim that stops being true fails loudly."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
import pytest

from attention_workshop import claims, experiment, handcalc


@pytest.fixture(scope="module")
def results():
    return experiment.run()


def test_every_claim_holds(results):
    assert claims.verify(results) == len(claims.CLAIMS)


# --------------------------------------------------------------------------- deliberate breaks
# Each break rewrites the numbers one claim reads so that the sentence it stands for becomes
# false (the comment says how); claims.verify must then raise and name that claim.


def _set(section, key, change):
    """A break that replaces ``r.data[section][key]`` by ``change(old value)``."""

    def brk(r, monkeypatch):
        r.data[section][key] = change(r.data[section][key])

    return brk


def _in(section, key, field, change):
    """A break that replaces ``r.data[section][key][field]`` by ``change(old value)``."""

    def brk(r, monkeypatch):
        d = r.data[section][key]
        d[field] = change(d[field])

    return brk


def _calc(section, field, change, attr="calc"):
    """A break that rewrites one field of a hand calculation (a frozen HandCalc) in ``r.data[section]``."""

    def brk(r, monkeypatch):
        c = r.data[section][attr]
        r.data[section][attr] = dataclasses.replace(c, **{field: change(getattr(c, field))})

    return brk


def _row(w, i, values):
    """``w`` with row ``i`` replaced by ``values`` (a new array)."""
    w = np.array(w, dtype=float, copy=True)
    w[i] = values
    return w


def _swap_water_money(out):
    """The last word's output with its water and money coordinates exchanged (its sense reversed)."""
    out = np.array(out, copy=True)
    out[-1, [0, 1]] = out[-1, [1, 0]]
    return out


def _hand_forgets_the_scaling(r, monkeypatch):
    """The hand calculation skips the division by sqrt(d_k): it no longer equals the package's attention."""
    original = handcalc.by_hand
    monkeypatch.setattr(handcalc, "by_hand",
                        lambda Q, K, V, i, causal=False: original(np.asarray(Q) * np.sqrt(K.shape[1]), K, V, i, causal=causal))


BREAKS = {
    # Module 0
    "softmax.sums_to_one": (_set("softmax", "w_small", lambda w: w * 1.1),),  # shares add to 1.1
    "softmax.zero_gets_share": (_set("softmax", "w_zero", lambda w: np.array([1.0, 0.0, 0.0])),),  # the zeros get nothing
    "softmax.neg_inf_is_zero": (_set("softmax", "w_silenced", lambda w: w + 1e-300),),
    "softmax.naive_overflows": (_set("softmax", "naive_big", lambda w: np.array([0.665, 0.245, 0.090])),),  # finite
    "softmax.max_trick_changes_nothing": (
        _set("softmax", "naive_vs_stable_small", lambda d: 1e-3),  # the two formulas disagree on small scores
        _set("softmax", "w_big", lambda w: np.array([np.nan, np.nan, np.nan])),  # the stable one overflows too
    ),
    "softmax_shift.equal_shares": (_set("softmax_shift", "equal", lambda w: np.array([0.5, 0.25, 0.25])),),
    "softmax_shift.shift_changes_nothing": (_set("softmax_shift", "identical", lambda s: False),),
    "softmax_shift.exp_overflows": (
        _set("softmax_shift", "exp_1000", lambda e: float(np.finfo(np.float64).max)),  # exp(1000) stays finite
        _set("softmax_shift", "largest_x", lambda x: 1000.5),  # finite past 1000
    ),
    # Module 1
    "simple.self_attention_dominates": (_in("simple", "first", "weights", lambda w: _row(w, 0, [0.2, 0.5, 0.3])),),  # the looks at river most
    "simple.bank_moves_to_water": (_in("simple", "first", "out", _swap_water_money),),
    "simple.bank_moves_to_money": (_in("simple", "contrast", "out", _swap_water_money),),
    "simple_limits.symmetric": (_set("simple_limits", "asymmetry", lambda a: 0.1),),
    "simple_limits.bank_leans_both_ways": (
        _in("simple_limits", "lean", "first", lambda ba: (ba[0], -0.1)),  # leans to money next to river
        _in("simple_limits", "lean", "contrast", lambda ba: (ba[0], 0.1)),  # leans to water next to savings
        _in("simple_limits", "lean", "first", lambda ba: (0.2, ba[1])),  # bank not balanced before attention
    ),
    "simple_limits.self_below_half": (
        _in("simple", "contrast", "weights", lambda w: _row(w, 1, [0.2, 0.6, 0.2])),  # savings keeps more than half
        _in("simple", "first", "weights", lambda w: _row(w, 2, [0.1, 0.3, 0.6])),  # bank keeps more than half
    ),
    "simple_limits.own_dot_largest": (_set("simple_limits", "best_other_dot", lambda v: v + 1),),
    "simple_limits.longer_neighbour_wins": (
        _set("simple_limits", "longer", lambda d: {**d, "other_w": d["self_w"] - 0.01}),
        _set("simple_limits", "longer", lambda d: {**d, "len_other": d["len_self"] - 0.01}),  # bank not the longer
        _set("simple_limits", "longer", lambda d: {**d, "neighbour": "the"}),
    ),
    # Module 2
    "wired.rows_sum_to_one": (_set("wired_head", "weights", lambda w: w * 1.01),),
    "wired.bank_looks_at_river": (_set("wired_head", "weights", lambda w: np.roll(w, 1, axis=1)),),
    "wired_parts.the_looks_at_bank": (_in("wired_parts", "wired", "weights", lambda w: _row(w, 0, [0.3, 0.45, 0.25])),),
    "wired_parts.the_top_share_under_half": (
        _set("wired_parts", "wired", lambda h: {**h, "weights": np.vstack([[0.1, 0.1, 0.8], h["weights"][1:]])}),),
    "wired_parts.the_advertises_nothing": (
        _in("wired_parts", "wired", "K", lambda K: _row(K, 0, [0.0, 0.5])),  # "the" advertises some place
        _in("wired_parts", "wired", "scores", lambda S: S + np.eye(len(S)) * 0.1),  # a score on "the" is not 0
    ),
    "wired_parts.stronger_than_simple": (
        _in("wired_parts", "lean", "first", lambda x: 0.1),  # weaker than Module 1's +0.326
        _in("wired_parts", "lean", "contrast", lambda x: -0.1),
    ),
    "sqrt_dk.variance_grows": (_set("sqrt_dk", "var_raw", lambda v: v[::-1].copy()),),
    "sqrt_dk.variance_follows_dk": (_set("sqrt_dk", "var_raw", lambda v: v * 1.06),),
    "sqrt_dk.scaled_variance_near_one": (_set("sqrt_dk", "var_scaled", lambda v: v * 4),),
    "sqrt_dk.raw_saturates": (
        _set("sqrt_dk", "max_raw", lambda m: m * 0.5),  # largest weight ends near 0.5, far from one-hot
        _set("sqrt_dk", "max_raw", lambda m: np.append(m[:-1], m[-2] - 1e-3)),  # falls at the last d_k
    ),
    "sqrt_dk.scaled_stays_responsive": (_set("sqrt_dk", "max_scaled", lambda m: m + 0.5),),
    # Module 3
    "general_head.matches_torch": (
        _set("general_head", "diff", lambda d: 1e-10),
        _set("general_head", "diff_causal", lambda d: 1e-10),
    ),
    "multi_head.matches_torch": (_set("multi_head", "diff", lambda d: 1e-9),),
    "causal.first_row_on_itself": (_set("causal", "weights", lambda w: np.vstack([[0.9, 0.1, 0.0], w[1:]])),),
    "causal.last_row_unchanged": (_set("causal", "weights", lambda w: np.vstack([w[:-1], [w[-1][::-1]]])),),
    "causal.rows_renormalise": (_set("causal", "weights", lambda w: np.vstack([w[:1], [[0.5, 0.5, 0.0]], w[2:]])),),
    "causal.rows_sum_to_one": (_set("causal", "weights", lambda w: w * 1.01),),
    "causal.future_is_zero": (_set("causal", "weights", lambda w: w + 1e-9),),
    "order.blind": (_set("order", "diff", lambda d: 1e-3), _set("order", "same", lambda s: False)),
    "price.per_head": (_set("price", "per_head", lambda n: n + 1),),
    "price.attention": (_set("price", "attention", lambda n: n + 1),),
    "price.total": (_set("price", "total", lambda n: 110_000_000),),  # about 110M, not 124M
    "price.fifth_to_quarter": (_set("price", "share", lambda s: 0.3), _set("price", "share", lambda s: 0.19)),
    # Step by step, "the cat sat"
    "step.seed_003": (_calc("step_softmax", "total", lambda t: 8.2),),  # the seed's sum is 8.169
    "step.hand_equals_package": (_hand_forgets_the_scaling,),
    "step.weights_sum_to_one": (_calc("step_softmax", "weights", lambda w: w * 1.001),),
    "step.rounded_weights_show_0999": (
        _set("step_softmax", "rounded_sum", lambda s: 1.0),
        _set("step_softmax", "rounding_note", lambda n: False),
    ),
    "step.sat_output_is_half": (_calc("step_sum", "out", lambda o: np.array([0.5, 0.6])),),
    "step.cat_future_is_zero": (
        _calc("step_causal", "weights", lambda w: np.array([0.3, 0.6, 0.1])),  # cat gives 0.1 to sat
        _calc("step_causal", "exps", lambda e: np.array([e[0], e[1], 1.0])),
    ),
    "step.sat_row_stands": (
        _set("step_causal", "sat_stands", lambda s: False),
        _calc("step_causal", "weights", lambda w: np.array([0.3, 0.3, 0.4]), attr="sat"),
        _calc("step_causal", "blocked", lambda b: np.array([False, False, True]), attr="sat"),
    ),
    "practice.the_sees_the_future": (
        _in("practice", "runs", "no_mask", lambda run: {**run, "weights": _row(run["weights"], 0, [1.0, 0.0, 0.0])}),
    ),
    "practice.strong_q3_ties": (
        _in("practice", "runs", "strong_q3", lambda run: {**run, "weights": _row(run["weights"], 2, [0.6, 0.1, 0.3])}),
        _in("practice", "runs", "strong_q3", lambda run: {**run, "weights": _row(run["weights"], 2, [0.25, 0.5, 0.25])}),
    ),
    "practice.unscaled_x10_one_hot": (
        _in("practice", "runs", "unscaled_x10", lambda run: {**run, "weights": _row(run["weights"], 1, [0.5, 0.5, 0.0])}),
    ),
    "practice.scaling_softens_a_little": (
        # the division softens nothing: the scaled run is the unscaled one
        lambda r, mp: r.data["practice"]["runs"].__setitem__(
            "scaled_x10", {**r.data["practice"]["runs"]["scaled_x10"],
                           "weights": r.data["practice"]["runs"]["unscaled_x10"]["weights"].copy()}),
        # or softens far more than "a little": cat's row down to 0.6
        _in("practice", "runs", "scaled_x10", lambda run: {**run, "weights": _row(run["weights"], 1, [0.4, 0.6, 0.0])}),
    ),
    "practice.weights_ignore_v": (
        _set("practice", "weights_same", lambda s: False),
        _in("practice", "runs", "random_v4", lambda run: {**run, "out": run["out"][:, :2]}),
    ),
}

CASES = [(key, i) for key in sorted(BREAKS) for i in range(len(BREAKS[key]))]


def test_every_claim_has_a_deliberate_break():
    keys = [c.key for c in claims.CLAIMS]
    assert len(keys) == len(set(keys)), "two claims share a key"
    missing = sorted(set(keys) - set(BREAKS))
    assert not missing, f"claims no test shows can fail (add a break to BREAKS): {missing}"
    assert not set(BREAKS) - set(keys), f"breaks for claims that do not exist: {sorted(set(BREAKS) - set(keys))}"


@pytest.mark.parametrize(("key", "i"), CASES, ids=[f"{k}-{i}" for k, i in CASES])
def test_a_false_claim_fails_and_is_named(results, monkeypatch, key, i):
    r = copy.deepcopy(results)
    BREAKS[key][i](r, monkeypatch)
    with pytest.raises(claims.ClaimError) as err:
        claims.verify(r)
    assert f"  - {key}: " in str(err.value), str(err.value)


def test_claims_about_the_default_sentence_are_skipped_for_others():
    r = experiment.run("fish swam by the shore")
    checked = {c.key for c, _ in claims.check(r)}
    assert "wired.bank_looks_at_river" not in checked
    assert "causal.last_row_unchanged" in checked
