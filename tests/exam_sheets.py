"""Answer sheets for the exam tests: every question answered right, or wrong, on purpose."""

from __future__ import annotations

from attention_workshop.build import exam_page
from attention_workshop.chapters.final_exam import Question


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
        return [q.options[-1].key] if set(q.answer) != {q.options[-1].key} else [q.options[0].key]
    return str(q.answer + 1000)


def answers_with(n_right: int) -> dict:
    """The first ``n_right`` questions answered correctly, every other one wrongly."""
    return {q.qid: right(q) if i < n_right else wrong(q) for i, q in enumerate(exam_page.questions())}
