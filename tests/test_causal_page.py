"""experiment/causal_steps.py and causal_md.py: the explorer of "A causal model" as the build writes it,
the box a reader without JavaScript sees (docs/assets/causal/model.js is held to the same view by
tests/js/causal.test.mjs).

Expected values come from outside the code under test: each step's FLOPs counted by hand from the
two models' published sizes, and the package's own scores.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from attention_workshop.chapters import causal_heads as ch
from attention_workshop.experiment import causal_md, causal_steps

from .conftest import causal_facts

MINUS = "\u2212"


# the page's writers read SmolLM2's measures as a site build does, where the session's run kept them
pytestmark = pytest.mark.usefixtures("disk_cache")


@pytest.fixture(scope="module")
def facts() -> ch.CausalHeads:
    return causal_facts()


def _by_hand(T: int) -> list[tuple[int, int]]:
    """One layer's FLOPs per step, SmolLM2-135M (576 wide, 9 query heads, 3 key/value heads of
    64) then GPT-2 (768 wide, 12 heads of 64); a multiply-add is 2, softmax and scale 1 per cell."""
    return [
        (2 * T * 576 * (9 + 3 + 3) * 64, 2 * T * 768 * 3 * 768),  # project
        (9 * 2 * T * T * 64, 12 * 2 * T * T * 64),  # score
        (9 * T * T, 12 * T * T),  # scale
        (0, 0),  # mask
        (9 * T * T, 12 * T * T),  # softmax
        (9 * 2 * T * T * 64, 12 * 2 * T * T * 64),  # weighted sum
        (2 * T * 576 * 576, 2 * T * 768 * 768),  # output
    ]


def _cells(html: str, table: str) -> list[list[str]]:
    """The body rows of the explorer's table of class ``table``: each row's header, then its cells."""
    body = re.search(rf'<table class="{table}">.*?<tbody>(.*?)</tbody>', html).group(1)
    return [
        re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
        for row in re.findall(r"<tr>(.*?)</tr>", body)
    ]


@pytest.mark.parametrize("key", [s.key for s in ch.SENTENCES])
def test_each_steps_flops_are_counted_by_hand(facts, key):
    run = facts.run(key)
    view = causal_steps.head_view(causal_steps.steps_data(run, facts), 0, 0, 0)
    want = _by_hand(len(run.tokens))
    got = [
        (int(r[2].replace(",", "")), int(r[4].replace(",", ""))) for r in view["shapes"]
    ]
    assert got[:-1] == want, key
    assert got[-1] == tuple(sum(w[n] for w in want) for n in (0, 1)), key
    assert view["shapes"][-1][0] == "one layer"


def test_the_box_without_javascript_shows_the_flops_of_the_table_above(facts):
    """The build-time box: the shapes table has both models' FLOPs, the numbers of the page's
    table of the seven steps at real size (the same sentence's T)."""
    html = causal_md.explorer_html()
    head = re.search(r'<table class="ca-shapes"><thead>(.*?)</thead>', html).group(1)
    assert re.findall(r"<th[^>]*>(.*?)</th>", head) == list(causal_md.SHAPES)
    rows = _cells(html, "ca-shapes")
    T = len(facts.run(ch.REPEAT).tokens)
    want = [(f"{a:,}", f"{b:,}") for a, b in _by_hand(T)]
    assert [(r[2], r[4]) for r in rows[:-1]] == want
    table = causal_md.steps_table()
    for a, b in want:
        assert f"| {a} | {b} |" in table, (a, b)


def test_negative_scores_are_written_with_a_true_minus_sign(facts):
    """Tokens 1 to 3 of the box's head: its scaled scores as shown, against the package's, and
    every negative one written with U+2212, none with a hyphen."""
    html = causal_md.explorer_html()
    before, after = _cells(html, "ca-row")[:2]
    (layer, head), token = facts.induction_head, facts.cat[0]
    scores = facts.run(ch.REPEAT).steps.scores[layer, head, token]  # (T,)
    assert before[0] == "3. scaled score" and after[0] == "4. after the mask"
    assert (scores < -0.05).any(), "the box's row has no negative score to check"
    for shown in (before[1:], after[1 : token + 2]):
        assert not any("-" in s for s in shown), shown
        read = np.array([float(s.replace(MINUS, "-")) for s in shown])
        assert np.max(np.abs(read - scores[: len(read)])) <= 0.05 + 1e-5
        assert sum(s.startswith(MINUS) for s in shown) == int(
            (np.round(scores[: len(read)], 1) < 0).sum()
        )


def test_a_causal_heads_masked_cells_print_no_weight():
    """Issue 31, point 6: a masked cell (a later token) is blank, as in the explorer, not ".00"; the
    weights are a lower-triangular matrix typed here, so the printed cells are counted by hand."""
    import re

    import numpy as np

    from attention_workshop.experiment.head_figures import head_svg

    w = np.array([[1.0, 0.0, 0.0], [0.25, 0.75, 0.0], [0.5, 0.25, 0.25]])
    printed = lambda svg: re.findall(r">(\.\d\d|1\.00)</text>", svg)
    assert len(printed(head_svg(w, ["a", "b", "c"], "t", "d"))) == 9
    shown = printed(head_svg(w, ["a", "b", "c"], "t", "d", causal=True))
    assert sorted(shown) == sorted(["1.00", ".25", ".75", ".50", ".25", ".25"]), shown


def test_the_page_and_its_notebook_draw_the_same_figures_by_name():
    """figure_parts names each figure's file once, for the page (causal_md) and its notebook."""
    assert (
        causal_md.figure_parts("induction")[0] == "generated/causal/induction-head.svg"
    )
    assert causal_md.figure_parts("lens")[0] == "generated/causal/logit-lens.svg"
    alt = causal_md.figure_parts("previous")[1]
    assert alt.startswith("Heatmap of layer ") and "→" in alt
    with pytest.raises(
        ValueError, match="there are: previous, induction, induction-scores"
    ):
        causal_md.figure_parts("nope")
    with pytest.raises(ValueError, match="no head 'rope' is drawn large"):
        causal_md.causal_head_figure("rope", "")
