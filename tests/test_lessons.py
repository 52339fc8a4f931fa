"""Modules 0 to 2: the lessons module against independent references, and the pages as a reader meets them.

References: the vocabulary's tuples multiplied out in plain Python, PyTorch in float64,
and formulas written out here.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from pathlib import Path

from attention_workshop import experiment, lessons
from attention_workshop.toy import AXES, SENT_MONEY, SENT_RIVER, VOCAB, W_K_WIRED, W_Q_WIRED, embed


ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def results():
    return experiment.run()


# --------------------------------------------------------------------------- Module 0


def test_dot_terms_multiply_axis_by_axis():
    for a, b in (("river", "bank"), ("savings", "bank"), ("the", "bank"), ("shore", "vault")):
        terms, total = lessons.dot_terms(a, b)
        expected = [x * y for x, y in zip(VOCAB[a], VOCAB[b])]
        assert terms.tolist() == expected, (a, b)
        assert math.isclose(total, sum(expected), abs_tol=1e-15), (a, b)
    assert lessons.dot_terms("the", "bank")[1] == 0.0  # nothing in common


def test_vocab_table_has_every_word_and_value():
    table = lessons.vocab_table()
    rows = [line for line in table.splitlines() if line.startswith("| **")]
    assert len(rows) == len(VOCAB)
    for word, vec in VOCAB.items():
        assert f"| **{word}** | " + " | ".join(f"{v:.1f}" for v in vec) + " |" in table, word
    assert table.splitlines()[0] == "| word | " + " | ".join(AXES) + " |"


def test_sentence_and_dot_tables():
    t = lessons.sentence_table(SENT_RIVER)
    assert "| 3 | **bank** | 0.4 | 0.4 | 1.0 | 0.0 |" in t
    d = lessons.dot_table([("river", "bank")])
    assert "| river · bank | 0.40 | 0.00 | 0.30 | 0.00 | **0.70** |" in d  # 1*0.4 + 0.3*1.0 = 0.7
    with pytest.raises(ValueError, match="the toy vocabulary knows"):
        lessons.sentence_table(["the", "moon"])


def test_softmax_shift_section():
    lines, data, show = lessons.section_softmax_shift()
    np.testing.assert_allclose(data["equal"], [1 / 3] * 3, rtol=0, atol=1e-16)
    assert data["identical"] is True
    assert data["exp_1000"] == math.inf
    assert math.isclose(data["largest_x"], math.log(np.finfo(np.float64).max))  # about 709.78
    assert math.isfinite(math.exp(data["largest_x"] - 1e-9))
    with pytest.raises(OverflowError):
        math.exp(data["largest_x"] + 1e-3)
    assert show["equal_share"] == "0.333"


# --------------------------------------------------------------------------- Module 1


def test_lean_is_water_minus_money():
    assert lessons.lean(np.array([0.5, 0.2, 9.0, 9.0])) == pytest.approx(0.3)
    np.testing.assert_allclose(lessons.lean(embed(SENT_RIVER)), [0.0, 1.0, 0.0])
    with pytest.raises(ValueError, match=r"got shape \(3,\)"):
        lessons.lean(np.zeros(3))


def test_simple_scores_against_torch():
    X = embed(SENT_RIVER)
    t = torch.from_numpy(X)
    np.testing.assert_allclose(lessons.simple_scores(X), (t @ t.T / 2.0).numpy(), rtol=0, atol=1e-16)
    with pytest.raises(ValueError, match=r"got shape \(4,\)"):
        lessons.simple_scores(np.zeros(4))


def _plain_simple_row(words, i):
    """Simple attention's weights for row i, in plain Python: dot products, / sqrt(4), math.exp."""
    xs = [VOCAB[w] for w in words]
    s = [sum(a * b for a, b in zip(xs[i], y)) / 2.0 for y in xs]
    e = [math.exp(v) for v in s]
    return [v / sum(e) for v in e]


@pytest.mark.parametrize("words", [("the", "vault", "bank"), ("the", "shore", "bank")])
def test_a_longer_neighbour_can_beat_the_word_itself(words):
    d = lessons.longer_neighbour(words, 1)
    w = _plain_simple_row(words, 1)
    assert d["neighbour"] == "bank"
    assert math.isclose(d["self_w"], w[1], abs_tol=1e-15) and math.isclose(d["other_w"], w[2], abs_tol=1e-15)
    assert w[2] > w[1], f"{words}: bank should get more of {words[1]}'s attention than {words[1]} itself"
    assert math.isclose(d["len_other"] ** 2, sum(v * v for v in VOCAB["bank"]), abs_tol=1e-14)
    assert d["len_other"] > d["len_self"] and d["other_dot"] > d["self_dot"]
    with pytest.raises(ValueError, match="at least 2 words"):
        lessons.longer_neighbour(("bank",), 0)


def test_the_review_counterexample_numbers():
    # The review measured vault 0.370 on itself, 0.387 on bank; shore 0.381 vs 0.388.
    assert [round(x, 3) for x in _plain_simple_row(("the", "vault", "bank"), 1)[1:]] == [0.370, 0.387]
    assert [round(x, 3) for x in _plain_simple_row(("the", "shore", "bank"), 1)[1:]] == [0.381, 0.388]


def test_module_1_log_shows_the_counterexample(results):
    text = "\n".join(results.excerpt("simple_limits"))
    w = _plain_simple_row(lessons.SENT_LONGER, 1)
    assert f"on itself {w[1]:.3f}, on bank {w[2]:.3f}" in text
    show = results.show["simple_limits"]
    assert show["long_self"] == f"{w[1]:.3f}" and show["long_other"] == f"{w[2]:.3f}"
    assert show["contrast_lean_after"].startswith("\u2212"), "a negative lean uses a true minus sign"


def test_self_and_best_other():
    w = np.array([[0.5, 0.3, 0.2], [0.1, 0.2, 0.7], [0.3, 0.3, 0.4]])
    own, other = lessons.self_and_best_other(w)
    assert own.tolist() == [0.5, 0.2, 0.4] and other.tolist() == [0.3, 0.7, 0.3]
    with pytest.raises(ValueError, match="square"):
        lessons.self_and_best_other(np.ones((2, 3)))


def test_simple_limits_section(results):
    d = results.data["simple_limits"]
    X = embed(SENT_RIVER)
    assert d["asymmetry"] == 0.0
    # out rows by an independent route: PyTorch's attention with Q = K = V = X
    t = torch.from_numpy(X)
    np.testing.assert_allclose(d["out"], F.scaled_dot_product_attention(t, t, t).numpy(), rtol=0, atol=1e-15)
    assert (d["self"] > d["best_other"]).all(), "each word's largest single share is on itself"
    # ... but never half of it: PyTorch's weights (V = identity) on both sentences
    for sent in (SENT_RIVER, SENT_MONEY):
        t = torch.from_numpy(embed(sent))
        w = F.scaled_dot_product_attention(t, t, torch.eye(len(sent), dtype=torch.float64)).numpy()
        assert (np.diag(w) < 0.5).all(), sent
        assert (np.argmax(w, axis=1) == np.arange(len(sent))).all(), sent
    # x.x (squared length, summed in plain Python) beats every x.y in the workshop's sentence
    for i, a in enumerate(SENT_RIVER):
        own = sum(v * v for v in VOCAB[a])
        best = max(sum(x * y for x, y in zip(VOCAB[a], VOCAB[b])) for j, b in enumerate(SENT_RIVER) if j != i)
        assert math.isclose(d["self_dot"][i], own, abs_tol=1e-15) and math.isclose(d["best_other_dot"][i], best, abs_tol=1e-15)
        assert own > best, a
    before, after = d["lean"]["first"]
    assert before == 0.0 and after > 0  # river pulls bank to water
    before, after = d["lean"]["contrast"]
    assert before == 0.0 and after < 0  # savings pulls bank to money


def test_bank_moves_table(results):
    t = lessons.bank_moves_table(results.data["simple"])
    assert "| **bank, before attention** | 0.400 | 0.400 | 1.000 | 0.000 | 0.000 |" in t
    out = F.scaled_dot_product_attention(*(torch.from_numpy(embed(SENT_MONEY)),) * 3).numpy()[-1]
    assert out[0] - out[1] < 0
    assert f"{out[0] - out[1]:.3f}".replace("-", "\u2212") in t, "negative numbers use a true minus sign"
    assert not re.search(r"-\d", t)


# --------------------------------------------------------------------------- Module 2


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("sentence", [SENT_RIVER, SENT_MONEY, ("fish", "swam", "by", "the", "shore")])
def test_wired_head_against_torch(sentence, causal):
    X = embed(sentence)
    h = lessons.wired_head(X, causal=causal)
    t = torch.from_numpy(X)
    q, k = t @ torch.from_numpy(np.array(W_Q_WIRED)), t @ torch.from_numpy(np.array(W_K_WIRED))
    out = F.scaled_dot_product_attention(q, k, t, is_causal=causal).numpy()
    w = F.scaled_dot_product_attention(q, k, torch.eye(len(X), dtype=torch.float64), is_causal=causal).numpy()
    np.testing.assert_allclose(h["out"], out, rtol=0, atol=1e-15)
    np.testing.assert_allclose(h["weights"], w, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(h["Q"], q.numpy())


def test_wired_head_reads_as_designed(results):
    h = results.data["wired_parts"]["wired"]
    # "the" = grammar 1: asks on the place channel, advertises nothing.
    assert h["Q"][0].tolist() == [0.0, 1.0] and h["K"][0].tolist() == [0.0, 0.0]
    # "bank" = place 1.0: asks 2 x 1.0 on the topic channel; "river": topic key 2 x (1 + 0), place key 0.3.
    assert h["Q"][2].tolist() == [2.0, 0.0] and h["K"][1].tolist() == [2.0, 0.3]
    assert int(np.argmax(h["weights"][0])) == 2 and int(np.argmax(h["weights"][2])) == 1
    np.testing.assert_array_equal(h["weights"], results.data["wired_head"]["weights"])
    for k in ("first", "contrast"):
        assert abs(results.data["wired_parts"]["lean"][k]) > abs(results.data["wired_parts"]["lean_simple"][k])
    with pytest.raises(ValueError, match=r"shape \(T, 4\)"):
        lessons.wired_head(np.zeros((3, 2)))


def test_wired_matrices_table():
    t = lessons.wired_matrices_table()
    assert "| **place** | 2.0 | 0.0 | 0.0 | 1.0 |" in t and "| **grammar** | 0.0 | 1.0 | 0.0 | 0.0 |" in t


def test_other_sentences_run():
    r = experiment.run("fish swam by the shore")
    assert r.data["simple_limits"]["asymmetry"] == 0.0
    r = experiment.run("bank")
    assert r.data["simple_limits"]["self"].tolist() == [1.0]


# --------------------------------------------------------------------------- the pages


ANCHORS = {"module-0": ("vocabulary", "dot-product", "softmax", "max-trick", "self-check"),
           "module-1": ("simple-attention", "two-senses", "limits", "self-check"),
           "module-2": ("queries-keys-values", "wired-head", "sqrt-dk", "self-check"),
           "module-3": ("self-check",)}


def _html(site, page):
    return (site / page / "index.html").read_text(encoding="utf-8")


@pytest.mark.site
def test_pages_have_their_sections_and_two_to_four_self_checks(built_site):
    for page, anchors in ANCHORS.items():
        html = _html(built_site, page)
        for a in anchors:
            assert f'id="{a}"' in html, f"{page}#{a}"
        after = html.split('id="self-check"', 1)[1]
        n = len(re.findall(r'<details class="question"', after))
        assert 2 <= n <= 4, f"{page}: {n} self-check questions"


@pytest.mark.site
def test_nav_order_and_module_3_back_references(built_site):
    html = _html(built_site, "index") if (built_site / "index" / "index.html").exists() else (built_site / "index.html").read_text(encoding="utf-8")
    nav = re.findall(r'href="(?:\./|\.\./)?(module-[0-3]|step-by-step)/"', html)
    order = list(dict.fromkeys(nav))
    assert order[:5] == ["module-0", "module-1", "module-2", "module-3", "step-by-step"], order
    m3 = _html(built_site, "module-3")
    for target in ("../module-2/#wired-head", "../module-0/#softmax", "../module-1/#simple-attention",
                   "../module-2/#queries-keys-values", "../module-0/#vocabulary"):
        assert f'href="{target}"' in m3, target


@pytest.mark.site
def test_pages_show_the_package_numbers(built_site, results):
    m0, m1, m2 = (_html(built_site, p) for p in ("module-0", "module-1", "module-2"))
    terms, total = lessons.dot_terms("river", "bank")
    assert f"<strong>{total:.2f}</strong>" in m0
    assert f"{results.data['softmax_shift']['largest_x']:.2f}" in m0
    d = results.data["simple_limits"]
    assert f"{d['lean']['first'][1]:+.3f}" in m1 and f"{d['lean']['contrast'][1]:.3f}" in m1
    w = results.data["wired_head"]["weights"]
    assert f"{w[0, 2]:.3f}" in m2 and f"{w[2, 1]:.3f}" in m2
    v = results.data["sqrt_dk"]
    assert f"{v['max_raw'][-1]:.3f}" in m2 and f"{v['var_scaled'][-1]:.3f}" in m2
    assert 'src="../generated/sqrt-dk.svg"' in m2


def test_module_2_prose_takes_its_inputs_from_the_experiment():
    text = (ROOT / "docs" / "module-2.md").read_text(encoding="utf-8")
    prose = re.sub(r"\{\{[^}]*\}\}", "", text)
    for typed in ("seed 0", "400", "8 keys", " eight ", "five sizes", "by 16", "256", "1024"):
        assert typed not in prose, f"module-2.md types {typed!r} by hand"
    snippet = (ROOT / "snippets" / "module-2" / "sqrt_dk_figure.py").read_text(encoding="utf-8")
    assert "DK_KEYS" in snippet and "DK_TRIALS" in snippet and "400" not in snippet


def test_changing_the_sqrt_dk_constants_changes_what_pages_quote(monkeypatch):
    monkeypatch.setattr(experiment, "DK_VALUES", (4, 9, 36))
    monkeypatch.setattr(experiment, "DK_KEYS", 5)
    monkeypatch.setattr(experiment, "DK_TRIALS", 300)
    r = experiment.run()
    show = r.show["sqrt_dk"]
    assert (show["keys"], show["trials"], show["n_sizes"], show["dk_check"], show["sqrt_check"]) == ("5", "300", "3", "9", "3")
    assert show["dk_first"] == "4" and show["dk_last"] == "36"
    assert "among 5 keys" in r.figures["sqrt-dk.svg"]
    assert any("300 queries x 5 keys" in line for line in r.excerpt("sqrt_dk"))


@pytest.mark.browser
@pytest.mark.parametrize("page_name", ["module-0", "module-1", "module-2", "step-by-step"])
def test_pages_fit_a_375px_screen(browser, site_url, page_name):
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    page.goto(site_url + page_name + "/")
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate("Array.from(document.querySelectorAll('.arithmatex')).filter(e => e.scrollWidth > e.clientWidth + 1).length")
    context.close()
    assert width <= 375, f"{page_name} scrolls sideways at 375px ({width}px)"
    assert wide == 0, f"{page_name}: {wide} formula(s) wider than the column at 375px"


@pytest.mark.browser
def test_a_self_check_reveals_its_answer(page_and_log, site_url, results):
    page, log = page_and_log
    page.goto(site_url + "module-0/")
    q = page.locator("#self-check ~ details.question").nth(1)
    answer = q.locator("p").first
    assert not answer.is_visible()
    q.locator("summary").click()
    assert answer.is_visible()
    assert f"{results.data['softmax_shift']['equal'][0]:.3f} each" in answer.inner_text()
    assert not log.console_errors and not log.foreign_requests
