"""Answer sheets for the exam tests: every question answered right or wrong on purpose,
and edge cases for comparing graders."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from attention_workshop.chapters.final_exam import Question
from workshop_site import exam_page

DATA_FILE = (
    Path(__file__).resolve().parent.parent
    / "src"
    / "attention_workshop"
    / "chapters"
    / "final_exam"
    / "questions.toml"
)
#: How many questions the data file holds, counted in its text (not by the loader under test).
N = len(
    re.findall(r"^\[\[question\]\]\s*$", DATA_FILE.read_text(encoding="utf-8"), re.M)
)
#: How many right answers pass: the smallest whole number that is at least 70% of N.
PASS = math.ceil(0.7 * N - 1e-9)


def right(q: Question):
    """The answer the grader must accept, in the form a reader's input arrives in."""
    if q.kind == "single":
        return q.answer
    if q.kind == "multiple":
        return list(q.answer)
    return repr(q.answer)


def wrong(q: Question):
    """An answer the grader must reject (another option, another set, a number far off)."""
    if q.kind == "single":
        return next(o.key for o in q.options if o.key != q.answer)
    if q.kind == "multiple":
        return (
            [q.options[-1].key]
            if set(q.answer) != {q.options[-1].key}
            else [q.options[0].key]
        )
    return str(q.answer + 1000)


def answers_with(n_right: int) -> dict:
    """The first ``n_right`` questions answered correctly, every other one wrongly."""
    return {
        q.qid: right(q) if i < n_right else wrong(q)
        for i, q in enumerate(exam_page.questions())
    }


#: Full-width digits and signs (NFKC makes them ASCII), and digits NFKC leaves alone.
FULLWIDTH = str.maketrans("0123456789.,+-e", "０１２３４５６７８９．，＋－ｅ")
ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")
#: Characters between digits: separators, a no-break and a thin space, zero-width and control characters.
INVISIBLE = (
    "\x1c",
    "\x1f",
    "\x85",
    "\ufeff",
    "\u200b",
    "\u00a0",
    "\u202f",
    "\u2009",
    "\u3000",
    "\t",
    "\v",
)


def edge_responses(q: Question) -> list:
    """Responses near each rule's edge: tolerances, number formats, subsets and supersets."""
    if q.kind == "single":
        return [o.key for o in q.options] + [[q.answer], "", "z"]
    if q.kind == "multiple":
        a = list(q.answer)
        others = [o.key for o in q.options if o.key not in a]
        return [a, a[::-1], a[:-1], a + others[:1], [], a + a, q.answer[0]]
    v, tol = q.answer, q.tol
    g = f"{v:g}"
    return [
        repr(v),
        str(v + tol),
        str(v - tol),
        str(v + tol + 1e-6),
        str(v - tol - 1e-6),
        f"{v:,.3f}",
        f"{v:.3f}".replace(".", ","),
        f" {v:g} ",
        f"{v:e}",
        "",
        "abc",
        "1e999",
        str(v + 1),
        # other scripts' digits and invisible characters: both graders normalise them alike
        g.translate(FULLWIDTH),
        g.translate(ARABIC),
        g.translate(DEVANAGARI),
        *(g[:1] + ch + g[1:] for ch in INVISIBLE),
        "１４７４５６",
        "١٤٧٤٥٦",
        "147\x1c456",
        "147\ufeff456",
    ]


def grading_sheets() -> list[dict]:
    """About 250 answer sheets for comparing two graders: every edge response of every question
    alone, 60 sheets mixing them at random (seeded), and 0 to all questions answered right."""
    qs = exam_page.questions()
    sheets = [{q.qid: resp} for q in qs for resp in edge_responses(q)]
    rng = np.random.default_rng(0)
    for _ in range(60):
        sheet = {}
        for q in qs:
            options = edge_responses(q)
            pick = rng.integers(len(options) + 1)
            if pick < len(options):
                sheet[q.qid] = options[pick]
        sheets.append(sheet)
    return sheets + [answers_with(n) for n in range(len(qs) + 1)]


def typed_numbers() -> list[str]:
    """Every edge response of the numeric questions, once each, sorted."""
    return sorted(
        {
            r
            for q in exam_page.questions()
            if q.kind == "numeric"
            for r in edge_responses(q)
        }
    )


def label_sets() -> list[list[str]]:
    """The first k option labels of every choice question, k = 0 .. all (for joining into one line)."""
    return [
        [o.label for o in q.options[:k]]
        for q in exam_page.questions()
        for k in range(len(q.options) + 1)
    ]
