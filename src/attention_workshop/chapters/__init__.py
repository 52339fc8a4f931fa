"""The chapters: one module per page of the site, each owning its results.log sections,
their typed results, and the claims its prose makes.

Chapters compute with the maths layer (:mod:`attention_workshop.core`, ``toy``, ``gpt2``,
``handcalc``) and never import the build; the build runs their sections in the order of
:data:`SECTIONS` (the teaching order) and checks their claims.
"""

from __future__ import annotations

from typing import Any

from . import module_0, module_1, module_2, module_3, step_by_step
from ._section import Claim, Context, Fmt, Quantifier, References, Section

__all__ = ["SECTIONS", "Claim", "Context", "Fmt", "Quantifier", "References", "Section"]

#: Every section of results.log, in teaching order; each is labelled ``[key]`` in the log.
SECTIONS: tuple[Section[Any], ...] = (
    *module_0.SECTIONS,
    *module_1.SECTIONS,
    *module_2.SECTIONS,
    *module_3.SECTIONS,
    *step_by_step.SECTIONS,
)
