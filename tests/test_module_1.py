"""chapters/module_1.py, "Attention with nothing learned": lines and values, claims, and a break for each.

Expected values come from outside the chapter: the vocabulary's tuples in plain Python, and
PyTorch's ``scaled_dot_product_attention`` in float64 with ``Q = K = V = X`` (its weights read
off with ``V = I``).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from attention_workshop.chapters import module_1
from attention_workshop.toy import SENT_MONEY, SENT_RIVER, VOCAB

from .breaks import assert_break_fails, assert_claims_hold, cases, claim_keys, edit, row
from .conftest import cells, run_section, table_after
from .references import rows as X
from .references import simple as torch_simple


def plain_row(words, i) -> list[float]:
    """Simple attention's weights for row i, in plain Python: dot products, / sqrt(4), math.exp."""
    xs = [VOCAB[w] for w in words]
    s = [sum(a * b for a, b in zip(xs[i], y)) / 2.0 for y in xs]
    e = [math.exp(v) for v in s]
    return [v / sum(e) for v in e]


# --------------------------------------------------------------------------- helpers of the chapter


def test_simple_scores_against_torch():
    np.testing.assert_allclose(
        module_1.simple_scores(X(SENT_RIVER).numpy()),
        torch_simple(SENT_RIVER)[0],
        rtol=0,
        atol=1e-16,
    )
    with pytest.raises(ValueError, match=r"got shape \(4,\)"):
        module_1.simple_scores(np.zeros(4))


def test_self_and_best_other():
    w = np.array([[0.5, 0.3, 0.2], [0.1, 0.2, 0.7], [0.3, 0.3, 0.4]])
    own, other = module_1.self_and_best_other(w)
    assert own.tolist() == [0.5, 0.2, 0.4] and other.tolist() == [0.3, 0.7, 0.3]
    with pytest.raises(ValueError, match="square"):
        module_1.self_and_best_other(np.ones((2, 3)))


@pytest.mark.parametrize("words", [("the", "vault", "bank"), ("the", "shore", "bank")])
def test_a_longer_neighbour_can_beat_the_word_itself(words):
    d = module_1.longer_neighbour(words, 1)
    w = plain_row(words, 1)
    assert d.word == words[1] and d.neighbour == "bank"
    assert math.isclose(d.self_w, w[1], abs_tol=1e-15) and math.isclose(
        d.other_w, w[2], abs_tol=1e-15
    )
    assert w[2] > w[1], (
        f"{words}: bank should get more of {words[1]}'s attention than {words[1]} itself"
    )
    assert math.isclose(
        d.len_other**2, sum(v * v for v in VOCAB["bank"]), abs_tol=1e-14
    )
    assert math.isclose(d.self_dot, sum(v * v for v in VOCAB[words[1]]), abs_tol=1e-15)
    assert d.len_other > d.len_self and d.other_dot > d.self_dot
    with pytest.raises(ValueError, match="at least 2 words"):
        module_1.longer_neighbour(("bank",), 0)


def test_the_review_counterexample_numbers():
    # The review measured vault 0.370 on itself, 0.387 on bank; shore 0.381 vs 0.388.
    assert [round(x, 3) for x in plain_row(("the", "vault", "bank"), 1)[1:]] == [
        0.370,
        0.387,
    ]
    assert [round(x, 3) for x in plain_row(("the", "shore", "bank"), 1)[1:]] == [
        0.381,
        0.388,
    ]


# --------------------------------------------------------------------------- simple


def test_simple_section(results):
    r = results[module_1.SIMPLE]
    for run, words in ((r.first, SENT_RIVER), (r.contrast, SENT_MONEY)):
        S, w, out = torch_simple(words)
        assert run.sentence == words
        np.testing.assert_array_equal(run.X, X(words).numpy())
        np.testing.assert_allclose(
            run.scores, S, rtol=0, atol=1e-16, err_msg=" ".join(words)
        )
        np.testing.assert_allclose(
            run.weights, w, rtol=0, atol=1e-15, err_msg=" ".join(words)
        )
        np.testing.assert_allclose(
            run.out, out, rtol=0, atol=1e-15, err_msg=" ".join(words)
        )


def test_simple_lines(results):
    lines = results.excerpt("simple")
    for words in (SENT_RIVER, SENT_MONEY):
        S, w, out = torch_simple(words)
        at = lines.index(
            f'  simple attention on "{" ".join(words)}" (row = who is looking)'
        )
        part = lines[at:]
        assert table_after(part, "before softmax:", 3) == dict(zip(words, cells(S))), (
            words
        )
        assert table_after(part, "softmax of each row:", 3) == dict(
            zip(words, cells(w))
        ), words
        k = part.index("    bank's output (water, money, place, grammar):")
        assert part[k + 1] == "      [" + ", ".join(f"{v:.3f}" for v in out[-1]) + "]"
    show = results.show["simple"]
    out = torch_simple(SENT_MONEY)[2]
    assert (
        show["contrast_last_money"] == f"{out[-1, 1]:.3f}"
        and show["contrast_last_money_before"] == "0.400"
    )


# --------------------------------------------------------------------------- its limits


def test_simple_limits_section(results):
    d = results[module_1.SIMPLE_LIMITS]
    _, w, out = torch_simple(SENT_RIVER)
    assert d.asymmetry == 0.0
    np.testing.assert_allclose(d.out, out, rtol=0, atol=1e-15)
    np.testing.assert_allclose(d.self_w, np.diag(w), rtol=0, atol=1e-15)
    np.testing.assert_allclose(
        d.best_other,
        [max(w[i, j] for j in range(3) if j != i) for i in range(3)],
        atol=1e-15,
    )
    for i, a in enumerate(SENT_RIVER):
        own = sum(v * v for v in VOCAB[a])
        best = max(
            sum(x * y for x, y in zip(VOCAB[a], VOCAB[b]))
            for j, b in enumerate(SENT_RIVER)
            if j != i
        )
        assert math.isclose(d.self_dot[i], own, abs_tol=1e-15) and math.isclose(
            d.best_other_dot[i], best, abs_tol=1e-15
        )
    money = torch_simple(SENT_MONEY)[2][-1]
    assert d.lean_first[0] == 0.0 and math.isclose(
        d.lean_first[1], out[-1, 0] - out[-1, 1], abs_tol=1e-15
    )
    assert d.lean_contrast[0] == 0.0 and math.isclose(
        d.lean_contrast[1], money[0] - money[1], abs_tol=1e-15
    )
    assert d.longer.word == "vault" and d.longer.neighbour == "bank"


def test_simple_limits_lines(results):
    lines = results.excerpt("simple_limits")
    _, w, out = torch_simple(SENT_RIVER)
    assert (
        lines[1]
        == "  largest |score[i, j] - score[j, i]| = 0.0  (the table is symmetric)"
    )
    assert table_after(lines, "output rows on the axes", 3) == dict(
        zip(SENT_RIVER, cells(out))
    )
    lean_r, money = out[-1, 0] - out[-1, 1], torch_simple(SENT_MONEY)[2][-1]
    assert (
        f'  bank in "the river bank", water - money: 0.000 before, +{lean_r:.3f} after'
        in lines
    )
    assert (
        f'  bank in "the savings bank", water - money: 0.000 before, {money[0] - money[1]:.3f} after'
        in lines
    )
    v = plain_row(module_1.SENT_LONGER, 1)
    assert f"    vault's weights: on itself {v[1]:.3f}, on bank {v[2]:.3f}" in lines
    show = results.show["simple_limits"]
    assert show["long_self"] == f"{v[1]:.3f}" and show["long_other"] == f"{v[2]:.3f}"
    assert show["contrast_lean_after"] == f"{money[0] - money[1]:.3f}".replace(
        "-", "\u2212"
    ), "a true minus sign"
    assert show["self_wins"] == "3" and show["self_0"] == f"{w[0, 0]:.3f}"


def test_simple_limits_of_a_single_word():
    d, r = run_section(module_1.SIMPLE_LIMITS, ("bank",))
    assert d.self_w.tolist() == [1.0] and d.asymmetry == 0.0
    row_of_bank = next(
        line for line in r.lines if line.split()[:1] == ["bank"] and "none" in line
    )
    assert row_of_bank.split() == [
        "bank",
        f"{sum(v * v for v in VOCAB['bank']):.3f}",
        "none",
        "1.000",
        "none",
    ]


# --------------------------------------------------------------------------- claims and their breaks


def _swap_water_money(out: np.ndarray) -> np.ndarray:
    """The last word's output with water and money exchanged: its sense reversed."""
    out = np.array(out, copy=True)
    out[-1, [0, 1]] = out[-1, [1, 0]]
    return out


def _longer(**change):
    return edit(
        "simple_limits",
        "longer",
        lambda ln: dataclasses.replace(ln, **{k: f(ln) for k, f in change.items()}),
    )


BREAKS = {
    "simple.self_attention_dominates": (
        edit("simple", "first.weights", lambda w: row(w, 0, [0.2, 0.5, 0.3])),
    ),
    "simple.rows_sum_to_one": (
        # a row of "the savings bank" that adds to 0.9
        edit("simple", "contrast.weights", lambda w: row(w, 1, [0.2, 0.5, 0.2])),
    ),
    "simple.bank_moves_to_water": (edit("simple", "first.out", _swap_water_money),),
    "simple.bank_moves_to_money": (edit("simple", "contrast.out", _swap_water_money),),
    "simple_limits.self_below_half": (
        # savings keeps more than half
        edit("simple", "contrast.weights", lambda w: row(w, 1, [0.2, 0.6, 0.2])),
        # bank keeps more than half
        edit("simple", "first.weights", lambda w: row(w, 2, [0.1, 0.3, 0.6])),
    ),
    "simple_limits.symmetric": (edit("simple_limits", "asymmetry", lambda a: 0.1),),
    "simple_limits.bank_leans_both_ways": (
        # leans to money next to river
        edit("simple_limits", "lean_first", lambda ba: (ba[0], -0.1)),
        # leans to water next to savings
        edit("simple_limits", "lean_contrast", lambda ba: (ba[0], 0.1)),
        # bank not balanced before attention
        edit("simple_limits", "lean_first", lambda ba: (0.2, ba[1])),
    ),
    "simple_limits.own_dot_largest": (
        edit("simple_limits", "best_other_dot", lambda v: v + 1),
    ),
    "simple_limits.longer_neighbour_wins": (
        _longer(other_w=lambda ln: ln.self_w - 0.01),  # vault keeps more for itself
        _longer(len_other=lambda ln: ln.len_self - 0.01),  # bank not the longer row
        # vault . bank below vault . vault
        _longer(other_dot=lambda ln: ln.self_dot - 0.01),
        _longer(neighbour=lambda ln: "the"),  # another word wins
    ),
}


def test_every_claim_of_the_chapter_holds(results):
    assert_claims_hold(results, module_1.SECTIONS)


def test_every_claim_of_the_chapter_has_a_break():
    assert set(BREAKS) == claim_keys(module_1.SECTIONS)


@pytest.mark.parametrize(("key", "brk"), cases(BREAKS))
def test_a_false_claim_fails_and_is_named(results, monkeypatch, key, brk):
    assert_break_fails(results, monkeypatch, key, brk)
