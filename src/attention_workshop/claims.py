"""The claims the pages make about the results, each one checked at every build.

A claim is a sentence a page states ("every row sums to 1") and a test over the
numbers of this build. :func:`verify` raises :class:`ClaimError` naming every
claim that has stopped being true, and the site build fails with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .experiment import Results
from .toy import SENT_RIVER

__all__ = ["Claim", "ClaimError", "CLAIMS", "check", "verify"]

#: "Within a few units of 2^-52": the agreement the pages promise with PyTorch.
EPS_UNITS = 4


class ClaimError(AssertionError):
    """A sentence on the site is no longer true of the numbers this build produced."""


@dataclass(frozen=True)
class Claim:
    key: str
    text: str
    test: Callable[[Results], bool]
    default_only: bool = False  # true only of the workshop's own sentence


def _renormalised(unmasked: np.ndarray, masked: np.ndarray) -> bool:
    """Row i of the masked table equals row i of the unmasked one, cut to j <= i and rescaled to sum 1."""
    T = len(unmasked)
    for i in range(T):
        visible = unmasked[i, : i + 1]
        if not np.allclose(masked[i, : i + 1], visible / visible.sum(), rtol=0, atol=1e-12):
            return False
    return True


def _eps(r: Results) -> float:
    return EPS_UNITS * r.data["general_head"]["eps"]


CLAIMS: tuple[Claim, ...] = (
    Claim("softmax.sums_to_one", "softmax's weights sum to 1",
          lambda r: bool(np.isclose(r.data["softmax"]["w_small"].sum(), 1.0, rtol=0, atol=1e-12))),
    Claim("softmax.zero_gets_share", "a zero score still gets a share (e^0 = 1)",
          lambda r: bool(r.data["softmax"]["w_zero"][1] > 0)),
    Claim("softmax.neg_inf_is_zero", "a score of -inf gets exactly 0",
          lambda r: r.data["softmax"]["w_silenced"][2] == 0.0),
    Claim("softmax.naive_overflows", "the naive formula overflows on scores near 1000",
          lambda r: bool(np.isnan(r.data["softmax"]["naive_big"]).any())),
    Claim("softmax.max_trick_changes_nothing", "subtracting the maximum changes nothing but overflow",
          lambda r: r.data["softmax"]["naive_vs_stable_small"] <= 1e-15
          and bool(np.isfinite(r.data["softmax"]["w_big"]).all())),
    Claim("simple.self_attention_dominates",
          "on the workshop's two sentences, each word's largest single share is on itself",
          lambda r: all(bool((np.argmax(r.data["simple"][k]["weights"], axis=1) == np.arange(len(r.data["simple"][k]["weights"]))).all())
                        for k in ("first", "contrast")), default_only=True),
    Claim("simple.bank_moves_to_water", "in 'the river bank', bank's output moves toward water",
          lambda r: r.data["simple"]["first"]["out"][-1, 0] > r.data["simple"]["first"]["out"][-1, 1], default_only=True),
    Claim("simple.bank_moves_to_money", "in 'the savings bank', bank's output moves toward money",
          lambda r: r.data["simple"]["contrast"]["out"][-1, 1] > r.data["simple"]["contrast"]["out"][-1, 0]),
    Claim("wired.rows_sum_to_one", "every row of the wired head's table sums to 1",
          lambda r: bool(np.allclose(r.data["wired_head"]["weights"].sum(axis=1), 1.0, rtol=0, atol=1e-12))),
    Claim("wired.bank_looks_at_river", "the wired head sends bank's attention mostly to river",
          lambda r: int(np.argmax(r.data["wired_head"]["weights"][-1])) == 1, default_only=True),
    Claim("sqrt_dk.variance_grows", "the variance of raw dot products grows with d_k",
          lambda r: bool(np.all(np.diff(r.data["sqrt_dk"]["var_raw"]) > 0))),
    Claim("sqrt_dk.variance_follows_dk", "without scaling, the variance of q.k is within 5% of d_k at every d_k",
          lambda r: bool(np.all(np.abs(r.data["sqrt_dk"]["var_raw"] / r.data["sqrt_dk"]["dk"] - 1) < 0.05))),
    Claim("sqrt_dk.scaled_variance_near_one", "scaling keeps the variance near 1",
          lambda r: bool(np.all(np.abs(r.data["sqrt_dk"]["var_scaled"] - 1) < 0.2))),
    Claim("sqrt_dk.raw_saturates", "without scaling, softmax approaches one-hot as d_k grows",
          lambda r: bool(r.data["sqrt_dk"]["max_raw"][-1] > 0.9 and np.all(np.diff(r.data["sqrt_dk"]["max_raw"]) > 0))),
    Claim("sqrt_dk.scaled_stays_responsive", "with scaling, the largest weight stays far from one-hot",
          lambda r: bool(np.all(r.data["sqrt_dk"]["max_scaled"] < 0.6))),
    Claim("general_head.matches_torch", "ours and PyTorch's agree within a few units of 2^-52",
          lambda r: max(r.data["general_head"]["diff"], r.data["general_head"]["diff_causal"]) <= _eps(r)),
    Claim("causal.first_row_on_itself", "the first causal row puts all its weight on itself",
          lambda r: r.data["causal"]["weights"][0, 0] == 1.0 and not r.data["causal"]["weights"][0, 1:].any()),
    Claim("causal.future_is_zero", "every weight above the diagonal is exactly 0",
          lambda r: not r.data["causal"]["weights"][r.data["causal"]["future"]].any()),
    Claim("causal.last_row_unchanged", "the last causal row equals its unmasked row",
          lambda r: bool(np.allclose(r.data["causal"]["weights"][-1], r.data["causal"]["unmasked"][-1], rtol=0, atol=1e-15))),
    Claim("causal.rows_sum_to_one", "every causal row still sums to 1",
          lambda r: bool(np.allclose(r.data["causal"]["weights"].sum(axis=1), 1.0, rtol=0, atol=1e-12))),
    Claim("causal.rows_renormalise", "each causal row is its unmasked row, shared again over the visible words",
          lambda r: _renormalised(r.data["causal"]["unmasked"], r.data["causal"]["weights"])),
    Claim("order.blind", "bank's output is the same in the reversed sentence",
          lambda r: r.data["order"]["same"] and r.data["order"]["diff"] <= 1e-12),
    Claim("price.per_head", "one GPT-2 head holds 147,456 numbers in W_q, W_k, W_v",
          lambda r: r.data["price"]["per_head"] == 147_456),
    Claim("price.attention", "GPT-2's attention holds 28,311,552 weights",
          lambda r: r.data["price"]["attention"] == 28_311_552),
    Claim("price.total", "GPT-2 small has about 124M parameters",
          lambda r: round(r.data["price"]["total"] / 1e6) == 124),
    Claim("price.fifth_to_quarter", "attention is between a fifth and a quarter of GPT-2",
          lambda r: 0.2 < r.data["price"]["share"] < 0.25),
    Claim("multi_head.matches_torch", "multi_head_attention agrees with PyTorch's GPT-2 attention within a few units of 2^-52",
          lambda r: r.data["multi_head"]["diff"] <= _eps(r)),
)


def _calc(r: Results, key: str):
    return r.data[key]["calc"]


def _run(r: Results, name: str) -> dict:
    return r.data["practice"]["runs"][name]


def _hand_matches_package(r: Results) -> bool:
    """Every row computed by hand equals the package's attention on the chapter's inputs."""
    from .core import scaled_dot_product_attention
    from .handcalc import K_CAT, Q_CAT, V_CAT, by_hand

    ok = True
    for causal in (False, True):
        out, w = scaled_dot_product_attention(Q_CAT, K_CAT, V_CAT, causal=causal)
        for i in range(len(Q_CAT)):
            c = by_hand(Q_CAT, K_CAT, V_CAT, i, causal=causal)
            ok &= bool(np.allclose(c.weights, w[i], rtol=0, atol=1e-15) and np.allclose(c.out, out[i], rtol=0, atol=1e-15))
    return ok


#: The seed's hand calculation of "the cat sat", to 3 decimals (seed 003): what the chapter reproduces.
SEED_003 = {"scaled": (0.707, 0.707, 1.414), "sqrt_dk": 1.414, "exps": (2.028, 2.028, 4.113), "total": 8.169,
            "weights": (0.248, 0.248, 0.503), "out": (0.500, 0.500), "cat_weights": (0.330, 0.670, 0.000),
            "cat_out": (0.330, 0.670), "cat_total": 3.028}


def _seed_003(r: Results) -> bool:
    sat, cat = _calc(r, "step_softmax"), _calc(r, "step_causal")
    got = {"scaled": sat.scaled, "sqrt_dk": sat.sqrt_dk, "exps": sat.exps, "total": sat.total, "weights": sat.weights,
           "out": sat.out, "cat_weights": cat.weights, "cat_out": cat.out, "cat_total": cat.total}
    return all(bool(np.all(np.round(np.asarray(got[k], dtype=float), 3) == np.asarray(v))) for k, v in SEED_003.items())


CLAIMS = CLAIMS + (
    Claim("softmax_shift.equal_shares", "equal scores get equal shares",
          lambda r: bool(np.allclose(r.data["softmax_shift"]["equal"], 1 / 3, rtol=0, atol=1e-15))),
    Claim("softmax_shift.shift_changes_nothing", "softmax([1000, 999, 998]) equals softmax([2, 1, 0]) bit for bit",
          lambda r: r.data["softmax_shift"]["identical"]),
    Claim("softmax_shift.exp_overflows", "exp(1000) overflows to inf; exp stays finite only below about 709.78",
          lambda r: np.isposinf(r.data["softmax_shift"]["exp_1000"]) and 700 < r.data["softmax_shift"]["largest_x"] < 1000),
    Claim("simple_limits.symmetric", "with one vector per word, the score table is symmetric",
          lambda r: r.data["simple_limits"]["asymmetry"] == 0.0),
    Claim("simple_limits.bank_leans_both_ways", "bank leans to water in 'the river bank' and to money in 'the savings bank'",
          lambda r: r.data["simple_limits"]["lean"]["first"][1] > 0 > r.data["simple_limits"]["lean"]["contrast"][1]
          and r.data["simple_limits"]["lean"]["first"][0] == 0 == r.data["simple_limits"]["lean"]["contrast"][0],
          default_only=True),
    Claim("simple_limits.self_below_half", "no word keeps half of its attention for itself, in either sentence",
          lambda r: all(bool((np.diag(r.data["simple"][k]["weights"]) < 0.5).all()) for k in ("first", "contrast")),
          default_only=True),
    Claim("simple_limits.own_dot_largest", "each word's dot with itself (its squared length) beats its dot with any other word",
          lambda r: bool((r.data["simple_limits"]["self_dot"] > r.data["simple_limits"]["best_other_dot"]).all()),
          default_only=True),
    Claim("simple_limits.longer_neighbour_wins",
          "in 'the vault bank', the longer bank outscores vault's own row and gets more of vault's attention",
          lambda r: (lambda d: d["neighbour"] == "bank" and d["len_other"] > d["len_self"]
                     and d["other_dot"] > d["self_dot"] and d["other_w"] > d["self_w"])(r.data["simple_limits"]["longer"])),
    Claim("wired_parts.the_looks_at_bank", "the wired head sends 'the' mostly to bank (the place channel)",
          lambda r: int(np.argmax(r.data["wired_parts"]["wired"]["weights"][0])) == 2, default_only=True),
    Claim("wired_parts.the_top_share_under_half", "the wired head's largest share of 'the' is under one half",
          lambda r: float(np.max(r.data["wired_parts"]["wired"]["weights"][0])) < 0.5, default_only=True),
    Claim("wired_parts.the_advertises_nothing", "'the' advertises nothing: its key is zero, so every score on it is 0",
          lambda r: not r.data["wired_parts"]["wired"]["K"][0].any()
          and not r.data["wired_parts"]["wired"]["scores"][:, 0].any(), default_only=True),
    Claim("wired_parts.stronger_than_simple", "the wired head moves bank further than Module 1 did, in both sentences",
          lambda r: all(abs(r.data["wired_parts"]["lean"][k]) > abs(r.data["wired_parts"]["lean_simple"][k]) > 0
                        for k in ("first", "contrast")), default_only=True),
    Claim("step.seed_003", "the build reproduces the seed's hand calculation of 'the cat sat' to 3 decimals", _seed_003),
    Claim("step.hand_equals_package", "the hand calculation equals the package's attention, row by row",
          _hand_matches_package),
    Claim("step.weights_sum_to_one", "unrounded, sat's weights sum to 1",
          lambda r: abs(float(np.sum(_calc(r, "step_softmax").weights)) - 1) <= 1e-15),
    Claim("step.rounded_weights_show_0999", "rounded to 3 decimals, sat's weights add to 0.999, and the log says so",
          lambda r: r.data["step_softmax"]["rounding_note"] and r.data["step_softmax"]["rounded_sum"] == 0.999
          and any("0.999" in line for line in r.excerpt("step_softmax"))),
    Claim("step.sat_output_is_half", "sat's output is one half on both axes",
          lambda r: bool(np.allclose(_calc(r, "step_sum").out, 0.5, rtol=0, atol=1e-15))),
    Claim("step.cat_future_is_zero", "under the mask, cat's weight on sat is exactly 0",
          lambda r: _calc(r, "step_causal").weights[2] == 0.0 and _calc(r, "step_causal").exps[2] == 0.0),
    Claim("step.sat_row_stands", "under the mask, sat (the last word) keeps its row from step 3",
          lambda r: r.data["step_causal"]["sat_stands"]
          and bool(np.array_equal(r.data["step_causal"]["sat"].weights, _calc(r, "step_softmax").weights))
          and not r.data["step_causal"]["sat"].blocked.any()),
    Claim("practice.the_sees_the_future", "without the mask, 'the' gives weight to 'sat', a word after it",
          lambda r: _run(r, "no_mask")["weights"][0, 2] > 0 and _run(r, "base")["weights"][0, 0] == 1.0),
    Claim("practice.strong_q3_ties", "with q3 = [5, 0], sat's attention splits evenly between 'the' and itself, and cat's share drops",
          lambda r: bool(np.isclose(_run(r, "strong_q3")["weights"][2, 0], _run(r, "strong_q3")["weights"][2, 2], rtol=0, atol=1e-15))
          and _run(r, "strong_q3")["weights"][2, 1] < _run(r, "base")["weights"][2, 1]),
    Claim("practice.unscaled_x10_one_hot", "Q x 10 without the scaling: every row is nearly one-hot (largest weight above 0.999)",
          lambda r: bool(np.all(_run(r, "unscaled_x10")["weights"].max(axis=1) > 0.999))),
    Claim("practice.scaling_softens_a_little", "keeping the division softens the rows, a little at d_k = 2",
          lambda r: bool(np.all(_run(r, "scaled_x10")["weights"].max(axis=1)[1:] < _run(r, "unscaled_x10")["weights"].max(axis=1)[1:]))
          and bool(np.all(_run(r, "scaled_x10")["weights"].max(axis=1) > 0.99))),
    Claim("practice.weights_ignore_v", "a random 4-number V changes the outputs' shape, never the weights",
          lambda r: r.data["practice"]["weights_same"] and _run(r, "random_v4")["out"].shape == (3, 4)),
)


def check(results: Results) -> list[tuple[Claim, bool]]:
    """Evaluate every claim that applies to this run (the workshop's sentence gets all of them)."""
    default = tuple(results.sentence) == tuple(SENT_RIVER)
    return [(c, bool(c.test(results))) for c in CLAIMS if default or not c.default_only]


def verify(results: Results) -> int:
    """Raise :class:`ClaimError` naming each false claim; return how many claims held."""
    outcome = check(results)
    false = [c for c, ok in outcome if not ok]
    if false:
        lines = "\n".join(f"  - {c.key}: {c.text}" for c in false)
        raise ClaimError(f"{len(false)} claim(s) the pages make are no longer true of this build's numbers:\n{lines}")
    return len(outcome)
