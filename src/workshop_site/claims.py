"""Every claim the site makes: the sections' (:mod:`.claim_runner`) and the pages' own.

The pages' own claims test a result computed from the run of the workshop's own sentence
(:data:`PAGES`): Inside the model's facts, the final exam's questions, Real heads'
measurements of a trained model. The site build checks them all (:func:`verify`); the
experiment's command line checks the sections' claims alone. The site build also checks that
each claim's sentence is on its page and says no more than the claim checks
(:func:`sentence_problems`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from attention_workshop.chapters import (
    Claim,
    causal_heads,
    final_exam,
    inside_the_model,
    real_heads,
)
from attention_workshop.experiment import (
    causal_page,
    claim_runner,
    real_heads_page,
    sources,
)
from attention_workshop.experiment.claim_runner import SECTION_CLAIMS, ClaimError, Page
from attention_workshop.experiment.results import Results

from . import claim_sentences

__all__ = [
    "ClaimError",
    "PAGES",
    "SUBJECTS",
    "CLAIMS",
    "check",
    "verify",
    "sentence_problems",
]


def _inside_facts(_: Results) -> inside_the_model.InsideFacts:
    return inside_the_model.facts()


def _real_heads(_: Results) -> real_heads.RealHeads:
    return real_heads_page.facts()


def _causal_heads(_: Results) -> causal_heads.CausalHeads:
    return causal_page.facts()


#: Pages whose claims test the page's own result: (subject key, how to compute it from a run, the claims).
PAGES: tuple[Page, ...] = (
    ("inside_the_model", _inside_facts, inside_the_model.CLAIMS),
    (final_exam.SUBJECT, final_exam.exam, final_exam.CLAIMS),
    (real_heads.SUBJECT, _real_heads, real_heads.CLAIMS),
    (causal_heads.SUBJECT, _causal_heads, causal_heads.CLAIMS),
)

#: How to compute each page's subject from a run, by subject key (a test may swap one).
SUBJECTS: dict[str, Callable[[Results], Any]] = {key: make for key, make, _ in PAGES}

#: Every claim, with the key of its subject: a section of the run, or a page of :data:`PAGES`.
CLAIMS: tuple[tuple[str, Claim[Any]], ...] = (
    *SECTION_CLAIMS,
    *((key, c) for key, _, claims in PAGES for c in claims),
)


def _pages() -> tuple[Page, ...]:
    return tuple((key, SUBJECTS[key], claims) for key, _, claims in PAGES)


def check(results: Results) -> list[tuple[Claim[Any], bool]]:
    """Evaluate every claim of the site that applies to this run."""
    return claim_runner.check(results, _pages())


def verify(results: Results) -> int:
    """Raise :class:`ClaimError` naming each false claim of the site; return how many held."""
    return claim_runner.verify(results, _pages())


def sentence_problems(read: Callable[[str], str]) -> list[tuple[str, str]]:
    """Each claim whose sentence is gone from its page or says more than the claim checks
    (:func:`.claim_sentences.problems`): ``(page, message)`` pairs. ``read`` gives a page's
    Markdown by its ``docs/``-relative path; a claim is looked for on the pages that state its
    subject (:func:`.sources.stated_on`), its chapter's page first."""
    texts = sources.quoting_texts()  # read once for every subject
    pages = {key: sources.stated_on(key, texts=texts) for key in dict(CLAIMS)}
    subject = {c.key: key for key, c in CLAIMS}
    return claim_sentences.problems(
        (c for _, c in CLAIMS), lambda c: pages[subject[c.key]], read
    )
