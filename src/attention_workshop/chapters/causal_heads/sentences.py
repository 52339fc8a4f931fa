"""The sentences the "A causal model" page runs through SmolLM2-135M-Instruct.

Data, like the exam's questions. Three of the Real heads page's sentences, so a reader can
set the causal model's heads beside the encoder's: the repeated phrase (for induction heads)
and two ordinary sentences.
"""

from __future__ import annotations

from ..real_heads.sentences import SENTENCES as REAL_HEADS_SENTENCES
from ..real_heads.sentences import Sentence

__all__ = ["Sentence", "SENTENCES", "REPEAT", "PHRASE", "GQA"]

#: The keys of the Real heads sentences this page uses, in page order.
_KEYS = ("repeat", "river", "tired")

SENTENCES: tuple[Sentence, ...] = tuple(
    s for k in _KEYS for s in REAL_HEADS_SENTENCES if s.key == k
)
#: The sentence with a phrase said twice.
REPEAT = "repeat"
#: The word whose second copy the page follows, and the word after its first copy.
PHRASE = ("cat", "sat")
#: SmolLM2-135M's query heads, key/value heads and head size, as the exam states them (a claim
#: checks them against the model file's own sizes).
GQA = (9, 3, 64)
