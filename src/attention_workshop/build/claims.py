"""The claims runner: every claim the chapters make, checked against a run's results.

A claim is a sentence a page states ("every row sums to 1") and a test over its subject: a
section's typed result, or a chapter's own result computed from the run (:data:`SUBJECTS`,
such as the final exam) (:class:`attention_workshop.chapters.Claim`). :func:`verify` raises
:class:`ClaimError` naming every claim that has stopped being true, and the site build
fails with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..chapters import SECTIONS, Claim, final_exam
from ..toy import SENT_RIVER
from .results import Results

__all__ = ["ClaimError", "SUBJECTS", "CLAIMS", "check", "verify"]


class ClaimError(AssertionError):
    """A sentence on the site is no longer true of the numbers this build produced."""


#: Subjects that are not a section's result, and how the build computes each from a run of the
#: workshop's sentence (their claims are all ``default_only``).
SUBJECTS: dict[str, Callable[[Results], Any]] = {final_exam.SUBJECT: final_exam.exam}

#: Every claim, with the key of its subject: a section's key, or a key of :data:`SUBJECTS`.
CLAIMS: tuple[tuple[str, Claim[Any]], ...] = (
    *((s.key, c) for s in SECTIONS for c in s.claims),
    *((final_exam.SUBJECT, c) for c in final_exam.CLAIMS),
)


def check(results: Results) -> list[tuple[Claim[Any], bool]]:
    """Evaluate every claim that applies to this run (the workshop's sentence gets all of them)."""
    default = tuple(results.sentence) == tuple(SENT_RIVER)
    subjects = {**results.data, **({key: make(results) for key, make in SUBJECTS.items()} if default else {})}
    return [(c, bool(c.test(subjects[key]))) for key, c in CLAIMS if default or not c.default_only]


def verify(results: Results) -> int:
    """Raise :class:`ClaimError` naming each false claim; return how many claims held."""
    outcome = check(results)
    false = [c for c, ok in outcome if not ok]
    if false:
        lines = "\n".join(f"  - {c.key}: {c.text}" for c in false)
        raise ClaimError(f"{len(false)} claim(s) the pages make are no longer true of this build's numbers:\n{lines}")
    return len(outcome)
