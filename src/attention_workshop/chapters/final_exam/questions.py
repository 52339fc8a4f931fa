"""The final exam's questions: their words, read from one data file, filled with worked values.

The words of every question live in ``questions.toml`` (in this package): prompt, options,
explanation, hint, as templates. :func:`question` fills one with a :class:`.worked.Worked`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files

from .worked import Worked

__all__ = [
    "DATA_FILE",
    "SUBJECT",
    "Option",
    "Question",
    "QuestionText",
    "join_labels",
    "texts",
    "question",
]

#: The key the claims runner knows the exam by.
SUBJECT = "final_exam"
#: The data file of the questions' words, in this package.
DATA_FILE = "questions.toml"


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


def question(text: QuestionText, worked: Worked) -> Question:
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
