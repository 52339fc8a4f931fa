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
    Claim("simple.self_attention_dominates", "with nothing learned, each word looks most at itself",
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
          lambda r: r.data["multi_head"]["diff"] <= _eps(r) * 4),
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
