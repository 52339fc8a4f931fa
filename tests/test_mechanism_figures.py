"""experiment/charts_mechanisms.py: the pictures of the mechanism show the pages' numbers, computed here
by PyTorch in float64 (tests/references.py), never by the package.

Each figure is checked twice: its CSV twin against PyTorch, and the texts its SVG draws (every
number a reader sees, in both schemes). ``_problems`` lists what disagrees; a break (a chapter's
result changed, the figures drawn again from it) must make it list something.
"""

from __future__ import annotations

import copy
import csv
import dataclasses
import html
import io
import re

import numpy as np
import pytest

from attention_workshop.chapters import module_1, module_2, module_3
from attention_workshop.core import multi_head_attention
from attention_workshop.experiment import figures
from attention_workshop.toy import AXES, SENT_RIVER, VOCAB
from workshop_site.legible import SMALLEST, least_width, smallest_font

from .references import simple, torch_attention, wired

NAMES = ("blend", "one-query", "causal-mask", "heads-split")
T = len(SENT_RIVER)
PHONE_COLUMN = (
    310  # CSS px: the page's column on a 375 px phone (workshop_site/legible.py)
)


def _csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _texts(svg: str) -> list[str]:
    """Every text the SVG draws, unescaped."""
    return [html.unescape(t) for t in re.findall(r"<text\b[^>]*>([^<]*)</text>", svg)]


def _f3(x: float) -> str:
    return f"{x:.3f}".replace("-", "\u2212")


def _vec(v, nd: int) -> list[float]:
    return [float(x) for x in v.strip("[]").split(",")]


def _blend_problems(r) -> list[str]:
    _, w, out = simple(SENT_RIVER)
    rows = _csv(r.tables["blend.csv"])
    problems = []
    if rows[0] != ["word", "weight", *AXES]:
        problems.append(f"blend.csv header {rows[0]}")
    for j, word in enumerate(SENT_RIVER):
        got = [float(v) for v in rows[1 + j][1:]]
        if rows[1 + j][0] != word or not np.allclose(
            got, [w[-1, j], *VOCAB[word]], atol=5e-7
        ):
            problems.append(f"blend.csv row {word}: {rows[1 + j]}")
    if not np.allclose([float(v) for v in rows[-1][2:]], out[-1], atol=5e-7):
        problems.append(f"blend.csv output {rows[-1]}")
    for name in ("blend.svg", "blend-dark.svg"):
        texts = _texts(r.figures[name])
        for j, word in enumerate(SENT_RIVER):
            if f"{_f3(w[-1, j])} × {word}" not in texts:
                problems.append(f"{name}: no weight {_f3(w[-1, j])} on {word}")
        missing = [_f3(x) for x in out[-1] if _f3(x) not in texts]
        if missing:
            problems.append(f"{name}: output entries {missing} not drawn")
    return problems


def _query_problems(r) -> list[str]:
    Q, K, scores, w, out = wired(SENT_RIVER)
    rows = {(a, b): c for a, b, c in _csv(r.tables["one-query.csv"])[1:]}
    problems = []
    checks = [
        (_vec(rows["query", "bank"], 0), Q[-1]),
        (_vec(rows["output", "bank"], 0), out[-1]),
    ]
    for j, word in enumerate(SENT_RIVER):
        checks += [
            (_vec(rows["key", word], 0), K[j]),
            ([float(rows["score", word])], [scores[-1, j]]),
            ([float(rows["weight", word])], [w[-1, j]]),
        ]
    for got, want in checks:
        if not np.allclose(got, want, atol=5e-7):
            problems.append(f"one-query.csv: {got} where PyTorch gives {list(want)}")
    for name in ("one-query.svg", "one-query-dark.svg"):
        texts = _texts(r.figures[name])
        drawn = [
            *(_f3(s) for s in scores[-1]),
            *(_f3(x) for x in w[-1]),
            "out = [" + ", ".join(_f3(x) for x in out[-1]) + "]",
        ]
        missing = [t for t in drawn if t not in texts]
        if missing:
            problems.append(f"{name}: {missing} not drawn")
    return problems


def _mask_problems(r) -> list[str]:
    scores = wired(SENT_RIVER)[2]
    problems = []
    for a, b, s, masked in _csv(r.tables["causal-mask.csv"])[1:]:
        i, j = SENT_RIVER.index(a), SENT_RIVER.index(b)
        if abs(float(s) - scores[i, j]) > 5e-7 or masked != ("yes" if j > i else "no"):
            problems.append(f"causal-mask.csv {a} on {b}: {s}, masked {masked}")
    for name in ("causal-mask.svg", "causal-mask-dark.svg"):
        texts = _texts(r.figures[name])
        if texts.count("−∞") != T * (T - 1) // 2:
            problems.append(f"{name}: {texts.count('−∞')} cells of −∞")
        # the first grid has every score, the second only those of a word itself or earlier
        want = [_f3(scores[i, j]) for i in range(T) for j in range(T)]
        want += [_f3(scores[i, j]) for i in range(T) for j in range(i + 1)]
        got = [t for t in texts if re.fullmatch(r"−?\d\.\d{3}", t)]
        if got != want:
            problems.append(f"{name}: scores {got}, PyTorch {want}")
    return problems


def _heads_want() -> np.ndarray:
    """Each channel of the wired head as a head of its own (d_k = 1), causal, by PyTorch: (2, T, T)."""
    Q, K = wired(SENT_RIVER)[:2]
    eye = np.eye(T)
    return np.stack(
        [torch_attention(Q[:, [h]], K[:, [h]], eye, causal=True)[1] for h in range(2)]
    )


def _heads_problems(r) -> list[str]:
    want = _heads_want()
    rows = _csv(r.tables["heads-split.csv"])[1:]
    got = np.array([[float(v) for v in row[2:]] for row in rows]).reshape(2, T, T)
    problems = []
    if [row[0] for row in rows] != ["topic"] * T + ["place"] * T:
        problems.append(f"heads-split.csv heads {[row[0] for row in rows]}")
    if not np.allclose(got, want, atol=5e-7):
        problems.append(f"heads-split.csv {got.tolist()}, PyTorch {want.tolist()}")
    for name in ("heads-split.svg", "heads-split-dark.svg"):
        texts = _texts(r.figures[name])
        drawn = [t for t in texts if re.fullmatch(r"\d\.\d{3}|0", t)]
        expected = [
            _f3(want[h, i, j]) if j <= i else "0"
            for h in range(2)
            for i in range(T)
            for j in range(T)
        ]
        if drawn != expected:
            problems.append(f"{name}: cells {drawn}, PyTorch {expected}")
    return problems


PROBLEMS = {
    "blend": _blend_problems,
    "one-query": _query_problems,
    "causal-mask": _mask_problems,
    "heads-split": _heads_problems,
}


@pytest.mark.parametrize("name", NAMES)
def test_the_figure_shows_pytorchs_numbers(results, name):
    assert PROBLEMS[name](results) == []


@pytest.mark.parametrize("name", NAMES)
def test_the_figure_is_legible_on_a_phone_without_scrolling(results, name):
    for svg in (results.figures[f"{name}.svg"], results.figures[f"{name}-dark.svg"]):
        assert smallest_font(svg) >= SMALLEST, name
        assert least_width(svg) <= PHONE_COLUMN, f"{name}: {least_width(svg)} px"


def test_the_split_is_the_one_multi_head_attention_makes(results):
    """The caption's "the split multi_head_attention makes": four heads of one column each, the
    first two the wired head's channels, give the figure's two weight tables."""
    c = results[module_3.CAUSAL]
    X = np.array([VOCAB[w] for w in SENT_RIVER])
    from attention_workshop.toy import W_K_WIRED, W_Q_WIRED

    pad = np.zeros((4, 2))
    c_attn = np.hstack(
        [W_Q_WIRED, pad, W_K_WIRED, pad, np.eye(4)]
    )  # (4, 12): Q | K | V
    _, att = multi_head_attention(X, c_attn, np.zeros(12), np.eye(4), np.zeros(4), 4)
    np.testing.assert_allclose(att[:2], c.heads, rtol=0, atol=1e-15)
    np.testing.assert_allclose(c.heads, _heads_want(), rtol=0, atol=1e-15)


def _redrawn(results, section, **changes):
    """A copy of the run with a section's result changed and the mechanism's figures drawn again."""
    r = copy.deepcopy(results)
    r.data[section.key] = dataclasses.replace(r.data[section.key], **changes)
    figures._draw_mechanisms(r)
    return r


def _simple_break(results):
    s = results[module_1.SIMPLE]
    w = s.first.weights.copy()
    w[-1] = w[-1][::-1]  # bank's weights reversed
    first = dataclasses.replace(s.first, weights=w)
    return _redrawn(results, module_1.SIMPLE, first=first)


def _wired_break(results):
    p = results[module_2.WIRED_PARTS]
    h = p.wired
    scores = h.scores * 0.5  # an unscaled head would differ the other way
    return _redrawn(
        results, module_2.WIRED_PARTS, wired=dataclasses.replace(h, scores=scores)
    )


def _mask_break(results):
    c = results[module_3.CAUSAL]
    return _redrawn(
        results, module_3.CAUSAL, future=c.future.T
    )  # the past hidden instead


def _heads_break(results):
    c = results[module_3.CAUSAL]
    return _redrawn(results, module_3.CAUSAL, heads=c.heads[::-1])  # the heads swapped


BREAKS = {
    "blend": _simple_break,
    "one-query": _wired_break,
    "causal-mask": _mask_break,
    "heads-split": _heads_break,
}


@pytest.mark.parametrize("name", NAMES)
def test_a_break_in_the_numbers_shows_in_the_figure(results, name):
    broken = BREAKS[name](results)
    assert PROBLEMS[name](broken), f"{name}: the broken numbers went unnoticed"


def _wcag(a, b) -> float:
    """WCAG 2's contrast ratio of two RGB(A) colours, computed here (not plotting.contrast)."""

    def lum(c) -> float:
        r = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c[:3]]
        return 0.2126 * r[0] + 0.7152 * r[1] + 0.0722 * r[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_masked_cells_number_reads_at_wcag_aa_on_its_fill(scheme):
    import matplotlib.colors as mcolors

    from attention_workshop.experiment import charts_mechanisms as cm
    from attention_workshop.experiment.plotting import PALETTES

    p = next(x for x in PALETTES if x.name == scheme)
    _fig, ax = cm._canvas(p, 60, 30)
    cm._masked_cell(ax, 0, 0, "−∞", p)
    text = mcolors.to_rgba(ax.texts[-1].get_color())
    fill = ax.patches[-1].get_facecolor()
    assert _wcag(text, fill) >= 4.5


def test_no_text_alternative_reads_an_empty_cell_as_a_pause(results):
    from workshop_site.render import figure_summary

    # blend.csv's output row has no weight: its alternative must say so in a word
    assert ", ," not in figure_summary("blend.svg")
    assert "output, none, " in figure_summary("blend.svg")
    for name in results.tables:
        assert ", ," not in figure_summary(name.replace(".csv", ".svg")), name


def test_the_mask_figure_before_module_3s_prediction_does_not_give_the_weights_away(
    results,
):
    from pathlib import Path

    from workshop_site.render import figure_summary

    page = (Path(__file__).parents[1] / "docs" / "module-3.md").read_text()
    assert page.index('id="m3-mask-figure"') < page.index("Predict before you look")
    # its numbers are only scores (_mask_problems checks each against PyTorch's): no weight is named
    assert "weight" not in figure_summary("causal-mask.svg").lower()
    assert not any(
        "weight" in t.lower() for t in _texts(results.figures["causal-mask.svg"])
    )
    assert "weight" not in results.tables["causal-mask.csv"].lower()
