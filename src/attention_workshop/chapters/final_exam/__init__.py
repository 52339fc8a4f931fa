"""The final exam: 18 questions whose answers the build computes, the premises they rest on
as claims, and the rules that grade them.

- :mod:`.questions`: the words of every question, from ``questions.toml``, filled with values;
- :mod:`.worked`, :mod:`.answers_early` (Modules 0 to 2) and :mod:`.answers_late` (Module 3,
  Step by step, Inside the model): each question's answer, worked out from the maths and the run;
- :mod:`.premises`: :func:`exam` (the questions of a run) and :data:`CLAIMS` (their premises);
- :mod:`.grading`: what counts as a typed number, a right answer, and a pass.
"""

from __future__ import annotations

from . import answers_early, answers_late, grading, premises, questions, worked
from .premises import CLAIMS, Exam, exam
from .questions import (
    DATA_FILE,
    SUBJECT,
    Option,
    Question,
    QuestionText,
    join_labels,
    texts,
)

__all__ = [
    "CLAIMS",
    "DATA_FILE",
    "SUBJECT",
    "Exam",
    "Option",
    "Question",
    "QuestionText",
    "exam",
    "join_labels",
    "texts",
    "answers_early",
    "answers_late",
    "grading",
    "premises",
    "questions",
    "worked",
]
