"""The final exam: every generated answer against an independent computation, and the grader.

Expected values come from outside attention_workshop.exam: the seed's hand calculation,
formulas worked with math, PyTorch in float64 and GPT-2's published size.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from attention_workshop import exam

from .exam_sheets import answers_with, right, wrong
from attention_workshop.toy import SENT_MONEY, SENT_RIVER, VOCAB, W_K_WIRED, W_Q_WIRED

QS = {q.qid: q for q in exam.questions()}
DOCS = Path(__file__).resolve().parent.parent / "docs"


def key(qid: str, label_part: str) -> str:
    """The key of the option of ``qid`` whose label contains ``label_part`` (exactly one)."""
    found = [o.key for o in QS[qid].options if label_part in o.label]
    assert len(found) == 1, f"{qid}: {len(found)} options contain {label_part!r}"
    return found[0]


def keys(qid: str, *label_parts: str) -> set[str]:
    return {key(qid, p) for p in label_parts}


def t(a) -> torch.Tensor:
    return torch.tensor(np.asarray(a, dtype=np.float64))


def x(words) -> torch.Tensor:
    return t([VOCAB[w] for w in words])


def sdpa(q, k, v, causal=False) -> torch.Tensor:
    """PyTorch's own attention weights, float64: softmax(q k^T / sqrt(d_k)) with the causal rule."""
    s = q @ k.T / math.sqrt(q.shape[-1])
    if causal:
        s = s.masked_fill(torch.triu(torch.ones(len(s), len(s), dtype=torch.bool), 1), float("-inf"))
    return torch.softmax(s, dim=-1)


# --------------------------------------------------------------------------- the exam's shape


def test_eighteen_questions_of_three_kinds():
    assert len(QS) == 18
    kinds = [q.kind for q in QS.values()]
    assert {"single", "multiple", "numeric"} == set(kinds)
    assert kinds.count("numeric") >= 2
    assert all(q.tol >= 0 and q.hint for q in QS.values() if q.kind == "numeric")


def test_every_page_of_the_path_is_examined():
    pages = {q.learn.split("#")[0] for q in QS.values()}
    assert pages == {"module-0.md", "module-1.md", "module-2.md", "module-3.md",
                     "step-by-step.md", "inside-the-model.md"}
    assert all(re.fullmatch(r"[a-z0-9-]+\.md#[a-z0-9-]+", q.learn) for q in QS.values())


# --------------------------------------------------------------------------- answers, independently


def test_dot_product_pair():
    dots = {o.key: sum(a * b for a, b in zip(VOCAB[w1], VOCAB[w2]))
            for o in QS["dot"].options for w1, w2 in [o.label.split(" · ")]}
    assert QS["dot"].answer == max(dots, key=dots.get)
    assert QS["dot"].answer == key("dot", "river · bank")  # place (1 x 0.3) + water (1 x 0.4)


def test_zero_share_is_one_over_e2_plus_2():
    assert QS["zero-share"].answer == pytest.approx(1 / (math.e ** 2 + 2), abs=1e-15)
    assert QS["zero-share"].display == "0.107"


def test_max_trick_is_about_overflow():
    with pytest.raises(OverflowError):
        math.exp(1000)  # the naive formula's numerator on scores near 1000
    small = [2.0, 1.0, 0.0]
    naive = [math.exp(s) / sum(math.exp(v) for v in small) for s in small]
    shifted = [math.exp(s - 2) / sum(math.exp(v - 2) for v in small) for s in small]
    assert naive == pytest.approx(shifted, abs=1e-15)
    assert QS["max-trick"].answer == key("max-trick", "overflowing")


def test_simple_attention_looks_at_itself():
    X = x(SENT_RIVER)
    w = sdpa(X, X, X)
    assert (w.argmax(dim=1) == torch.arange(len(X))).all()
    assert QS["self"].answer == key("self", "On itself")


def test_bank_leans_to_money_in_the_savings_bank():
    X = x(SENT_MONEY)
    out = sdpa(X, X, X) @ X
    assert out[-1, 1] > out[-1, 0]  # money > water
    assert QS["two-senses"].answer == key("two-senses", "Toward money")


def test_wired_head_bank_looks_at():
    X = x(SENT_RIVER)
    w = sdpa(X @ t(W_Q_WIRED), X @ t(W_K_WIRED), X)
    word = SENT_RIVER[int(w[-1].argmax())]
    assert QS["wired"].answer == key("wired", f'"{word}"')


def test_unscaled_softmax_saturates():
    g = torch.Generator().manual_seed(1234)  # not the experiment's seed: the fact, not its numbers
    q, k = torch.randn(400, 1024, generator=g, dtype=torch.float64), torch.randn(400, 8, 1024, generator=g, dtype=torch.float64)
    raw = torch.einsum("nd,nkd->nk", q, k)
    assert torch.softmax(raw, dim=-1).max(dim=-1).values.mean() > 0.9
    assert torch.softmax(raw / 32, dim=-1).max(dim=-1).values.mean() < 0.6
    assert QS["saturate"].answer == key("saturate", "one-hot")


def test_torch_agreement_bucket():
    from attention_workshop.experiment import SEED, compare_with_torch

    rng = np.random.default_rng(SEED)
    W = [rng.standard_normal((4, 3)) for _ in range(3)]
    X = np.array([VOCAB[w] for w in SENT_RIVER])
    diff = max(compare_with_torch(X, *W, causal=c) for c in (False, True))
    assert diff <= 8 * 2.0 ** -52
    assert QS["torch"].answer == key("torch", "machine epsilon")


def test_causal_statements():
    X = x(SENT_RIVER)
    q, k = X @ t(W_Q_WIRED), X @ t(W_K_WIRED)
    w, u = sdpa(q, k, X, causal=True), sdpa(q, k, X)
    truth = {
        "first row": bool(w[0, 0] == 1 and (w[0, 1:] == 0).all()),
        "sums to 1": bool(torch.allclose(w.sum(1), torch.ones(3, dtype=torch.float64), atol=1e-12)),
        "last row equals": bool(torch.allclose(w[-1], u[-1], atol=1e-15)),
        "largest weight on itself": bool((w.argmax(1) == torch.arange(3)).all()),
        "greater than 0": bool((w > 0).all()),
    }
    assert truth == {"first row": True, "sums to 1": True, "last row equals": True,
                     "largest weight on itself": False, "greater than 0": False}
    labels = {"first row": "first row", "sums to 1": "sums to 1", "last row equals": "last row equals",
              "largest weight on itself": "largest weight on itself", "greater than 0": "greater than 0"}
    expected = {key("causal", labels[s]) for s, true in truth.items() if true}
    assert set(QS["causal"].answer) == expected


def test_order_blindness():
    X = x(SENT_RIVER)
    Xr = X.flip(0)
    out, out_r = sdpa(X, X, X) @ X, sdpa(Xr, Xr, Xr) @ Xr
    assert torch.allclose(out[-1], out_r[0], atol=1e-12)
    assert QS["order"].answer == key("order", "Exactly the same")


def test_gpt2_counts():
    assert QS["per-head"].answer == 3 * 768 * 64 == 147_456
    assert QS["divisor"].answer == 8
    assert QS["cells"].answer == 1024 * 1024


def test_attention_share_of_gpt2():
    attention = 12 * (3 * 768 * 768 + 768 * 768)
    share = attention / 124_439_808  # GPT-2 small's published parameter count
    assert 0.2 < share < 0.25
    assert QS["share"].answer == key("share", "a fifth and a quarter")


def test_the_cat_sat_numbers_from_the_seed():
    e = math.exp(1 / math.sqrt(2))
    sat = e * e / (2 * e + e * e)  # exp(2/sqrt 2) / (2 exp(1/sqrt 2) + exp(2/sqrt 2))
    assert QS["sat"].answer == pytest.approx(sat, abs=1e-15)
    assert QS["sat"].display == "0.503"  # the seed's hand calculation
    cat = 1 / (1 + e)  # exp(0) / (exp(0) + exp(1/sqrt 2))
    assert QS["cat-causal"].answer == pytest.approx(cat, abs=1e-15)
    assert QS["cat-causal"].display == "0.330"


def test_causal_off_the_sees_every_word():
    Q = t([[1, 0], [0, 1], [1, 1]])
    w = sdpa(Q, Q, Q)
    assert (w[0] > 0).all()
    assert set(QS["causal-off"].answer) == keys("causal-off", '"the"', '"cat"', '"sat"')


def inside_steps() -> list[str]:
    """The numbered step headings of the Inside-the-model page, read from its Markdown."""
    text = (DOCS / "inside-the-model.md").read_text(encoding="utf-8")
    return re.findall(r"^### (\d+\. [^{\n]+?) \{ #", text, re.M)


def test_quadratic_steps_are_the_inside_pages_steps():
    steps = inside_steps()
    assert [s.split(". ", 1)[0] for s in steps] == [str(i) for i in range(1, len(steps) + 1)]
    assert "4. Causal mask" in steps
    q = QS["quadratic"]
    # The mask does no arithmetic (the page counts 0 FLOPs): it is left out, and the prompt says so.
    assert [o.label for o in q.options] == [s for s in steps if s != "4. Causal mask"]
    assert f" {len(steps)} steps" in q.prompt and "Step 4, causal mask, does no arithmetic" in q.prompt
    # Twice the tokens: the N x N grid has four times the cells, and scores, scale, softmax and the
    # weighted sum do a fixed amount of work per cell. The projections work per token: twice.
    assert set(q.answer) == keys("quadratic", "Scores", "Scale", "Softmax", "Weighted sum")
    assert "Scores × 4" in q.explanation and "Projections × 2" in q.explanation


# --------------------------------------------------------------------------- grading


@pytest.mark.parametrize("n, passed", [(18, True), (13, True), (12, False), (0, False)])
def test_pass_mark(n, passed):
    assert exam.grade(answers_with(n)) == (n, passed)


def test_pass_mark_figures():
    assert exam.pass_count(18) == 13
    assert exam.percent(12, 18) == "66.7" and exam.percent(13, 18) == "72.2"


def test_missing_answers_are_wrong_and_unknown_ids_are_refused():
    assert exam.grade({}) == (0, False)
    with pytest.raises(ValueError, match="unknown question id"):
        exam.grade({"nope": "a"})


def test_tolerance_edges():
    q = QS["sat"]  # 0.50349 +- 0.005
    assert exam.is_correct(q, str(q.answer + 0.005)) and exam.is_correct(q, str(q.answer - 0.005))
    assert exam.is_correct(q, "0.503") and exam.is_correct(q, "0.5") and exam.is_correct(q, "0,503")
    assert not exam.is_correct(q, f"{q.answer + 0.0051:.6f}")
    assert not exam.is_correct(q, f"{q.answer - 0.0051:.6f}")
    assert exam.is_correct(QS["cat-causal"], "0.33")
    assert not exam.is_correct(QS["cat-causal"], "0.67")


def test_typed_numbers_are_normalised_like_the_page():
    q = QS["per-head"]
    # NFKC: full-width digits and comma, and no-break or thin spaces, become plain ones.
    for ok in ("１４７４５６", "１４７，４５６", "147\u00a0456", "147\u202f456", "147\u2009456", "\t147456\n"):
        assert exam.parse_number(ok) == 147456, repr(ok)
        assert exam.is_correct(q, ok), repr(ok)
    # Digits that NFKC leaves alone, and characters that are not spaces, make it not a number.
    for bad in ("١٤٧٤٥٦", "۱۴۷۴۵۶", "१४७४५६", "147\x1c456", "147\ufeff456", "147\u200b456", "147\x85456"):
        assert exam.parse_number(bad) is None, repr(bad)
        assert not exam.is_correct(q, bad), repr(bad)
    assert exam.parse_number("０,５") == 0.5


def test_exact_numbers_and_formats():
    q = QS["per-head"]
    for ok in ("147456", "147,456", " 147 456 ", "1.47456e5"):
        assert exam.is_correct(q, ok), ok
    for bad in ("147457", "147455.9", "", "abc", "147.456", "1,47,456", "inf"):
        assert not exam.is_correct(q, bad), bad
    assert not exam.is_correct(q, 147456)  # a response is the typed text, never a number


def test_multiple_choice_needs_the_exact_set():
    q = QS["quadratic"]
    full = list(q.answer)
    assert exam.is_correct(q, full) and exam.is_correct(q, list(reversed(full)))
    assert not exam.is_correct(q, full[:-1])  # a subset
    assert not exam.is_correct(q, full + [key("quadratic", "Projections")])  # a superset
    assert not exam.is_correct(q, full[0])  # a bare string is not a set


def test_single_choice_needs_the_key():
    q = QS["dot"]
    assert exam.is_correct(q, q.answer)
    assert not exam.is_correct(q, [q.answer])
    assert not exam.is_correct(q, wrong(q))


# --------------------------------------------------------------------------- what the site gets


def test_site_files_hold_the_answers_and_the_form_does_not():
    files = exam.site_files()
    data = json.loads(files["generated/exam.json"])
    assert data["pass_mark"] == 70 and len(data["questions"]) == 18
    by_id = {d["id"]: d for d in data["questions"]}
    for q in QS.values():
        assert by_id[q.qid]["answer"] == (list(q.answer) if q.kind == "multiple" else q.answer)
    form = exam.form_html()
    assert "checked" not in form and "data-answer" not in form
    assert form.count("<fieldset") == 18 and form.count("<legend>") == 18
    for q in QS.values():
        own = re.search(rf'<fieldset[^>]* data-qid="{q.qid}".*?</fieldset>', form, re.S).group(0)
        text = re.sub(r"Question \d+\.", "", re.sub(r"<[^>]*>", " ", own))
        if q.kind == "numeric":
            assert not re.search(rf"(?<![\d.,]){re.escape(q.display)}(?![\d,]|\.\d)", text), \
                f"{q.qid}: its answer {q.display} is in the markup"
        assert q.explanation not in form


def test_only_the_grade_button_grades():
    form = exam.form_html()
    assert 'type="submit"' not in form  # no submit button: Enter in an answer box cannot grade
    assert re.search(r'<button type="button" class="[^"]*exam-grade[^"]*">Grade my answers</button>', form)


def test_every_input_has_a_label():
    form = exam.form_html()
    ids = re.findall(r'<input [^>]*id="([^"]+)"', form)
    assert len(ids) > 18
    for i in ids:
        assert f'for="{i}"' in form, i


def test_same_bytes_twice():
    assert exam.site_files() == exam.site_files() and exam.form_html() == exam.form_html()


@pytest.mark.site
def test_built_page_links_to_real_sections_and_hides_the_answers(built_site):
    page = (built_site / "final-exam" / "index.html").read_text(encoding="utf-8")
    assert page.count('<fieldset class="exam-q"') == 18
    assert "pass mark is 70%" in page and "13 correct answers out of 18" in page
    assert json.loads((built_site / "generated" / "exam.json").read_text(encoding="utf-8")) == exam.exam_data()
    for q in QS.values():
        assert q.explanation not in page, q.qid
        target, anchor = q.learn.split("#")
        html = (built_site / target.removesuffix(".md") / "index.html").read_text(encoding="utf-8")
        assert f'id="{anchor}"' in html, f"{q.qid} links to {q.learn}, which has no such section"
        assert f'href="../{target.removesuffix(".md")}/#{anchor}"' in page, q.qid


# --------------------------------------------------------------------------- the words around the numbers


def test_hints_state_the_real_tolerance():
    for q in QS.values():
        if q.kind == "numeric" and q.tol > 0:
            assert f"within {q.tol:g} count" in q.hint, (q.qid, q.hint)
        elif q.kind == "numeric":
            assert "exact" in q.hint, (q.qid, q.hint)


def test_no_awkward_possessives_or_doubled_punctuation():
    for q in QS.values():
        for text in (q.prompt, q.explanation, q.answer_text()):
            assert not re.search(r"[.!?][;,]", text), (q.qid, text)
            assert "\"'s" not in text and "the's" not in text, (q.qid, text)
    assert QS["causal"].answer_text().count(". ") == len(QS["causal"].answer) - 1


def test_bank_starts_with_as_much_water_as_money():
    water, money = VOCAB["bank"][0], VOCAB["bank"][1]  # the toy axes: water, money, place, grammar
    assert water == money
    assert "as much water as money" in QS["two-senses"].prompt
    assert "half" not in QS["two-senses"].prompt


def test_share_question_counts_heads_in_every_layer():
    prompt = QS["share"].prompt
    assert "12 layers" in prompt and "12 heads" in prompt  # GPT-2 small: 12 layers of 12 heads


def test_self_explanation_quotes_diagonal_against_the_rest():
    X = x(SENT_RIVER)
    w = sdpa(X, X, X)
    text = QS["self"].explanation
    for i, word in enumerate(SENT_RIVER):
        other = max(float(w[i, j]) for j in range(len(SENT_RIVER)) if j != i)
        assert f'"{word}" {float(w[i, i]):.3f} on itself, at most {other:.3f} on another word' in text, (word, text)
    assert "usually" not in text


def test_saturate_explanation_quotes_the_scaled_range():
    from attention_workshop.pages import results

    scaled = results(SENT_RIVER).data["sqrt_dk"]["max_scaled"]
    m = re.search(r"stays between (\d\.\d+) and (\d\.\d+) at every size", QS["saturate"].explanation)
    assert m, QS["saturate"].explanation
    lo, hi = float(m.group(1)), float(m.group(2))
    assert lo <= hi and all(lo - 5e-4 <= v <= hi + 5e-4 for v in scaled)
    assert lo == pytest.approx(min(scaled), abs=5e-4) and hi == pytest.approx(max(scaled), abs=5e-4)


@pytest.mark.parametrize("qid", [qid for qid, q in QS.items() if "d_k" in q.prompt or "d_head" in q.prompt])
def test_head_width_is_named_as_the_linked_page_names_it(qid):
    q = QS[qid]
    page = (DOCS / q.learn.split("#")[0]).read_text(encoding="utf-8")
    if "d_\\text{head}" in page:  # Inside the model
        assert re.search(r"\bd_head = \d+", q.prompt), (qid, q.prompt)
    else:  # Modules 2 and 3
        assert "d_k" in page and "d_k" in q.prompt and "d_head" not in q.prompt + q.explanation, (qid, q.prompt)
