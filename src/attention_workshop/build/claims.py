"""The claims runner: every claim the chapters make, checked against a run's results.

A claim is a sentence a page states ("every row sums to 1") and a test over a typed
subject (:class:`attention_workshop.chapters.Claim`): a section's result in the run, or the
facts of a page that has no results.log section (:data:`PAGES`; those are checked when the
run is the workshop's own sentence, as the site build's is). :func:`verify` raises
:class:`ClaimError` naming every claim that has stopped being true, and the site build
fails with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..chapters import SECTIONS, Claim, inside_the_model
from ..toy import SENT_RIVER
from .results import Results

__all__ = ["ClaimError", "PAGES", "SUBJECTS", "CLAIMS", "check", "verify"]


class ClaimError(AssertionError):
    """A sentence on the site is no longer true of the numbers this build produced."""


#: Pages whose claims test the page's own facts: (subject key, how to compute the facts, the claims).
PAGES: tuple[tuple[str, Callable[[], Any], tuple[Claim[Any], ...]], ...] = (
    ("inside_the_model", inside_the_model.facts, inside_the_model.CLAIMS),
)

#: How to compute each page's subject, by subject key.
SUBJECTS: dict[str, Callable[[], Any]] = {key: facts for key, facts, _ in PAGES}

#: Every claim, with the key of its subject: a section of the run, or a page of :data:`PAGES`.
CLAIMS: tuple[tuple[str, Claim[Any]], ...] = (
    *((s.key, c) for s in SECTIONS for c in s.claims),
    *((key, c) for key, _, claims in PAGES for c in claims),
)


def check(results: Results) -> list[tuple[Claim[Any], bool]]:
    """Evaluate every claim that applies to this run (the workshop's sentence gets all of them)."""
    default = tuple(results.sentence) == tuple(SENT_RIVER)
    pages = {key: compute() for key, compute in SUBJECTS.items()} if default else {}
    return [
        (c, bool(c.test(pages[key] if key in SUBJECTS else results.data[key])))
        for key, c in CLAIMS
        if default or not (c.default_only or key in SUBJECTS)
    ]


def verify(results: Results) -> int:
    """Raise :class:`ClaimError` naming each false claim; return how many claims held."""
    outcome = check(results)
    false = [c for c, ok in outcome if not ok]
    if false:
        lines = "\n".join(f"  - {c.key}: {c.text}" for c in false)
        raise ClaimError(f"{len(false)} claim(s) the pages make are no longer true of this build's numbers:\n{lines}")
    return len(outcome)
