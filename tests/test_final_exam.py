"""The final exam's chapter: every answer against an independent computation, and every claim it rests on.

Expected values come from outside attention_workshop.chapters.final_exam*: the seed's hand
calculation, formulas worked with math, PyTorch in float64 and GPT-2's published size. Each
claim of the exam is broken on purpose once, and the build's claims runner must name it.
"""

from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from attention_workshop.chapters import (
    final_exam,
    module_0,
    module_1,
    module_2,
    module_3,
)
from attention_workshop.chapters.final_exam import answers_late as final_exam_answers
from attention_workshop.core import attention
from attention_workshop.experiment.runner import SEED
from attention_workshop.toy import SENT_MONEY, SENT_RIVER, VOCAB, W_K_WIRED, W_Q_WIRED
from workshop_site import claims
from workshop_site.claims import ClaimError

from .breaks import assert_reported
from .conftest import session_results
from .exam_sheets import N

DOCS = Path(__file__).resolve().parent.parent / "docs"
RESULTS = session_results()
EXAM = final_exam.exam(RESULTS)
QS = {q.qid: q for q in EXAM.questions}


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
        s = s.masked_fill(
            torch.triu(torch.ones(len(s), len(s), dtype=torch.bool), 1), float("-inf")
        )
    return torch.softmax(s, dim=-1)


# --------------------------------------------------------------------------- the exam's shape and its data file


def test_every_question_of_the_data_file_of_three_kinds_in_its_order():
    assert [q.qid for q in EXAM.questions] == [t.qid for t in final_exam.texts()]
    assert len(QS) == N >= 18
    kinds = [q.kind for q in QS.values()]
    assert {"single", "multiple", "numeric"} == set(kinds)
    assert kinds.count("numeric") >= 2
    assert all(q.tol >= 0 and q.hint for q in QS.values() if q.kind == "numeric")


def test_every_page_of_the_path_is_examined():
    pages = {q.learn.split("#")[0] for q in QS.values()}
    assert pages == {
        "module-0.md",
        "module-1.md",
        "module-2.md",
        "module-3.md",
        "step-by-step.md",
        "inside-the-model.md",
        "causal-heads.md",
    }
    assert all(re.fullmatch(r"[a-z0-9-]+\.md#[a-z0-9-]+", q.learn) for q in QS.values())


def test_every_template_field_is_filled():
    for q in QS.values():
        for text in (
            q.prompt,
            q.explanation,
            q.hint,
            q.display,
            *(o.label for o in q.options),
        ):
            assert "{" not in text and "}" not in text, (q.qid, text)


def test_a_typo_in_the_data_file_is_refused(monkeypatch):
    """An unknown key in a [[question]] (here ``hnit``) is an error, not a silently missing hint."""
    import tomllib

    real = tomllib.load

    def with_typo(fh):
        data = real(fh)
        data["question"][0]["hnit"] = "oops"
        return data

    monkeypatch.setattr(tomllib, "load", with_typo)
    with pytest.raises(TypeError, match="hnit"):
        final_exam.texts()


# --------------------------------------------------------------------------- answers, independently


def test_dot_product_pair():
    dots = {
        o.key: sum(a * b for a, b in zip(VOCAB[w1], VOCAB[w2]))
        for o in QS["dot"].options
        for w1, w2 in [o.label.split(" · ")]
    }
    assert QS["dot"].answer == max(dots, key=dots.get)
    assert QS["dot"].answer == key(
        "dot", "river · bank"
    )  # place (1 x 0.3) + water (1 x 0.4)
    assert "river · bank = 0.70" in QS["dot"].explanation


def test_zero_share_is_one_over_e2_plus_2():
    assert QS["zero-share"].answer == pytest.approx(1 / (math.e**2 + 2), abs=1e-15)
    assert QS["zero-share"].display == "0.107"
    assert "Only a score of −∞" not in QS["zero-share"].explanation, (
        "floating point rounds to 0 sooner"
    )


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


def test_self_explanation_quotes_diagonal_against_the_rest():
    X = x(SENT_RIVER)
    w, s = sdpa(X, X, X), X @ X.T
    text = QS["self"].explanation
    for i, word in enumerate(SENT_RIVER):
        other = max(float(w[i, j]) for j in range(len(SENT_RIVER)) if j != i)
        other_s = max(float(s[i, j]) for j in range(len(SENT_RIVER)) if j != i)
        assert (
            f'"{word}" {float(w[i, i]):.3f} on itself, at most {other:.3f} on another word'
            in text
        ), (word, text)
        assert (
            f"(score {float(s[i, i]):.2f} with itself, at most {other_s:.2f} with another)"
            in text
        ), (word, text)


def test_bank_leans_to_money_in_the_savings_bank():
    X = x(SENT_MONEY)
    out = sdpa(X, X, X) @ X
    assert out[-1, 1] > out[-1, 0]  # money > water
    assert QS["two-senses"].answer == key("two-senses", "Toward money")
    assert (
        f"water {float(out[-1, 0]):.3f} and money {float(out[-1, 1]):.3f}"
        in QS["two-senses"].explanation
    )


def test_bank_starts_with_as_much_water_as_money():
    water, money = (
        VOCAB["bank"][0],
        VOCAB["bank"][1],
    )  # the toy axes: water, money, place, grammar
    assert water == money
    assert "as much water as money (0.4 each)" in QS["two-senses"].prompt


def test_wired_head_bank_looks_at():
    X = x(SENT_RIVER)
    w = sdpa(X @ t(W_Q_WIRED), X @ t(W_K_WIRED), X)
    word = SENT_RIVER[int(w[-1].argmax())]
    assert QS["wired"].answer == key("wired", f'"{word}"')
    row = ", ".join(f"{a} {float(b):.3f}" for a, b in zip(SENT_RIVER, w[-1]))
    assert f"Its row of weights: {row}." in QS["wired"].explanation
    # bank's own key answers a topic query too: 2 x (water + money) on the topic channel
    topic = 2 * (VOCAB["bank"][0] + VOCAB["bank"][1])
    assert f'"bank" itself included (the topic channel of its key is {topic:.1f})' in (
        QS["wired"].explanation
    )


def test_unscaled_softmax_saturates():
    g = torch.Generator().manual_seed(
        1234
    )  # not the experiment's seed: the fact, not its numbers
    q = torch.randn(400, 1024, generator=g, dtype=torch.float64)
    k = torch.randn(400, 8, 1024, generator=g, dtype=torch.float64)
    raw = torch.einsum("nd,nkd->nk", q, k)
    assert torch.softmax(raw, dim=-1).max(dim=-1).values.mean() > 0.9
    assert torch.softmax(raw / 32, dim=-1).max(dim=-1).values.mean() < 0.6
    assert QS["saturate"].answer == key("saturate", "one-hot")


def test_saturate_explanation_quotes_the_scaled_range():
    scaled = RESULTS[module_2.SQRT_DK].max_scaled
    m = re.search(
        r"stays between (\d\.\d+) and (\d\.\d+) at every size",
        QS["saturate"].explanation,
    )
    assert m, QS["saturate"].explanation
    lo, hi = float(m.group(1)), float(m.group(2))
    assert lo == pytest.approx(min(scaled), abs=5e-4) and hi == pytest.approx(
        max(scaled), abs=5e-4
    )


def test_torch_agreement_bucket():
    """The package's head against PyTorch's own sdpa, float64, on the experiment's seeded head."""
    rng = np.random.default_rng(SEED)
    W = [
        rng.standard_normal((4, 3)) for _ in range(3)
    ]  # W_q, W_k, W_v as Module 3 draws them
    X = np.array([VOCAB[w] for w in SENT_RIVER])
    diffs = []
    for causal in (False, True):
        ours, _ = attention(X, *W, causal=causal)
        q, k, v = (t(X @ w) for w in W)
        theirs = F.scaled_dot_product_attention(
            q[None], k[None], v[None], is_causal=causal
        )[0]
        diffs.append(float((t(ours) - theirs).abs().max()))
    assert max(diffs) <= 8 * 2.0**-52
    assert QS["torch"].answer == key("torch", "machine epsilon")


def test_pytorch_scales_queries_and_keys_before_the_product():
    """What the torch explanation says of PyTorch: its attention on (T, d_k) inputs (the math path)
    is, bit for bit, softmax((q s)(k s)^T) v with s the square root of 1/sqrt(d_k)."""
    g = torch.Generator().manual_seed(7)
    q, k, v = (torch.randn(5, 3, generator=g, dtype=torch.float64) for _ in range(3))
    s = math.sqrt(1 / math.sqrt(3))
    by_hand = torch.softmax((q * s) @ (k * s).T, dim=-1) @ v
    assert torch.equal(F.scaled_dot_product_attention(q, k, v), by_hand)
    assert "scales the queries and the keys each by the square root of 1/√d_k" in (
        " ".join(QS["torch"].explanation.split())
    )


def test_causal_statements():
    X = x(SENT_RIVER)
    q, k = X @ t(W_Q_WIRED), X @ t(W_K_WIRED)
    w, u = sdpa(q, k, X, causal=True), sdpa(q, k, X)
    truth = {
        "first row": bool(w[0, 0] == 1 and (w[0, 1:] == 0).all()),
        "sums to 1": bool(
            torch.allclose(w.sum(1), torch.ones(3, dtype=torch.float64), atol=1e-12)
        ),
        "last row equals": bool(torch.allclose(w[-1], u[-1], atol=1e-15)),
        "largest weight on itself": bool((w.argmax(1) == torch.arange(3)).all()),
        "greater than 0": bool((w > 0).all()),
    }
    assert truth == {"first row": True, "sums to 1": True, "last row equals": True,
                     "largest weight on itself": False, "greater than 0": False}  # fmt: skip
    assert set(QS["causal"].answer) == {
        key("causal", s) for s, true in truth.items() if true
    }
    assert QS["causal"].answer_text().count(". ") == len(QS["causal"].answer) - 1


def test_order_blindness():
    """PyTorch's attention on the sentence and on its reverse: the same rows, read backwards."""
    X = x(SENT_RIVER)
    Xr = X.flip(0)
    out, out_r = sdpa(X, X, X) @ X, sdpa(Xr, Xr, Xr) @ Xr
    assert torch.allclose(out, out_r.flip(0), atol=1e-12)
    assert not torch.allclose(out, out_r, atol=1e-3), (
        "the rows differ: their order shows"
    )
    q = QS["order"]
    # the bag of words is attention without a mask, and positions are not always added first
    text = " ".join(q.explanation.split())
    assert "Without a mask, attention alone sees a sentence as a bag of words" in text
    assert "RoPE" in text and "real models add position information first" not in text
    assert q.answer == key("order", "in reverse order")
    assert len(q.options) == 4 and q.answer != q.options[0].key
    assert (
        '"bank river the"' in q.prompt
        and 'row of "bank" changes'
        in q.answer_text() + " ".join(o.label for o in q.options)
    )


@pytest.mark.parametrize(
    ("rev", "pattern"),
    [
        (lambda f: f[::-1], "reversed"),
        (lambda f: f, "same-order"),
        (lambda f: np.vstack([f[::-1][:-1], f[::-1][-1:] + 0.1]), "all-change"),
        (lambda f: np.vstack([f[::-1][:1] + 0.1, f[::-1][1:]]), "last-moves"),
    ],
    ids=["reversed", "same-order", "first-row-changes", "last-word-changes"],
)
def test_order_pattern_names_every_outcome(rev, pattern):
    """The order question has an option for each thing reversing could do to the rows."""
    fwd = np.arange(12, dtype=float).reshape(3, 4)  # three different rows
    order = dataclasses.replace(RESULTS[module_3.ORDER], out_fwd=fwd, out_rev=rev(fwd))
    assert final_exam_answers.order_pattern(order) == pattern
    same_rows = dataclasses.replace(
        order, out_fwd=np.ones((3, 4)), out_rev=np.ones((3, 4))
    )
    assert final_exam_answers.order_pattern(same_rows) is None


def test_gpt2_counts():
    assert QS["per-head"].answer == 3 * 768 * 64 == 147_456
    assert QS["per-head"].display == "147,456"
    # the divisor is the head's width, 64, not the row's 768: sqrt(64) = 8 (not about 27.7)
    assert QS["divisor"].answer == 8 and QS["divisor"].display == "8"
    assert (
        "d_model = 768" in QS["divisor"].prompt and "d_k = 64" in QS["divisor"].prompt
    )
    assert "Hugging Face's GPT-2 calls it head_dim" in QS["divisor"].prompt
    assert "head_size" not in QS["divisor"].prompt, (
        "nanoGPT's and the package's name, not GPT-2's"
    )
    assert QS["divisor"].explanation.startswith("√d_k = √64 = 8: the width of the head")


def test_attention_share_of_gpt2():
    attention_weights = 12 * (3 * 768 * 768 + 768 * 768)
    share = attention_weights / 124_439_808  # GPT-2 small's published parameter count
    assert 0.2 < share < 0.25
    assert QS["share"].answer == key("share", "a fifth and a quarter")
    assert (
        f"{attention_weights:,} of 124,439,808 parameters, {100 * share:.1f}%."
        in QS["share"].explanation
    )
    assert "12 layers" in QS["share"].prompt and "12 heads" in QS["share"].prompt


def test_the_cat_sat_numbers_from_the_seed():
    e = math.exp(1 / math.sqrt(2))
    sat = e * e / (2 * e + e * e)  # exp(2/sqrt 2) / (2 exp(1/sqrt 2) + exp(2/sqrt 2))
    assert QS["sat"].answer == pytest.approx(sat, abs=1e-15)
    assert QS["sat"].display == "0.503"  # the seed's hand calculation


def test_mask_off_changes_every_row_but_the_last():
    """The seed's inputs in PyTorch: without the mask, "the" and "cat" see more; "sat" saw everything."""
    Q = t([[1, 0], [0, 1], [1, 1]])
    masked, unmasked = sdpa(Q, Q, Q, causal=True), sdpa(Q, Q, Q)
    changed = [not torch.allclose(a, b, atol=1e-12) for a, b in zip(masked, unmasked)]
    assert changed == [True, True, False]
    q = QS["causal-off"]
    assert set(q.answer) == keys("causal-off", '"the"', '"cat"')
    assert len(q.answer) < len(q.options), "not a tick-them-all question"
    assert (
        f"sat [{unmasked[2, 0]:.3f}, {unmasked[2, 1]:.3f}, {unmasked[2, 2]:.3f}]"
        in q.explanation
    )


def inside_steps() -> list[str]:
    """The numbered step headings of the Inside-the-model page, read from its Markdown."""
    text = (DOCS / "inside-the-model.md").read_text(encoding="utf-8")
    return re.findall(r"^### (\d+\. [^{\n]+?) \{ #", text, re.MULTILINE)


def test_quadratic_steps_are_the_inside_pages_steps():
    steps = inside_steps()
    assert [s.split(". ", 1)[0] for s in steps] == [
        str(i) for i in range(1, len(steps) + 1)
    ]
    assert "4. Causal mask" in steps
    q = QS["quadratic"]
    # The mask does no arithmetic (the page counts 0 FLOPs): it is left out, and the prompt says so.
    assert [o.label for o in q.options] == [s for s in steps if s != "4. Causal mask"]
    assert (
        f" {len(steps)} steps" in q.prompt
        and "(Step 4, causal mask, does no arithmetic" in q.prompt
    )
    # Twice the tokens: the N x N grid has four times the cells, and scores, scale, softmax and the
    # weighted sum do a fixed amount of work per cell. The projections work per token: twice.
    assert set(q.answer) == keys(
        "quadratic", "Scores", "Scale", "Softmax", "Weighted sum"
    )
    assert "Scores × 4" in q.explanation and "Projections × 2" in q.explanation


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


@pytest.mark.parametrize("qid", [qid for qid, q in QS.items() if "d_k" in q.prompt])
def test_head_width_is_d_k_as_the_linked_page_names_it(qid):
    """One notation: the head's width is d_k on every page, and in the exam too."""
    q = QS[qid]
    page = (DOCS / q.learn.split("#")[0]).read_text(encoding="utf-8")
    assert "d_k" in page, (qid, q.learn)


def test_the_exam_writes_the_sites_notation():
    """W_Q, W_K, W_V and d_k, never W_q or d_head (the Notation page's spellings)."""
    for q in QS.values():
        text = " ".join([q.prompt, q.explanation, *(o.label for o in q.options)])
        for wrong in ("W_q", "W_k", "W_v", "d_head"):
            assert not re.search(rf"\b{wrong}\b", text), (q.qid, wrong)
    assert "W_Q, W_K and W_V" in QS["per-head"].prompt


# --------------------------------------------------------------------------- the claims


def test_every_exam_claim_holds_and_the_runner_checks_it():
    for c in final_exam.CLAIMS:
        assert c.test(EXAM), c.key
    checked = {c.key for c, ok in claims.check(RESULTS) if ok}
    assert {c.key for c in final_exam.CLAIMS} <= checked


def test_exam_claims_are_skipped_for_another_sentence():
    other = dataclasses.replace(RESULTS, sentence=("the", "savings", "bank"))
    assert not any(c.key.startswith("final_exam.") for c, _ in claims.check(other))


def _with(section, **changes):
    """The build's results with one section's typed result changed."""
    return dataclasses.replace(
        RESULTS,
        data={
            **RESULTS.data,
            section.key: dataclasses.replace(RESULTS[section], **changes),
        },
    )


def _simple(**changes):
    simple = RESULTS[module_1.SIMPLE]
    run = "contrast" if "contrast_X" in changes else "first"
    new = dataclasses.replace(
        getattr(simple, run),
        **{k.removeprefix("contrast_"): v for k, v in changes.items()},
    )
    return _with(module_1.SIMPLE, **{run: new})


def _replace_texts(monkeypatch, edit):
    real = final_exam.texts
    # the exam reads the words where premises.exam looks them up
    monkeypatch.setattr(final_exam.premises, "texts", lambda: edit(real()))


def _tie_at_the_top(mp):
    # the . bank is now river . bank, the largest
    mp.setitem(VOCAB, "the", VOCAB["river"])
    return RESULTS


def _drop_a_computation(mp):
    mp.delitem(final_exam_answers.WORK, "divisor")
    return RESULTS


def _ask_twice(mp):
    _replace_texts(mp, lambda ts: (*ts, ts[0]))
    return RESULTS


def _rename_options(mp):
    def edit(ts):
        renamed = {
            t.qid: tuple((n + "-renamed", label) for n, label in t.options) for t in ts
        }
        return tuple(
            dataclasses.replace(t, options=renamed[t.qid])
            if t.qid == "max-trick"
            else t
            for t in ts
        )

    _replace_texts(mp, edit)
    return RESULTS


def _cubic_scale(mp):
    real = final_exam_answers.attention_flops
    mp.setattr(
        final_exam_answers, "attention_flops", lambda T: {**real(T), "scale": T**3}
    )
    return RESULTS


_NO_PATTERN = np.array(
    [[0.2, 0.6, 0.2], [0.1, 0.2, 0.7], [0.6, 0.3, 0.1]]
)  # (3, 3): largest at 1, 2, 0
_CLOSER_TO_ANOTHER = np.array(
    [[1.0, 0, 0, 0], [2.0, 0, 0, 0], [0, 0, 1.0, 0]]
)  # (3, 4): x0 . x1 > x0 . x0
_BANK_LEANS = np.array(
    [[0, 0, 0, 1.0], [0, 1.0, 0.1, 0], [0.5, 0.4, 1.0, 0]]
)  # (3, 4): bank with more water

#: One deliberate break per claim of the exam: claim name -> how to break it (returns the results to verify).
BREAKS = {
    "words_match_work": _drop_a_computation,
    "ids_unique": _ask_twice,
    "answers_are_options": _rename_options,
    "dot_one_winner": _tie_at_the_top,
    "max_trick_premise": lambda mp: _with(module_0.SOFTMAX, naive_vs_stable_small=1e-3),
    "self_has_option": lambda mp: _simple(weights=_NO_PATTERN),
    "self_own_score_largest": lambda mp: _simple(X=_CLOSER_TO_ANOTHER),
    "two_senses_premise": lambda mp: _simple(contrast_X=_BANK_LEANS),
    "saturate_has_option": lambda mp: _with(
        module_2.SQRT_DK, max_raw=np.array([0.5, 0.4, 0.45, 0.5, 0.5])
    ),
    "buckets_found": lambda mp: _with(module_3.PRICE, share=0.3),
    "quadratic_ratios": _cubic_scale,
    # every output row alike: "in reverse order" and "in the same order" could not be told apart
    "order_has_option": lambda mp: _with(
        module_3.ORDER, out_fwd=np.ones((3, 4)) / 4, out_rev=np.ones((3, 4)) / 4
    ),
    # the last word's row changes too: the mask hid something from it
    "mask_off_some_rows": lambda mp: (
        mp.setattr(final_exam.premises, "mask_off_changes", lambda: (True, True, True)),
        RESULTS,
    )[1],
}


def test_every_exam_claim_has_a_deliberate_break():
    assert {f"final_exam.{k}" for k in BREAKS} == {c.key for c in final_exam.CLAIMS}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_a_broken_premise_fails_the_build_naming_its_claim(name, monkeypatch):
    broken = BREAKS[name](monkeypatch)
    with pytest.raises(ClaimError, match=re.escape(f"final_exam.{name}:")) as err:
        claims.verify(broken)
    assert_reported(str(err.value), f"final_exam.{name}")


def test_the_induction_head_at_the_second_cat_looks_at_sat():
    """By hand: in "the cat sat on the mat and the cat", the first "cat" is token 2, so the
    induction head at the second "cat" (token 9) looks at token 3, "sat"."""
    q = QS["induction"]
    assert q.answer == "c"  # the third option: token 3
    assert '"sat"' in q.explanation and "token 3" in q.explanation
    assert "the cat sat on the mat and the cat" in q.prompt


def test_three_key_heads_of_64_numbers_hold_192():
    """By hand: 3 x 64 = 192 numbers of keys per token (the queries: 9 x 64 = 576); key head 1
    serves query heads 1, 2 and 3."""
    q = QS["gqa"]
    assert q.answer == 192 and q.display == "192"
    assert (
        "= 192, against 576" in q.explanation and "query heads 1, 2, 3" in q.explanation
    )
