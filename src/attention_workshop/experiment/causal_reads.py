"""The causal page's reads (:mod:`attention_workshop.chapters.causal_heads.reads`): the logit
lens figure, the weight-and-norm table, Olsson's prefix-matching grid, the copying table, and
their values for the prose.

The numbers come from :func:`.causal_page.facts` (kept in the build's cache); the figures are
drawn with the page's other helpers, in both colour schemes.
"""

from __future__ import annotations

import html
from functools import partial

from ..chapters import causal_heads as ch
from ..chapters.causal_heads import CausalHeads
from ..chapters.causal_heads.reads import HALF, rank_of, split
from . import figure_files, fmt
from .causal_page import DIR, facts, head_name, score_grid_svg
from .plotting import LIGHT, Palette, pyplot, svg

__all__ = [
    "LENS",
    "PREFIX",
    "lens_desc",
    "lens_svg",
    "prefix_desc",
    "prefix_svg",
    "split_table",
    "copying_table",
    "values",
    "site_files",
]

LENS = f"{DIR}/logit-lens.svg"
PREFIX = f"{DIR}/prefix-matching.svg"


def _two(x: float) -> str:
    return fmt.fixed(float(x), 2)


def _shown(text: str) -> str:
    return text.replace("\n", "↵").replace(" ", "␣")


def lens_desc(f: CausalHeads) -> str:
    parts = "; ".join(
        f"{lens.key} (final guess {_shown(lens.token)}): "
        + ", ".join(str(int(x)) for x in lens.ranks)
        for lens in f.reads.lens
    )
    return (
        "Line chart: the rank of each sentence's final top-1 token after every layer, read "
        f"through the final norm and the embeddings (1 = first). Ranks from layer 1 to {f.n_layer}: "
        f"{parts}."
    )


def lens_svg(f: CausalHeads, p: Palette = LIGHT) -> str:
    """Each sentence's final guess: its rank after every layer (logit lens), 1 at the top."""
    plt = pyplot(p)
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    layers = list(range(1, f.n_layer + 1))
    markers = ("o", "s", "^")
    for n, lens in enumerate(f.reads.lens):
        ax.plot(
            layers,
            [int(x) for x in lens.ranks],
            marker=markers[n % 3],
            markersize=4,
            color=p.series[n],
            label=f"{lens.key}: {_shown(lens.token)}",
        )
    ax.set_yscale("log")
    ticks = [
        k
        for k in (1, 2, 5, 10, 20, 50)
        if k <= max(int(x.ranks.max()) for x in f.reads.lens) * 2
    ]
    ax.set_yticks(ticks, labels=[str(k) for k in ticks])
    ax.minorticks_off()
    ax.invert_yaxis()
    ax.set_xlabel("layer")
    ax.set_ylabel("rank of the final guess")
    title = "Logit lens: the final guess, layer by layer"
    ax.set_title(title, fontsize=12, loc="left")
    ax.grid(True)
    ax.legend(frameon=False)
    return svg(fig, title, lens_desc(f))


def prefix_desc(f: CausalHeads) -> str:
    m = f.reads.prefix_mean
    rows = "; ".join(
        f"layer {n + 1}: " + ", ".join(_two(x) for x in row) for n, row in enumerate(m)
    )
    return (
        f"Prefix-matching score of every head on {HALF} random tokens repeated once, averaged "
        f"over the seeds {', '.join(str(s) for s in f.reads.seeds)}; {f.n_layer} layers down, "
        f"{f.n_head} heads across. Scores by layer, head 1 first: {rows}."
    )


#: The rows of :func:`split_table`: (label, layers), ``None`` for every layer.
_GROUPS = (("every layer", None), ("last layers", ch.LAST_LAYERS))


def split_table() -> str:
    """The last token's weight beside its norm share: first token, tokens between, itself."""
    f = facts()
    lines = [
        "| sentence | layers | first token: weight, norm | tokens between: weight, norm "
        "| itself: weight, norm |",
        "|:--|:--|--:|--:|--:|",
    ]
    for rd in f.reads.reads:
        for label, layers in _GROUPS:
            s = split(rd, layers)
            name = label if layers is None else f"last {layers}"
            cells = " | ".join(f"{_two(s[0, k])}, {_two(s[1, k])}" for k in range(3))
            lines.append(f"| {rd.key} | {name} | {cells} |")
    return "\n".join(lines) + "\n"


def copying_table() -> str:
    """The strongest prefix-matching heads: prefix score and their direct effect on the logit."""
    f = facts()
    m = f.reads.prefix_mean
    lines = [
        "| head | prefix-matching score | logit raise over the mean | queries raised "
        "| median rank of the attended token |",
        "|:--|--:|--:|--:|--:|",
    ]
    for c in f.reads.copying:
        lines.append(
            f"| {html.escape(head_name(c.head))} | {_two(m[c.head])} | {fmt.fixed(c.raise_, 4)} | "
            f"{_two(c.positive)} | {fmt.count(round(c.median_rank))} |"
        )
    return "\n".join(lines) + "\n"


def _range(xs: list[float]) -> tuple[str, str]:
    return _two(min(xs)), _two(max(xs))


def _split_values(f: CausalHeads) -> dict[str, str]:
    every = [split(rd, None) for rd in f.reads.reads]
    last = [split(rd, ch.LAST_LAYERS) for rd in f.reads.reads]
    out: dict[str, str] = {}
    for name, group in (("all", every), ("last", last)):
        for k, part in ((0, "first"), (1, "mid")):
            for row, kind in ((0, "w"), (1, "n")):
                lo, hi = _range([float(s[row, k]) for s in group])
                out[f"{name}_{part}_{kind}_min"], out[f"{name}_{part}_{kind}_max"] = (
                    lo,
                    hi,
                )
    word = max(
        float(rd.weights[-ch.LAST_LAYERS :, :, 1:-1].max()) for rd in f.reads.reads
    )
    out["word_max"] = _two(word)
    return out


def _lens_values(f: CausalHeads) -> dict[str, str]:
    lens = sorted(f.reads.lens, key=lambda x: x.first_top)
    early, late = lens[:-1], lens[-1]
    return {
        "lens_early": str(len(early)),
        "lens_first_min": str(max(x.first_top for x in early)),
        "lens_top_min": str(min(x.n_top for x in early)),
        "lens_late": late.key,
        "lens_late_first": str(late.first_top),
    }


def values(f: CausalHeads | None = None) -> dict[str, str]:
    """The reads' values, by name (without the ``causal_heads.`` prefix)."""
    f = facts() if f is None else f
    m = f.reads.prefix_mean
    top = f.reads.copying[0].head
    return {
        **_lens_values(f),
        **_split_values(f),
        "olsson_half": str(HALF),
        "olsson_seeds": ", ".join(str(s) for s in f.reads.seeds),
        "olsson_head": head_name(top),
        "olsson_score": _two(m[top]),
        "olsson_page_rank": str(rank_of(m, f.induction_head)),
        "olsson_page_score": _two(m[f.induction_head]),
        "top": str(len(f.reads.copying)),
        "weak_rank": fmt.count(ch.WEAK_RANK),
        "vocab": fmt.count(int(f.reads.vocab)),
    }


def _lens_files(f: CausalHeads) -> dict[str, str]:
    rows = [
        [lens.key, n + 1, int(lens.ranks[n]), float(lens.probs[n])]
        for lens in f.reads.lens
        for n in range(f.n_layer)
    ]
    csv = figure_files.table_csv(["sentence", "layer", "rank", "probability"], rows)
    return {
        **figure_files.themed(LENS, partial(lens_svg, f)),
        LENS.replace(".svg", ".csv"): csv,
    }


#: The note under the page's induction grid, and what it says under the prefix-matching one.
_GRID_NOTE = (
    "each cell: the weight a repeated token gives the token after its first copy"
)
_PREFIX_NOTE = "each cell: the weight on the token after the earlier copy"


def prefix_svg(f: CausalHeads, p: Palette = LIGHT) -> str:
    """Every head's prefix-matching score, drawn as the page's induction grid, with its own note."""
    out = score_grid_svg(
        f.reads.prefix_mean, "Prefix-matching score on random tokens", prefix_desc(f), p
    )
    if out.count(_GRID_NOTE) != 1:
        raise ValueError(
            "the score grid's note changed: update causal_reads._GRID_NOTE"
        )
    return out.replace(_GRID_NOTE, _PREFIX_NOTE)


def _prefix_files(f: CausalHeads) -> dict[str, str]:
    m = f.reads.prefix_mean
    draw = partial(prefix_svg, f)
    seeds = [f"seed_{s}" for s in f.reads.seeds]
    rows = [
        [
            layer + 1,
            h + 1,
            float(m[layer, h]),
            *(float(p[layer, h]) for p in f.reads.prefix),
        ]
        for layer in range(f.n_layer)
        for h in range(f.n_head)
    ]
    csv = figure_files.table_csv(["layer", "head", "mean", *seeds], rows)
    return {**figure_files.themed(PREFIX, draw), PREFIX.replace(".svg", ".csv"): csv}


def site_files() -> dict[str, str]:
    """The reads' figures and CSVs, ``{path inside the site: text}``."""
    f = facts()
    return {**_lens_files(f), **_prefix_files(f)}
