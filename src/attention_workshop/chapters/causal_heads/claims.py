"""What the "A causal model" page claims about SmolLM2-135M-Instruct, each tested against :func:`.facts.facts`.

The build checks every claim on every site build (:mod:`workshop_site.claims`);
the page quotes the numbers behind them as ``{{ causal_heads.* }}`` values.
"""

from __future__ import annotations

import numpy as np

from .._section import EVERY, FACT, MAX, MEAN, Claim
from .facts import CausalHeads, best_head
from .measures import SHARE, last_row
from .reads import TOP, rank_of, split
from .sentences import GQA

__all__ = [
    "CLEAR",
    "SINK_HEADS",
    "LAST",
    "LAST_LAYERS",
    "ENDS",
    "MIDDLE",
    "WORD",
    "WEAK_RANK",
    "CLAIMS",
]

#: The last token gives at least this share of its attention to the first, on average over heads.
LAST = 0.4

#: The layers nearest the prediction, whose heads' last rows the page averages.
LAST_LAYERS = 3
#: In those layers the last token gives more than this to the first token and itself together.
ENDS = 0.8
#: ... and less than this to each token in between, on average over those heads.
MIDDLE = 0.05

#: With RoPE, reversing the tokens changes some pair's first-layer score by more than this.
CLEAR = 0.5
#: In the last layers some single head gives more than this to one word between the ends.
WORD = 0.1
#: The copying test: on median the attended token ranks beyond this in a head's direct logits.
WEAK_RANK = 5000

#: More heads than this (a third of 270) park more than half of their weight on the first token.
SINK_HEADS = 90


def _masked(r: CausalHeads) -> bool:
    """Every row sums to 1 and nothing above the diagonal has any weight."""
    for run in r.runs:
        T = run.attentions.shape[-1]
        upper = run.attentions[..., np.triu(np.ones((T, T), dtype=bool), 1)]
        if np.any(upper != 0) or not np.allclose(run.attentions.sum(-1), 1, atol=1e-5):
            return False
    return True


def _ends(run_att: np.ndarray) -> float:
    """The last rows' weight on the first token and on the last token itself, last layers."""
    row = last_row(run_att, LAST_LAYERS)
    return float(row[0] + row[-1])


def _middle(run_att: np.ndarray) -> float:
    """The most any token between the first and the last gets, last layers' mean."""
    return float(last_row(run_att, LAST_LAYERS)[1:-1].max())


def _cat_row(r: CausalHeads) -> np.ndarray:
    q, _ = r.cat
    return r.run("repeat").attentions[(*r.induction_head, q)][: q + 1]


_BASE: tuple[Claim[CausalHeads], ...] = (
    Claim(
        "causal_heads.gqa_sizes",
        "the exam's head counts (GQA) are the model file's own",
        lambda r: (r.n_head, r.n_kv_head, r.head_size) == GQA,
        measure=lambda r: (r.n_head, r.n_kv_head, r.head_size),
        quantifier=FACT,
        sentence=None,
    ),
    Claim(
        "causal_heads.masked",
        "in every head and every sentence, no token gives any weight to a later one",
        _masked,
        quantifier=EVERY,
        sentence="no token gives any weight to a later one",
    ),
    Claim(
        "causal_heads.previous_everywhere",
        "the steadiest previous-token head gives at least SHARE of a token's weight to the "
        "token before it, on average, in every sentence",
        lambda r: all(run.previous[r.previous_head] >= SHARE for run in r.runs),
        measure=lambda r: [float(run.previous[r.previous_head]) for run in r.runs],
        quantifier=MEAN,
        sentence="on average at least {{ causal_heads.previous_min }} of a token's weight",
    ),
    Claim(
        "causal_heads.sink_mean",
        "on average over heads and tokens, more than half of the weight goes to the first token, "
        "in every sentence",
        lambda r: all(float(run.first.mean()) > 0.5 for run in r.runs),
        measure=lambda r: [float(run.first.mean()) for run in r.runs],
        quantifier=MEAN,
        sentence="On average, more than half of the weight",
    ),
    Claim(
        "causal_heads.sink_heads",
        "in every sentence, more than SINK_HEADS heads park more than half of their weight "
        "on the first token",
        lambda r: all(int((run.first > 0.5).sum()) > SINK_HEADS for run in r.runs),
        measure=lambda r: [int((run.first > 0.5).sum()) for run in r.runs],
        quantifier=FACT,
        sentence="park more than half of their weight there",
    ),
    Claim(
        "causal_heads.induction_cat",
        "at the second cat, the induction head's largest weight goes to the word after the first cat",
        lambda r: int(np.argmax(_cat_row(r))) == r.cat[1],
        measure=_cat_row,
        quantifier=MAX,
        sentence="its largest weight goes to",
    ),
    Claim(
        "causal_heads.induction_strong",
        "the induction head gives at least SHARE of a repeated token's weight to the token "
        "after its first copy, on average",
        lambda r: float(r.induction[r.induction_head]) >= SHARE,
        measure=lambda r: float(r.induction[r.induction_head]),
        quantifier=MEAN,
        sentence="on average {{ causal_heads.induction_score }} of a repeated token's weight",
    ),
    Claim(
        "causal_heads.previous_before_induction",
        "the previous-token head sits one layer below the induction head",
        lambda r: r.previous_head[0] == r.induction_head[0] - 1,
        quantifier=FACT,
        sentence="sits one layer below",
    ),
    Claim(
        "causal_heads.not_the_same_head",
        "the induction head is not a previous-token head, nor the previous-token head an "
        "induction head (each scores under SHARE at the other's job)",
        lambda r: (
            float(r.run("repeat").previous[r.induction_head]) < SHARE
            and float(r.induction[r.previous_head]) < SHARE
        ),
        quantifier=FACT,
        sentence="The two heads do different jobs",
    ),
    Claim(
        "causal_heads.plain_order_blind",
        "without RoPE, every pair of tokens scores exactly the same when the words are reversed, "
        "in every head of the first layer",
        lambda r: bool(np.all(r.position.plain_diff == 0)),
        measure=lambda r: r.position.plain_diff,
        quantifier=EVERY,
        sentence="every pair of tokens scores exactly the same",
    ),
    Claim(
        "causal_heads.rope_sees_order",
        "with RoPE, every head of the first layer changes some pair's score by more than CLEAR "
        "when the words are reversed",
        lambda r: bool(np.all(r.position.rope_diff > CLEAR)),
        measure=lambda r: r.position.rope_diff,
        quantifier=EVERY,
        sentence="every head of the first layer changes some pair's score by more than",
    ),
    Claim(
        "causal_heads.last_to_first",
        "in every sentence, on average over the heads, the last token gives at least "
        "LAST of its attention to the first token",
        lambda r: all(
            float(run.attentions[..., -1, 0].mean()) >= LAST for run in r.runs
        ),
        measure=lambda r: [float(run.attentions[..., -1, 0].mean()) for run in r.runs],
        quantifier=MEAN,
        sentence="on average at least {{ causal_heads.last_first_min }} of its attention",
    ),
    Claim(
        "causal_heads.last_reads_ends",
        "in every sentence, on average over the heads of the last LAST_LAYERS layers, the last "
        "token gives more than ENDS of its weight to the first token and to itself together",
        lambda r: all(_ends(run.attentions) > ENDS for run in r.runs),
        measure=lambda r: [_ends(run.attentions) for run in r.runs],
        quantifier=MEAN,
        sentence="to the first token and to itself together",
    ),
    Claim(
        "causal_heads.last_middle_small",
        "in every sentence, on average over the heads of the last LAST_LAYERS layers, each token "
        "between the first and the last gets less than MIDDLE of the last token's weight",
        lambda r: all(_middle(run.attentions) < MIDDLE for run in r.runs),
        measure=lambda r: [_middle(run.attentions) for run in r.runs],
        quantifier=EVERY,
        sentence="gets less than {{ causal_heads.middle }}",
    ),
)


def _early(r: CausalHeads) -> list[int]:
    """The sentences' first layers where the final guess ranks first, by the logit lens."""
    return [lens.first_top for lens in r.reads.lens]


def _splits(r: CausalHeads, layers: int | None) -> list[np.ndarray]:
    return [split(rd, layers) for rd in r.reads.reads]


def _word(r: CausalHeads) -> float:
    """The most one head of the last layers gives one token between the first and the last."""
    return max(float(rd.weights[-LAST_LAYERS:, :, 1:-1].max()) for rd in r.reads.reads)


def _prefix_tops(r: CausalHeads) -> list[tuple[int, int]]:
    """Each seed's strongest prefix-matching head."""
    return [best_head(p) for p in r.reads.prefix]


_READS: tuple[Claim[CausalHeads], ...] = (
    Claim(
        "causal_heads.lens_early",
        "in two of the sentences, the logit lens ranks the final guess first at a layer below the "
        "last LAST_LAYERS, and at more than half of the layers",
        lambda r: (
            sum(
                lens.first_top <= r.n_layer - LAST_LAYERS and 2 * lens.n_top > r.n_layer
                for lens in r.reads.lens
            )
            == 2
        ),
        measure=lambda r: [(lens.first_top, lens.n_top) for lens in r.reads.lens],
        quantifier=FACT,
        sentence="the final guess already ranks first at layer",
    ),
    Claim(
        "causal_heads.lens_late",
        "in the remaining sentence the final guess ranks first only within the last LAST_LAYERS layers",
        lambda r: sorted(_early(r))[-1] > r.n_layer - LAST_LAYERS,
        measure=_early,
        quantifier=FACT,
        sentence="it ranks first only from layer",
    ),
    Claim(
        "causal_heads.norm_first_less",
        "in every sentence, on average over the heads, the first token's share of the weighted "
        "values' norm is smaller than its share of the weight",
        lambda r: all(s[1, 0] < s[0, 0] for s in _splits(r, None)),
        measure=lambda r: [s[:, 0] for s in _splits(r, None)],
        quantifier=MEAN,
        sentence="the first token takes between",
    ),
    Claim(
        "causal_heads.norm_middle_more",
        "in every sentence, on average over the heads, the tokens in between take a larger share "
        "of the norm than of the weight",
        lambda r: all(s[1, 1] > s[0, 1] for s in _splits(r, None)),
        measure=lambda r: [s[:, 1] for s in _splits(r, None)],
        quantifier=MEAN,
        sentence="Over the same heads, the tokens in between take",
    ),
    Claim(
        "causal_heads.last_middle_norm",
        "in every sentence, on average over the heads of the last LAST_LAYERS layers, the tokens "
        "in between take a larger share of the norm than of the weight",
        lambda r: all(s[1, 1] > s[0, 1] for s in _splits(r, LAST_LAYERS)),
        measure=lambda r: [s[:, 1] for s in _splits(r, LAST_LAYERS)],
        quantifier=MEAN,
        sentence="on average the tokens in between take",
    ),
    Claim(
        "causal_heads.single_head_word",
        "in the last LAST_LAYERS layers, some head gives more than WORD of the last token's weight "
        "to one word between the first and the last",
        lambda r: _word(r) > WORD,
        measure=_word,
        quantifier=MAX,
        sentence="a single head gives up to",
    ),
    Claim(
        "causal_heads.olsson_same_top",
        "on every seed's random sequence, the same head has the largest prefix-matching score",
        lambda r: len(set(_prefix_tops(r))) == 1,
        measure=_prefix_tops,
        quantifier=EVERY,
        sentence="the strongest on every seed",
    ),
    Claim(
        "causal_heads.olsson_not_the_sentence_head",
        "the head with the largest induction score on the sentence is not the strongest "
        "prefix-matching head on random tokens",
        lambda r: rank_of(r.reads.prefix_mean, r.induction_head) > 1,
        measure=lambda r: rank_of(r.reads.prefix_mean, r.induction_head),
        quantifier=FACT,
        sentence="ranks {{ causal_heads.olsson_page_rank }} there",
    ),
    Claim(
        "causal_heads.copying_positive",
        "on average over the random sequences' second halves, each of the TOP strongest "
        "prefix-matching heads raises the attended token's logit above the vocabulary's mean",
        lambda r: (
            len(r.reads.copying) == TOP and all(c.raise_ > 0 for c in r.reads.copying)
        ),
        measure=lambda r: [c.raise_ for c in r.reads.copying],
        quantifier=MEAN,
        sentence="above the vocabulary's mean on average",
    ),
    Claim(
        "causal_heads.copying_weak",
        "for every one of those heads, the attended token's median rank among the head's direct "
        "logits is beyond WEAK_RANK",
        lambda r: all(c.median_rank > WEAK_RANK for c in r.reads.copying),
        measure=lambda r: [c.median_rank for c in r.reads.copying],
        quantifier=EVERY,
        sentence="ranks beyond {{ causal_heads.weak_rank }}",
    ),
)

CLAIMS: tuple[Claim[CausalHeads], ...] = (*_BASE, *_READS)
