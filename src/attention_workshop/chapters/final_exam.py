"""The final exam: questions whose answers the build computes, and the claims they rest on.

The words of every question live in one data file, ``final_exam.toml`` (in this package):
prompt, options, explanation, hint, as templates. :mod:`.final_exam_answers` works out each
answer and the values the templates quote, from the maths layer and the experiment's typed
results; :func:`exam` puts the two together. The premises a question rests on (one clear
winner, an option for every outcome) are :data:`CLAIMS` over the :class:`Exam`, checked by
the build's claims runner like every section's claims.

The grading rules are in :mod:`.final_exam_grading`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files

import numpy as np

from ..toy import AXES
from . import module_0, module_1, module_2, module_3
from ._section import Claim
from .final_exam_answers import (
    SHARE_BUCKETS,
    TORCH_BUCKETS,
    WORK,
    Run,
    Worked,
    bucket,
    dots,
    mask_off_changes,
    order_pattern,
    ratios,
    saturate_pattern,
    self_pattern,
    torch_diff,
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
]

#: The key the claims runner knows the exam by.
SUBJECT = "final_exam"
#: The data file of the questions' words, in this package.
DATA_FILE = "final_exam.toml"


@dataclass(frozen=True)
class Option:
    """One choice of a single- or multiple-choice question (``key`` is what the form submits;
    ``name`` is how the data file and the answers refer to it)."""

    key: str
    label: str
    name: str = ""


def join_labels(labels: Sequence[str]) -> str:
    """Option labels as one line (mirrored in exam.js): sentences follow each other, short labels take "; "."""
    if labels and all(label.endswith((".", "?", "!")) for label in labels):
        return " ".join(labels)
    return "; ".join(labels)


@dataclass(frozen=True)
class Question:
    """One exam question and its answer.

    ``kind`` is ``"single"`` (answer: one option key), ``"multiple"`` (answer: the exact
    set of option keys) or ``"numeric"`` (answer: a number; a typed number counts when it
    is within ``tol`` of it).
    """

    qid: str
    kind: str
    prompt: str
    answer: str | tuple[str, ...] | float
    explanation: str
    learn: str  # "page.md#anchor" of the section that teaches it
    learn_text: str
    options: tuple[Option, ...] = ()
    tol: float = 0.0
    hint: str = (
        ""  # for numeric questions: the form and tolerance the answer is typed in
    )
    display: str = field(default="")  # the answer as the review shows it

    def answer_text(self) -> str:
        """The correct answer in words, for the review."""
        if isinstance(self.answer, float):  # a numeric question
            return self.display
        labels = {o.key: o.label for o in self.options}
        keys = (self.answer,) if isinstance(self.answer, str) else self.answer
        return join_labels([labels[k] for k in keys])


# --------------------------------------------------------------------------- the data file


@dataclass(frozen=True)
class ListText:
    """How a list value reads: each row formatted with ``item``, joined with ``sep``."""

    item: str
    sep: str


@dataclass(frozen=True)
class QuestionText:
    """The words of one question, as the data file writes them (templates with ``{name}`` fields)."""

    qid: str
    kind: str
    prompt: str
    explanation: str
    learn: str
    learn_text: str
    options: tuple[tuple[str, str], ...] = ()  # (name, label) of each fixed option
    option_each: str = ""  # the label of each option the computation lists
    tol: float = 0.0
    hint: str = ""
    display: str = ""
    lists: Mapping[str, ListText] = field(default_factory=dict)


def texts() -> tuple[QuestionText, ...]:
    """The questions of the data file, in the order the page asks them (read afresh at every call)."""
    with files(__package__).joinpath(DATA_FILE).open("rb") as fh:
        data = tomllib.load(fh)
    out = []
    for q in data["question"]:
        q = dict(q)
        options = tuple((o["name"], o["label"]) for o in q.pop("options", ()))
        lists = {name: ListText(**spec) for name, spec in q.pop("lists", {}).items()}
        out.append(QuestionText(qid=q.pop("id"), options=options, lists=lists, **q))
    return tuple(out)


def _fill(
    template: str, values: Mapping[str, object], lists: Mapping[str, ListText]
) -> str:
    """``template`` with its fields filled from ``values``; a list value reads as its ``lists`` entry says."""
    filled = {
        name: _join(lists[name], v, lists) if isinstance(v, list) else v
        for name, v in values.items()
    }
    return template.format(**filled)


def _join(spec: ListText, rows: list[object], lists: Mapping[str, ListText]) -> str:
    """Each row formatted with ``spec.item`` (a plain number is ``{x}``), joined with ``spec.sep``."""
    return spec.sep.join(
        _fill(spec.item, r if isinstance(r, Mapping) else {"x": r}, lists) for r in rows
    )


def _question(text: QuestionText, worked: Worked) -> Question:
    """One question: the data file's words filled with the worked values, option names turned into keys."""
    values = {**worked.values, "answer": worked.answer, "tol": text.tol}
    if text.option_each:
        named = [
            (str(row["name"]), _fill(text.option_each, row, text.lists))
            for row in worked.options
        ]
    else:
        named = [
            (name, _fill(label, values, text.lists)) for name, label in text.options
        ]
    options = tuple(
        Option("abcdefgh"[i], label, name) for i, (name, label) in enumerate(named)
    )
    # an answer naming no option gets "", which no claim lets through
    key = {o.name: o.key for o in options}
    answer: str | tuple[str, ...] | float
    if isinstance(worked.answer, float):
        answer = worked.answer
    elif isinstance(worked.answer, tuple):
        answer = tuple(key.get(name, "") for name in worked.answer)
    else:
        answer = key.get(worked.answer or "", "")
    return Question(
        text.qid,
        text.kind,
        _fill(text.prompt, values, text.lists),
        answer,
        _fill(text.explanation, values, text.lists),
        text.learn,
        text.learn_text,
        options,
        text.tol,
        _fill(text.hint, values, text.lists),
        _fill(text.display, values, text.lists),
    )


# --------------------------------------------------------------------------- the exam, and its claims


@dataclass(frozen=True)
class Exam:
    """The questions, and what the claims check they rest on.

    Attributes:
        questions: in the order of the data file.
        unmatched: ids with words but no computation, or a computation but no words.
        dots: the dot question's dot products, in its options' order.
        softmax: Module 0's softmax demo (the max-trick question's premise).
        simple: Module 1's attention on the workshop's sentence (the self question's premise).
        bank: ``(d_model,)``, "bank" before attention in "the savings bank" (the two-senses premise).
        sqrt_dk: Module 2's measurement (the saturate question's outcomes).
        bucketed: the value each bucketed question sorts into its options, by question id.
        ratios: the quadratic question's FLOP ratio at twice the tokens, by step id.
        order: Module 3's order test (the order question's outcomes).
        mask_off: for each word of "the cat sat", whether its row changes without the mask.
    """

    questions: tuple[Question, ...]
    unmatched: tuple[str, ...]
    dots: tuple[float, ...]
    softmax: module_0.SoftmaxDemo
    simple: module_1.SimpleRun
    bank: np.ndarray
    sqrt_dk: module_2.SqrtDk
    bucketed: Mapping[str, float]
    ratios: Mapping[str, float]
    order: module_3.Order
    mask_off: tuple[bool, ...]


def exam(run: Run) -> Exam:
    """The exam of this run (the build passes its results for the workshop's sentence)."""
    words = texts()
    questions = tuple(_question(t, WORK[t.qid](run)) for t in words if t.qid in WORK)
    ids = [t.qid for t in words]
    unmatched = tuple(sorted(set(ids) ^ set(WORK)))
    simple = run[module_1.SIMPLE]
    return Exam(
        questions,
        unmatched,
        dots(),
        run[module_0.SOFTMAX],
        simple.first,
        simple.contrast.X[-1],
        run[module_2.SQRT_DK],
        {"torch": torch_diff(run), "share": run[module_3.PRICE].share},
        ratios(),
        run[module_3.ORDER],
        mask_off_changes(),
    )


#: The buckets of each bucketed question, by question id.
BUCKETS = {"torch": TORCH_BUCKETS, "share": SHARE_BUCKETS}


def _answers_are_options(e: Exam) -> bool:
    for q in e.questions:
        keys = {o.key for o in q.options}
        if q.kind == "single" and q.answer not in keys:
            return False
        if q.kind == "multiple" and not (
            isinstance(q.answer, tuple) and set(q.answer) <= keys
        ):
            return False
    return True


def _one_winner(d: Sequence[float]) -> bool:
    top = sorted(d)
    return top[-1] != top[-2]


def _max_trick_premise(e: Exam) -> bool:
    s = e.softmax  # the same weights on [2, 1, 0]; NaN from the naive formula near 1000, finite from the stable one
    return (
        s.naive_vs_stable_small <= 1e-15
        and bool(np.isnan(s.naive_big).any())
        and bool(np.isfinite(s.w_big).all())
    )


def _self_has_option(e: Exam) -> bool:
    return self_pattern(e.simple.weights) is not None


def _own_score_largest(e: Exam) -> bool:
    X = e.simple.X  # (T, d_model)
    s = X @ X.T  # (T, d_model) x (d_model, T) -> (T, T)
    others = ~np.eye(len(s), dtype=bool)  # (T, T)
    return bool((np.diag(s) > np.where(others, s, -np.inf).max(axis=1)).all())


def _bank_balanced(e: Exam) -> bool:
    return bool(e.bank[AXES.index("water")] == e.bank[AXES.index("money")])


def _saturate_has_option(e: Exam) -> bool:
    return saturate_pattern(e.sqrt_dk) is not None


def _buckets_found(e: Exam) -> bool:
    return all(bucket(v, BUCKETS[qid]) is not None for qid, v in e.bucketed.items())


def _mask_off_some_rows(e: Exam) -> bool:
    """Some rows change without the mask, and not all: the last word's row stays."""
    return any(e.mask_off) and not e.mask_off[-1]


def _ratios_2_or_4(e: Exam) -> bool:
    return sorted(set(e.ratios.values())) == [2, 4]


#: What the exam's questions rest on; each is checked at every build of the workshop's sentence.
CLAIMS: tuple[Claim[Exam], ...] = tuple(
    Claim(f"final_exam.{key}", text, test, default_only=True)
    for key, text, test in (
        (
            "words_match_work",
            "every question in final_exam.toml is worked out, and has words",
            lambda e: not e.unmatched,
        ),
        (
            "ids_unique",
            "question ids are unique",
            lambda e: len({q.qid for q in e.questions}) == len(e.questions),
        ),
        (
            "answers_are_options",
            "every choice question's answer is among its options",
            _answers_are_options,
        ),
        (
            "dot_one_winner",
            "one pair has the largest dot product, with no tie",
            lambda e: _one_winner(e.dots),
        ),
        (
            "max_trick_premise",
            "the max trick changes nothing but the naive formula's overflow",
            _max_trick_premise,
        ),
        (
            "self_has_option",
            "the self question offers the pattern of Module 1's largest weights",
            _self_has_option,
        ),
        (
            "self_own_score_largest",
            "with nothing learned, each word's own score is its largest",
            _own_score_largest,
        ),
        (
            "two_senses_premise",
            '"bank" starts with as much water as money',
            _bank_balanced,
        ),
        (
            "saturate_has_option",
            "the sqrt(d_k) question offers what the unscaled softmax does",
            _saturate_has_option,
        ),
        (
            "buckets_found",
            "the PyTorch difference and attention's share each fall in an option",
            _buckets_found,
        ),
        (
            "order_has_option",
            "the order question offers what reversing the sentence does to the output rows",
            lambda e: order_pattern(e.order) is not None,
        ),
        (
            "mask_off_some_rows",
            "without the mask some rows of 'the cat sat' change, and the last word's row does not",
            _mask_off_some_rows,
        ),
        (
            "quadratic_ratios",
            "at twice the tokens, each counted step does 2 or 4 times the FLOPs",
            _ratios_2_or_4,
        ),
    )
)
