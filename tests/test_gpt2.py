"""gpt2.py against published numbers and formulas written out independently."""

from __future__ import annotations

import pytest

from attention_workshop import GPT2, attention_flops, attention_params, attention_params_with_bias, head_params, total_params
from attention_workshop.gpt2 import GPT2Config


def test_sizes_are_gpt2_small():
    assert (GPT2.n_layer, GPT2.n_head, GPT2.n_embd, GPT2.n_ctx, GPT2.vocab_size) == (12, 12, 768, 1024, 50257)
    assert GPT2.head_size == 64


def test_the_seeds_price_tag():
    assert head_params() == 147_456  # seed 000: 3 x 768 x 64
    assert attention_params() == 28_311_552  # seed 000: 12 x (12 x 147,456 + 768 x 768)


def test_biases_add_four_widths_per_layer():
    assert attention_params_with_bias() - attention_params() == 12 * (2304 + 768)


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


def test_doubling_tokens_quadruples_the_score_grid():
    for T in (5, 64, 512):
        assert attention_flops(2 * T)["scores"] == 4 * attention_flops(T)["scores"]
        assert attention_flops(2 * T)["qkv"] == 2 * attention_flops(T)["qkv"]


def test_other_configs_scale():
    tiny = GPT2Config(n_layer=1, n_head=2, n_embd=8)
    assert head_params(tiny) == 3 * 8 * 4
    assert attention_params(tiny) == 2 * 96 + 64


@pytest.mark.parametrize("bad", [0, -3, 1.5, True])
def test_flops_reject_bad_token_counts(bad):
    with pytest.raises(ValueError, match="positive whole number"):
        attention_flops(bad)
