"""The claims runner: the claims a run's results.log sections make, checked against the run.

A claim is a sentence a page states ("every row sums to 1") and a test over a typed subject
(:class:`attention_workshop.chapters.Claim`). :func:`verify` checks every section's claims,
and the claims of any ``pages`` it is given (each a subject key, how to compute the subject
from a run of the workshop's own sentence, and its claims); it raises :class:`ClaimError`
naming every claim that has stopped being true, with the value measured and the pages that
state it. The experiment's command line checks the sections' claims; the site build also
checks the pages' own (:mod:`.claims`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..chapters import Claim
from ..chapters.sections import SECTIONS
from ..toy import SENT_RIVER
from .claim_report import describe
from .results import Results

__all__ = ["ClaimError", "Page", "SECTION_CLAIMS", "check", "verify"]

#: A page's own claims: (subject key, how to compute the subject from a run, the claims).
Page = tuple[str, Callable[[Results], Any], tuple[Claim[Any], ...]]

#: Every section's claims, with the section's key.
SECTION_CLAIMS: tuple[tuple[str, Claim[Any]], ...] = tuple(
    (s.key, c) for s in SECTIONS for c in s.claims
)


class ClaimError(AssertionError):
    """A sentence on the site is no longer true of the numbers this build produced."""


def _all(pages: Sequence[Page]) -> list[tuple[str, Claim[Any]]]:
    return [*SECTION_CLAIMS, *((key, c) for key, _, claims in pages for c in claims)]


def _subjects(results: Results, pages: Sequence[Page]) -> dict[str, Any]:
    """What each claim is about, by subject key: the run's sections, and the pages' own subjects
    when the run is the workshop's sentence."""
    default = tuple(results.sentence) == tuple(SENT_RIVER)
    own = {key: make(results) for key, make, _ in pages} if default else {}
    return {**results.data, **own}


def check(
    results: Results, pages: Sequence[Page] = ()
) -> list[tuple[Claim[Any], bool]]:
    """Evaluate every claim that applies to this run (the workshop's sentence gets all of them)."""
    default = tuple(results.sentence) == tuple(SENT_RIVER)
    keys = {key for key, _, _ in pages}
    subjects = _subjects(results, pages)
    return [
        (c, bool(c.test(subjects[key])))
        for key, c in _all(pages)
        if default or not (c.default_only or key in keys)
    ]


def verify(results: Results, pages: Sequence[Page] = ()) -> int:
    """Raise :class:`ClaimError` naming each false claim, with the value measured and the pages that
    state it (:func:`.claim_report.describe`); return how many claims held."""
    outcome = check(results, pages)
    false = {c.key for c, ok in outcome if not ok}
    if false:
        subjects = _subjects(results, pages)
        lines = "\n".join(
            describe(key, c, subjects[key]) for key, c in _all(pages) if c.key in false
        )
        raise ClaimError(
            f"{len(false)} claim(s) the pages make are no longer true of this build's numbers:\n{lines}"
        )
    return len(outcome)
