"""The "A causal model" page's files and numbers: figures, CSVs, each sentence's JSON, the prose's values.

Everything comes from :func:`attention_workshop.chapters.causal_heads.facts` (SmolLM2-135M-Instruct,
run by the package) and is written with the one formatter. Every figure is drawn in both colour
schemes (:func:`.figures.themed`). The page's Markdown is in :mod:`.causal_md`.
"""

from __future__ import annotations

import json
import math
from functools import partial
from typing import Any
from xml.sax.saxutils import escape

import numpy as np

from ..chapters import causal_heads as ch
from ..chapters.causal_heads import CausalHeads, Head, Run
from . import cache, figure_files, fmt
from .causal_steps import LEVELS, head_view, level, steps_data
from .head_figures import _fill, _level, _open, _shade, _two, head_svg, strong
from .plotting import LIGHT, Palette, pyplot, svg

__all__ = [
    "DIR",
    "SCALE",
    "facts",
    "head_name",
    "head_file",
    "shown_heads",
    "head_desc",
    "induction_desc",
    "score_grid_svg",
    "rope_svg",
    "rope_desc",
    "sentence_data",
    "steps_file",
    "steps_data",
    "LEVELS",
    "level",
    "head_view",
    "values",
    "site_files",
]

#: Where the page's generated files go.
DIR = "generated/causal"
#: Weights in the JSON are whole numbers of thousandths (0.677 is 677).
SCALE = 1000
_FACTS: list[CausalHeads] = []


def facts() -> CausalHeads:
    """The page's measurements, kept on disk by a site build (:mod:`.cache`): keyed on the bytes
    of the model's and the measures' code and on the environment (the model's wheel among the
    distributions, the lock files' bytes); read once per process (a build's: the site's hooks
    import the package afresh at each build), and used again with the cache off since."""
    if _FACTS:
        return _FACTS[0]
    if not cache.enabled():
        return ch.facts()
    _FACTS.append(cache.call(ch.facts))
    return _FACTS[0]


def head_name(head: Head) -> str:
    """``layer 17, head 1`` for ``(16, 0)``: the page counts from 1."""
    return f"layer {head[0] + 1}, head {head[1] + 1}"


def head_file(name: str) -> str:
    return f"{DIR}/{name}-head.svg"


def shown_heads(f: CausalHeads) -> dict[str, Head]:
    """The heads the page draws large on the repeated sentence."""
    return {"previous": f.previous_head, "induction": f.induction_head}


def head_desc(run: Run, head: Head) -> str:
    """A large head's text alternative: where each token looks most, with the weight."""
    looks = "; ".join(
        f"{t} → {run.tokens[int(np.argmax(row))]} {fmt.fixed(float(row.max()), 2)}"
        for t, row in zip(run.tokens, run.attentions[head])
    )
    return (
        f'Heatmap of {head_name(head)} on "{run.sentence.text}". Each token, then the token '
        f"it looks at most and the weight: {looks}."
    )


def induction_desc(f: CausalHeads) -> str:
    """The induction grid's text alternative: every head's score, layer by layer."""
    rows = "; ".join(
        f"layer {n + 1}: " + ", ".join(fmt.fixed(float(x), 2) for x in row)
        for n, row in enumerate(f.induction)
    )
    return (
        f"Induction score of every head of SmolLM2-135M-Instruct, {f.n_layer} layers down and "
        f"{f.n_head} heads across. The largest is {head_name(f.induction_head)}, "
        f"{fmt.fixed(float(f.induction[f.induction_head]), 2)}. Scores by layer, head 1 first: {rows}."
    )


def score_grid_svg(
    scores: np.ndarray, title: str, desc: str, p: Palette = LIGHT
) -> str:
    """An ``(L, H)`` grid of scores between 0 and 1, each printed in its cell, layers down."""
    L, H = scores.shape
    cw, rh, left, top = 46, 20, 70, 58
    width, height = left + H * cw + 12, top + L * rh + 30
    out = _open(width, height, title, desc, p)
    ink, muted, from_shade = _fill(p.fg), _fill(p.muted), strong(p)
    out.append(f'<text {ink} x="8" y="20" font-size="15">{escape(title)}</text>')
    for h in range(H):
        x = left + (h + 0.5) * cw
        out.append(
            f'<text {ink} x="{x:g}" y="{top - 8}" font-size="12" text-anchor="middle">head {h + 1}</text>'
        )
    for layer in range(L):
        y = top + layer * rh
        out.append(
            f'<text {ink} x="{left - 6}" y="{y + 14}" font-size="12" text-anchor="end">layer {layer + 1}</text>'
        )
        for h in range(H):
            w = float(scores[layer, h])
            k = max(0, min(_level(w), 10))
            colour = p.bg if k >= from_shade else p.fg
            x = left + h * cw
            out.append(
                f'<rect x="{x}" y="{y}" width="{cw - 2}" height="{rh - 2}" '
                f'style="fill: {_shade(p, k)}"/>'
                f'<text {_fill(colour)} x="{x + cw / 2 - 1:g}" y="{y + 14}" font-size="11" '
                f'text-anchor="middle">{_two(w)}</text>'
            )
    out.append(
        f'<text {muted} x="8" y="{height - 8}" font-size="12">'
        "each cell: the weight a repeated token gives the token after its first copy</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def rope_svg(f: CausalHeads, p: Palette = LIGHT) -> str:
    """The first layer's score of the phrase's two words by distance, with RoPE and without."""
    pos = f.position
    plt = pyplot(p)
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    d = [int(x) for x in pos.distances]
    ax.plot(d, list(pos.curve), marker="o", color=p.series[0], label="with RoPE")
    ax.plot(
        d, [pos.flat] * len(d), linestyle="--", color=p.series[1], label="without RoPE"
    )
    ax.set_xticks(d[::2])
    ax.set_xlabel("distance: how many tokens the key stands before the query")
    ax.set_ylabel("score")
    title = f"Layer 1, head {pos.head + 1}: {ch.PHRASE[0]} looking at {ch.PHRASE[1]}"
    ax.set_title(title, fontsize=12, loc="left")
    ax.grid(True)
    ax.legend(frameon=False)
    return svg(fig, title, rope_desc(f))


def rope_desc(f: CausalHeads) -> str:
    p = f.position
    pts = ", ".join(
        f"{d}: {fmt.fixed(float(s), 2)}" for d, s in zip(p.distances, p.curve)
    )
    return (
        f"Line chart: the first layer's head {p.head + 1} scores the query {ch.PHRASE[0]} against "
        f"the key {ch.PHRASE[1]} placed a distance before it. With RoPE, by distance: {pts}. "
        f"Without RoPE the score is {fmt.fixed(p.flat, 2)} at every distance."
    )


def sentence_data(run: Run) -> dict[str, Any]:
    """One sentence's data: tokens, every head's weights (thousandths), scores, next tokens."""
    return {
        "key": run.sentence.key,
        "text": run.sentence.text,
        "tokens": list(run.tokens),
        "weights": np.rint(run.attentions * SCALE).astype(int).tolist(),  # (L, H, T, T)
        "previous": [[fmt.fixed(float(x), 2) for x in row] for row in run.previous],
        "first": [[fmt.fixed(float(x), 2) for x in row] for row in run.first],
        "next": [{"text": n.text, "p": fmt.fixed(n.p, 3)} for n in run.next_tokens],
    }


def steps_file(key: str) -> str:
    """Where one sentence's seven-steps data goes (the explorer fetches it when picked)."""
    return f"{DIR}/steps-{key}.json"


def _json(data: object) -> str:
    return (
        json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        + "\n"
    )


def _at_least(x: float, nd: int) -> str:
    """``x`` rounded down to ``nd`` decimals: "at least" that number stays true."""
    return fmt.fixed(math.floor(float(x) * 10**nd) / 10**nd, nd)


def values(f: CausalHeads | None = None) -> dict[str, str]:
    """Every value the page quotes, by name (without the ``causal_heads.`` prefix)."""
    f = facts() if f is None else f
    repeat = f.run(ch.REPEAT)
    q, t = f.cat
    firsts = [float(r.first.mean()) for r in f.runs]
    sinks = [int((r.first > 0.5).sum()) for r in f.runs]
    order = np.argsort(f.induction, axis=None)[::-1]
    return {
        **_model_values(f),
        **_last_values(f),
        "n_sentences": str(len(f.runs)),
        "share": fmt.num(ch.SHARE, 2),
        "previous_head": head_name(f.previous_head),
        "previous_min": _at_least(min(r.previous[f.previous_head] for r in f.runs), 2),
        "previous_heads": str(min(int((r.previous > ch.SHARE).sum()) for r in f.runs)),
        "first_min": _at_least(min(firsts), 2),
        "first_max": fmt.fixed(max(firsts), 2),
        "sink_heads_min": str(min(sinks)),
        "sink_heads_max": str(max(sinks)),
        "induction_head": head_name(f.induction_head),
        "induction_score": _two_dp(f.induction[f.induction_head]),
        "induction_second": head_name(_unravel(f.induction, int(order[1]))),
        "induction_second_score": _two_dp(f.induction.flat[order[1]]),
        "induction_third": head_name(_unravel(f.induction, int(order[2]))),
        "induction_third_score": _two_dp(f.induction.flat[order[2]]),
        "induction_fourth_score": _two_dp(f.induction.flat[order[3]]),
        "induction_pairs": str(len(f.pairs)),
        "cat_to_sat": _two_dp(repeat.attentions[(*f.induction_head, q, t)]),
        "cat_to_first": _two_dp(repeat.attentions[(*f.induction_head, q, 0)]),
        "cat_position": str(q + 1),
        "sat_position": str(t + 1),
        "induction_prev": _two_dp(repeat.previous[f.induction_head]),
        "previous_induction": _two_dp(f.induction[f.previous_head]),
        "clear": fmt.num(ch.CLEAR, 1),
        "sink_heads": str(ch.SINK_HEADS),
        "rope_min": _at_least(float(f.position.rope_diff.min()), 2),
        "rope_max": _two_dp(f.position.rope_diff.max()),
    }


def _model_values(f: CausalHeads) -> dict[str, str]:
    """The model's sizes."""
    return {
        "n_layer": str(f.n_layer),
        "n_head": str(f.n_head),
        "n_kv_head": str(f.n_kv_head),
        "n_heads": str(f.n_layer * f.n_head),
        "d_model": str(f.d_model),
        "head_size": str(f.head_size),
        "d_ff": str(f.d_ff),
        "group": str(f.n_head // f.n_kv_head),
    }


def _last_values(f: CausalHeads) -> dict[str, str]:
    """Where the last token's attention goes, in the last layers."""
    last = [float(r.attentions[..., -1, 0].mean()) for r in f.runs]
    rows = [ch.last_row(r.attentions, ch.LAST_LAYERS) for r in f.runs]  # (T,) each
    ends = [float(row[0] + row[-1]) for row in rows]
    middle = max(float(row[1:-1].max()) for row in rows)
    return {
        "last_first_min": _at_least(min(last), 2),
        "last_layers": str(ch.LAST_LAYERS),
        "ends": fmt.num(ch.ENDS, 1),
        "ends_min": _at_least(min(ends), 2),
        "ends_max": _two_dp(max(ends)),
        "middle": fmt.num(ch.MIDDLE, 2),
        "middle_max": _two_dp(middle),
    }


def _unravel(a: np.ndarray, flat: int) -> Head:
    layer, head = np.unravel_index(flat, a.shape)
    return int(layer), int(head)


def _two_dp(x: float) -> str:
    return fmt.fixed(float(x), 2)


def _head_files(f: CausalHeads) -> dict[str, str]:
    run, files = f.run(ch.REPEAT), {}
    for name, head in shown_heads(f).items():
        draw = partial(
            head_svg,
            run.attentions[head].astype(np.float64),
            run.tokens,
            f'{head_name(head)}: "{run.sentence.text}"',
            head_desc(run, head),
            causal=True,
        )
        files.update(figure_files.themed(head_file(name), draw))
        files[head_file(name).replace(".svg", ".csv")] = figure_files.table_csv(
            ["query", *run.tokens],
            [
                [t, *row]
                for t, row in zip(run.tokens, run.attentions[head].astype(float))
            ],
        )
    return files


def _grid_files(f: CausalHeads) -> dict[str, str]:
    path = f"{DIR}/induction-scores.svg"
    draw = partial(
        score_grid_svg, f.induction, "Induction score of every head", induction_desc(f)
    )
    rows = [
        [
            layer + 1,
            h + 1,
            float(f.induction[layer, h]),
            float(f.run(ch.REPEAT).previous[layer, h]),
        ]
        for layer in range(f.n_layer)
        for h in range(f.n_head)
    ]
    csv = figure_files.table_csv(["layer", "head", "induction", "previous"], rows)
    return {**figure_files.themed(path, draw), path.replace(".svg", ".csv"): csv}


def _rope_files(f: CausalHeads) -> dict[str, str]:
    p, path = f.position, f"{DIR}/rope-distance.svg"
    draw = partial(rope_svg, f)
    rows = [[int(d), float(s), p.flat] for d, s in zip(p.distances, p.curve)]
    csv = figure_files.table_csv(["distance", "with_rope", "without_rope"], rows)
    return {**figure_files.themed(path, draw), path.replace(".svg", ".csv"): csv}


def site_files() -> dict[str, str]:
    """Every file the page needs in the site, ``{path inside the site: text}``."""
    f = facts()
    files = {f"{DIR}/{r.sentence.key}.json": _json(sentence_data(r)) for r in f.runs}
    files |= {steps_file(r.sentence.key): _json(steps_data(r, f)) for r in f.runs}
    return {**files, **_head_files(f), **_grid_files(f), **_rope_files(f)}
