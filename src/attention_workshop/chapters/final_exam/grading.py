"""The final exam's grading rules: what counts as a typed number, a right answer, and a pass.

The page's script (``docs/assets/exam/exam.js``) applies the same rules in the reader's
browser; a browser test proves the two agree on the same answers, edge cases included.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping, Sequence

from .questions import Question

__all__ = [
    "PASS_MARK",
    "SLACK",
    "grade",
    "is_correct",
    "parse_number",
    "pass_count",
    "percent",
]

#: The pass mark, in percent of the questions: 13 of 18 passes, 12 of 18 does not.
PASS_MARK = 70


#: The whitespace a typed number may contain, after NFKC (which turns no-break and thin spaces
#: into plain ones). Exactly the same set as exam.js's ``SPACES``; anything else makes it not a number.
_SPACES = re.compile(r"[ \t\n\r\f\v]+")
_THOUSANDS = re.compile(r"^[+-]?[1-9][0-9]{0,2}(,[0-9]{3})+(\.[0-9]+)?$")
_DECIMAL_COMMA = re.compile(r"^[+-]?[0-9]+,[0-9]+$")
_NUMBER = re.compile(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")


def parse_number(text: str) -> float | None:
    """A typed number, or ``None`` when it is not one.

    Rules (the page's script applies the same ones, in the same order): the text is
    normalised to NFKC (full-width ``１４７`` becomes ``147``, a no-break space a space);
    spaces, tabs and line breaks are removed; commas between groups of three digits are
    thousands separators (``147,456``, not starting with 0); a single comma between digits
    otherwise is a decimal comma (``0,5``, ``0,503``); then a plain decimal or scientific
    number of ASCII digits. Other digits (``١٤٧``) and invisible characters (U+FEFF,
    U+001C) make it not a number.
    """
    s = _SPACES.sub("", unicodedata.normalize("NFKC", str(text)))
    if _THOUSANDS.fullmatch(s):
        s = s.replace(",", "")
    elif _DECIMAL_COMMA.fullmatch(s):
        s = s.replace(",", ".")
    if not _NUMBER.fullmatch(s):
        return None
    x = float(s)
    return x if math.isfinite(x) else None


#: Slack added to every tolerance so that a typed 0.253 for an answer of 0.248 ± 0.005 is
#: not lost to binary rounding (0.253 - 0.248 is 0.0050000000000000044 in float64).
SLACK = 1e-9


def is_correct(q: Question, response: object) -> bool:
    """Whether one response answers ``q``: the option key, the exact set of keys, or a number within ``tol``."""
    if q.kind == "single":
        return isinstance(response, str) and response == q.answer
    if q.kind == "multiple":
        if isinstance(response, str) or not isinstance(
            response, (list, tuple, set, frozenset)
        ):
            return False
        return isinstance(q.answer, tuple) and set(response) == set(q.answer)
    if q.kind == "numeric":
        if not isinstance(response, str):
            return False
        x = parse_number(response)
        return (
            x is not None
            and isinstance(q.answer, float)
            and abs(x - q.answer) <= q.tol + SLACK
        )
    raise ValueError(f"unknown question kind {q.kind!r}")


def pass_count(n: int) -> int:
    """The fewest correct answers out of ``n`` that reach the pass mark."""
    return -(-PASS_MARK * n // 100)


def percent(score: int, n: int) -> str:
    """The score as a percentage with one decimal, as the page shows it (13 of 18 -> "72.2")."""
    return f"{100 * score / n:.1f}"


def grade(
    questions: Sequence[Question], answers: Mapping[str, object]
) -> tuple[int, bool]:
    """Grade a set of answers to ``questions``: ``{question id: response}`` -> ``(score, passed)``.

    A response is an option key (single choice), a list of option keys (multiple choice,
    the exact set is needed) or the typed text (numeric). A missing response is wrong.
    ``passed`` is ``100 * score >= PASS_MARK * n``: 13 of 18 passes, 12 of 18 does not.
    """
    unknown = set(answers) - {q.qid for q in questions}
    if unknown:
        raise ValueError(
            f"unknown question id(s) {sorted(unknown)}; the exam's ids: {[q.qid for q in questions]}"
        )
    score = sum(is_correct(q, answers[q.qid]) for q in questions if q.qid in answers)
    return score, 100 * score >= PASS_MARK * len(questions)
