"""The chapters: one module per page of the site, each owning its results.log sections,
their typed results, and the claims its prose makes.

Chapters compute with the maths layer (:mod:`attention_workshop.core`, ``toy``, ``gpt2``,
``handcalc``) and never import the build; the build runs their sections in the order of
:data:`.sections.SECTIONS` (the teaching order) and checks their claims.

This package's own module imports no chapter: importing one chapter (the causal page's, say)
runs only that chapter's code, so a result cached on what it imports is not computed again
after an edit to another chapter (:mod:`attention_workshop.experiment.cache`).
"""

from __future__ import annotations

from ._section import Claim, Context, Fmt, Quantifier, References, Section

__all__ = ["Claim", "Context", "Fmt", "Quantifier", "References", "Section"]
