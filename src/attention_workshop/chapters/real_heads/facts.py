"""What the "Real heads" page measures in all-MiniLM-L6-v2, as typed results.

:func:`facts` runs every sentence of :data:`.sentences.SENTENCES` through the model (float64,
so that every printed digit is the same on any machine) and measures it: each head's class
(:mod:`.measures`), bank's vectors across the bank sentences, where "it" looks in the
coreference pair, and how a repeated word looks at its copies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...trained import Forward, MiniLM, load_minilm
from .measures import CLASSES, classify, copy_share, cosine, head_scores
from .sentences import (
    BANK,
    IT_ENDINGS,
    IT_WORD,
    NOUNS,
    REPEAT,
    SENTENCES,
    UNRELATED,
    Sentence,
)

__all__ = [
    "Head",
    "Heads",
    "Bank",
    "ItLooks",
    "Copies",
    "RealHeads",
    "measure",
    "measure_all",
    "facts",
    "best_head",
]

#: A head: ``(layer, head)``, both counted from 0 (the page counts from 1).
Head = tuple[int, int]


@dataclass(frozen=True, eq=False)
class Heads:
    """One sentence through the model, every head measured.

    Attributes:
        sentence: the sentence.
        tokens: its ``T`` WordPiece tokens, ``[CLS]`` and ``[SEP]`` included.
        attentions: ``(L, H, T, T)`` float64, each row summing to 1.
        hidden: ``(L + 1, T, C)``: the vectors going into layer 1, then after each layer.
        scores: ``(L, H, 6)``, the measures of :data:`.measures.MEASURES`.
        classes: ``classes[l][h]``, a key of :data:`.measures.CLASSES`.
        score: ``(L, H)``, the score that put each head in its class.
    """

    sentence: Sentence
    tokens: tuple[str, ...]
    attentions: np.ndarray
    hidden: np.ndarray
    scores: np.ndarray
    classes: tuple[tuple[str, ...], ...]
    score: np.ndarray

    def count(self, cls: str) -> int:
        """How many heads are in class ``cls``."""
        return sum(row.count(cls) for row in self.classes)

    def shares(self, head: Head, place: str) -> np.ndarray:
        """What each token gives the token just before it (``place="previous"``) or just after
        it (``"next"``) in ``head``: ``(T - 1,)``, one share per token that has such a
        neighbour. Their mean is the head's previous (next) score."""
        att = self.attentions[head]  # (T, T)
        i = np.arange(1, att.shape[-1])
        if place == "previous":
            return att[i, i - 1]
        if place == "next":
            return att[i - 1, i]
        raise ValueError(f"place must be 'previous' or 'next', not {place!r}")


def measure(sentence: Sentence, out: Forward) -> Heads:
    """Measure every head of one forward pass (:func:`attention_workshop.trained.MiniLM.__call__`)."""
    att = np.asarray(out.attentions, dtype=np.float64)  # (L, H, T, T)
    scores = head_scores(att)  # (L, H, 6)
    classes, score = classify(scores)
    return Heads(sentence, out.tokens, att, out.hidden, scores, classes, score)


@dataclass(frozen=True, eq=False)
class Bank:
    """bank's vector in the bank sentences, going into layer 1 and after each layer.

    Attributes:
        position: bank's token position, the same in every bank sentence.
        inputs_equal: its input vectors (after the embedding layer) are the same numbers.
        senses: ``(L + 1,)`` cosines between bank by the river and bank for money.
        same: ``(L + 1,)`` cosines between bank by the river in two sentences.
        unrelated: ``(L + 1, 3 * len(UNRELATED))``: the baseline, the cosine between bank (in
            each bank sentence) and each word of :data:`.sentences.UNRELATED` (in its own
            sentence), at the same depth: going into layer 1, then after each layer.
    """

    position: int
    inputs_equal: bool
    senses: np.ndarray
    same: np.ndarray
    unrelated: np.ndarray


def _bank(by_key: dict[str, Heads]) -> Bank:
    river, money, baseline = (by_key[k] for k in BANK)
    at = {h.tokens.index("bank") for h in (river, money, baseline)}
    if len(at) != 1:
        raise ValueError(f"bank sits at different positions {sorted(at)}")
    (i,) = at
    L1 = river.hidden.shape[0]
    # (L + 1, C) each: bank's vectors, then every unrelated word's, at every depth
    banks = [h.hidden[:, i] for h in (river, money, baseline)]
    words = [by_key[k].hidden[:, by_key[k].tokens.index(w)] for k, w in UNRELATED]
    return Bank(
        i,
        bool(
            np.array_equal(river.hidden[0, i], money.hidden[0, i])
            and np.array_equal(river.hidden[0, i], baseline.hidden[0, i])
        ),
        np.array([cosine(river.hidden[n, i], money.hidden[n, i]) for n in range(L1)]),
        np.array(
            [cosine(river.hidden[n, i], baseline.hidden[n, i]) for n in range(L1)]
        ),
        np.array(
            [[cosine(b[n], w[n]) for b in banks for w in words] for n in range(L1)]
        ),
    )


@dataclass(frozen=True, eq=False)
class ItLooks:
    """Where "it" looks in the coreference pair, by ending (:data:`.sentences.IT_ENDINGS`).

    Attributes:
        endings: the two sentence keys ("tired": it is the animal, "wide": the street).
        to_noun: ``to_noun[ending][noun]`` is ``(L, H)``, the weight from "it" to that noun.
        margin: ``(L, H)``: how much more weight goes to the right noun, the smaller of the
            two endings' margins (positive only for a head that switches with the meaning).
    """

    endings: tuple[str, str]
    to_noun: dict[str, dict[str, np.ndarray]]
    margin: np.ndarray

    def top(self, ending: str, noun: str) -> Head:
        """The head that sends the most weight from "it" to ``noun`` in ``ending``."""
        return best_head(self.to_noun[ending][noun])


def _it(by_key: dict[str, Heads]) -> ItLooks:
    to_noun = {}
    for key in IT_ENDINGS:
        h = by_key[key]
        it = h.tokens.index(IT_WORD)
        to_noun[key] = {n: h.attentions[:, :, it, h.tokens.index(n)] for n in NOUNS}
    (tired, wide), (animal, street) = IT_ENDINGS, NOUNS
    right_tired = to_noun[tired][animal] - to_noun[tired][street]  # (L, H)
    right_wide = to_noun[wide][street] - to_noun[wide][animal]  # (L, H)
    return ItLooks(IT_ENDINGS, to_noun, np.minimum(right_tired, right_wide))


@dataclass(frozen=True, eq=False)
class Copies:
    """How the words of the repeated phrase look at their other copies.

    Attributes:
        rows: positions of the repeated words.
        share: ``(L, H)``, the share of their attention that goes to their copies.
    """

    rows: tuple[int, ...]
    share: np.ndarray


@dataclass(frozen=True, eq=False)
class RealHeads:
    """Everything the page states, for its claims and its numbers.

    Attributes:
        n_layer, n_head: the model's sizes.
        heads: every sentence, measured, in page order.
        previous, following: the heads with the largest previous-token (next-token)
            share in the sentence where that share is smallest.
        bank, it, copies: the three closer looks.
        half: each sentence's attentions, as in ``heads``, through the run box's model: the
            weights the browser reads, rounded to float16
            (:func:`attention_workshop.trained.browser.half_model`).
    """

    n_layer: int
    n_head: int
    heads: tuple[Heads, ...]
    previous: Head
    following: Head
    bank: Bank
    it: ItLooks
    copies: Copies
    half: tuple[np.ndarray, ...]

    def sentence(self, key: str) -> Heads:
        """One sentence's heads, by key; a ``KeyError`` lists the keys."""
        for h in self.heads:
            if h.sentence.key == key:
                return h
        raise KeyError(
            f"no sentence {key!r}; sentences: {', '.join(h.sentence.key for h in self.heads)}"
        )

    def counts(self) -> np.ndarray:
        """``(sentences, classes)``: how many heads each sentence puts in each class."""
        return np.array([[h.count(c) for c in CLASSES] for h in self.heads])


def best_head(values: np.ndarray) -> Head:
    """The ``(layer, head)`` of the largest value of an ``(L, H)`` array (the first, if tied)."""
    layer, head = np.unravel_index(int(np.argmax(values)), values.shape)
    return int(layer), int(head)


def _steadiest(heads: Sequence[Heads], column: int) -> Head:
    """The head whose share in ``column`` is largest in the sentence where it is smallest."""
    return best_head(np.min([h.scores[..., column] for h in heads], axis=0))


def measure_all(model: MiniLM) -> RealHeads:
    """Run and measure every sentence of the page with ``model``; run each through the run box's
    float16 weights too (:attr:`RealHeads.half`)."""
    from ...trained.browser import half_model

    heads = tuple(measure(s, model(s.text)) for s in SENTENCES)
    by_key = {h.sentence.key: h for h in heads}
    repeat = by_key[REPEAT]
    share, rows = copy_share(repeat.attentions, repeat.tokens)
    return RealHeads(
        model.n_layer,
        model.n_head,
        heads,
        _steadiest(heads, 0),
        _steadiest(heads, 1),
        _bank(by_key),
        _it(by_key),
        Copies(rows, share),
        tuple(half_model()(s.text).attentions for s in SENTENCES),
    )


@lru_cache(maxsize=1)
def facts() -> RealHeads:
    """The page's measurements: all-MiniLM-L6-v2 in float64 on every sentence (computed once)."""
    return measure_all(load_minilm(np.float64))
