"""inside.py against PyTorch in float64, hand-counted sizes and costs, and bad input.

Expected values come from outside the code under test: PyTorch's own attention on the same
weights, GPT-2's published sizes multiplied out by hand, the toy vocabulary's table.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from attention_workshop import inside
from attention_workshop.gpt2 import GPT2

INPUTS = [
    (("the", "boat", "by", "the", "bank"), None),
    (("bank",), None),
    (("money", "cash", "vault", "at", "the", "river", "shore", "fish"), None),
    (("a", "fish", "swam"), np.full((3, 8), 0.3)),
]


def torch_block(x: np.ndarray, n_head: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """GPT-2's attention written with PyTorch (float64): y (T, C) and the weights (nh, T, T)."""
    w = {k: torch.tensor(v, dtype=torch.float64) for k, v in inside.toy_weights().items()}
    xt = torch.tensor(x, dtype=torch.float64)[None]  # (1, T, C)
    B, T, C = xt.shape
    q, k, v = (xt @ w["c_attn_weight"] + w["c_attn_bias"]).split(C, dim=2)
    q, k, v = (a.view(B, T, n_head, C // n_head).transpose(1, 2) for a in (q, k, v))  # (1, nh, T, hs)
    att = (q @ k.transpose(-2, -1)) / math.sqrt(k.size(-1))
    att = att.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf")).softmax(dim=-1)
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    y = y.transpose(1, 2).reshape(B, T, C) @ w["c_proj_weight"] + w["c_proj_bias"]
    return y[0].numpy(), att[0].numpy()


@pytest.mark.parametrize("words,nudge", INPUTS, ids=lambda a: " ".join(a) if isinstance(a, tuple) else "nudge")
def test_every_step_agrees_with_pytorch(words, nudge):
    r = inside.compute(words, nudge)
    y, att = torch_block(r["x"])
    np.testing.assert_allclose(r["y"], y, rtol=0, atol=1e-12, err_msg=f"y for {words}")
    np.testing.assert_allclose(r["weights"], att, rtol=0, atol=1e-12, err_msg=f"weights for {words}")
    T = len(words)
    assert r["q"].shape == r["k"].shape == r["v"].shape == r["heads"].shape == (2, T, 4)
    assert r["scores"].shape == r["masked"].shape == (2, T, T)
    np.testing.assert_array_equal(r["scaled"], r["scores"] / 2.0)  # sqrt(d_head = 4) is exactly 2


def test_input_is_named_axes_then_positions():
    x = inside.token_inputs(["bank", "the", "river"])
    # The toy vocabulary's own rows (toy.py): bank (0.4, 0.4, 1.0, 0.0), the (0, 0, 0, 1), river (1, 0, 0.3, 0).
    np.testing.assert_array_equal(x[:, :4], [[0.4, 0.4, 1.0, 0.0], [0, 0, 0, 1], [1, 0, 0.3, 0]])
    np.testing.assert_array_equal(x[0, 4:], [0.0, 0.5, 0.0, 0.5])  # position 0: sin 0, cos 0 (halved)
    np.testing.assert_allclose(x[2, 4:], 0.5 * np.array([math.sin(2), math.cos(2), math.sin(0.5), math.cos(0.5)]))


def test_nudge_adds_to_the_input():
    nudge = np.zeros((2, 8))
    nudge[1, 2] = 0.1
    x = inside.token_inputs(["the", "bank"], nudge)
    assert x[1, 2] == 1.0 + 0.1 and x[0, 3] == 1.0


def test_causal_facts_hold_for_the_page_input():
    w = inside.compute()["weights"]
    np.testing.assert_array_equal(w[:, 0, 0], [1.0, 1.0])  # the first token sees only itself
    assert (w[:, np.triu_indices(5, 1)[0], np.triu_indices(5, 1)[1]] == 0).all()
    np.testing.assert_allclose(w.sum(-1), 1.0, atol=1e-12)


def test_weights_have_gpt2_layout_and_are_seeded():
    w = inside.toy_weights()
    assert {k: v.shape for k, v in w.items()} == {
        "c_attn_weight": (8, 24), "c_attn_bias": (24,), "c_proj_weight": (8, 8), "c_proj_bias": (8,)}
    assert all(not a.flags.writeable for a in w.values())
    assert not np.array_equal(inside.toy_weights(1)["c_attn_weight"], w["c_attn_weight"])


def test_compute_refuses_when_the_steps_disagree(monkeypatch):
    real = inside.multi_head_attention

    def off(*args, **kwargs):
        y, att = real(*args, **kwargs)
        return y + 1e-6, att

    monkeypatch.setattr(inside, "multi_head_attention", off)
    with pytest.raises(RuntimeError, match="differs from the package"):
        inside.compute()


def test_gpt2_sizes_and_costs_by_hand():
    f = inside.gpt2_facts()
    assert f["c_attn"] == [768, 2304] and f["c_proj"] == [768, 768]
    assert f["qkv_per_token"] == 3_538_944  # 2 x 768 x 2304
    assert f["proj_per_token"] == 1_179_648  # 2 x 768 x 768
    assert f["cells_at_toy"] == 25 and f["cells_at_ctx"] == 1_048_576  # 5 x 5, 1024 x 1024
    assert "3.5 MFLOPs per token" in inside.gpt2_costs_text() and "1.2 MFLOPs per token" in inside.gpt2_costs_text()


def test_toy_step_costs_by_hand():
    c = {s["id"]: s for s in inside.step_costs(5)}
    assert c["projections"]["flops"] == 2 * 5 * 8 * 24
    assert c["scores"]["flops"] == 2 * (2 * 5 * 5 * 4)  # 2 heads, a multiply-add per cell per dim
    assert c["weighted-sum"]["flops"] == 400 and c["output-projection"]["flops"] == 640
    assert "10 of 25" in c["causal-mask"]["op"]  # the strict upper triangle of 5 x 5
    assert [s["title"] for s in inside.step_costs(5)] == [
        "Projections", "Scores", "Scale", "Causal mask", "Softmax", "Weighted sum", "Output projection"]


def test_growth_quadruples_when_tokens_double():
    cells = {r["T"]: r["cells"] for r in inside.growth()}
    assert (cells[1], cells[2], cells[4], cells[8]) == (1, 4, 16, 64)
    assert "| 1,024 | 1,048,576 | ×4 |" in inside.growth_table()


def test_code_lines_cover_every_step_with_shapes():
    lines = inside.code_lines(5)
    assert sorted({s for ln in lines for s in ln["steps"]}) == [1, 2, 3, 4, 5, 6, 7]
    att = next(ln for ln in lines if ln["code"].strip().startswith("att = q @ k"))
    assert att["steps"] == [2] and att["shape"].endswith("(1, 2, 5, 5)")
    big = inside.code_lines(1024, GPT2)
    assert any("(1, 12, 1024, 64)" in ln["shape"] for ln in big)
    assert any("(768, 2304)" in ln["shape"] for ln in big)


def test_site_file_is_the_pages_json_and_deterministic():
    files = inside.site_files()
    assert list(files) == ["generated/inside-the-model.json"]
    assert files == inside.site_files()
    data = json.loads(files["generated/inside-the-model.json"])
    assert data["toy"]["words"] == ["the", "boat", "by", "the", "bank"]
    np.testing.assert_array_equal(data["toy"]["weights"]["c_attn_weight"], inside.toy_weights()["c_attn_weight"])
    assert data["gpt2"]["c_attn"] == [768, 2304]
    assert [s["id"] for s in data["steps"]] == [
        "projections", "scores", "scale", "causal-mask", "softmax", "weighted-sum", "output-projection"]


def test_static_steps_print_values_with_colour():
    html = inside.static_step("softmax")
    assert html.count('class="ins-cell') == 25
    assert ">1.00</td>" in html  # the first row's weight on itself
    assert "ins-masked" not in html and inside.static_step("causal-mask").count(">−∞</td>") == 10


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: inside.compute(["the", "dragon"]), "toy vocabulary knows: a, at, bank"),
        (lambda: inside.compute(["the"] * 9), "1 to 8"),
        (lambda: inside.compute([]), "at least one word"),
        (lambda: inside.compute(["the", "bank"], np.zeros((3, 8))), r"nudge must have shape \(2, 8\).*\(3, 8\)"),
        (lambda: inside.static_step("attention"), "the steps are: projections, scores"),
        (lambda: inside.step_costs(0), "1 to 8"),
    ],
    ids=["unknown word", "too many", "none", "nudge shape", "step id", "zero tokens"],
)
def test_bad_input_says_what_is_wrong(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_one_token_reads_in_the_singular():
    text = " ".join(str(c["op"]) + " " + str(c["cost"]) for c in inside.step_costs(1))
    assert "1 cell per head" in text and "0 of 1 cell per head" in text
    assert "1 cells" not in text and "1 tokens" not in text
    assert ">1 token<" in inside.static_step("scores", words=["bank"])
    assert "25 cells per head" in inside.step_costs(5)[1]["op"]  # and the plural where it belongs


def test_shapes_plain_counts_grouped():
    """One number format: shapes as plain digits (as PyTorch prints them), counts of 1,000+ grouped."""
    import re

    texts = [str(c[k]) for c in inside.step_costs(1024, GPT2) for k in ("op", "cost", "note")]
    texts += [str(ln["shape"]) for ln in inside.code_lines(1024, GPT2)]
    texts += [inside.gpt2_costs_text(), inside.sizes_table(), inside.growth_table(), inside.cost_convention_text()]
    for t in texts:
        shape = r"\[[^\]]*\]|\(\d[\d,]*(?:, \d[\d,]*)+\)|\d[\d,]* × \d[\d,]*"  # [a×b], (1, 12, T, hs), a × b
        shapes = re.findall(shape, t)
        assert not [s for s in shapes if re.search(r"\d,\d{3}", s)], f"separator inside a shape: {t}"
        rest = re.sub(shape, "", t)
        assert not re.search(r"(?<![\d,.])\d{4,}", rest), f"an ungrouped count of 1,000 or more: {t}"
    assert "[1024×768]·[768×2304]" in inside.step_costs(1024, GPT2)[0]["op"]
    assert "1,048,576 cells per head" in inside.step_costs(1024, GPT2)[1]["op"]


def test_costs_say_how_they_are_counted():
    c = {s["id"]: s for s in inside.step_costs(5)}
    assert "1 per cell" in c["softmax"]["note"] and "convention" in c["softmax"]["note"]
    assert "the 120 bias adds are left out" in c["projections"]["note"]  # 5 tokens x 24 outputs
    assert "the 40 bias adds are left out" in c["output-projection"]["note"]  # 5 tokens x 8 outputs
    text = inside.cost_convention_text()
    # GPT-2: 2304 + 768 = 3072 bias adds per token, against 2 x 768 x 3072 multiply-add FLOPs
    assert "2,304 + 768 = 3,072 adds per token" in text and f"{3072 / (2 * 768 * 3072):.3%}" in text
    assert "softmax is counted as 1 per cell" in text


def test_prose_facts_are_printed_from_the_package():
    assert "**4 named axes** (water, money, place, grammar)" in inside.input_text()
    assert "**8 numbers per token**" in inside.input_text()
    w = inside.weights_text()
    assert "default_rng(0)" in w and "to within 1e-12" in w and "exactly" not in w
