"""Numbers quoted in prose stand in the right place: each sentence reads with the value it names.

A ``{{ section.name }}`` placeholder fills in *a* number from the build; these tests check
that the sentence around it reads true, e.g. that "bank gives X of its attention to river"
carries bank's weight on river and not its weight on itself. Every expected value is
computed here, independently of the package: plain Python or PyTorch in float64 from the
toy vocabulary, the wired matrices, seed 003's "the cat sat" inputs and GPT-2's published
sizes, then formatted the way the page writes it.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from attention_workshop.chapters.module_2 import DK_KEYS, DK_TRIALS, DK_VALUES
from attention_workshop.experiment.runner import SEED
from attention_workshop.toy import VOCAB, W_K_WIRED, W_Q_WIRED

from .test_site import page_html, visible_text

pytestmark = pytest.mark.site

RIVER, MONEY, LONGER = (
    ("the", "river", "bank"),
    ("the", "savings", "bank"),
    ("the", "vault", "bank"),
)


# --------------------------------------------------------------------------- references and formats


def t(rows) -> torch.Tensor:
    return torch.tensor(rows, dtype=torch.float64)


def X(words) -> torch.Tensor:
    """The sentence's rows, straight from the vocabulary's tuples: (T, 4)."""
    return t([VOCAB[w] for w in words])


def simple(words) -> tuple[torch.Tensor, torch.Tensor]:
    """Module 1 by PyTorch: Q = K = V = X; weights from V = identity. Returns (weights (T, T), out (T, 4))."""
    x = X(words)
    eye = torch.eye(len(words), dtype=torch.float64)
    return F.scaled_dot_product_attention(x, x, eye), F.scaled_dot_product_attention(
        x, x, x
    )


def wired(words, causal: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    """Module 2's head by PyTorch: Q = X W_Q, K = X W_K, V = X. Returns (weights (T, T), out (T, 4))."""
    x = X(words)
    q, k = x @ t(W_Q_WIRED.tolist()), x @ t(W_K_WIRED.tolist())  # (T, 2) each
    eye = torch.eye(len(words), dtype=torch.float64)
    return (
        F.scaled_dot_product_attention(q, k, eye, is_causal=causal),
        F.scaled_dot_product_attention(q, k, x, is_causal=causal),
    )


def lean(row) -> float:
    """Water minus money (axes 0 and 1 of the vocabulary)."""
    return float(row[0] - row[1])


def f3(x: float, nd: int = 3) -> str:
    s = f"{float(x):.{nd}f}"
    return s[1:] if s == "-" + "0." + "0" * nd else s


def signed(x: float) -> str:
    """As the pages write a lean: +0.326, −0.304 (a true minus sign), 0.000 for zero."""
    s = f3(x)
    if float(s) > 0:
        s = "+" + s
    return s.replace("-", "\u2212")


def vec(v, nd: int = 3) -> str:
    return "[" + ", ".join(f3(x, nd) for x in v) + "]"


def text(site, page: str) -> str:
    return visible_text(page_html(site, page))


def assert_says(page_text: str, *fragments: str) -> None:
    for fragment in fragments:
        assert fragment in page_text, f"the page should read: {fragment!r}"


# --------------------------------------------------------------------------- Module 0


def test_module_0_dot_products_name_their_pairs(built_site):
    def dot(a, b):
        return sum(x * y for x, y in zip(VOCAB[a], VOCAB[b]))

    rb, sb, rs, tb = (
        dot("river", "bank"),
        dot("savings", "bank"),
        dot("river", "savings"),
        dot("the", "bank"),
    )
    assert rb > sb  # the self-check's answer, "river · bank", is the larger
    assert_says(
        text(built_site, "module-0"),
        f'"river" and "bank" share water and place, so their dot product is {rb:.2f}.',
        f'"savings" and "bank" share money and a little place: {sb:.2f}.',
        f'"river" and "savings" barely touch ({rs:.2f})',
        f'"the" has nothing in common with "bank" at all ({tb:.2f})',
        f"river · bank, {rb:.2f} against {sb:.2f}.",
    )


def test_module_0_softmax_sentences(built_site):
    def softmax(xs):
        e = [math.exp(x - max(xs)) for x in xs]
        return [v / sum(e) for v in e]

    small, zero, equal = softmax([2, 1, 0]), softmax([2, 0, 0]), softmax([0, 0, 0])
    big = softmax([1000, 999, 998])  # the max-subtracted formula
    assert zero[1] == zero[2] and 0 < zero[1] < zero[0]
    with pytest.raises(OverflowError):
        math.exp(1000)
    largest_x = math.log(sys.float_info.max)
    assert_says(
        text(built_site, "module-0"),
        f"become {vec(small)}, and the shares add up to 1.",
        f"the two zeros each get {zero[1]:.3f}, because",
        f"gives each word {equal[0]:.3f}.",
        f"passes about {largest_x:.2f}:",
        "comes out as inf.",
        # the self-checks
        f"{equal[0]:.3f} each.",
        f"A score of 0 still earns a share ({zero[1]:.3f} in",
        f"No: {vec(big)} for both.",
    )


# --------------------------------------------------------------------------- Module 1


def test_module_1_bank_leans_each_way(built_site):
    _, out_r = simple(RIVER)
    _, out_m = simple(MONEY)
    before, after_r, after_m = lean(X(RIVER)[-1]), lean(out_r[-1]), lean(out_m[-1])
    assert before == 0 and after_r > 0 > after_m
    assert_says(
        text(built_site, "module-1"),
        f"Before attention, bank is balanced: its lean is {signed(before)}.",
        f'After attention it leans {signed(after_r)} next to "river" and {signed(after_m)} next to "savings".',
        f"Toward money: {signed(after_m)} (water minus money).",
    )


def test_module_1_self_weights(built_site):
    w, _ = simple(RIVER)
    T = len(RIVER)
    own = [float(w[i, i]) for i in range(T)]
    best_other = [max(float(w[i, j]) for j in range(T) if j != i) for i in range(T)]
    wins = sum(a > b for a, b in zip(own, best_other))
    x = X(RIVER)
    S = x @ x.T / 2.0
    asym = float((S - S.T).abs().max())
    assert_says(
        text(built_site, "module-1"),
        f'({wins} of {T} words in "the river bank")',
        f'the largest self-weight in "the river bank" is {max(own):.3f}.',
        f'"the" gives {own[0]:.3f} to itself and at most {best_other[0]:.3f} to any other word',
        f"(the largest difference across the diagonal is {asym:.1f})",
        f"Itself, {own[0]:.3f}: the largest share, but less than half.",
    )


def test_module_1_longer_neighbour(built_site):
    w, _ = simple(LONGER)
    vault, bank = VOCAB["vault"], VOCAB["bank"]
    len_vault, len_bank = (
        math.sqrt(sum(v * v for v in vault)),
        math.sqrt(sum(v * v for v in bank)),
    )
    vv, vb = sum(a * a for a in vault), sum(a * b for a, b in zip(vault, bank))
    assert len_bank > len_vault and vb > vv and w[1, 2] > w[1, 1]
    assert_says(
        text(built_site, "module-1"),
        f'"bank" shares the money and place axes of "vault" and is the longer row '
        f"({len_bank:.3f} against {len_vault:.3f}): vault · bank is {vb:.3f}, "
        f"more than vault · vault = {vv:.3f}, "
        f'so "vault" gives {float(w[1, 2]):.3f} to "bank" and only {float(w[1, 1]):.3f} to itself',
    )


# --------------------------------------------------------------------------- Module 2


def test_module_2_queries_and_keys(built_site):
    def project(word, W):
        return [sum(VOCAB[word][a] * W[a][c] for a in range(4)) for c in range(2)]

    Wq, Wk = W_Q_WIRED.tolist(), W_K_WIRED.tolist()
    assert_says(
        text(built_site, "module-2"),
        f'"the" asks {vec(project("the", Wq), 1)} (nothing on topic, everything on place) '
        f"and advertises {vec(project('the', Wk), 1)}: nothing at all",
        f'"bank" asks {vec(project("bank", Wq), 1)} on the topic channel, '
        f'and "river" advertises {vec(project("river", Wk), 1)}.',
    )


def test_module_2_wired_head_sentences(built_site):
    w, out = wired(RIVER)
    _, out_m = wired(MONEY)
    _, simple_r = simple(RIVER)
    _, simple_m = simple(MONEY)
    top = RIVER[int(torch.argmax(w[0]))]
    assert top == "bank" and w[2, 1] > w[2, 2]
    page = text(built_site, "module-2")
    assert_says(
        page,
        f'"bank" now gives {float(w[2, 1]):.3f} of its attention to "river" and only '
        f'{float(w[2, 2]):.3f} to itself, and "the" sends its largest share, {float(w[0, 2]):.3f}, '
        f'to "{top}", the place it belongs to.',
        f"bank's lean toward water grows from {signed(lean(simple_r[-1]))} to {signed(lean(out[-1]))}, "
        f'and in "the savings bank" toward money from {signed(lean(simple_m[-1]))} to {signed(lean(out_m[-1]))}',
        f'"{top}", with {float(w[0, 2]):.3f}: its largest single share',
    )


def test_module_2_sqrt_dk_sentences(built_site):
    # The measurement's definitions (seed, sizes, counts) are the experiment's; the numbers are
    # measured again here with PyTorch on the same seeded draws.
    seed, sizes, keys, trials = SEED, DK_VALUES, DK_KEYS, DK_TRIALS
    rng = np.random.default_rng(seed)
    var_raw, var_scaled, max_raw, max_scaled = {}, {}, {}, {}
    for d in sizes:
        q = torch.from_numpy(rng.standard_normal((trials, d)))
        k = torch.from_numpy(rng.standard_normal((trials, keys, d)))
        raw = (k @ q.unsqueeze(-1)).squeeze(-1)  # (N, keys, d) x (N, d, 1) -> (N, keys)
        var_raw[d], var_scaled[d] = (
            float(raw.var(unbiased=False)),
            float((raw / math.sqrt(d)).var(unbiased=False)),
        )
        max_raw[d] = float(torch.softmax(raw, -1).max(-1).values.mean())
        max_scaled[d] = float(
            torch.softmax(raw / math.sqrt(d), -1).max(-1).values.mean()
        )
    first, last, check = sizes[0], sizes[-1], sizes[-2]
    ratios = [var_raw[d] / d for d in sizes]
    assert_says(
        text(built_site, "module-2"),
        f"random queries and keys (seed {seed}), {trials} queries against {keys} keys each, "
        f"for {len(sizes)} sizes of",
        f"(between {min(ratios):.3f} and {max(ratios):.3f} times",
        f"it is {var_raw[last]:.1f}). The largest of {keys} weights climbs from {max_raw[first]:.3f} at",
        f"to {max_raw[last]:.3f}: nearly one-hot.",
        f"the variance stays near 1 ({var_scaled[last]:.3f} at",
        f"the largest weight stays around {max_scaled[last]:.3f}, so softmax keeps responding.",
        f"About {check} (measured: {var_raw[check]:.1f}). Each of the {check} products adds a variance of 1",
        f"= {math.sqrt(check):g}, it is {var_scaled[check]:.3f}.",
    )


# --------------------------------------------------------------------------- Module 3


def test_module_3_causal_rows(built_site):
    w, _ = wired(RIVER)
    c, _ = wired(RIVER, causal=True)
    page = text(built_site, "module-3")
    assert_says(
        page,
        f"its whole row collapses to weight {float(c[0, 0]):.3f} on itself.",
        f"shared again over that pair: {float(c[1, 0]):.3f} and {float(c[1, 1]):.3f}.",
        f"so its row {vec(c[2])} is exactly its unmasked row {vec(w[2])}.",
        f"All of its weight on itself ({float(c[0, 0]):.3f}), zeros elsewhere.",
        f"The last one: {vec(c[2])} with or without the mask.",
    )


#: GPT-2 small as published (Radford et al. 2019; the Hugging Face config): vocabulary, context, width, layers, heads.
GPT2_VOCAB, GPT2_CTX, GPT2_C, GPT2_LAYERS, GPT2_HEADS = 50257, 1024, 768, 12, 12


def test_module_3_price_paragraph(built_site):
    C, L, H = GPT2_C, GPT2_LAYERS, GPT2_HEADS
    hs = C // H
    per_head = 3 * C * hs
    # c_attn's three projections and c_proj, weights only
    attention = L * (3 * C * C + C * C)
    # 2 LNs, attn, MLP
    block = (
        (2 * 2 * C)
        + (C * 3 * C + 3 * C)
        + (C * C + C)
        + (C * 4 * C + 4 * C)
        + (4 * C * C + C)
    )
    # tied unembedding; final LN
    total = GPT2_VOCAB * C + GPT2_CTX * C + L * block + 2 * C
    assert total == 124_439_808  # the figure everyone quotes for GPT-2 small
    mlp = L * (C * 4 * C + 4 * C * C)
    toy = len(W_Q_WIRED.flat) + len(W_K_WIRED.flat)
    page = text(built_site, "module-3")
    assert_says(
        page,
        f"One head's three matrices hold {per_head:,} learned numbers; our wired head made its point with {toy}.",
        f"Over {H} heads and {L} layers",
        f"attention holds {attention:,} weights: about {attention / 1e6:.1f} million of GPT-2 small's "
        f"{round(total / 1e6)} million parameters, or {100 * attention / total:.1f}%, between a fifth and a quarter",
        f"{per_head:,}, that is 3×{C}×{hs}",
        # the paper's table rounds differently; the MLPs (c_fc and c_proj, weights only) hold twice as much
        "The GPT-2 paper's own table gives 117 million",
        f"The MLPs hold 2.0 times the attention's weights, {100 * mlp / total:.1f}% of the model.",
        f"widens the row from {C} to {4 * C} numbers and narrows it back",
    )


# --------------------------------------------------------------------------- Step by step, "the cat sat" (seed 003)

Q3 = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
K3 = Q3
V3 = [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]


def cat_sat(Q=Q3, V=V3, causal=True, scale=None):
    """seed 003's attention by PyTorch: (weights (3, 3), out (3, d_v))."""
    q, k, v = t(Q), t(K3), t(V)
    eye = torch.eye(3, dtype=torch.float64)
    return (
        F.scaled_dot_product_attention(q, k, eye, is_causal=causal, scale=scale),
        F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale),
    )


def test_step_by_step_sentences(built_site):
    w, out = cat_sat(causal=False)
    sat = [float(x) for x in w[2]]
    wc, outc = cat_sat(causal=True)
    T = 3
    assert sat[0] == sat[1] < sat[2]
    assert_says(
        text(built_site, "step-by-step"),
        f"about {math.sqrt(2):.3f}:",
        f'"sat" gives about {100 * sat[0]:.0f}% of its attention to "the", as much to "cat", '
        f"and about {100 * sat[2]:.0f}% to itself.",
        f"add up to {sum(round(x, 3) for x in sat):.3f}, not 1.",
        f"unrounded, the weights sum to {math.fsum(sat):.6f}.",
        f"The result, {vec(out[2])}, is an exact half on both axes",
        f"The grid has {T * (T + 1) // 2} allowed pairs and {T * (T - 1) // 2} blocked ones",
        f'it now gives {100 * float(wc[1, 0]):.0f}% to "the", {100 * float(wc[1, 1]):.0f}% to itself '
        f"and nothing to the future, and its output is {vec(outc[1])}.",
        f'"sat" gets {vec(outc[2])} and "cat" gets {vec(outc[1])}.',
    )


def test_step_by_step_practice_sentences(built_site):
    w_open, _ = cat_sat(causal=False)
    strong, _ = cat_sat(Q=[[1.0, 0.0], [0.0, 1.0], [5.0, 0.0]])
    x10 = [[10 * a for a in row] for row in Q3]
    unscaled, _ = cat_sat(Q=x10, scale=1.0)
    scaled, _ = cat_sat(Q=x10)
    top = unscaled.max(-1).values
    assert float(strong[2, 0]) == pytest.approx(float(strong[2, 2]), abs=1e-15)
    assert_says(
        text(built_site, "step-by-step"),
        f'its row is {vec(w_open[0])}: it gives {float(w_open[0, 2]):.3f} to "sat"',
        f'"sat" now splits {vec(strong[2])}.',
        f'"cat", with nothing on that axis, drops to {float(strong[2, 1]):.3f}.',
        f'the smallest "largest weight" in any row is {float(top.min()):.5f}.',
        f'the row of "sat" only relaxes from {float(top[2]):.5f} to {float(scaled[2].max()):.5f}',
        "the weights stay (3, 3), one row per word",
        "the output takes the width of the values, (3, 4).",
    )
