"""experiment/figures.py: the SVG figures and their CSV twins carry the numbers, computed here with PyTorch."""

from __future__ import annotations

import csv
import io
import math
import re
from pathlib import Path

import numpy as np
import pytest
import torch

from attention_workshop.chapters import module_2
from attention_workshop.experiment import figures
from attention_workshop.experiment.plotting import contrast
from attention_workshop.experiment.runner import SEED
from attention_workshop.toy import SENT_MONEY, SENT_RIVER, VOCAB

from .references import simple, sqrt_dk, torch_attention, wired

ROOT = Path(__file__).resolve().parent.parent
#: Seed 003's inputs: Q = K, and V.
Q_SEED = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
V_SEED = [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]


def _csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_table_csv_writes_six_decimals_and_quotes_commas():
    assert (
        figures.table_csv(["a", "b, c"], [[1, 0.5], ["x", np.float64(1 / 3)]])
        == 'a,"b, c"\n1,0.500000\nx,0.333333\n'
    )


def test_heatmap_svg_states_every_value_in_text():
    w = np.array([[1.0, 0.0], [0.25, 0.75]])
    svg = figures.heatmap_svg(
        w,
        ["a", "b"],
        ["a", "b"],
        "Two words",
        masked=np.array([[False, True], [False, False]]),
    )
    assert svg.startswith("<?xml") and "<title>Two words</title>" in svg
    desc = re.search(r"<desc>(.*?)</desc>", svg, re.DOTALL).group(1)
    assert "row a: 1.000, 0.000; row b: 0.250, 0.750. Masked cells are 0." in desc
    assert "(masked)" in svg and "0.750" in svg
    assert "dc:date" not in svg and "Matplotlib" not in svg.split("<desc>")[0], (
        "no date, no creator stamp"
    )


def test_heatmap_svg_names_both_shapes_when_the_labels_do_not_fit():
    with pytest.raises(
        ValueError,
        match=r"weights has shape \(2, 2\) but there are 3 row and 2 column labels",
    ):
        figures.heatmap_svg(np.eye(2), ["a", "b", "c"], ["a", "b"], "t")


def test_lines_svg_states_every_point():
    svg = figures.lines_svg(
        [4, 16], {"raw": [0.5, 0.75], "scaled": [0.25, 0.3]}, "Title", "d_k", "weight"
    )
    desc = re.search(r"<desc>(.*?)</desc>", svg, re.DOTALL).group(1)
    assert (
        desc
        == "weight against d_k. raw: 4 -&gt; 0.500, 16 -&gt; 0.750; scaled: 4 -&gt; 0.250, 16 -&gt; 0.300"
    )


#: Every figure of a run (each also as ``<name>-dark.svg``) and the page that shows it.
FIGURES = {
    "words": "module-0",
    "softmax": "module-0",
    "simple-weights": "module-1",
    "simple-weights-money": "module-1",
    "bank-moves": "module-1",
    "wired-weights": "module-2, module-3",
    "wired-weights-causal": "module-3",
    "sqrt-dk": "module-2",
    "cat-sat-projections": "step-by-step",
    "cat-sat-weights": "step-by-step",
    "gpt2-blocks": "inside-the-model",
    "gpt2-flops": "inside-the-model",
    "log-map": "results-log",
    "blend": "module-1",
    "one-query": "module-2",
    "causal-mask": "module-3",
    "heads-split": "module-3",
}


def test_draw_makes_every_figure_in_both_schemes_with_its_numbers(results):
    # at least these (a contributor's new figure joins them: CONTRIBUTING.md's recipe)
    assert {
        f"{stem}{suffix}.svg" for stem in FIGURES for suffix in ("", "-dark")
    } <= set(results.figures)
    assert {f"{stem}.csv" for stem in FIGURES} <= set(results.tables)


def test_dark_name():
    assert figures.dark_name("sqrt-dk.svg") == "sqrt-dk-dark.svg"
    assert figures.dark_name("a.b.svg") == "a.b-dark.svg"


def _colours(svg: str) -> set[str]:
    return {
        c.lower()
        for c in re.findall(r"(?:fill|stroke|color):\s*(#[0-9a-fA-F]{6})", svg)
    }


@pytest.mark.parametrize("stem", sorted(FIGURES))
def test_each_scheme_draws_in_its_own_colours_on_a_transparent_page(results, stem):
    """No white card: the background is left transparent, text takes the scheme's colour (checked by
    its contrast with the scheme's page, as WCAG counts it), and the dark twin is not the light one."""
    light, dark = results.figures[f"{stem}.svg"], results.figures[f"{stem}-dark.svg"]
    assert light != dark
    for svg, p in ((light, figures.LIGHT), (dark, figures.DARK)):
        text_fills = set(
            re.findall(r"<text[^>]*style=\"[^\"]*fill: (#[0-9a-fA-F]{6})", svg)
        )
        text_fills |= set(
            re.findall(r"<g [^>]*style=\"fill: (#[0-9a-fA-F]{6})\"[^>]*>\s*<text", svg)
        )
        assert p.fg in text_fills, f"{stem} ({p.name}): no text in the scheme's colour"
        assert text_fills <= {p.fg, p.muted, p.bg, *p.series}, (
            f"{stem} ({p.name}): text colours {text_fills} not the scheme's"
        )
        # text on the page reads on the page (the page's own colour is only ever text on a bright cell)
        for c in text_fills - {p.bg}:
            assert contrast(c, p.bg) >= 4.5, f"{stem} ({p.name}): text {c} on {p.bg}"
        # matplotlib's figure and axes patches: none is painted white (light) or any solid colour
        patch = re.search(r'<g id="patch_1">\s*<path d="[^"]*"\s*style="([^"]*)"', svg)
        assert (
            patch is None
            or "fill: none" in patch.group(1)
            or "fill" not in patch.group(1)
        ), f"{stem} ({p.name}): an opaque background {patch.group(1)!r}"
    assert "#ffffff" not in _colours(dark), f"{stem}: white in the dark figure"


def test_figures_text_is_legible_on_a_phone(results):
    """Drawn at most about 5 inches wide with text of 9 points or more: a 375 px screen shows it at
    about 10 px (the seed's figures were 6.4 inches; text shrank to 7 px)."""
    for name, svg in results.figures.items():
        width = float(re.search(r'<svg [^>]*width="([\d.]+)pt"', svg).group(1))
        assert width <= 5.4 * 72, f"{name} is {width / 72:.1f} inches wide"
        # sizes in the SVG's own units, points
        sizes = [float(x) for x in re.findall(r"font-size: ([\d.]+)px", svg)]
        assert sizes and min(sizes) >= 9, f"{name}: text of {min(sizes)} points"


def test_word_arrows_and_bank_moves_from_the_vocabulary(results):
    rows = _csv(results.tables["words.csv"])
    assert rows[0] == ["word", "water", "money"]
    for word, water, money in rows[1:]:
        assert (float(water), float(money)) == VOCAB[word][:2], word
    rows = _csv(results.tables["bank-moves.csv"])
    before, in_river, in_money = rows[1:]
    assert [float(v) for v in before[1:]] == list(VOCAB["bank"][:2])
    for row, words in ((in_river, SENT_RIVER), (in_money, SENT_MONEY)):
        out = simple(words)[2][-1]  # PyTorch: bank's output row
        np.testing.assert_allclose([float(v) for v in row[1:]], out[:2], atol=5e-7)
        assert row[0] == f'bank in "{" ".join(words)}"'


def test_softmax_bars_are_torchs_softmax(results):
    rows = _csv(results.tables["softmax.csv"])
    scores = {
        "[2, 1, 0]": [2.0, 1.0, 0.0],
        "[2, 0, 0]": [2.0, 0.0, 0.0],
        "[2, 0, −∞]": [2.0, 0.0, -math.inf],
        "[1000, 999, 998]": [1000.0, 999.0, 998.0],
    }
    assert [r[0] for r in rows[1:]] == list(scores)
    for row in rows[1:]:
        want = torch.softmax(torch.tensor(scores[row[0]], dtype=torch.float64), 0)
        np.testing.assert_allclose([float(v) for v in row[1:]], want.numpy(), atol=5e-7)
    assert "nan nan nan" in " ".join(results.figures["softmax.svg"].split())


def test_the_cat_sat_figures_from_seed_003(results):
    rows = _csv(results.tables["cat-sat-projections.csv"])
    # seed 003: q3 = [1, 1] against k1, k2, k3 gives 1, 1, 2
    assert [(r[0], float(r[-1])) for r in rows[1:]] == [
        ("the", 1.0),
        ("cat", 1.0),
        ("sat", 2.0),
    ]
    svg = results.figures["cat-sat-projections.svg"]
    assert "q · k1 = 1" in svg and "q · k3 = 2" in svg
    rows = _csv(results.tables["cat-sat-weights.csv"])
    masked = torch_attention(Q_SEED, Q_SEED, V_SEED, True)[1]
    unmasked = torch_attention(Q_SEED, Q_SEED, V_SEED, False)[1]
    got = np.array([[float(r[2]), float(r[3])] for r in rows[1:]]).reshape(3, 3, 2)
    np.testing.assert_allclose(got[..., 0], unmasked, atol=5e-7)
    np.testing.assert_allclose(got[..., 1], masked, atol=5e-7)
    assert "0 (masked)" in results.figures["cat-sat-weights.svg"]


def test_gpt2_figures_from_its_published_sizes(results):
    rows = {
        r[0]: [int(v) for v in r[1:]]
        for r in _csv(results.tables["gpt2-blocks.csv"])[1:]
    }
    assert rows["GPT-2 c_attn (W_Q, W_K, W_V)"] == [768, 2304, 768 * 2304]
    assert rows["GPT-2 c_proj (W_O)"] == [768, 768, 768 * 768]
    assert rows["toy c_attn"] == [8, 24, 192] and rows["toy c_proj"] == [8, 8, 64]
    flops = {r[0]: int(r[1]) for r in _csv(results.tables["gpt2-flops.csv"])[1:]}
    T, C, nh, hs = 1024, 768, 12, 64  # a multiply-add counts 2
    assert flops == {
        "Projections": 2 * T * C * 3 * C,
        "Scores": 2 * nh * T * T * hs,
        "Scale": nh * T * T,
        "Causal mask": 0,
        "Softmax": nh * T * T,
        "Weighted sum": 2 * nh * T * T * hs,
        "Output projection": 2 * T * C * C,
    }


def test_log_map_from_the_committed_capture(results):
    lines = (ROOT / "captures" / "results.log").read_text(encoding="utf-8").splitlines()
    heads = [
        (n, ln)
        for n, ln in enumerate(lines, 1)
        if re.match(r"\[[a-z][a-z0-9_]*\] ", ln)
    ]
    rows = _csv(results.tables["log-map.csv"])[1:]
    assert [r[0] for r in rows] == [ln.split("]")[0][1:] for _, ln in heads]
    for (start, head), row in zip(heads, rows):
        assert int(row[2]) == start
        page = head.split("] ", 1)[1].split(":")[0].split(",")[0]
        assert row[1] == page, (row, head)


def test_draw_makes_the_runs_figures_from_its_numbers(results):
    # these three are tested here; a chapter's own figure is tested in its chapter's test file
    assert {"sqrt-dk.svg", "wired-weights-causal.svg", "wired-weights.svg"} <= set(
        results.figures
    )
    light = {f for f in results.figures if not f.endswith("-dark.svg")}
    assert {figures.dark_name(f) for f in light} == set(results.figures) - light
    assert {f.replace(".svg", ".csv") for f in light} == set(results.tables)
    for name, w in (
        ("wired-weights.csv", wired(SENT_RIVER)[3]),
        ("wired-weights-causal.csv", wired(SENT_RIVER, causal=True)[3]),
    ):
        rows = _csv(results.tables[name])
        assert rows[0] == ["query", *SENT_RIVER]
        assert [r[0] for r in rows[1:]] == list(SENT_RIVER)
        np.testing.assert_allclose(
            np.array([r[1:] for r in rows[1:]], dtype=float),
            w,
            rtol=0,
            atol=5e-7,
            err_msg=name,
        )
    rows = _csv(results.tables["sqrt-dk.csv"])
    assert rows[0] == [
        "d_k",
        "var_raw",
        "var_scaled",
        "max_weight_raw",
        "max_weight_scaled",
    ]
    ref = sqrt_dk(module_2.DK_VALUES, module_2.DK_KEYS, module_2.DK_TRIALS, SEED)
    assert [int(r[0]) for r in rows[1:]] == list(module_2.DK_VALUES)
    np.testing.assert_allclose(
        np.array([r[1:] for r in rows[1:]], dtype=float), ref, rtol=0, atol=5e-7
    )
    causal = results.figures["wired-weights-causal.svg"]
    assert causal.count("(masked)") == 3 and "Masked cells are 0." in causal
    assert (
        f"Largest softmax weight among {module_2.DK_KEYS} keys, averaged"
        in results.figures["sqrt-dk.svg"]
    )
