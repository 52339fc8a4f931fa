"""The "Real heads" page's files and numbers: JSON for its grid, figures, and the prose's values.

Everything comes from :func:`attention_workshop.chapters.real_heads.facts` (all-MiniLM-L6-v2,
run by the package) and is written with the one formatter. Every figure is drawn in both colour
schemes (:func:`.figures.themed`: ``name.svg`` and ``name-dark.svg``). The page's JavaScript reads
:data:`INDEX_PATH` when it starts, and one sentence's JSON when that sentence is shown.
The Markdown and HTML the page prints are in :mod:`.real_heads_md`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np

from ..chapters import real_heads as rh
from ..chapters.real_heads import Head, Heads, RealHeads
from . import cache, figure_files, fmt, grids
from .head_figures import GRID_KEY, NUMBER_SHORT, SHORT, grid_svg, head_svg
from .plotting import LIGHT, Palette


def facts() -> RealHeads:
    """The page's measurements (:func:`attention_workshop.chapters.real_heads.facts`).

    A site build keeps them on disk (:mod:`.cache`), keyed on the code of the model and the
    measures and on the environment (the model's wheel among the distributions); read once
    per build.
    """
    if not cache.enabled():
        return rh.facts()
    if not _FACTS:
        _FACTS.append(cache.call(rh.facts))
    return _FACTS[0]


_FACTS: list[RealHeads] = []

__all__ = [
    "DIR",
    "INDEX_PATH",
    "SCALE",
    "head_name",
    "number_label",
    "class_label",
    "sentence_data",
    "index_data",
    "grid_file",
    "head_file",
    "shown_heads",
    "grid_desc",
    "head_desc",
    "grid_figure",
    "classes_csv",
    "classes_table",
    "site_files",
]

#: Where the page's generated files go.
DIR = "generated/real-heads"
#: What the page's JavaScript reads first: the sentences and where each one's data is.
INDEX_PATH = f"{DIR}/index.json"
#: Weights in the JSON are whole numbers of thousandths (0.677 is 677): a third of the bytes.
SCALE = 1000


def head_name(head: Head) -> str:
    """``layer 1, head 3`` for ``(0, 2)``: the page counts from 1."""
    return f"layer {head[0] + 1}, head {head[1] + 1}"


def number_label(h: Heads, layer: int, n: int) -> str:
    """The number that put a head in its class, named for what it measures: ``share 1.00``,
    ``entropy 0.89`` (a broad head), ``max 0.27`` (an "other" head's largest share)."""
    what = NUMBER_SHORT[rh.NUMBERS[h.classes[layer][n]]]
    return f"{what} {fmt.fixed(float(h.score[layer, n]), 2)}"


def class_label(h: Heads, layer: int, n: int) -> str:
    """What the grid prints under a head, two lines: its class, then its number (``prev``,
    ``share 1.00``)."""
    return f"{SHORT[h.classes[layer][n]]}\n{number_label(h, layer, n)}"


def _json(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sentence_data(h: Heads) -> dict[str, Any]:
    """One sentence's data: tokens, every head's weights (thousandths), classes and scores (as text)."""
    return {
        "key": h.sentence.key,
        "text": h.sentence.text,
        "tokens": list(h.tokens),
        "weights": np.rint(h.attentions * SCALE).astype(int).tolist(),  # (L, H, T, T)
        "classes": [list(row) for row in h.classes],  # (L, H)
        # (L, H): the score that put each head in its class, as the page prints it
        "score": [[fmt.fixed(float(x), 2) for x in row] for row in h.score],
    }


def index_data(f: RealHeads) -> dict[str, Any]:
    """What the page's script reads first: sizes, classes, and each sentence's file."""
    return {
        "n_layer": f.n_layer,
        "n_head": f.n_head,
        "scale": SCALE,
        # each class, and what the number that put a head in it measures (long and short)
        "classes": [
            {
                "id": c,
                "label": rh.LABELS[c],
                "number": rh.NUMBERS[c],
                "number_short": NUMBER_SHORT[rh.NUMBERS[c]],
            }
            for c in rh.CLASSES
        ],
        "short": SHORT,
        # what the grid shows first: the previous-token head on the first sentence
        "start": {
            "sentence": f.heads[0].sentence.key,
            "layer": f.previous[0],
            "head": f.previous[1],
        },
        "sentences": [
            {
                "key": h.sentence.key,
                "text": h.sentence.text,
                "shows": h.sentence.shows,
                "n_tokens": len(h.tokens),
                "src": f"{h.sentence.key}.json",
                "grid": f"{h.sentence.key}-grid.svg",
            }
            for h in f.heads
        ],
    }


def grid_file(key: str) -> str:
    """The grid figure of a sentence, a path inside the site."""
    return f"{DIR}/{key}-grid.svg"


def head_file(key: str, head: Head) -> str:
    """One head's large figure for a sentence (its CSV twin has the same stem)."""
    return f"{DIR}/{key}-L{head[0] + 1}H{head[1] + 1}.svg"


def shown_heads(f: RealHeads) -> dict[str, tuple[str, Head]]:
    """The heads the page shows large, by name: ``(sentence key, head)``.

    ``previous``: the previous-token head on the river sentence; ``it_tired`` and ``it_wide``:
    the head that sends "it" most to "animal" in the tired sentence, in both sentences;
    ``copy``: the head that sends repeated words most to their copies.
    """
    tired, wide = f.it.endings
    it_head = f.it.top(tired, rh.NOUNS[0])
    return {
        "previous": (rh.BANK[0], f.previous),
        "it_tired": (tired, it_head),
        "it_wide": (wide, it_head),
        "copy": (rh.REPEAT, rh.best_head(f.copies.share)),
    }


def grid_desc(h: Heads) -> str:
    """The grid's text alternative: how many heads in each class, and where to find each head."""
    counts = ", ".join(f"{rh.LABELS[c]} {h.count(c)}" for c in rh.CLASSES if h.count(c))
    return (
        f"All {h.attentions.shape[0] * h.attentions.shape[1]} heads of all-MiniLM-L6-v2 "
        f'on "{h.sentence.text}", layers down and heads across, each a small heatmap with its '
        f"class and its number under it: the share its class's place gets, a broad head's "
        f"normalised entropy, or an other head's largest share. Heads per class: {counts}. "
        "The table beside the figure lists each head's class and number."
    )


def head_desc(h: Heads, head: Head) -> str:
    """A large head's text alternative: where each token looks most, with the weight."""
    w = h.attentions[head]  # (T, T)
    looks = "; ".join(
        f"{t} → {h.tokens[int(np.argmax(row))]} {fmt.fixed(float(row.max()), 2)}"
        for t, row in zip(h.tokens, w)
    )
    return (
        f'Heatmap of {head_name(head)} on "{h.sentence.text}". Each token, then the token '
        f"it looks at most and the weight: {looks}."
    )


def grid_figure(h: Heads, p: Palette = LIGHT) -> str:
    """Every head of one sentence at once, as SVG in scheme ``p``: thumbnails with their class and
    number, and the key to the numbers under the grid."""
    L, H = h.score.shape
    # three short lines under each thumbnail, so that no two heads' labels meet: prev / share / 1.00
    labels = [
        [class_label(h, layer, n).replace(" ", "\n") for n in range(H)]
        for layer in range(L)
    ]
    return grid_svg(
        h.attentions,
        labels,
        f'All heads: "{h.sentence.text}"',
        grid_desc(h),
        p,
        key=GRID_KEY,
    )


def classes_csv(h: Heads) -> str:
    """Every head's class, score and six measures, one row per head, and what its score is
    (``score_is``: share, normalised entropy or largest share)."""
    return classes_table(h.classes, h.score, h.scores)


def classes_table(
    classes: Sequence[Sequence[str]], score: np.ndarray, scores: np.ndarray
) -> str:
    """:func:`classes_csv` of any heads: ``classes`` and ``score`` from
    :func:`.real_heads.classify`, ``scores`` ``(L, H, 6)`` from :func:`.real_heads.head_scores`
    (the run box's grid CSV, ``figures.js`` ``classesCsv``, is held to it)."""
    rows = [
        [
            layer + 1,
            n + 1,
            rh.LABELS[classes[layer][n]],
            float(score[layer, n]),
            *scores[layer, n],
            rh.NUMBERS[classes[layer][n]],
        ]
        for layer in range(scores.shape[0])
        for n in range(scores.shape[1])
    ]
    return figure_files.table_csv(
        ["layer", "head", "class", "score", *rh.MEASURES, "score_is"], rows
    )


def _bank_files(f: RealHeads) -> dict[str, str]:
    layers = list(range(f.n_layer + 1))
    draw = partial(
        grids.lines_svg,
        layers,
        {
            "river bank vs savings bank": f.bank.senses,
            "river bank vs river bank (another sentence)": f.bank.same,
            "bank vs an unrelated word (mean)": f.bank.unrelated.mean(axis=1),
            "bank vs an unrelated word (largest)": f.bank.unrelated.max(axis=1),
        },
        "bank's vectors: cosine going in (0) and after each layer",
        "layer (0: going in)",
        "cosine",
        logx=False,
        legend_below=True,
    )
    u = f.bank.unrelated  # (L + 1, pairs)
    rows = [
        [n, f.bank.senses[n], f.bank.same[n], u[n].mean(), u[n].max()] for n in layers
    ]
    csv = figure_files.table_csv(
        [
            "layer",
            "river_vs_savings",
            "river_vs_river",
            "unrelated_mean",
            "unrelated_largest",
        ],
        rows,
    )
    return {
        **figure_files.themed(f"{DIR}/bank-cosine.svg", draw),
        f"{DIR}/bank-cosine.csv": csv,
    }


def _head_files(f: RealHeads) -> dict[str, str]:
    files = {}
    for key, head in shown_heads(f).values():
        h = f.sentence(key)
        path = head_file(key, head)
        draw = partial(
            head_svg,
            h.attentions[head],
            h.tokens,
            f'{head_name(head)}: "{h.sentence.text}"',
            head_desc(h, head),
        )
        files.update(figure_files.themed(path, draw))
        files[path.replace(".svg", ".csv")] = figure_files.table_csv(
            ["query", *h.tokens],
            [[t, *row] for t, row in zip(h.tokens, h.attentions[head])],
        )
    return files


def site_files() -> dict[str, str]:
    """Every file the page needs in the site, ``{path inside the site: text}``."""
    f = facts()
    files = {INDEX_PATH: _json(index_data(f)) + "\n"}
    for h in f.heads:
        key = h.sentence.key
        files[f"{DIR}/{key}.json"] = _json(sentence_data(h)) + "\n"
        files.update(figure_files.themed(grid_file(key), partial(grid_figure, h)))
        files[grid_file(key).replace(".svg", ".csv")] = classes_csv(h)
    return {**files, **_bank_files(f), **_head_files(f)}
