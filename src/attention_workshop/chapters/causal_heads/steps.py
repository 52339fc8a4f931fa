"""The seven steps of Inside the model at SmolLM2's real sizes, beside GPT-2's, with their FLOPs.

Counted as :func:`attention_workshop.gpt2.attention_flops` counts them (a multiply-add is 2
operations, softmax 1 per cell). One difference: SmolLM2's 9 query heads share 3 key/value
heads, so its projections make 9 heads' queries but only 3 heads' keys and values.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...gpt2 import GPT2, STEPS, Step, attention_flops

__all__ = ["StepFlops", "causal_flops", "step_table"]


@dataclass(frozen=True)
class StepFlops:
    """One step: its FLOPs in one SmolLM2 layer and in one GPT-2 layer, for the same ``T``."""

    step: Step
    smollm: int
    gpt2: int


def causal_flops(
    T: int, d_model: int, n_head: int, n_kv_head: int, hs: int
) -> dict[str, int]:
    """One SmolLM2-style attention layer's FLOPs for ``T`` tokens, by :func:`attention_flops`'s keys."""
    C = d_model
    return {
        "qkv": 2
        * T
        * C
        * (n_head + 2 * n_kv_head)
        * hs,  # q: nh heads; k, v: nkv heads each
        "scores": n_head * 2 * T * T * hs,
        "scale": n_head * T * T,
        "softmax": n_head * T * T,
        "weighted_sum": n_head * 2 * T * T * hs,
        "proj": 2 * T * (n_head * hs) * C,
    }


def step_table(
    T: int, d_model: int, n_head: int, n_kv_head: int, hs: int
) -> tuple[StepFlops, ...]:
    """Each of the seven steps with both models' FLOPs (0 for the causal mask)."""
    ours = causal_flops(T, d_model, n_head, n_kv_head, hs)
    theirs = attention_flops(T, GPT2)
    return tuple(
        StepFlops(s, ours[s.flops] if s.flops else 0, theirs[s.flops] if s.flops else 0)
        for s in STEPS
    )
