"""The claims runner: every claim the chapters make, checked against a run's results.

A claim is a sentence a page states ("every row sums to 1") and a test over a typed subject
(:class:`attention_workshop.chapters.Claim`): a section's result in the run, or the result of a
page that has no results.log section of its own (:data:`PAGES`: Inside the model's facts, the
final exam's questions), computed from the run of the workshop's own sentence. :func:`verify`
raises :class:`ClaimError` naming every claim that has stopped being true, and the site build
fails with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..chapters import SECTIONS, Claim, final_exam, inside_the_model
from ..toy import SENT_RIVER
from .claim_report import describe
from .results import Results

__all__ = ["ClaimError", "PAGES", "SUBJECTS", "CLAIMS", "check", "verify"]


class ClaimError(AssertionError):
    """A sentence on the site is no longer true of the numbers this build produced."""


def _inside_facts(_: Results) -> inside_the_model.InsideFacts:
    return inside_the_model.facts()


#: Pages whose claims test the page's own result: (subject key, how to compute it from a run, the claims).
#: They are checked when the run is the workshop's own sentence, as the site build's is.
PAGES: tuple[tuple[str, Callable[[Results], Any], tuple[Claim[Any], ...]], ...] = (
    ("inside_the_model", _inside_facts, inside_the_model.CLAIMS),
    (final_exam.SUBJECT, final_exam.exam, final_exam.CLAIMS),
)

#: How to compute each page's subject from a run, by subject key.
SUBJECTS: dict[str, Callable[[Results], Any]] = {key: make for key, make, _ in PAGES}

#: Every claim, with the key of its subject: a section of the run, or a page of :data:`PAGES`.
CLAIMS: tuple[tuple[str, Claim[Any]], ...] = (
    *((s.key, c) for s in SECTIONS for c in s.claims),
    *((key, c) for key, _, claims in PAGES for c in claims),
)


def _subjects(results: Results) -> dict[str, Any]:
    """What each claim is about, by subject key: the run's sections, and the pages' own subjects
    when the run is the workshop's sentence."""
    default = tuple(results.sentence) == tuple(SENT_RIVER)
    return {
        **results.data,
        **({key: make(results) for key, make in SUBJECTS.items()} if default else {}),
    }


def check(results: Results) -> list[tuple[Claim[Any], bool]]:
    """Evaluate every claim that applies to this run (the workshop's sentence gets all of them)."""
    default = tuple(results.sentence) == tuple(SENT_RIVER)
    subjects = _subjects(results)
    return [
        (c, bool(c.test(subjects[key])))
        for key, c in CLAIMS
        if default or not (c.default_only or key in SUBJECTS)
    ]


def verify(results: Results) -> int:
    """Raise :class:`ClaimError` naming each false claim, with the value measured and the pages that
    state it (:func:`.claim_report.describe`); return how many claims held."""
    outcome = check(results)
    false = {c.key for c, ok in outcome if not ok}
    if false:
        subjects = _subjects(results)
        lines = "\n".join(
            describe(key, c, subjects[key]) for key, c in CLAIMS if c.key in false
        )
        raise ClaimError(
            f"{len(false)} claim(s) the pages make are no longer true of this build's numbers:\n{lines}"
        )
    return len(outcome)
