"""experiment/inside_page.py and experiment/inside_html.py: the page's JSON, text, tables, HTML and prose values.

Expected texts are written out here from hand counts (GPT-2's published sizes multiplied out),
NumPy's seeded generator drawn here, and the toy vocabulary's table; the JSON's reference output
is checked against PyTorch in float64.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
import torch

from attention_workshop.experiment import inside_html, inside_page
from attention_workshop.gpt2 import GPT2

from .conftest import ROOT

STEP_IDS = [
    "projections",
    "scores",
    "scale",
    "causal-mask",
    "softmax",
    "weighted-sum",
    "output-projection",
]


@pytest.fixture(scope="module")
def data():
    files = inside_page.site_files()
    assert list(files) == ["generated/inside-the-model.json"]
    text = files["generated/inside-the-model.json"]
    assert (
        text.endswith("}\n") and "\n" not in text[:-1]
    )  # one compact line, as the build writes it
    return json.loads(text)


def test_json_has_the_schema_the_page_reads(data):
    assert sorted(data) == ["gpt2", "growth", "steps", "toy"]
    assert sorted(data["toy"]) == sorted(
        [
            "n_embd",
            "n_head",
            "head_size",
            "max_tokens",
            "seed",
            "words",
            "features",
            "vocab",
            "positions",
            "weights",
            "costs",
            "code",
            "reference",
            "token_colours",
        ]
    )
    assert sorted(data["gpt2"]) == sorted(
        [
            "n_embd",
            "n_head",
            "head_size",
            "n_ctx",
            "c_attn",
            "c_proj",
            "qkv_per_token",
            "proj_per_token",
            "qkv_per_token_text",
            "proj_per_token_text",
            "cells_at_ctx",
            "cells_at_toy",
            "costs",
            "code",
            "figures",
        ]
    )
    assert data["steps"] == [
        {"id": i, "title": t}
        for i, t in zip(
            STEP_IDS,
            [
                "Projections",
                "Scores",
                "Scale",
                "Causal mask",
                "Softmax",
                "Weighted sum",
                "Output projection",
            ],
        )
    ]
    assert data["growth"] == [{"T": T, "cells": T * T} for T in range(1, 9)]
    assert (
        sorted(data["toy"]["costs"])
        == sorted(data["toy"]["code"])
        == [str(T) for T in range(1, 9)]
    )


def test_json_toy_world(data):
    toy = data["toy"]
    assert (
        toy["n_embd"],
        toy["n_head"],
        toy["head_size"],
        toy["max_tokens"],
        toy["seed"],
    ) == (8, 2, 4, 8, 0)
    assert toy["words"] == ["the", "boat", "by", "the", "bank"]
    assert toy["features"] == [
        "water",
        "money",
        "place",
        "grammar",
        "pos sin",
        "pos cos",
        "pos sin/4",
        "pos cos/4",
    ]
    assert toy["vocab"]["bank"] == [0.4, 0.4, 1.0, 0.0] and list(
        toy["vocab"]
    ) == sorted(toy["vocab"])
    t = np.arange(8.0)[:, None]
    np.testing.assert_allclose(
        toy["positions"],
        0.5 * np.hstack([np.sin(t), np.cos(t), np.sin(t / 4), np.cos(t / 4)]),
    )
    rng = np.random.default_rng(0)
    for name, s, shape in (
        ("c_attn_weight", 0.5, (8, 24)),
        ("c_attn_bias", 0.1, (24,)),
        ("c_proj_weight", 0.3, (8, 8)),
        ("c_proj_bias", 0.1, (8,)),
    ):
        np.testing.assert_array_equal(
            toy["weights"][name], rng.normal(0.0, s, size=shape), err_msg=name
        )


def test_json_reference_is_pytorchs(data):
    toy = data["toy"]
    w = {k: torch.tensor(v, dtype=torch.float64) for k, v in toy["weights"].items()}
    # (1, T, C)
    x = torch.tensor(
        [
            toy["vocab"][word] + toy["positions"][i]
            for i, word in enumerate(toy["words"])
        ],
        dtype=torch.float64,
    )[None]
    q, k, v = (
        a.view(1, 5, 2, 4).transpose(1, 2)
        for a in (x @ w["c_attn_weight"] + w["c_attn_bias"]).split(8, dim=2)
    )
    att = ((q @ k.transpose(-2, -1)) / 2.0).masked_fill(
        torch.ones(5, 5, dtype=torch.bool).triu(1), float("-inf")
    )
    att = att.softmax(dim=-1)
    y = (att @ v).transpose(1, 2).reshape(1, 5, 8) @ w["c_proj_weight"] + w[
        "c_proj_bias"
    ]
    np.testing.assert_allclose(
        toy["reference"]["weights"], att[0].numpy(), rtol=0, atol=1e-12
    )
    np.testing.assert_allclose(toy["reference"]["y"], y[0].numpy(), rtol=0, atol=1e-12)


def test_json_costs_by_hand(data):
    toy = {c["id"]: c for c in data["toy"]["costs"]["5"]}
    assert [c["id"] for c in data["toy"]["costs"]["5"]] == STEP_IDS
    # 2 x 5 x 8 x 24; 5 tokens x 24 biases
    assert toy["projections"] == {
        "id": "projections",
        "title": "Projections",
        "op": "[5×8]·[8×24] + b → [5×24], split into Q, K, V",
        "flops": 1920,
        "cost": "1.9 kFLOPs (1,920)",
        "per_token": "384 FLOPs per token",
        "note": "a multiply-add counts 2; the 120 bias adds are left out",
    }
    assert toy["scores"]["op"] == "2 heads × [5×4]·[4×5] → 2 × [5×5], 25 cells per head"
    assert (
        toy["scale"]["op"] == "every score ÷ √4 = 2"
        and toy["scale"]["cost"] == "50 FLOPs"
    )
    assert toy["causal-mask"]["op"] == "j > i → −∞: 10 of 25 cells per head"
    assert (
        toy["causal-mask"]["cost"] == "no arithmetic: cells are overwritten"
        and toy["causal-mask"]["flops"] == 0
    )
    assert "convention" in toy["softmax"]["note"] and toy["softmax"]["per_token"] == ""
    assert (
        toy["output-projection"]["note"]
        == "a multiply-add counts 2; the 40 bias adds are left out"
    )
    big = {c["id"]: c for c in data["gpt2"]["costs"]}
    assert (
        big["projections"]["op"]
        == "[1024×768]·[768×2304] + b → [1024×2304], split into Q, K, V"
    )
    assert (
        big["projections"]["cost"] == "3.6 GFLOPs (3,623,878,656)"
    )  # 2 x 1024 x 768 x 2304
    assert big["projections"]["per_token"] == "3.5 MFLOPs per token"
    assert (
        big["scores"]["op"]
        == "12 heads × [1024×64]·[64×1024] → 12 × [1024×1024], 1,048,576 cells per head"
    )
    assert (
        big["causal-mask"]["op"] == "j > i → −∞: 523,776 of 1,048,576 cells per head"
    )  # 1024 x 1023 / 2
    g = data["gpt2"]
    assert (
        g["c_attn"],
        g["c_proj"],
        g["qkv_per_token_text"],
        g["proj_per_token_text"],
    ) == ([768, 2304], [768, 768], "3.5 MFLOPs", "1.2 MFLOPs")
    assert (g["cells_at_ctx"], g["cells_at_toy"], g["n_ctx"], g["head_size"]) == (
        1_048_576,
        25,
        1024,
        64,
    )


def test_one_token_reads_in_the_singular(data):
    one = {c["id"]: c for c in data["toy"]["costs"]["1"]}
    assert one["scores"]["op"].endswith("1 cell per head") and one["causal-mask"][
        "op"
    ].endswith("0 of 1 cell per head")
    assert ">1 token<" in inside_html.static_step("scores", words=["bank"])


def test_code_lines_carry_the_shapes(data):
    lines = data["toy"]["code"]["5"]
    assert sorted({s for ln in lines for s in ln["steps"]}) == [1, 2, 3, 4, 5, 6, 7]
    shape = {ln["code"].strip(): ln["shape"] for ln in lines}
    assert (
        shape["att = q @ k.transpose(-2, -1)"]
        == "(1, 2, 5, 4) x (1, 2, 4, 5) -> (1, 2, 5, 5)"
    )
    assert shape["q, k, v = self.c_attn(x).split(self.n_embd, dim=2)"] == (
        "(1, 5, 8) x (8, 24) -> (1, 5, 24) -> 3 x (1, 5, 8)"
    )
    assert shape["att = att * (1.0 / math.sqrt(k.size(-1)))"] == "÷ √4: (1, 2, 5, 5)"
    assert shape["def forward(self, x):"] == shape["return y"] == ""
    big = {ln["code"].strip(): ln["shape"] for ln in data["gpt2"]["code"]}
    assert (
        big["y = att @ v"]
        == "(1, 12, 1024, 1024) x (1, 12, 1024, 64) -> (1, 12, 1024, 64)"
    )
    assert big["y = self.c_proj(y)"] == "(1, 1024, 768) x (768, 768) -> (1, 1024, 768)"


def test_static_code_aligns_the_comments_and_lets_them_wrap():
    """The code at the end of the page: one line per span, comments aligned on a wide screen and kept
    apart (an inline block of their own) so that a narrow one moves them, whole, under their code."""
    import html

    text = inside_page.static_code()
    assert text.startswith('<pre class="ins-code-static" tabindex="0"><code>')
    assert text.endswith("</code></pre>\n")
    lines = re.findall(r'<span class="ins-line">(.*?)\n</span>', text)
    plain = [html.unescape(re.sub(r"<[^>]+>", "", ln)) for ln in lines]
    assert plain[0] == "def forward(self, x):" and plain[-1] == "    return y"
    rows = [ln for ln in plain if "# " in ln]
    assert len({ln.index("# ") for ln in rows}) == 1 and len(rows) == 12
    assert text.count('<span class="ins-shape"># ') == 12


def test_the_first_comment_says_what_x_is_at_each_scale(data):
    """LayerNorm, honestly: GPT-2's x is ln_1(h); the toy's x is the raw input."""
    toy = {ln["code"].strip(): ln["shape"] for ln in data["toy"]["code"]["5"]}
    big = {ln["code"].strip(): ln["shape"] for ln in data["gpt2"]["code"]}
    assert (
        toy["B, T, C = x.size()"] == "x: the raw input; the toy skips ln_1: (1, 5, 8)"
    )
    assert big["B, T, C = x.size()"] == "x = ln_1(h): (1, 1024, 768)"


def test_token_colours_are_distinct_colours_for_every_token(data):
    colours = data["toy"]["token_colours"]
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in colours)
    assert len(set(colours)) == len(colours) >= data["toy"]["max_tokens"]
    assert data["gpt2"]["figures"] == ["gpt2-blocks.svg", "gpt2-flops.svg"]


def test_shapes_plain_counts_grouped(data):
    """One number format: shapes as plain digits (as PyTorch prints them), counts of 1,000+ grouped."""
    texts = [
        str(c[k])
        for c in data["gpt2"]["costs"]
        for k in ("op", "cost", "note", "per_token")
    ]
    texts += [ln["shape"] for ln in data["gpt2"]["code"]]
    texts += [
        inside_page.sizes_table(),
        inside_page.growth_table(),
        *inside_page.values().values(),
    ]
    shape = r"\[[^\]]*\]|\(\d[\d,]*(?:, \d[\d,]*)+\)|\d[\d,]* ?× ?\d[\d,]*"  # [a×b], (1, 12, T, hs), a × b
    for t in texts:
        assert not [s for s in re.findall(shape, t) if re.search(r"\d,\d{3}", s)], (
            f"separator inside a shape: {t}"
        )
        assert not re.search(r"(?<![\d,.])\d{4,}", re.sub(shape, "", t)), (
            f"an ungrouped count of 1,000 or more: {t}"
        )


def test_tables_by_hand():
    sizes = inside_page.sizes_table()
    assert (
        "| tokens (T) | 5 | up to 1,024 |" in sizes
        and "| c_attn weight | 8 × 24 | 768 × 2304 |" in sizes
    )
    assert (
        "| heads (n_head) | 2 | 12 |" in sizes
        and "| head width d_k (head_size) | 4 | 64 |" in sizes
    )
    growth = inside_page.growth_table()
    assert (
        "| 4 | 16 | ×4 |" in growth
        and "| 3 | 9 |  |" in growth
        and "| 8 | 64 | ×4 |" in growth
    )
    assert "| 512 | 262,144 | |" in growth and "| 1,024 | 1,048,576 | ×4 |" in growth


def test_static_steps_print_values_with_colour():
    soft = inside_html.static_step("softmax")
    assert (
        soft.count('class="ins-cell') == 25 and ">1.00</td>" in soft
    )  # the first row's weight on itself
    assert (
        "ins-masked" not in soft
        and inside_html.static_step("causal-mask").count(">−∞</td>") == 10
    )
    assert '<div class="ins-static" data-step="5">' in soft
    assert (
        "<caption>attention weights A (head 1); every row sums to 1</caption>" in soft
    )
    every = "".join(inside_html.static_step(s) for s in STEP_IDS)
    assert (
        ">-" not in every and ">−0.00<" not in every
    )  # true minus signs; no negative zero
    cells = re.findall(
        r'<td class="ins-cell ins-(pos|neg)" style="--a:([\d.]+)">([^<]*)</td>', every
    )
    assert cells and all(re.fullmatch(r"−?\d+\.\d\d", v) for _, _, v in cells)
    assert all(
        (sign == "neg") == v.startswith("−") for sign, _, v in cells if v != "0.00"
    )


def test_static_step_refuses_an_unknown_step():
    with pytest.raises(ValueError, match="the steps are: projections, scores"):
        inside_html.static_step("attention")


def test_explorer_mount_points_at_the_json():
    out = inside_html.explorer_html()
    assert (
        'id="inside-explorer" data-src="generated/inside-the-model.json"' in out
        and "needs JavaScript" in out
    )


def test_values_by_hand():
    assert inside_page.values() == {
        "gpt2_c_attn": "768 × 2304",
        "gpt2_c_proj": "768 × 768",
        "gpt2_qkv_per_token": "3.5 MFLOPs",
        "gpt2_proj_per_token": "1.2 MFLOPs",  # 3,538,944 and 1,179,648
        "cells_at_toy": "25 cells",
        "toy_tokens": "5 tokens",
        "cells_at_ctx": "1,048,576 cells",
        "gpt2_tokens": "1,024 tokens",
        "gpt2_c_attn_bias": "2,304",
        "gpt2_c_proj_bias": "768",
        "gpt2_bias_adds": "3,072",
        "gpt2_bias_share": "0.065%",  # 3,072 / (2 x 768 x 3,072) = 1/1,536
        "n_axes": "4",
        "axes": "water, money, place, grammar",
        "n_positions": "4",
        "n_embd": "8",
        "seed": "0",
        "c_attn_weight_shape": "8×24",
        "c_attn_bias_shape": "24",
        "c_proj_weight_shape": "8×8",
        "c_proj_bias_shape": "8",
        "tolerance": "1e-12",
    }


def test_the_page_quotes_every_value_and_only_those():
    page = (ROOT / "docs" / "inside-the-model.md").read_text(encoding="utf-8")
    quoted = set(re.findall(r"\{\{\s*inside\.([\w-]+)\s*\}\}", page))
    assert quoted == set(inside_page.values())


def test_gpt2_costs_are_at_gpt2s_context():
    assert inside_page.step_texts(GPT2.n_ctx, GPT2)[0]["flops"] == 2 * 1024 * 768 * 2304
