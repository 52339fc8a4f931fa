"""Real heads: what the 72 heads of a trained model, all-MiniLM-L6-v2, do with real sentences.

The page runs :data:`SENTENCES` through :mod:`attention_workshop.trained` (the package's own
NumPy forward pass), classifies every head by measurement (:mod:`.measures`), and looks
closer at three things: bank's vectors across the bank sentences, where "it" looks in the
coreference pair, and a repeated phrase. :func:`facts` gathers it all as typed results and
:data:`CLAIMS` tests what the page says about them. The page's text, figures and JSON are
written by :mod:`attention_workshop.experiment.real_heads_page`.
"""

from __future__ import annotations

from .claims import CLAIMS, HALF_BOUND, MARGIN, half_gaps
from .facts import (
    Bank,
    Copies,
    Head,
    Heads,
    ItLooks,
    RealHeads,
    best_head,
    facts,
    measure,
    measure_all,
)
from .measures import (
    BROAD,
    CLASSES,
    LABELS,
    MEASURES,
    NUMBERS,
    PLACES,
    SHARE,
    classify,
    copy_share,
    cosine,
    head_scores,
)
from .sentences import (
    BANK,
    IT_ENDINGS,
    IT_WORD,
    LONG,
    NOUNS,
    REPEAT,
    SENTENCES,
    UNRELATED,
    Sentence,
)

__all__ = [
    "SUBJECT",
    "CLAIMS",
    "MARGIN",
    "HALF_BOUND",
    "half_gaps",
    "Bank",
    "Copies",
    "Head",
    "Heads",
    "ItLooks",
    "RealHeads",
    "best_head",
    "facts",
    "measure",
    "measure_all",
    "BROAD",
    "CLASSES",
    "LABELS",
    "MEASURES",
    "NUMBERS",
    "PLACES",
    "SHARE",
    "classify",
    "copy_share",
    "cosine",
    "head_scores",
    "BANK",
    "IT_ENDINGS",
    "IT_WORD",
    "LONG",
    "NOUNS",
    "REPEAT",
    "SENTENCES",
    "UNRELATED",
    "Sentence",
]

#: The key of the page's subject in the build's claims runner.
SUBJECT = "real_heads"
