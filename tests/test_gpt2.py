"""gpt2.py against published numbers and formulas written out independently."""

from __future__ import annotations

import pytest

from attention_workshop import (
    GPT2,
    attention_flops,
    attention_params,
    attention_params_with_bias,
    head_params,
    mlp_params,
    total_params,
)
from attention_workshop.gpt2 import STEPS, GPT2Config


def test_sizes_are_gpt2_small():
    assert (GPT2.n_layer, GPT2.n_head, GPT2.n_embd, GPT2.n_ctx, GPT2.vocab_size) == (
        12,
        12,
        768,
        1024,
        50257,
    )
    assert GPT2.head_size == 64


def test_the_seeds_price_tag():
    assert head_params() == 147_456  # seed 000: 3 x 768 x 64
    assert attention_params() == 28_311_552  # seed 000: 12 x (12 x 147,456 + 768 x 768)


def test_biases_add_four_widths_per_layer():
    assert attention_params_with_bias() - attention_params() == 12 * (2304 + 768)


def test_the_mlp_widens_to_four_widths_and_back():
    assert GPT2.n_inner == 3072  # GPT-2's config: n_inner = 4 x n_embd
    assert mlp_params() == 12 * (768 * 3072 + 3072 * 768) == 2 * attention_params()


def test_total_is_the_published_count():
    # GPT-2 small as loaded by common libraries: 124,439,808 parameters (tied output layer).
    assert total_params() == 124_439_808


def test_flops_per_token_of_the_seed():
    f = attention_flops(1)
    assert f["qkv"] == 2 * 768 * 2304  # about 3.5 MFLOPs per token
    assert round(f["qkv"] / 1e6, 1) == 3.5
    assert round(f["proj"] / 1e6, 1) == 1.2
    assert attention_flops(5)["score_cells"] == 25
    assert attention_flops(1024)["score_cells"] > 1_000_000


@pytest.mark.parametrize("T", [1, 5, 64, 1024])
def test_flops_by_formula(T):
    """Each step written out for GPT-2 small (C = 768, 12 heads of 64): a multiply-add is 2 FLOPs."""
    assert attention_flops(T) == {
        "qkv": 2 * T * 768 * 2304,  # (T, 768) x (768, 2304)
        "scores": 12 * 2 * T * T * 64,  # per head (T, 64) x (64, T)
        "scale": 12 * T * T,
        "softmax": 12 * T * T,
        "weighted_sum": 12 * 2 * T * T * 64,  # per head (T, T) x (T, 64)
        "proj": 2 * T * 768 * 768,  # (T, 768) x (768, 768)
        "score_cells": T * T,
    }
    # the score grid grows with the square of T, the projections with T
    assert attention_flops(2 * T)["scores"] == 12 * 2 * (2 * T) ** 2 * 64


def test_steps_are_the_seven_steps_of_causal_attention_in_order():
    assert [s.id for s in STEPS] == [
        "projections",
        "scores",
        "scale",
        "causal-mask",
        "softmax",
        "weighted-sum",
        "output-projection",
    ]
    assert [s.title for s in STEPS] == [
        "Projections",
        "Scores",
        "Scale",
        "Causal mask",
        "Softmax",
        "Weighted sum",
        "Output projection",
    ]


def test_steps_name_their_flop_counts():
    """Every step but the mask names a count of attention_flops; together they are every count but the grid size."""
    keys = [s.flops for s in STEPS]
    assert keys == ["qkv", "scores", "scale", None, "softmax", "weighted_sum", "proj"]
    assert set(keys) - {None} == set(attention_flops(1)) - {"score_cells"}
    T = 10
    f = attention_flops(T)
    total = (
        2 * T * 768 * 2304
        + 2 * (12 * 2 * T * T * 64)
        + 2 * 12 * T * T
        + 2 * T * 768 * 768
    )
    assert sum(f[k] for k in keys if k) == total


def test_other_configs_scale():
    tiny = GPT2Config(n_layer=1, n_head=2, n_embd=8)
    assert head_params(tiny) == 3 * 8 * 4
    assert attention_params(tiny) == 2 * 96 + 64


@pytest.mark.parametrize("bad", [0, -3, 1.5, True])
def test_flops_reject_bad_token_counts(bad):
    with pytest.raises(ValueError, match="positive whole number"):
        attention_flops(bad)
