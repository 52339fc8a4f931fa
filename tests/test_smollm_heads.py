"""experiment/smollm_heads: SmolLM2's heads on one sentence, measured and written for the heads command.

The measures are checked against plain loops over the weights (one row, one column at a time),
the classes against heads made by hand whose class is known, and the files against the model's
own forward pass.
"""

from __future__ import annotations

import csv
import io
import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from attention_workshop.causal import load_smollm
from attention_workshop.experiment import smollm_heads as sh

SENTENCE = "A dog ran to the park, and then the dog ran home."


def _causal(rng: np.random.Generator, L: int, H: int, T: int) -> np.ndarray:
    """Random causal weights ``(L, H, T, T)``: each row sums to 1, nothing above the diagonal."""
    w = np.tril(rng.random((L, H, T, T)) + 0.01)
    return w / w.sum(axis=-1, keepdims=True)


def _loops(A: np.ndarray, ids: list[int]) -> list[float]:
    """One head's six measures by loops, from the definitions in the module's docstring."""
    T = len(ids)
    previous = sum(A[i][i - 1] for i in range(2, T)) / (T - 2)
    self_ = sum(A[i][i] for i in range(1, T)) / (T - 1)
    first = sum(A[i][0] for i in range(1, T)) / (T - 1)
    dup, ind = [], []
    for i in range(T):
        earlier = [j for j in range(i) if ids[j] == ids[i]]
        if earlier:
            dup.append(sum(A[i][j] for j in earlier))
        after = [j + 1 for j in earlier if j + 1 < i]
        if after:
            ind.append(sum(A[i][j] for j in after))
    spread = 0.0
    for i in range(1, T):
        h = -sum(a * math.log(a) for a in A[i][: i + 1] if a > 0)
        spread += h / math.log(i + 1)
    return [
        previous,
        self_,
        first,
        sum(dup) / len(dup) if dup else math.nan,
        sum(ind) / len(ind) if ind else math.nan,
        spread / (T - 1),
    ]


@pytest.mark.parametrize(
    "ids",
    [[1, 2, 3, 1, 2, 3, 4], [5, 5, 5, 6], [7, 8, 9, 10, 11]],
    ids=["repeated phrase", "one token thrice", "no repeat"],
)
def test_the_measures_are_the_loops(ids):
    att = _causal(np.random.default_rng(len(ids)), 2, 3, len(ids))
    scores = sh.head_scores(att, np.array(ids))
    assert scores.shape == (2, 3, len(sh.MEASURES))
    for layer in range(2):
        for h in range(3):
            expected = _loops(att[layer, h].tolist(), ids)
            np.testing.assert_allclose(
                scores[layer, h],
                expected,
                rtol=0,
                atol=1e-12,
                err_msg=f"{ids} {layer} {h}",
            )


def _head(T: int, looks) -> np.ndarray:
    """A head ``(T, T)`` whose row i puts all its weight on ``looks(i)`` (row 0 on itself)."""
    A = np.zeros((T, T))
    A[0, 0] = 1.0
    for i in range(1, T):
        A[i, looks(i)] = 1.0
    return A


def test_heads_made_by_hand_get_their_class():
    ids = np.array([1, 2, 3, 4, 1, 2, 3, 4])  # a phrase of 4 tokens, twice
    T = len(ids)
    even = np.tril(np.ones((T, T))) / np.arange(1, T + 1)[:, None]  # every row even
    induction = _head(T, lambda i: i - 3 if i >= 5 else 0)  # the token after the copy
    heads = [
        _head(T, lambda i: i - 1),  # previous token
        _head(T, lambda i: 0),  # first token
        _head(T, lambda i: i),  # self
        _head(T, lambda i: i - 4 if i >= 4 else i - 1),  # earlier copy, else previous
        induction,
        even,
    ]
    classes, score = sh.classify(sh.head_scores(np.stack(heads)[None], ids))
    assert classes == (
        ("previous", "first", "self", "duplicate", "induction", "broad"),
    )
    assert score[0, 0] == 1.0 and score[0, 5] == pytest.approx(1.0)


def test_without_a_repeated_token_no_head_is_duplicate_or_induction():
    ids = np.arange(6)
    copy_like = _head(6, lambda i: 0)
    scores = sh.head_scores(copy_like[None, None], ids)
    assert np.isnan(scores[0, 0, 3]) and np.isnan(scores[0, 0, 4])
    classes, _ = sh.classify(scores)
    assert classes == (("first",),)


# ---------------------------------------------------------------- the model's sentence, written


@pytest.fixture(scope="module")
def measured() -> sh.CausalHeads:
    return sh.run(load_smollm(), SENTENCE)


def test_the_files_hold_every_head_and_the_next_tokens(measured):
    model = load_smollm()
    out = model(SENTENCE)
    files = sh.files_for(measured)
    assert list(files) == ["heads.md", "heads.csv", "grid.svg"]
    assert sh.files_for(measured) == files, "the same bytes twice"
    svg = ET.fromstring(files["grid.svg"])
    ns = "{http://www.w3.org/2000/svg}"
    cells = [r for r in svg.iter(f"{ns}rect") if r.get("class") == "cell-bg"]
    assert len(cells) == model.n_layer * model.n_head == 270
    rows = list(csv.reader(io.StringIO(files["heads.csv"])))
    assert rows[0] == ["layer", "head", "class", "score", *sh.MEASURES]
    assert len(rows) == 1 + 270
    att = np.asarray(out.attentions, dtype=np.float64)
    for row in rows[1::37]:
        layer, head = int(row[0]) - 1, int(row[1]) - 1
        expected = _loops(att[layer, head].tolist(), list(out.ids))
        assert [float(x) for x in row[4:]] == pytest.approx(expected, abs=1e-6), row
    md = files["heads.md"]
    assert md.count("| layer ") == 30 and "| head 9 |" in md
    for n, t in enumerate(out.next_tokens, 1):
        assert f"| {n} | {t.token} | " in md and f" | {t.p:.3f} |" in md
    assert "A token repeats here" in md


def test_a_sentence_without_a_repeat_says_so(measured):
    h = sh.run(load_smollm(), "Otters float on their backs while they sleep.")
    assert not h.repeats and measured.repeats
    md = sh.files_for(h)["heads.md"]
    assert "No token repeats here" in md
    assert "duplicate token |" not in md and "induction |" not in md
    assert ",," in sh.files_for(h)["heads.csv"], "unmeasured cells are empty"


def test_a_sentence_of_two_tokens_is_refused():
    with pytest.raises(
        ValueError, match="2 tokens; measuring a causal head needs at least 3"
    ):
        sh.run(load_smollm(), "Hello world")


def test_a_table_cell_shows_markup_as_text():
    assert sh._cell("a|b*c<d>") == "a\\|b\\*c&lt;d&gt;"
