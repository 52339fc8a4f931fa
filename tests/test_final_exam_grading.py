"""The exam's grading rules: typed numbers, tolerances, exact sets, and the pass mark.

The cases are the reader's: what a person types (full-width digits, a decimal comma, a
no-break space) and what they tick. The questions are the build's (the same the page asks).
"""

from __future__ import annotations

import pytest

from attention_workshop.chapters.final_exam.grading import (
    PASS_MARK,
    grade,
    is_correct,
    parse_number,
    pass_count,
    percent,
)
from workshop_site import exam_page

from .exam_sheets import PASS, N, answers_with, wrong

QUESTIONS = exam_page.questions()
QS = {q.qid: q for q in QUESTIONS}


def key(qid: str, label_part: str) -> str:
    """The key of the option of ``qid`` whose label contains ``label_part`` (exactly one)."""
    found = [o.key for o in QS[qid].options if label_part in o.label]
    assert len(found) == 1, f"{qid}: {len(found)} options contain {label_part!r}"
    return found[0]


@pytest.mark.parametrize(
    "n, passed", [(N, True), (PASS, True), (PASS - 1, False), (0, False)]
)
def test_pass_mark(n, passed):
    assert grade(QUESTIONS, answers_with(n)) == (n, passed)


def test_pass_mark_figures():
    assert PASS_MARK == 70
    assert pass_count(18) == 13  # 12/18 = 66.7% < 70% <= 13/18 = 72.2%
    assert pass_count(10) == 7 and pass_count(20) == 14
    assert percent(12, 18) == "66.7" and percent(13, 18) == "72.2"


def test_missing_answers_are_wrong_and_unknown_ids_are_refused():
    assert grade(QUESTIONS, {}) == (0, False)
    with pytest.raises(ValueError, match="unknown question id"):
        grade(QUESTIONS, {"nope": "a"})


def test_tolerance_edges():
    q = QS["sat"]  # 0.50349 +- 0.005
    assert is_correct(q, str(q.answer + 0.005)) and is_correct(q, str(q.answer - 0.005))
    assert is_correct(q, "0.503") and is_correct(q, "0.5") and is_correct(q, "0,503")
    assert not is_correct(q, f"{q.answer + 0.0051:.6f}")
    assert not is_correct(q, f"{q.answer - 0.0051:.6f}")
    assert is_correct(QS["gqa"], "192") and is_correct(QS["gqa"], "192.0")
    assert not is_correct(QS["gqa"], "576")


def test_typed_numbers_are_normalised_like_the_page():
    q = QS["per-head"]
    # NFKC: full-width digits and comma, and no-break or thin spaces, become plain ones.
    for ok in (
        "１４７４５６",
        "１４７，４５６",
        "147\u00a0456",
        "147\u202f456",
        "147\u2009456",
        "\t147456\n",
    ):
        assert parse_number(ok) == 147456, repr(ok)
        assert is_correct(q, ok), repr(ok)
    # Digits that NFKC leaves alone, and characters that are not spaces, make it not a number.
    for bad in (
        "١٤٧٤٥٦",
        "۱۴۷۴۵۶",
        "१४७४५६",
        "147\x1c456",
        "147\ufeff456",
        "147\u200b456",
        "147\x85456",
    ):
        assert parse_number(bad) is None, repr(bad)
        assert not is_correct(q, bad), repr(bad)
    assert parse_number("０,５") == 0.5


def test_exact_numbers_and_formats():
    q = QS["per-head"]
    for ok in ("147456", "147,456", " 147 456 ", "1.47456e5"):
        assert is_correct(q, ok), ok
    for bad in ("147457", "147455.9", "", "abc", "147.456", "1,47,456", "inf"):
        assert not is_correct(q, bad), bad
    assert not is_correct(q, 147456)  # a response is the typed text, never a number


def test_multiple_choice_needs_the_exact_set():
    q = QS["quadratic"]
    full = list(q.answer)
    assert is_correct(q, full) and is_correct(q, list(reversed(full)))
    assert not is_correct(q, full[:-1])  # a subset
    assert not is_correct(q, [*full, key("quadratic", "Projections")])  # a superset
    assert not is_correct(q, full[0])  # a bare string is not a set


def test_single_choice_needs_the_key():
    q = QS["dot"]
    assert is_correct(q, q.answer)
    assert not is_correct(q, [q.answer])
    assert not is_correct(q, wrong(q))
