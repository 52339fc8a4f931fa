"""What the "A causal model" page measures in SmolLM2-135M-Instruct, as typed results.

:func:`facts` runs every sentence of :data:`.sentences.SENTENCES` through the package's own
forward pass (:mod:`attention_workshop.causal`, float32, whose sums run in a fixed order, so
the digits are the same on any machine), scores every head (:mod:`.measures`), and measures
what RoPE does to the first layer's scores (:mod:`.position`), and what the heads read
(:mod:`.reads`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...causal import Forward, NextToken, SmolLM, load_smollm
from .measures import first_score, induction_pairs, induction_score, previous_score
from .position import Position, position
from .reads import CausalReads, measure_reads
from .sentences import PHRASE, REPEAT, SENTENCES, Sentence
from .seven import HeadSteps, head_steps

__all__ = ["Head", "Run", "CausalHeads", "best_head", "measure_all", "facts"]

#: A head: ``(layer, head)``, both counted from 0 (the page counts from 1).
Head = tuple[int, int]


@dataclass(frozen=True, eq=False)
class Run:
    """One sentence through the model.

    Attributes:
        sentence: the sentence.
        tokens: its ``T`` tokens as the page prints them (the text each stands for, trimmed).
        attentions: ``(L, H, T, T)`` float32; each row sums to 1, the upper triangle is 0.
        previous, first: ``(L, H)``, each head's scores (:mod:`.measures`).
        next_tokens: the five most probable next tokens after the whole sentence.
        steps: every head's seven steps (:mod:`.seven`): the scores before the mask, the
            weights, the size of each weighted sum.
    """

    sentence: Sentence
    tokens: tuple[str, ...]
    attentions: np.ndarray
    previous: np.ndarray
    first: np.ndarray
    next_tokens: tuple[NextToken, ...]
    steps: HeadSteps


@dataclass(frozen=True, eq=False)
class CausalHeads:
    """Everything the page states.

    Attributes:
        n_layer, n_head, n_kv_head, d_model, head_size, d_ff: the model's sizes.
        runs: every sentence, in page order.
        pairs: the repeated sentence's ``(query, target)`` induction pairs.
        induction: ``(L, H)``, each head's induction score on the repeated sentence.
        previous_head: the head with the largest previous score in the sentence where it is smallest.
        induction_head: the head with the largest induction score.
        cat: the second "cat"'s position, and the position of the word after the first one.
        position: what RoPE does to the first layer's scores.
        reads: the logit lens, weight beside norm, prefix matching and copying (:mod:`.reads`).
    """

    n_layer: int
    n_head: int
    n_kv_head: int
    d_model: int
    head_size: int
    d_ff: int
    runs: tuple[Run, ...]
    pairs: tuple[tuple[int, int], ...]
    induction: np.ndarray
    previous_head: Head
    induction_head: Head
    cat: tuple[int, int]
    position: Position
    reads: CausalReads

    def run(self, key: str) -> Run:
        """One sentence's run, by key; a ``KeyError`` lists the keys."""
        for r in self.runs:
            if r.sentence.key == key:
                return r
        keys = ", ".join(r.sentence.key for r in self.runs)
        raise KeyError(f"no sentence {key!r}; sentences: {keys}")


def best_head(values: np.ndarray) -> Head:
    """The ``(layer, head)`` of the largest value of an ``(L, H)`` array (the first, if tied)."""
    layer, head = np.unravel_index(int(np.argmax(values)), values.shape)
    return int(layer), int(head)


def _run(model: SmolLM, s: Sentence, out: Forward) -> Run:
    att = np.asarray(out.attentions, dtype=np.float32)  # (L, H, T, T)
    tokens = tuple(t.strip() or t for t in out.texts)
    steps = head_steps(model, np.asarray(out.hidden))
    return Run(
        s, tokens, att, previous_score(att), first_score(att), out.next_tokens, steps
    )


def _cat(tokens: tuple[str, ...]) -> tuple[int, int]:
    """The second copy of the phrase's word, and the word after its first copy."""
    word, after = PHRASE
    first = tokens.index(word)
    if tokens[first + 1] != after:
        raise ValueError(f"{after!r} does not follow the first {word!r} in {tokens}")
    return tokens.index(word, first + 1), first + 1


def measure_all(model: SmolLM) -> CausalHeads:
    """Run and measure every sentence of the page with ``model``."""
    # the page needs each sentence's next token only; its reads use the same forward passes
    outs = {s.key: model(s.text, top_k=5, all_logits=False) for s in SENTENCES}
    runs = tuple(_run(model, s, outs[s.key]) for s in SENTENCES)
    repeat = next(r for r in runs if r.sentence.key == REPEAT)
    pairs = induction_pairs(repeat.tokens)
    induction = induction_score(repeat.attentions, pairs)  # (L, H)
    c = model.config
    return CausalHeads(
        c.n_layer,
        c.n_head,
        c.n_kv_head,
        c.d_model,
        c.head_size,
        c.d_ff,
        runs,
        pairs,
        induction,
        best_head(np.min([r.previous for r in runs], axis=0)),
        best_head(induction),
        _cat(repeat.tokens),
        position(model, repeat.sentence.text),
        measure_reads(
            model, forwards={k: (o.hidden, o.attentions) for k, o in outs.items()}
        ),
    )


@lru_cache(maxsize=1)
def facts() -> CausalHeads:
    """The page's measurements: SmolLM2-135M-Instruct in float32 on every sentence (once)."""
    return measure_all(load_smollm(np.float32))
