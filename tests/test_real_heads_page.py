"""build/real_heads_page, real_heads_values, real_heads_md and head_figures: the page's files and numbers.

The JSON, the figures and the prose's values are checked against the chapter's measurements
(themselves checked against transformers in test_real_heads.py), with the numbers formatted here
by plain f-strings; the figures' drawing rules against grids made by hand; the built page's text
against the package.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re

import numpy as np
import pytest

from attention_workshop.chapters import real_heads as rh
from attention_workshop.experiment import head_figures, real_heads_md, real_heads_page
from attention_workshop.experiment.plotting import DARK, LIGHT, contrast
from workshop_site import real_heads_values, site

from .test_site import page_html, visible_text

DIR = "generated/real-heads"
#: What the number under a head is, by its class, as the grid names it (a place's share otherwise).
NUMBER = {"broad": "entropy", "other": "max"} | dict.fromkeys(
    ("previous", "next", "self", "cls", "sep"), "share"
)


@pytest.fixture(scope="module")
def facts() -> rh.RealHeads:
    return rh.facts()


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    return real_heads_page.site_files()


def _csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


# ---------------------------------------------------------------- the JSON the page's script reads


def test_each_sentences_json_holds_the_packages_weights_and_classes(facts, files):
    for h in facts.heads:
        data = json.loads(files[f"{DIR}/{h.sentence.key}.json"])
        assert data["tokens"] == list(h.tokens) and data["text"] == h.sentence.text
        w = np.array(data["weights"]) / 1000
        assert w.shape == h.attentions.shape, h.sentence.key
        assert np.abs(w - h.attentions).max() <= 0.0005 + 1e-12, (
            f"{h.sentence.key}: weights rounded to thousandths"
        )
        assert all(isinstance(x, int) for x in np.ravel(data["weights"]).tolist())
        assert data["classes"] == [list(row) for row in h.classes]
        assert data["score"] == [[f"{x:.2f}" for x in row] for row in h.score]


def test_the_index_lists_every_sentence_and_where_its_files_are(facts, files):
    index = json.loads(files[real_heads_page.INDEX_PATH])
    assert [s["key"] for s in index["sentences"]] == [s.key for s in rh.SENTENCES]
    for s, h in zip(index["sentences"], facts.heads):
        assert f"{DIR}/{s['src']}" in files and f"{DIR}/{s['grid']}" in files
        assert s["n_tokens"] == len(h.tokens) and s["text"] == h.sentence.text
    assert [c["id"] for c in index["classes"]] == list(rh.CLASSES)
    assert (index["n_layer"], index["n_head"], index["scale"]) == (6, 12, 1000)
    assert index["start"] == {"sentence": "river", "layer": 0, "head": 2}, (
        "the grid opens on the previous-token head of sentence 1"
    )


def test_the_files_are_the_same_bytes_every_time_and_stay_in_their_folder(files):
    assert real_heads_page.site_files() == files
    assert all(path.startswith(f"{DIR}/") for path in files)
    svgs = [t for p, t in files.items() if p.endswith(".svg")]
    assert not any(re.search(r"\d{4}-\d{2}-\d{2}", t) for t in svgs), "a date in an SVG"


def test_the_site_adds_the_pages_files_and_values(files):
    generated = site.generated_files()
    assert all(generated[p] == t for p, t in files.items())
    ctx = site.context()
    assert ctx["real_heads.previous_head"] == "layer 1, head 3"
    assert {k.split(".", 1)[1] for k in ctx if k.startswith("real_heads.")} == set(
        real_heads_values.values()
    )


# ---------------------------------------------------------------- figures


def test_the_grid_has_every_head_with_its_class_and_score(facts, files):
    for h in facts.heads:
        svg = files[real_heads_page.grid_file(h.sentence.key)]
        assert svg.count('<rect class="cell-bg"') == 72
        # three lines under each head: its class, what its number is, the number
        labels = re.findall(
            r'text-anchor="middle">([a-zA-Z]+)</text>'
            r'<text [^>]+ text-anchor="middle">([a-z]+)</text>'
            r'<text [^>]+ text-anchor="middle">(\d\.\d\d)</text>',
            svg,
        )
        want = [
            (
                head_figures.SHORT[h.classes[layer][n]],
                NUMBER[h.classes[layer][n]],
                f"{h.score[layer, n]:.2f}",
            )
            for layer in range(6)
            for n in range(12)
        ]
        assert labels == want, h.sentence.key
        desc = re.search(r"<desc>(.*?)</desc>", svg).group(1)
        assert f"[CLS] {h.count('cls')}" in desc and h.sentence.text in desc
        # the key under the grid says what each number is
        assert "max (other): the largest share any place gets" in svg


def test_a_large_head_prints_every_weight_of_its_csv(facts, files):
    for name, (key, head) in real_heads_page.shown_heads(facts).items():
        path = real_heads_page.head_file(key, head)
        rows = _csv(files[path.replace(".svg", ".csv")])
        h = facts.sentence(key)
        assert rows[0] == ["query", *h.tokens]
        got = np.array([[float(x) for x in r[1:]] for r in rows[1:]])
        assert np.abs(got - h.attentions[head]).max() < 5e-7, name
        printed = re.findall(r">(1\.00|\.\d\d)</text>", files[path])
        want = [f"{w:.2f}".removeprefix("0") for w in h.attentions[head].ravel()]
        assert sorted(printed) == sorted(want), name


def _baseline(f: rh.RealHeads, n: int) -> list[float]:
    """bank against each unrelated noun after ``n`` layers, from the measured hidden states."""
    i = f.bank.position
    out = []
    for b in ("river", "savings", "shore"):
        a = f.sentence(b).hidden[n, i]
        for key, word in rh.UNRELATED:
            h = f.sentence(key)
            w = h.hidden[n, h.tokens.index(word)]
            out.append(float(np.dot(a, w) / math.sqrt(np.dot(a, a) * np.dot(w, w))))
    return out


def test_the_bank_chart_and_its_csv_hold_the_cosines(facts, files):
    rows = _csv(files[f"{DIR}/bank-cosine.csv"])
    assert rows[0] == [
        "layer",
        "river_vs_savings",
        "river_vs_river",
        "unrelated_mean",
        "unrelated_largest",
    ]
    for n, row in enumerate(rows[1:]):
        base = _baseline(facts, n)
        assert row == [
            str(n),
            f"{facts.bank.senses[n]:.6f}",
            f"{facts.bank.same[n]:.6f}",
            f"{sum(base) / len(base):.6f}",
            f"{max(base):.6f}",
        ]
    assert f"6 -&gt; {facts.bank.senses[6]:.3f}" in files[f"{DIR}/bank-cosine.svg"]


def test_thumbnail_cells_are_tenths_with_runs_merged_and_faint_ones_left_out():
    w = np.array([[0.04, 0.31, 0.29], [1.0, 0.0, 0.0], [0.5, 0.5, 0.0]])
    assert head_figures._cells(w) == (
        '<path class="w o3" d="M1 0h2v1h-2z"/>'
        '<path class="w o5" d="M0 2h2v1h-2z"/>'
        '<path class="w o10" d="M0 1h1v1h-1z"/>'
    )


def test_a_large_head_needs_one_label_per_token():
    with pytest.raises(ValueError, match=r"weights has shape \(2, 2\), tokens 3"):
        head_figures.head_svg(np.eye(2), ["a", "b", "c"], "t", "d")


def _mix(a: str, b: str, t: float) -> str:
    """``a`` and ``b`` (``#rrggbb``) blended, ``t`` of ``b``: a cell of opacity ``t`` over ``a``."""
    ca, cb = (np.array([int(c[i : i + 2], 16) for i in (1, 3, 5)]) for c in (a, b))
    return "#" + "".join(f"{round(x):02x}" for x in ca * (1 - t) + cb * t)


def test_every_figure_is_drawn_in_both_schemes_with_its_schemes_colours(files):
    """Each head figure has a dark twin (``-dark.svg``); each uses only its scheme's colours, on a
    transparent background (no card), and its text carries its colour (as Matplotlib's figures do)."""
    light = [p for p in files if p.endswith(".svg") and not p.endswith("-dark.svg")]
    assert len(light) == 7 + 4 + 1, "a grid per sentence, four heads, the bank chart"
    for path in light:
        dark = path.removesuffix(".svg") + "-dark.svg"
        assert dark in files and files[dark] != files[path], path
        if "bank-cosine" in path:
            continue  # drawn by Matplotlib (figures.lines_svg), checked with every figure
        for name, p in ((path, LIGHT), (dark, DARK)):
            svg = files[name]
            used = set(re.findall(r"#[0-9a-fA-F]{6}", svg))
            assert used <= {p.fg, p.muted, p.bg, p.low, p.high, p.grid}, (name, used)
            assert f'<text style="fill: {p.fg}"' in svg and "card" not in svg, name


@pytest.mark.parametrize("p", [LIGHT, DARK], ids=["light", "dark"])
def test_a_weight_is_printed_in_the_ink_that_reads_best_on_its_cell(p):
    """On a cell of shade k (the scheme's high colour at opacity k/10 over its low one), a weight is
    printed in the page's text colour or its background colour, whichever contrasts more."""
    seen = set()
    for k in range(11):
        w = np.array([[k, 10 - k], [10 - k, k]]) / 10  # (2, 2)
        svg = head_figures.head_svg(w, ["a", "b"], "t", "d", p)
        printed = re.findall(
            r'<text style="fill: (#\w+)" x="[\d.]+" y="[\d.]+">(1\.00|\.\d\d)</text>',
            svg,
        )
        assert len(printed) == 4, svg
        for ink, label in printed:
            cell = _mix(p.low, p.high, float(label))
            best = max((p.fg, p.bg), key=lambda c: contrast(c, cell))
            assert ink == best, (p.name, label, cell, ink)
            seen.add(ink)
    assert seen == {p.fg, p.bg}


# ---------------------------------------------------------------- the prose's values


def test_values_are_the_packages_numbers(facts):
    v = real_heads_values.values()
    prev = [h.scores[0, 2, 0] for h in facts.heads]
    nxt = [h.scores[1, 8, 1] for h in facts.heads]
    cls = [h.count("cls") for h in facts.heads]
    tired, wide = facts.it.to_noun["tired"], facts.it.to_noun["wide"]
    share = np.sort(facts.copies.share.ravel())
    assert v["n_heads"] == "72" and v["d_model"] == "384" and v["n_sentences"] == "7"
    assert (
        v["previous_head"] == "layer 1, head 3" and v["next_head"] == "layer 2, head 9"
    )
    # "at least" bounds are rounded down; the per-token minimum is read off the weights
    assert v["previous_min"] == f"{math.floor(min(prev) * 1000) / 1000:.3f}"
    assert v["next_min"] == f"{math.floor(min(nxt) * 100) / 100:.2f}"
    back = [
        h.attentions[0, 2][t, t - 1]
        for h in facts.heads
        for t in range(1, len(h.tokens))
    ]
    assert v["previous_token_min"] == f"{min(back):.3f}"
    assert (v["cls_min"], v["cls_max"]) == (str(min(cls)), str(max(cls)))
    assert v["cls_long"] == str(facts.sentence("long").count("cls"))
    assert v["bank_in"] == "1.000" and v["bank_token"] == "8"
    assert v["bank_senses_last"] == f"{facts.bank.senses[6]:.3f}"
    assert v["bank_same_1"] == f"{facts.bank.same[1]:.3f}"
    head = facts.it.top("tired", "animal")
    assert v["it_animal_head"] == f"layer {head[0] + 1}, head {head[1] + 1}"
    assert v["it_animal_tired"] == f"{tired['animal'][head]:.2f}"
    assert v["it_street_wide"] == f"{wide['street'][head]:.2f}"
    assert v["it_best_margin"] == f"{facts.it.margin.max():.2f}".replace("-", "\u2212")
    assert (
        v["copy_share"] == f"{share[-1]:.2f}"
        and v["copy_runner_up"] == f"{share[-2]:.2f}"
    )
    assert v["copy_tokens"] == "12"
    # the baseline: 3 banks by 8 unrelated nouns
    assert (v["unrelated_n"], v["unrelated_pairs"]) == ("8", "24")
    assert v["unrelated_words"] == (
        "animal, street, cat, mat, winter, people, village and bread"
    )
    after_1, last = _baseline(facts, 1), _baseline(facts, 6)
    assert v["unrelated_mean_1"] == f"{sum(after_1) / 24:.3f}"
    assert v["unrelated_mean_last"] == f"{sum(last) / 24:.3f}"
    assert (
        v["unrelated_max"]
        == f"{max(max(_baseline(facts, n)) for n in range(1, 7)):.3f}"
    )


# ---------------------------------------------------------------- Markdown and HTML


def test_the_tables_state_the_packages_counts_and_heads(facts):
    counts = real_heads_md.counts_table().splitlines()
    for h, line in zip(facts.heads, counts[2:]):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[1:] == [str(h.count(c)) for c in rh.CLASSES], line
    table = real_heads_md.class_table(facts.heads[0])
    assert (
        "| layer 1 | broad<br>entropy 0.89 | broad<br>entropy 0.88 | prev<br>share 1.00 |"
        in table
    )
    sentences = real_heads_md.sentences_table()
    assert all(f"| {len(h.tokens)} |" in sentences for h in facts.heads)
    it = real_heads_md.it_table()
    assert (
        it.count("layer ") == 4 and "| animal | layer 4, head 2 | 0.68 | 0.05 |" in it
    )


def test_figures_load_lazily_and_link_their_numbers():
    html = real_heads_md.head_figure("copy", "The copy head.")
    assert 'loading="lazy"' in html and 'alt="Heatmap of layer 3, head 10' in html
    assert f'href="{DIR}/repeat-L3H10.csv" download' in html
    with pytest.raises(
        ValueError, match="there are: previous, it_tired, it_wide, copy"
    ):
        real_heads_md.head_figure("nope", "x")


def test_the_static_grids_are_one_tab_per_sentence():
    md = real_heads_md.static_grids()
    assert re.findall(r'^=== "(\d) (\w+)"$', md, re.M) == [
        (str(n), s.key) for n, s in enumerate(rh.SENTENCES, 1)
    ]


# ---------------------------------------------------------------- the built page


@pytest.mark.site
def test_the_pages_numbers_are_the_packages(built_site, facts):
    text = visible_text(page_html(built_site, "real-heads"))
    prev = math.floor(min(h.scores[0, 2, 0] for h in facts.heads) * 1000) / 1000
    nxt = math.floor(min(h.scores[1, 8, 1] for h in facts.heads) * 100) / 100
    back = min(
        h.attentions[0, 2][t, t - 1]
        for h in facts.heads
        for t in range(1, len(h.tokens))
    )
    head = facts.it.top("tired", "animal")
    to = facts.it.to_noun
    for sentence in (
        f"On average it sends at least {prev:.3f} of a token's attention to the token before it",
        f"the smallest share any single token sends there is {back:.3f}.",
        f"with at least {nxt:.2f} of a token's attention on average.",
        "One head is a previous-token head in every sentence: layer 1, head 3.",
        f"with a cosine of {facts.bank.senses[0]:.3f}",
        f"{facts.bank.senses[6]:.3f} between the two senses, {facts.bank.same[6]:.3f} between",
        f"Take the first row: layer {head[0] + 1}, head {head[1] + 1}.",
        f'the same head sends only {to["wide"]["animal"][head]:.2f} to "animal"',
        "no head follows the meaning.",
        "All 72 heads at once",
    ):
        assert sentence in text, sentence
    html = page_html(built_site, "real-heads")
    assert "Apache License 2.0" in html and "Nils Reimers" in html
    assert 'href="../step-by-step/#step-5-causal-mask"' in html
    assert 'href="../module-3/#the-causal-mask"' in html
    # cosine similarity and the normalised entropy, each given as a formula where first used
    assert html.count('display="block">') == 2, "the two formulas"
    assert "cosine similarity" in text and "normalised entropy" in text
    # the baseline beside bank's cosines
    after_1 = _baseline(facts, 1)
    assert f"a cosine of {sum(after_1) / 24:.3f} on average" in text
    assert "even bank's two senses are closer to each other than bank is to any" in text
    for label in ("share 1.00", "entropy 0.89", "max 0.27"):
        assert label in text, label


@pytest.mark.site
def test_inside_the_model_links_here_and_shows_a_trained_head(built_site):
    html = page_html(built_site, "inside-the-model")
    assert html.count('href="../real-heads/"') >= 2
    # the figure in both colour schemes, as every figure of the site (figures.themed)
    assert 'src="../generated/real-heads/river-L1H3.svg#only-light"' in html
    assert 'src="../generated/real-heads/river-L1H3-dark.svg#only-dark"' in html
    assert "layer 1, head 3 of all-MiniLM-L6-v2" in visible_text(html)
