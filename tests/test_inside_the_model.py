"""chapters/inside_the_model.py: the toy block against PyTorch in float64, sizes and costs by hand,
bad input, and the page's claims (each one broken on purpose must fail the build's claims runner).

Expected values come from outside the code under test: PyTorch's own attention on the same
weights, NumPy's seeded generator drawn here, GPT-2's published sizes multiplied out by hand,
the toy vocabulary's table.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import torch

from attention_workshop.chapters import inside_the_model as inside
from attention_workshop.chapters import layer_sizes
from attention_workshop.gpt2 import GPT2
from workshop_site import claims

from .breaks import assert_reported

INPUTS = [
    (("the", "boat", "by", "the", "bank"), None),
    (("bank",), None),
    (("money", "cash", "vault", "at", "the", "river", "shore", "fish"), None),
    (("a", "fish", "swam"), np.full((3, 8), 0.3)),
]
STEP_IDS = [
    "projections",
    "scores",
    "scale",
    "causal-mask",
    "softmax",
    "weighted-sum",
    "output-projection",
]


def drawn_weights(seed: int = 0) -> list[np.ndarray]:
    """The toy weights drawn here, as the page says: default_rng(seed), normal, in GPT-2's layout."""
    rng = np.random.default_rng(seed)
    return [
        rng.normal(0.0, s, size=shape)
        for s, shape in ((0.5, (8, 24)), (0.1, (24,)), (0.3, (8, 8)), (0.1, (8,)))
    ]


def torch_block(x: np.ndarray, n_head: int = 2) -> dict[str, np.ndarray]:
    """GPT-2's attention written with PyTorch (float64), every intermediate kept (batch dimension dropped)."""
    c_attn_w, c_attn_b, c_proj_w, c_proj_b = (
        torch.tensor(a, dtype=torch.float64) for a in drawn_weights()
    )
    xt = torch.tensor(x, dtype=torch.float64)[None]  # (1, T, C)
    B, T, C = xt.shape
    qkv = xt @ c_attn_w + c_attn_b  # (1, T, 3C)
    q, k, v = (
        a.view(B, T, n_head, C // n_head).transpose(1, 2) for a in qkv.split(C, dim=2)
    )  # (1, nh, T, hs)
    scores = q @ k.transpose(-2, -1)  # (1, nh, T, T)
    scaled = scores / math.sqrt(k.size(-1))
    att = scaled.masked_fill(
        torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf")
    ).softmax(dim=-1)
    heads = torch.nn.functional.scaled_dot_product_attention(
        q, k, v, is_causal=True
    )  # (1, nh, T, hs)
    y = heads.transpose(1, 2).reshape(B, T, C) @ c_proj_w + c_proj_b  # (1, T, C)
    out = {
        "qkv": qkv,
        "q": q,
        "k": k,
        "v": v,
        "scores": scores,
        "scaled": scaled,
        "weights": att,
        "heads": heads,
        "y": y,
    }
    return {name: t[0].numpy() for name, t in out.items()}


@pytest.mark.parametrize(
    "words,nudge",
    INPUTS,
    ids=lambda a: " ".join(a) if isinstance(a, tuple) else "nudge",
)
def test_every_step_agrees_with_pytorch(words, nudge):
    walk = inside.compute(words, nudge)
    ref = torch_block(walk.x)
    for name, expected in ref.items():
        np.testing.assert_allclose(
            getattr(walk, name),
            expected,
            rtol=0,
            atol=1e-12,
            err_msg=f"{name} for {words}",
        )
    T = len(words)
    assert walk.masked.shape == (2, T, T) and walk.concat.shape == (T, 8)
    assert np.isneginf(
        walk.masked[:, np.triu_indices(T, 1)[0], np.triu_indices(T, 1)[1]]
    ).all()


def test_input_is_named_axes_then_positions():
    x = inside.token_inputs(["bank", "the", "river"])
    # The toy vocabulary's own rows (toy.py): bank (0.4, 0.4, 1.0, 0.0), the (0, 0, 0, 1), river (1, 0, 0.3, 0).
    np.testing.assert_array_equal(
        x[:, :4], [[0.4, 0.4, 1.0, 0.0], [0, 0, 0, 1], [1, 0, 0.3, 0]]
    )
    np.testing.assert_array_equal(
        x[0, 4:], [0.0, 0.5, 0.0, 0.5]
    )  # position 0: sin 0, cos 0 (halved)
    np.testing.assert_allclose(
        x[2, 4:],
        0.5 * np.array([math.sin(2), math.cos(2), math.sin(0.5), math.cos(0.5)]),
    )


def test_nudge_adds_to_the_input():
    nudge = np.zeros((2, 8))
    nudge[1, 2] = 0.1
    x = inside.token_inputs(["the", "bank"], nudge)
    assert x[1, 2] == 1.0 + 0.1 and x[0, 3] == 1.0


def test_weights_have_gpt2_layout_and_are_seeded():
    w = inside.toy_weights()
    arrays = [w.c_attn_weight, w.c_attn_bias, w.c_proj_weight, w.c_proj_bias]
    for got, drawn in zip(arrays, drawn_weights(), strict=True):
        np.testing.assert_array_equal(got, drawn)
    assert all(not a.flags.writeable for a in arrays)
    assert not np.array_equal(inside.toy_weights(1).c_attn_weight, w.c_attn_weight)


@pytest.mark.parametrize(
    "call,match",
    [
        (
            lambda: inside.compute(["the", "dragon"]),
            "toy vocabulary knows: a, at, bank",
        ),
        (lambda: inside.compute(["the"] * 9), "1 to 8"),
        (lambda: inside.compute([]), "at least one word"),
        (
            lambda: inside.compute(["the", "bank"], np.zeros((3, 8))),
            r"nudge must have shape \(2, 8\).*\(3, 8\)",
        ),
        (lambda: inside.compute(["the", "bank"], np.full((2, 8), np.nan)), "finite"),
        (lambda: layer_sizes.step_costs(0, inside.TOY), "1 to 8"),
        (lambda: layer_sizes.shapes(1025, GPT2), "1 to 1024"),
    ],
    ids=[
        "unknown word",
        "too many",
        "none",
        "nudge shape",
        "nudge nan",
        "zero tokens",
        "past n_ctx",
    ],
)
def test_bad_input_says_what_is_wrong(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --------------------------------------------------------------------------- sizes and costs by hand


def test_toy_step_costs_by_hand():
    costs = layer_sizes.step_costs(5, inside.TOY)
    assert [c.step.id for c in costs.steps] == STEP_IDS
    by_id = {c.step.id: c for c in costs.steps}
    flops = {sid: c.flops for sid, c in by_id.items()}
    assert flops == {
        "projections": 2 * 5 * 8 * 24,  # a multiply-add per (token, input, output)
        "scores": 2 * (2 * 5 * 5 * 4),  # 2 heads, a multiply-add per cell per dimension
        "scale": 2 * 25,
        "causal-mask": 0,
        "softmax": 2 * 25,
        "weighted-sum": 2 * (2 * 5 * 5 * 4),
        "output-projection": 2 * 5 * 8 * 8,
    }
    assert (by_id["projections"].per_token, by_id["output-projection"].per_token) == (
        2 * 8 * 24,
        2 * 8 * 8,
    )
    assert (by_id["projections"].bias_adds, by_id["output-projection"].bias_adds) == (
        5 * 24,
        5 * 8,
    )
    assert all(
        c.per_token == c.bias_adds == 0
        for sid, c in by_id.items()
        if "projection" not in sid
    )
    assert (costs.score_cells, costs.masked_cells) == (
        25,
        10,
    )  # 5 x 5, its strict upper triangle


def test_gpt2_sizes_and_costs_by_hand():
    f = layer_sizes.gpt2_facts(5)
    assert f.qkv_per_token == 3_538_944  # 2 x 768 x 2304
    assert f.proj_per_token == 1_179_648  # 2 x 768 x 768
    assert (f.c_attn_bias_adds, f.c_proj_bias_adds) == (2304, 768)
    assert (f.cells_at_toy, f.cells_at_half_ctx, f.cells_at_ctx) == (
        25,
        512 * 512,
        1024 * 1024,
    )
    assert (
        f.narrow_heads
        == f.one_wide_head
        == (2 * 1024 * 1024 * 768, 2 * 1024 * 1024 * 768)
    )
    assert f.bias_share == pytest.approx(3072 / (2 * 768 * 3072))


def test_growth_is_the_square():
    assert [(r.T, r.cells) for r in layer_sizes.growth(8, inside.TOY)] == [
        (T, T * T) for T in range(1, 9)
    ]


def test_forward_covers_every_step_in_order():
    steps = [s for line in layer_sizes.FORWARD for s in line.steps]
    assert steps == sorted(steps) and set(steps) == set(range(1, 8))
    att = next(
        line
        for line in layer_sizes.FORWARD
        if line.code.strip().startswith("att = q @ k")
    )
    assert att.steps == (2,) and att.comment == "scores"


def test_shapes_at_gpt2_by_hand():
    s = layer_sizes.shapes(1024, GPT2)
    assert (s.x, s.c_attn, s.qkv, s.c_proj) == (
        (1, 1024, 768),
        (768, 2304),
        (1, 1024, 2304),
        (768, 768),
    )
    assert (s.heads, s.keys_t, s.grid, s.head_size) == (
        (1, 12, 1024, 64),
        (1, 12, 64, 1024),
        (1, 12, 1024, 1024),
        64,
    )


# --------------------------------------------------------------------------- the claims


INSIDE_KEYS = [c.key for c in inside.CLAIMS]


def test_the_facts_are_the_pages():
    f = inside.facts()
    assert f.walk.x.shape == (5, 8) and (
        f.n_axes,
        f.n_positions,
        f.n_features,
        f.n_embd,
    ) == (4, 4, 8, 8)
    np.testing.assert_allclose(f.walk.y, torch_block(f.walk.x)["y"], rtol=0, atol=1e-12)


def test_every_inside_claim_holds_and_is_checked(results):
    outcome = {c.key: ok for c, ok in claims.check(results)}
    assert {k: outcome[k] for k in INSIDE_KEYS} == dict.fromkeys(INSIDE_KEYS, True)
    assert claims.verify(results) == len(claims.CLAIMS)


def test_another_sentence_skips_the_page_claims(results):
    other = dataclasses.replace(results, sentence=("the", "bank"))
    checked = {c.key for c, _ in claims.check(other)}
    assert checked and not checked & set(INSIDE_KEYS)


def _in(part, field, change):
    """A break that replaces ``facts.<part>.<field>`` by ``change(old value)``."""

    def brk(f):
        old = getattr(f, part)
        return dataclasses.replace(
            f,
            **{part: dataclasses.replace(old, **{field: change(getattr(old, field))})},
        )

    return brk


def _weights_with(w, row, values):
    """``w`` ``(nh, T, T)`` with row ``row`` of every head replaced by ``values`` then zeros (a new array)."""
    w = np.array(w, copy=True)
    w[:, row, : len(values)] = values
    w[:, row, len(values) :] = 0.0
    return w


# Each break rewrites the facts one claim reads so that its sentence becomes false (the comment says how).
BREAKS = [
    # the walk drifts from the package by 1e-9 (more than TOLERANCE, 1e-12), in each of the four comparisons
    ("inside.walk_matches_package", "y", _in("walk", "y", lambda y: y + 1e-9)),
    ("inside.walk_matches_package", "heads", _in("walk", "heads", lambda h: h + 1e-9)),
    (
        "inside.walk_matches_package",
        "mha weights",
        _in("reference", "weights", lambda w: w + 1e-9),
    ),
    (
        "inside.walk_matches_package",
        "sdpa weights",
        _in("reference", "sdpa_weights", lambda w: w + 1e-9),
    ),
    # every weight 10% too large: rows sum to 1.1
    ("inside.rows_sum_to_one", "x1.1", _in("walk", "weights", lambda w: w * 1.1)),
    # token 3 gives a quarter of its attention to token 4, a later token (its row still sums to 1)
    (
        "inside.mask_hides_future",
        "future",
        _in("walk", "weights", lambda w: _weights_with(w, 2, [0.25] * 4)),
    ),
    # the first token puts half its attention on token 2, a later token
    (
        "inside.mask_hides_future",
        "first row",
        _in("walk", "weights", lambda w: _weights_with(w, 0, [0.5, 0.5])),
    ),
    # the toy grid grows as T (T + 1): doubling T no longer quadruples it
    (
        "inside.doubling_quadruples",
        "toy",
        lambda f: dataclasses.replace(
            f,
            growth=tuple(
                dataclasses.replace(r, cells=r.T * (r.T + 1)) for r in f.growth
            ),
        ),
    ),
    # GPT-2's grid at half its context is half, not a quarter, of the full grid
    (
        "inside.doubling_quadruples",
        "gpt2",
        _in("gpt2", "cells_at_half_ctx", lambda n: 2 * n),
    ),
    # one wide head would cost twice the scores of the narrow heads
    (
        "inside.narrow_heads_cost_one_wide",
        "x2",
        _in("gpt2", "one_wide_head", lambda c: (2 * c[0], c[1])),
    ),
    # a context of 1,000 tokens: 1,000,000 cells, not over a million
    (
        "inside.grid_over_a_million",
        "1000",
        _in("gpt2", "cells_at_ctx", lambda _: 1000 * 1000),
    ),
    # c_attn with 5,000 bias adds per token: (5,000 + 768) / 4,718,592 is 0.12%
    (
        "inside.bias_adds_negligible",
        "5000",
        _in("gpt2", "c_attn_bias_adds", lambda _: 5000),
    ),
    # the toy's x normalised as LayerNorm would (mean 0, spread 1 per row): the page says it is not
    (
        "inside.toy_skips_ln_1",
        "normalised",
        _in(
            "walk",
            "x",
            lambda x: (
                (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True)
            ),
        ),
    ),
    # five position numbers: 4 axes + 5 is not n_embd 8
    (
        "inside.input_fills_n_embd",
        "5 positions",
        lambda f: dataclasses.replace(f, n_positions=5),
    ),
]


def test_every_inside_claim_has_a_break():
    assert sorted({key for key, _, _ in BREAKS}) == sorted(INSIDE_KEYS)


@pytest.mark.parametrize("key,how,brk", BREAKS, ids=[f"{k}-{h}" for k, h, _ in BREAKS])
def test_a_broken_claim_fails_verify_naming_it(results, monkeypatch, key, how, brk):
    broken = brk(inside.facts())
    monkeypatch.setitem(claims.SUBJECTS, "inside_the_model", lambda _: broken)
    with pytest.raises(claims.ClaimError, match=rf"- {key}: ") as err:
        claims.verify(results)
    assert "inside." in str(err.value) and key in {
        c.key for c, ok in claims.check(results) if not ok
    }, how
    assert_reported(str(err.value), key)
