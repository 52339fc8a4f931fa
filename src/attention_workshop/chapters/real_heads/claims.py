"""What the "Real heads" page claims about all-MiniLM-L6-v2, each tested against :func:`.facts.facts`.

The build checks every claim on every site build (:mod:`workshop_site.claims`);
the page quotes the numbers behind them as ``{{ real_heads.* }}`` values.
"""

from __future__ import annotations

import numpy as np

from .._section import EVERY, FACT, MEAN, Claim
from .facts import RealHeads
from .measures import PLACES, SHARE
from .sentences import LONG, NOUNS

__all__ = ["MARGIN", "STEADY_MEAN", "STEADY_EACH", "HALF_BOUND", "half_gaps", "CLAIMS"]

#: A head "follows the meaning" of "it" when it sends at least this much more weight to the
#: right noun than to the other, in both sentences of the pair.
MARGIN = 0.05
#: The steadiest previous-token head sends more than this share of a token's attention to the
#: token before it, on average in every sentence ...
STEADY_MEAN = 0.99
#: ... and more than this share from every token that has a token before it.
STEADY_EACH = 0.95
#: The browser's run box reads the weights rounded to float16: no attention weight of any
#: sentence of the page moves by more than this from the full float32 model's.
HALF_BOUND = 0.005


def half_gaps(r: RealHeads) -> list[float]:
    """Each sentence's largest change of any attention weight when the weights are float16 (the
    browser's file, :attr:`.facts.RealHeads.half`) instead of float32."""
    return [
        float(np.abs(half - h.attentions).max())
        for half, h in zip(r.half, r.heads, strict=True)
    ]


def _neighbour(r: RealHeads, place: str) -> list[np.ndarray]:
    """Each sentence's per-token shares to ``place`` in the steadiest head of that place."""
    head = r.previous if place == "previous" else r.following
    return [h.shares(head, place) for h in r.heads]


def _rows_sum_to_one(r: RealHeads) -> bool:
    return all(
        np.allclose(h.attentions.sum(axis=-1), 1.0, rtol=0, atol=1e-9) for h in r.heads
    )


def _reads_both_ways(r: RealHeads) -> bool:
    """Every head of every sentence gives some weight to later tokens."""
    for h in r.heads:
        T = h.attentions.shape[-1]
        later = h.attentions[..., np.triu(np.ones((T, T), dtype=bool), 1)]  # (L, H, n)
        if not np.all(later.sum(axis=-1) > 0):
            return False
    return True


def _in_class_everywhere(r: RealHeads, head: tuple[int, int], cls: str) -> bool:
    layer, n = head
    return all(h.classes[layer][n] == cls for h in r.heads)


def _one_each(r: RealHeads) -> bool:
    return all(h.count("previous") == 1 and h.count("next") == 1 for h in r.heads)


def _cls_wins_most(r: RealHeads) -> bool:
    others = [p for p in PLACES if p != "cls"]
    return all(h.count("cls") > max(h.count(p) for p in others) for h in r.heads)


def _bank_same_input(r: RealHeads) -> bool:
    b = r.bank
    return b.inputs_equal and abs(b.senses[0] - 1) <= 1e-12 >= abs(b.same[0] - 1)


def _it_animal_head(r: RealHeads) -> tuple[float, float, float]:
    """The tired sentence's top it-to-animal head: its weight to animal (tired, wide), to street (wide)."""
    tired, wide = r.it.endings
    animal, street = NOUNS
    head = r.it.top(tired, animal)
    to = r.it.to_noun
    return to[tired][animal][head], to[wide][animal][head], to[wide][street][head]


def _copy_head_alone(r: RealHeads) -> bool:
    return int(np.sum(r.copies.share > 0.5)) == 1


CLAIMS: tuple[Claim[RealHeads], ...] = (
    Claim(
        "real_heads.half_close",
        "with the weights rounded to float16, no attention weight of any sentence of the page "
        "moves by more than HALF_BOUND",
        lambda r: max(half_gaps(r)) <= HALF_BOUND,
        measure=half_gaps,
        quantifier=EVERY,
        sentence="no attention weight of the page's sentences moves by more than "
        "{{ real_heads.half_bound }}",
    ),
    Claim(
        "real_heads.rows_sum_to_one",
        "every row of every head sums to 1, in every sentence",
        _rows_sum_to_one,
        quantifier=EVERY,
        sentence=None,
    ),
    Claim(
        "real_heads.reads_both_ways",
        "there is no causal mask: every head gives some weight to later tokens",
        _reads_both_ways,
        quantifier=EVERY,
        sentence="it has **no causal mask**",
    ),
    Claim(
        "real_heads.previous_everywhere",
        "the steadiest previous-token head is a previous-token head in every sentence",
        lambda r: _in_class_everywhere(r, r.previous, "previous"),
        quantifier=EVERY,
        sentence="**One head is a previous-token head in every sentence**",
    ),
    Claim(
        "real_heads.next_everywhere",
        "the steadiest next-token head is a next-token head in every sentence",
        lambda r: _in_class_everywhere(r, r.following, "next"),
        quantifier=EVERY,
        sentence="**One head looks at the next token**, again in every sentence",
    ),
    Claim(
        "real_heads.previous_mean",
        "on average, the steadiest previous-token head sends more than STEADY_MEAN of a "
        "token's attention to the token before it, in every sentence",
        lambda r: all(s.mean() > STEADY_MEAN for s in _neighbour(r, "previous")),
        measure=lambda r: [float(s.mean()) for s in _neighbour(r, "previous")],
        quantifier=MEAN,
        sentence="On average it sends at least {{ real_heads.previous_min }} of a token's",
    ),
    Claim(
        "real_heads.previous_each",
        "in the steadiest previous-token head, every token that has a token before it "
        "sends it more than STEADY_EACH of its attention, in every sentence",
        lambda r: all(bool((s > STEADY_EACH).all()) for s in _neighbour(r, "previous")),
        measure=lambda r: [float(s.min()) for s in _neighbour(r, "previous")],
        quantifier=EVERY,
        sentence="the smallest share any single token sends there is "
        "{{ real_heads.previous_token_min }}",
    ),
    Claim(
        "real_heads.next_mean",
        "on average, the steadiest next-token head sends at least SHARE of a token's "
        "attention to the token after it, in every sentence",
        lambda r: all(s.mean() >= SHARE for s in _neighbour(r, "next")),
        measure=lambda r: [float(s.mean()) for s in _neighbour(r, "next")],
        quantifier=MEAN,
        sentence="with at least {{ real_heads.next_min }} of a token's attention on average",
    ),
    Claim(
        "real_heads.one_of_each",
        "every sentence has exactly one previous-token head and one next-token head",
        _one_each,
        quantifier=EVERY,
        sentence="No other head does this.",
    ),
    Claim(
        "real_heads.cls_wins_most",
        "in every sentence, [CLS] wins more heads than any other place",
        _cls_wins_most,
        quantifier=EVERY,
        sentence="**[CLS] wins the most heads** of any place",
    ),
    Claim(
        "real_heads.long_broad_over_cls",
        "in the long sentence, the broad heads outnumber the [CLS] heads",
        lambda r: r.sentence(LONG).count("broad") > r.sentence(LONG).count("cls"),
        quantifier=FACT,
        sentence="In the long sentence, the broad heads",
    ),
    Claim(
        "real_heads.no_self_or_sep",
        "no head is a self head or a [SEP] head, in any sentence",
        lambda r: all(h.count("self") == h.count("sep") == 0 for h in r.heads),
        quantifier=EVERY,
        sentence="**No head is a self head or a [SEP] head**, in any sentence",
    ),
    Claim(
        "real_heads.bank_same_input",
        "bank goes into layer 1 as the same vector in all three bank sentences",
        _bank_same_input,
        quantifier=EVERY,
        sentence="so going into layer 1 its vectors are identical",
    ),
    Claim(
        "real_heads.bank_senses_apart",
        "after every layer, bank by the river is closer to bank by the river in another "
        "sentence than to bank for money",
        lambda r: bool(np.all(r.bank.same[1:] > r.bank.senses[1:])),
        quantifier=EVERY,
        sentence="After every layer, the two river banks are closer to each other than to the money bank.",
    ),
    Claim(
        "real_heads.bank_last_layer_lowest",
        "both of bank's cosines are lowest after the last layer",
        lambda r: (
            int(np.argmin(r.bank.senses)) == int(np.argmin(r.bank.same)) == r.n_layer
        ),
        quantifier=EVERY,
        sentence="Both cosines are lowest after the last layer",
    ),
    Claim(
        "real_heads.bank_above_unrelated",
        "going in and after every layer, bank's cosine between its two senses is higher than "
        "bank's cosine with any unrelated word",
        lambda r: bool(np.all(r.bank.senses > r.bank.unrelated.max(axis=1))),
        measure=lambda r: [
            (float(s), float(u))
            for s, u in zip(r.bank.senses, r.bank.unrelated.max(axis=1))
        ],
        quantifier=EVERY,
        sentence="even bank's two senses are closer to each other than bank is to any "
        "unrelated word",
    ),
    Claim(
        "real_heads.it_animal_head_drops",
        "the head that sends it most to animal in the tired sentence sends it less than "
        "half as much when the street is wide",
        lambda r: _it_animal_head(r)[1] < _it_animal_head(r)[0] / 2,
        quantifier=FACT,
        sentence='the same head sends only {{ real_heads.it_animal_wide }} to "animal"',
    ),
    Claim(
        "real_heads.it_animal_head_keeps_animal",
        "even when the street is wide, that head sends it more to animal than to street",
        lambda r: _it_animal_head(r)[1] > _it_animal_head(r)[2],
        quantifier=FACT,
        sentence='yet still more than the {{ real_heads.it_street_wide }} it sends to "street"',
    ),
    Claim(
        "real_heads.it_no_head_follows",
        "no head sends it at least MARGIN more to the right noun in both sentences",
        lambda r: bool(np.all(r.it.margin < MARGIN)),
        quantifier=EVERY,
        sentence='No head sends at least {{ real_heads.margin }} more of the attention of "it"',
    ),
    Claim(
        "real_heads.copy_head_alone",
        "one head, and only one, sends more than half of a repeated word's attention "
        "to its other copies",
        _copy_head_alone,
        quantifier=MEAN,
        sentence="It is the only head that sends more than half",
    ),
)
