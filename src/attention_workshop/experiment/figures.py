"""Deterministic SVG figures (no dates, no random ids) in the page's two colour schemes, and their CSV twins.

Every figure is drawn twice, by :func:`themed`: ``name.svg`` in the light scheme's colours and
``name-dark.svg`` (:func:`dark_name`) in the dark scheme's, both on a transparent background.
:func:`workshop_site.render.figure` shows the one that matches the reader's scheme
(Material's ``#only-light`` / ``#only-dark``) and links the light SVG and the CSV for download.
To add a figure: write a function ``draw(palette) -> SVG text`` (see :mod:`.charts`), then
``r.figures.update(themed("my-figure.svg", draw))`` and a CSV in ``r.tables["my-figure.csv"]``.

:func:`draw` makes every figure of a run from the chapters' typed results.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from ..chapters import module_0, module_1, module_2, module_3, step_by_step
from ..chapters.inside_the_model import TOY
from ..chapters.layer_sizes import step_costs
from ..gpt2 import GPT2
from ..handcalc import K_CAT, WORDS
from ..toy import AXES, SENT_RIVER, WIRED_CHANNELS
from . import charts, charts_mechanisms, charts_scale, charts_steps, fmt
from .figure_files import dark_name, open_full_size, table_csv, themed
from .grids import LABELLED_WORDS, heatmap_svg, lines_svg
from .plotting import DARK, LIGHT, PALETTES, Palette
from .results import Results

__all__ = [
    "Palette",
    "LIGHT",
    "DARK",
    "PALETTES",
    "dark_name",
    "open_full_size",
    "themed",
    "draw",
    "heatmap_svg",
    "lines_svg",
    "LABELLED_WORDS",
    "table_csv",
]


def _themed(
    r: Results, name: str, draw_one: Callable[[Palette], str]
) -> dict[str, str]:
    """:func:`themed`, strict for the site's own sentence (the one the pages show)."""
    return themed(name, draw_one, strict=r.sentence == SENT_RIVER)


def draw(r: Results) -> None:
    """Add the run's figures (SVG, both schemes) and their numbers (CSV) to ``r.figures`` and ``r.tables``."""
    _draw_modules_0_1(r)
    _draw_modules_2_3(r)
    _draw_mechanisms(r)
    _draw_step_by_step(r)
    _draw_gpt2(r)
    _draw_log_map(r)


def _weights_csv(words: Sequence[str], w: np.ndarray) -> str:
    return table_csv(["query", *words], [[q, *row] for q, row in zip(words, w)])


def _draw_modules_0_1(r: Results) -> None:
    """Modules 0 and 1: the words, softmax, bank's move, and the weights with nothing learned."""
    voc, sm, simple = r[module_0.VOCABULARY], r[module_0.SOFTMAX], r[module_1.SIMPLE]
    pts = {w: voc.points[w] for w in voc.plotted}
    r.figures.update(
        _themed(r, "words.svg", partial(charts.word_arrows, pts, AXES[:2]))
    )
    r.tables["words.csv"] = table_csv(
        ["word", *AXES[:2]], [[w, *xy] for w, xy in pts.items()]
    )
    cases = charts.softmax_cases(sm)
    r.figures.update(_themed(r, "softmax.svg", partial(charts.softmax_bars, cases)))
    r.tables["softmax.csv"] = table_csv(
        ["scores", "weight_1", "weight_2", "weight_3"],
        [[label, *ws] for label, _, ws, _ in cases],
    )
    moves = charts.bank_moves(simple)
    r.figures.update(_themed(r, "bank-moves.svg", partial(charts.bank_arrows, moves)))
    r.tables["bank-moves.csv"] = table_csv(
        ["row", *AXES[:2]], [[name, *xy] for name, xy in moves]
    )
    for name, run in (
        ("simple-weights.svg", simple.first),
        ("simple-weights-money.svg", simple.contrast),
    ):
        title = f'Nothing learned, "{" ".join(run.sentence)}"'
        r.figures.update(
            _themed(
                r,
                name,
                partial(heatmap_svg, run.weights, run.sentence, run.sentence, title),
            )
        )
        r.tables[name.replace(".svg", ".csv")] = _weights_csv(run.sentence, run.weights)


def _draw_modules_2_3(r: Results) -> None:
    """Modules 2 and 3: the wired head with and without the mask, and sqrt(d_k)."""
    words = r.sentence
    wired, dk, causal = r[module_2.WIRED_HEAD], r[module_2.SQRT_DK], r[module_3.CAUSAL]
    title = f'Wired head, "{" ".join(words)}"'
    r.figures.update(
        _themed(
            r,
            "wired-weights.svg",
            partial(heatmap_svg, wired.weights, words, words, f"{title}, no mask"),
        )
    )
    r.tables["wired-weights.csv"] = _weights_csv(words, wired.weights)
    r.figures.update(
        _themed(
            r,
            "wired-weights-causal.svg",
            partial(
                heatmap_svg,
                causal.weights,
                words,
                words,
                f"{title}, causal mask",
                masked=causal.future,
            ),
        )
    )
    r.tables["wired-weights-causal.csv"] = _weights_csv(words, causal.weights)
    series = {"without scaling": dk.max_raw, "divided by sqrt(d_k)": dk.max_scaled}
    r.figures.update(
        _themed(
            r,
            "sqrt-dk.svg",
            partial(
                lines_svg,
                module_2.DK_VALUES,
                series,
                f"Largest softmax weight among {dk.keys} keys, averaged",
                "d_k (log scale)",
                "mean largest weight",
            ),
        )
    )
    rows = zip(module_2.DK_VALUES, dk.var_raw, dk.var_scaled, dk.max_raw, dk.max_scaled)
    r.tables["sqrt-dk.csv"] = table_csv(
        ["d_k", "var_raw", "var_scaled", "max_weight_raw", "max_weight_scaled"],
        [list(x) for x in rows],
    )


def _draw_mechanisms(r: Results) -> None:
    """The mechanism with the pages' numbers: the last word's blend (Module 1), its query's path (Module 2),
    the causal mask on the scores and the head split in two (Module 3)."""
    run, last = r[module_1.SIMPLE].first, len(r.sentence) - 1
    X, w, out = run.X, run.weights[last], run.out[last]
    draw_blend = partial(charts_mechanisms.blend, run.sentence, X, w, out, AXES, last)
    r.figures.update(_themed(r, "blend.svg", draw_blend))
    r.tables["blend.csv"] = table_csv(
        ["word", "weight", *AXES],
        [
            *([word, w[j], *X[j]] for j, word in enumerate(run.sentence)),
            ["output", "", *out],
        ],
    )
    h, words = r[module_2.WIRED_PARTS].wired, r.sentence
    path = (h.Q[last], h.K, h.scores[last], h.weights[last], h.out[last])
    draw_path = partial(charts_mechanisms.one_query, words, *path, last)
    r.figures.update(_themed(r, "one-query.svg", draw_path))
    r.tables["one-query.csv"] = table_csv(
        ["quantity", "word", "numbers"],
        [
            ["query", words[last], fmt.short_vec(h.Q[last])],
            *(["key", word, fmt.short_vec(h.K[j])] for j, word in enumerate(words)),
            *(["score", word, h.scores[last, j]] for j, word in enumerate(words)),
            *(["weight", word, h.weights[last, j]] for j, word in enumerate(words)),
            ["output", words[last], fmt.vec(h.out[last], 6)],
        ],
    )
    _draw_mask_and_heads(r)


def _draw_mask_and_heads(r: Results) -> None:
    """Module 3's causal mask on the scores and its head split in two."""
    c, words = r[module_3.CAUSAL], r.sentence
    draw_mask = partial(charts_mechanisms.causal_mask, words, c.scores, c.future)
    r.figures.update(_themed(r, "causal-mask.svg", draw_mask))
    r.tables["causal-mask.csv"] = table_csv(
        ["query", "key", "score", "masked"],
        [
            [a, b, c.scores[i, j], "yes" if c.future[i, j] else "no"]
            for i, a in enumerate(words)
            for j, b in enumerate(words)
        ],
    )
    split = (words, c.Q, c.K, c.heads, c.future, WIRED_CHANNELS)
    draw_heads = partial(charts_mechanisms.heads_split, *split)
    r.figures.update(_themed(r, "heads-split.svg", draw_heads))
    r.tables["heads-split.csv"] = table_csv(
        ["head", "query", *words],
        [
            [WIRED_CHANNELS[n], a, *c.heads[n, i]]
            for n in range(len(c.heads))
            for i, a in enumerate(words)
        ],
    )


def _draw_step_by_step(r: Results) -> None:
    """ "the cat sat": the keys and sat's query as arrows, and the weights with and without the mask."""
    score = r[step_by_step.STEP_SUM].calc  # "sat", steps 1 to 4
    keys = [(w, (float(k[0]), float(k[1]))) for w, k in zip(WORDS, K_CAT)]
    q = (float(score.q[0]), float(score.q[1]))
    draw_proj = partial(
        charts_steps.projections,
        keys,
        q,
        WORDS[score.query],
        [float(x) for x in score.raw],
    )
    r.figures.update(_themed(r, "cat-sat-projections.svg", draw_proj))
    r.tables["cat-sat-projections.csv"] = table_csv(
        ["key", "k_1", "k_2", "q_1", "q_2", "q_dot_k"],
        [[w, *k, *q, d] for (w, k), d in zip(keys, score.raw)],
    )
    runs = r[step_by_step.PRACTICE].runs
    masked, unmasked = runs["base"].weights, runs["no_mask"].weights
    r.figures.update(
        _themed(
            r,
            "cat-sat-weights.svg",
            partial(charts_steps.mask_bars, WORDS, unmasked, masked),
        )
    )
    r.tables["cat-sat-weights.csv"] = table_csv(
        ["query", "key", "no_mask", "causal_mask"],
        [
            [WORDS[i], WORDS[j], unmasked[i, j], masked[i, j]]
            for i in range(len(WORDS))
            for j in range(len(WORDS))
        ],
    )


def _draw_gpt2(r: Results) -> None:
    """Inside the model: GPT-2's matrices beside the toy's, to scale, and each step's FLOPs at full context."""
    blocks = charts_scale.matrix_blocks(TOY, GPT2)
    r.figures.update(
        _themed(r, "gpt2-blocks.svg", partial(charts_scale.blocks, blocks))
    )
    r.tables["gpt2-blocks.csv"] = table_csv(
        ["matrix", "rows", "columns", "numbers"],
        [[name, rows, cols, rows * cols] for name, rows, cols, _ in blocks],
    )
    costs = step_costs(GPT2.n_ctx, GPT2)
    bars = [(s.step.title, s.flops) for s in costs.steps]
    r.figures.update(
        _themed(r, "gpt2-flops.svg", partial(charts_scale.flop_bars, bars, GPT2.n_ctx))
    )
    r.tables["gpt2-flops.csv"] = table_csv(["step", "flops"], [list(b) for b in bars])


#: The page of each chapter's sections, for the map of results.log.
_PAGES = (
    ("Module 0", module_0.SECTIONS),
    ("Module 1", module_1.SECTIONS),
    ("Module 2", module_2.SECTIONS),
    ("Module 3", module_3.SECTIONS),
    ("Step by step", step_by_step.SECTIONS),
)


def _draw_log_map(r: Results) -> None:
    """results.log as a map: each section's lines, on the row of the page that quotes it."""
    page_of = {s.key: page for page, sections in _PAGES for s in sections}
    spans = [
        (page_of.get(s.key, "other"), s.label, s.start, s.end)
        for s in r.sections.values()
    ]
    pages = [p for p, _ in _PAGES if any(p == page for page, *_ in spans)]
    draw_map = partial(charts_scale.log_map, spans, pages, len(r.lines))
    r.figures.update(_themed(r, "log-map.svg", draw_map))
    r.tables["log-map.csv"] = table_csv(
        ["section", "page", "first_line", "last_line"],
        [[label, page, a, b] for page, label, a, b in spans],
    )
