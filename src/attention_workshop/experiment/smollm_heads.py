"""SmolLM2-135M-Instruct's heads on one sentence, for the heads command (``--model smollm``).

The command measures the causal model's 270 heads (30 layers, 9 heads) the way the "Real
heads" page measures all-MiniLM-L6-v2's 72 (:mod:`attention_workshop.chapters.real_heads`):
each head gets the share of attention that goes to a few places, averaged over the rows, and
joins the class of the place with the largest share when that share is at least
:data:`~attention_workshop.chapters.real_heads.SHARE`; a head no place wins is broad when its
spread is at least :data:`~attention_workshop.chapters.real_heads.BROAD`, and other when it is
neither. What differs, because a causal head only looks back:

- no next-token place, and no last-token place ([SEP]): only the last row can see the last token;
- **first token** takes the place of [CLS]: the model adds no marker, so the weight a causal
  model parks on its first token (an "attention sink") is measured there;
- the first row is left out of every measure (it can only look at itself), and previous is
  measured from the third token on (the second token's previous token is the first token);
- spread is a row's entropy divided by ``ln`` of the number of tokens that row can see;
- **duplicate** (the share on earlier copies of the same token) and **induction** (the share on
  the token just after an earlier copy, the look-up of an induction head) are places only when a
  token repeats; otherwise they are not measured.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

import numpy as np

from ..causal import Forward, NextToken, SmolLM
from ..chapters import real_heads as rh
from . import figure_files, fmt
from .head_figures import grid_svg
from .plotting import LIGHT

__all__ = [
    "MODEL",
    "MIN_TOKENS",
    "PLACES",
    "MEASURES",
    "CLASSES",
    "LABELS",
    "SHORT",
    "CausalHeads",
    "head_scores",
    "classify",
    "measure",
    "run",
    "files_for",
]

#: The model's name, as the files write it.
MODEL = "SmolLM2-135M-Instruct"
#: The fewest tokens a sentence needs: previous is measured from the third token on.
MIN_TOKENS = 3
#: The places a causal head may send its attention to, in the order of :func:`head_scores`.
PLACES: tuple[str, ...] = ("previous", "self", "first", "duplicate", "induction")
#: Every measure of a head: the places, then the spread.
MEASURES: tuple[str, ...] = (*PLACES, "broad")
#: Every class a head may get.
CLASSES: tuple[str, ...] = (*MEASURES, "other")
#: How the files name each class (the page's names where the class is the page's).
LABELS: dict[str, str] = {
    **{c: rh.LABELS[c] for c in ("previous", "self", "broad", "other")},
    "first": "first token",
    "duplicate": "duplicate token",
    "induction": "induction",
}
#: Short class names under each thumbnail of the grid.
SHORT: dict[str, str] = {
    "previous": "prev",
    "self": "self",
    "first": "first",
    "duplicate": "dup",
    "induction": "ind",
    "broad": "broad",
    "other": "other",
}


@dataclass(frozen=True, eq=False)
class CausalHeads:
    """One sentence through SmolLM2, every head measured.

    Attributes:
        text: the sentence.
        tokens: its ``T`` BPE tokens as the vocabulary spells them (``Ġ`` is a space).
        attentions: ``(L, H, T, T)`` float64; each row sums to 1, nothing above the diagonal.
        scores: ``(L, H, 6)``, the measures of :data:`MEASURES`; NaN where not measured.
        classes: ``classes[l][h]``, a key of :data:`CLASSES`.
        score: ``(L, H)``, the number that put each head in its class.
        next_tokens: the most probable tokens after the sentence, best first.
    """

    text: str
    tokens: tuple[str, ...]
    attentions: np.ndarray
    scores: np.ndarray
    classes: tuple[tuple[str, ...], ...]
    score: np.ndarray
    next_tokens: tuple[NextToken, ...]

    @property
    def repeats(self) -> bool:
        """Whether a token repeats, so that duplicate and induction are measured."""
        return bool(np.isfinite(self.scores[0, 0, PLACES.index("duplicate")]))

    def count(self, cls: str) -> int:
        """How many heads are in class ``cls``."""
        return sum(row.count(cls) for row in self.classes)


def _copies(ids: np.ndarray, after: int) -> list[tuple[int, list[int]]]:
    """For each row with an earlier copy of its token: ``(row, columns)``, the copies' positions
    plus ``after`` (0: the copies; 1: the tokens just after them, the row itself excluded)."""
    rows = []
    for i in range(len(ids)):
        cols = [j + after for j in range(i) if ids[j] == ids[i] and j + after < i]
        if cols:
            rows.append((i, cols))
    return rows


def head_scores(att: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """The six measures of every causal head.

    Args:
        att: ``(L, H, T, T)`` causal attention weights, each row summing to 1 (``T >= 3``).
        ids: the ``T`` token ids (a repeated token is a repeated id).

    Returns:
        ``(L, H, 6)`` in the order of :data:`MEASURES`: previous (rows 2 .. T-1), self and
        first token (rows 1 .. T-1), duplicate and induction (rows with an earlier copy; NaN
        when no token repeats), and the spread (rows 1 .. T-1, entropy / ln(i + 1)).
    """
    L, H, T, _ = att.shape
    i = np.arange(T)
    previous = att[..., i[2:], i[2:] - 1].mean(axis=-1)  # (L, H)
    self_ = att[..., i[1:], i[1:]].mean(axis=-1)  # (L, H)
    first = att[..., i[1:], 0].mean(axis=-1)  # (L, H)
    copied = []
    for after in (0, 1):
        rows = _copies(ids, after)
        per_row = [att[..., r, cols].sum(axis=-1) for r, cols in rows]  # n x (L, H)
        copied.append(np.mean(per_row, axis=0) if rows else np.full((L, H), np.nan))
    plogp = np.where(att > 0, att * np.log(np.where(att > 0, att, 1.0)), 0.0)
    entropy = -plogp.sum(axis=-1)[..., 1:]  # (L, H, T - 1): rows 1 .. T-1
    spread = (entropy / np.log(i[1:] + 1)).mean(axis=-1)  # (L, H)
    return np.stack([previous, self_, first, *copied, spread], axis=-1)


def classify(scores: np.ndarray) -> tuple[tuple[tuple[str, ...], ...], np.ndarray]:
    """Each head's class and its score, by the page's rule (unmeasured places never win).

    Args:
        scores: ``(L, H, 6)`` from :func:`head_scores`.

    Returns:
        ``(classes, score)``: ``score`` is the winning place's share, the spread of a broad
        head, and for an "other" head its largest share.
    """
    shares = np.nan_to_num(scores[..., : len(PLACES)], nan=-1.0)  # (L, H, 5)
    spread = scores[..., len(PLACES)]  # (L, H)
    best, top = shares.argmax(axis=-1), shares.max(axis=-1)  # (L, H) each
    classes = tuple(
        tuple(
            PLACES[int(b)] if t >= rh.SHARE else "broad" if s >= rh.BROAD else "other"
            for b, t, s in zip(brow, trow, srow)
        )
        for brow, trow, srow in zip(best, top, spread)
    )
    score = np.where((top < rh.SHARE) & (spread >= rh.BROAD), spread, top)  # (L, H)
    return classes, score


def measure(text: str, out: Forward) -> CausalHeads:
    """Measure every head of one forward pass (:meth:`attention_workshop.causal.SmolLM.__call__`)."""
    att = np.asarray(out.attentions, dtype=np.float64)  # (L, H, T, T)
    scores = head_scores(att, np.asarray(out.ids))  # (L, H, 6)
    classes, score = classify(scores)
    return CausalHeads(text, out.tokens, att, scores, classes, score, out.next_tokens)


def run(model: SmolLM, text: str) -> CausalHeads:
    """The sentence through the model, measured.

    Raises:
        ValueError: the sentence has fewer than :data:`MIN_TOKENS` tokens, or more than
            the model reads.
    """
    tokens, _ = model.tokenize(text)
    if len(tokens) < MIN_TOKENS:
        raise ValueError(
            f"the sentence has {fmt.plural(len(tokens), 'token')}; measuring a causal head "
            f"needs at least {MIN_TOKENS}: make it longer"
        )
    return measure(text, model(text, top_k=5))


# ---------------------------------------------------------------- the files


def _cell(text: str) -> str:
    """Text inside a Markdown table's cell, shown as it is: HTML and Markdown marks escaped."""
    text = html.escape(text, quote=False)
    for mark in "\\`*_[]|~":
        text = text.replace(mark, "\\" + mark)
    return text


def _label(h: CausalHeads, layer: int, n: int) -> str:
    return f"{SHORT[h.classes[layer][n]]} {fmt.fixed(float(h.score[layer, n]), 2)}"


def _class_table(h: CausalHeads) -> str:
    L, H = h.score.shape
    head = "| | " + " | ".join(f"head {n + 1}" for n in range(H)) + " |"
    rows = [
        f"| layer {layer + 1} | "
        + " | ".join(_label(h, layer, n) for n in range(H))
        + " |"
        for layer in range(L)
    ]
    return "\n".join([head, "|:--|" + ":-:|" * H, *rows]) + "\n"


def _next_table(h: CausalHeads) -> str:
    rows = [
        f"| {n} | {_cell(t.token)} | {_cell(json.dumps(t.text, ensure_ascii=False))} "
        f"| {fmt.fixed(t.p, 3)} |"
        for n, t in enumerate(h.next_tokens, 1)
    ]
    head = "| | token | its text | probability |\n|--:|:--|:--|--:|"
    return "\n".join([head, *rows]) + "\n"


def _differs(h: CausalHeads) -> str:
    repeats = (
        "A token repeats here, so duplicate (the share on earlier copies of the token) and "
        "induction (the share on the token just after an earlier copy) are measured."
        if h.repeats
        else "No token repeats here, so duplicate and induction are not measured: "
        "repeat a phrase to see them."
    )
    return (
        "What differs from the page's all-MiniLM-L6-v2: a causal head only looks back, so "
        "there is no next-token class and no [SEP] class. The model adds no marker; first "
        "token takes the place of [CLS] (the weight parked there is the attention sink). The "
        "first row is left out, since it can only look at itself; previous is measured from "
        "the third token on; the spread of a row is divided by ln of the number of tokens it "
        f"can see. {repeats}"
    )


def _markdown(h: CausalHeads) -> str:
    """heads.md: the sentence, its tokens, the next token, each head's class and the counts."""
    counts = "\n".join(f"| {LABELS[c]} | {h.count(c)} |" for c in CLASSES if h.count(c))
    shorts = "; ".join(f"{s} = {LABELS[c]}" for c, s in SHORT.items())
    return (
        f"# The heads of {MODEL} on one sentence\n\n"
        f"Sentence: {html.escape(h.text, quote=False)}\n\n"
        f"Tokens ({len(h.tokens)}, as the vocabulary spells them: Ġ is a space, Ċ a new "
        f"line): {html.escape(' '.join(h.tokens), quote=False)}\n\n"
        f"The next token, as the model predicts it (top {len(h.next_tokens)}):\n\n"
        f"{_next_table(h)}\n"
        f"{_class_table(h)}\n"
        f"Classes: {shorts}. A place's class needs a share of at least "
        f"{fmt.num(rh.SHARE, 2)}; broad needs a spread of at least {fmt.num(rh.BROAD, 2)}.\n\n"
        f"{_differs(h)}\n\n"
        f"| class | heads |\n|:--|--:|\n{counts}\n"
    )


def _csv(h: CausalHeads) -> str:
    """Every head's class, score and six measures (empty where not measured), one row per head."""
    L, H, _ = h.scores.shape
    rows = [
        [
            layer + 1,
            n + 1,
            LABELS[h.classes[layer][n]],
            float(h.score[layer, n]),
            *(float(x) if np.isfinite(x) else "" for x in h.scores[layer, n]),
        ]
        for layer in range(L)
        for n in range(H)
    ]
    return figure_files.table_csv(["layer", "head", "class", "score", *MEASURES], rows)


def _grid(h: CausalHeads) -> str:
    """grid.svg: every head at once, in the light scheme, its class and score under it."""
    L, H = h.score.shape
    labels = [[_label(h, layer, n) for n in range(H)] for layer in range(L)]
    counts = ", ".join(f"{LABELS[c]} {h.count(c)}" for c in CLASSES if h.count(c))
    desc = (
        f'All {L * H} heads of {MODEL} on "{h.text}", layers down and heads across, each a '
        f"small heatmap (a triangle: no token sees a later one) with its class under it. "
        f"Heads per class: {counts}."
    )
    return grid_svg(h.attentions, labels, f'All {L * H} heads: "{h.text}"', desc, LIGHT)


def files_for(h: CausalHeads) -> dict[str, str]:
    """The command's files for one measured sentence, ``{name: text}``."""
    return {"heads.md": _markdown(h), "heads.csv": _csv(h), "grid.svg": _grid(h)}
