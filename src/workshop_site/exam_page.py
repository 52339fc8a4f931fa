"""The final exam's page: the form (questions only), the answers as JSON, and the rules line's values.

The questions come from :mod:`attention_workshop.chapters.final_exam`, worked out from this
build's run (:func:`.pages.results`, whose claims, the exam's included, are verified). The
page shows the questions only (:func:`form_html`); the answers travel in
``generated/exam.json`` (:func:`site_files`), which the page's script fetches when the reader
asks for a grade.
"""

from __future__ import annotations

import hashlib
import html
import json
import re

from attention_workshop.chapters.final_exam import Question, exam
from attention_workshop.chapters.final_exam.grading import PASS_MARK, SLACK, pass_count

from .pages import GENERATED, results

__all__ = [
    "DATA_PATH",
    "exam_data",
    "form_html",
    "questions",
    "site_files",
    "typeset",
    "values",
    "version",
]

#: Where the answers are written inside the site.
DATA_PATH = f"{GENERATED}/exam.json"


#: In an exam's text, the notation the pages set as mathematics: a letter or a number with a
#: subscript (d_k, W_Q, d_model) or a power (2^−52, e^x); and the names from code, which the
#: pages set as code (head_dim, scaled_dot_product_attention).
_NOTATION = re.compile(
    r"(?<![\w])(?:(?P<code>[a-z]{2,}(?:_[a-z]+)+)"
    r"|(?P<base>[A-Za-z]|\d+)(?P<mark>[_^])(?P<script>−?[A-Za-z0-9]+))(?![\w])"
)
#: The elements :func:`typeset` writes, and the only ones the page's script copies from exam.json.
TYPESET_TAGS = ("var", "sub", "sup", "code")


def _letter(text: str) -> str:
    """A one-letter name in italics, as the pages' MathML sets it; anything else upright."""
    return f"<var>{text}</var>" if len(text) == 1 and text.isalpha() else text


def _set(m: re.Match[str]) -> str:
    if m["code"]:
        return f"<code>{m['code']}</code>"
    if m["mark"] == "_" and m["base"].isdigit():  # 2_000 is a number, not a subscript
        return m[0]
    tag = "sub" if m["mark"] == "_" else "sup"
    return f"{_letter(m['base'])}<{tag}>{_letter(m['script'])}</{tag}>"


def typeset(text: str) -> str:
    """HTML of one of the exam's texts: escaped, with its notation set as the pages set it
    (``√d_k`` shows d with a subscript k, ``2^−52`` a power, ``head_dim`` code), never the
    plain-text spelling with its underscore or caret."""
    return _NOTATION.sub(_set, html.escape(text))


def questions() -> tuple[Question, ...]:
    """The exam's questions, in order, with answers computed from this build's run."""
    return exam(results()).questions


def exam_data() -> dict[str, object]:
    """The answers, explanations and pass mark, as the page's script reads them from ``exam.json``."""
    return {
        "pass_mark": PASS_MARK,
        "slack": SLACK,
        "questions": [
            {
                "id": q.qid,
                "kind": q.kind,
                "answer": list(q.answer) if isinstance(q.answer, tuple) else q.answer,
                "tol": q.tol,
                # HTML (:func:`typeset`): the review shows them as the questions are shown
                "answer_html": typeset(q.answer_text()),
                "explanation_html": typeset(q.explanation),
            }
            for q in questions()
        ],
    }


def _data_text() -> str:
    return json.dumps(exam_data(), indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def version() -> str:
    """A short hash of the answers: saved progress from a different exam is not restored."""
    return hashlib.sha256(_data_text().encode()).hexdigest()[:12]


def values() -> dict[str, str]:
    """What the page's rules line quotes as ``{{ exam.name }}``: ``count`` (questions), ``pass_mark``
    (percent) and ``pass_count`` (the fewest correct answers that pass)."""
    n = len(questions())
    return {
        "count": str(n),
        "pass_mark": str(PASS_MARK),
        "pass_count": str(pass_count(n)),
    }


def _fieldset(i: int, q: Question) -> str:
    e = typeset
    name = f"q-{q.qid}"
    out = [
        f'<fieldset class="exam-q" id="{name}" data-qid="{q.qid}" data-kind="{q.kind}">',
        f'<legend><span class="exam-num">Question {i}.</span> {e(q.prompt)}</legend>',
    ]
    if q.kind == "numeric":
        out.append(
            f'<label class="exam-numeric" for="{name}-input">Your answer'
            f'<input type="text" inputmode="decimal" autocomplete="off" spellcheck="false" '
            f'id="{name}-input" name="{name}" aria-describedby="{name}-hint"></label>'
        )
        out.append(f'<p class="exam-hint" id="{name}-hint">{e(q.hint)}</p>')
    else:
        typ = "radio" if q.kind == "single" else "checkbox"
        if q.kind == "multiple":
            out.append('<p class="exam-hint">More than one may be true.</p>')
        for o in q.options:
            oid = f"{name}-{o.key}"
            out.append(
                f'<label class="exam-option" for="{oid}"><input type="{typ}" id="{oid}" '
                f'name="{name}" value="{o.key}"><span>{e(o.label)}</span></label>'
            )
    out.append(f'<a class="exam-learn" href="{q.learn}" hidden>{e(q.learn_text)}</a>')
    out.append("</fieldset>")
    return "\n".join(out)


def form_html() -> str:
    """The exam as static HTML: a form of fieldsets with native inputs; no answers in it."""
    qs = questions()
    parts = [
        (
            f'<form class="exam" id="exam-form" data-version="{version()}" data-count="{len(qs)}" '
            f'data-pass-mark="{PASS_MARK}" novalidate>'
        ),
        f'<a class="exam-data" href="{DATA_PATH}" hidden>answers</a>',
        # at the top, where a reader without JavaScript meets it before the questions
        (
            "<noscript><p>Grading runs in your browser and needs JavaScript; the questions below "
            "can still be read.</p></noscript>"
        ),
        *(_fieldset(i, q) for i, q in enumerate(qs, 1)),
        # Hidden until exam.js runs: without JavaScript a Grade button would do nothing.
        '<div class="exam-actions" hidden>',
        # A plain button, not a submit button: Enter in an answer box must not grade the exam.
        '<button type="button" class="md-button md-button--primary exam-grade">Grade my answers</button>',
        '<button type="button" class="md-button exam-clear">Clear my answers</button>',
        "</div>",
        '<p class="exam-status" role="status" aria-live="polite"></p>',
        '<section class="exam-result" aria-labelledby="exam-result-title" hidden>',
        '<h2 id="exam-result-title" tabindex="-1">Your result</h2>',
        '<p class="exam-score"></p>',
        '<button type="button" class="md-button exam-retake">Retake the exam</button>',
        '<h3 id="exam-review-title">Review, question by question</h3>',
        '<ol class="exam-review" aria-labelledby="exam-review-title"></ol>',
        "</section>",
        "</form>",
    ]
    return "\n".join(parts) + "\n"


def site_files() -> dict[str, str]:
    """Files this page needs in the site, ``{path inside the site: text}``: the answers as JSON."""
    return {DATA_PATH: _data_text()}
