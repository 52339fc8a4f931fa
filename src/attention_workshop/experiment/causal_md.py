"""The "A causal model" page's Markdown and HTML: figures, the next-token table, the seven steps' FLOPs.

Every number comes from :func:`attention_workshop.chapters.causal_heads.facts` through the one
formatter; the files the figures point at are written by :mod:`.causal_page`.
"""

from __future__ import annotations

import html

from ..chapters import causal_heads as ch
from . import fmt
from .causal_page import (
    DIR,
    facts,
    head_desc,
    head_file,
    head_view,
    induction_desc,
    rope_desc,
    shown_heads,
    steps_data,
    steps_file,
)
from .causal_reads import (
    LENS,
    PREFIX,
    copying_table,
    lens_desc,
    prefix_desc,
    split_table,
)
from .figure_files import dark_name, open_full_size

__all__ = [
    "figure",
    "figure_parts",
    "causal_head_figure",
    "induction_figure",
    "rope_figure",
    "lens_figure",
    "prefix_figure",
    "split_table",
    "copying_table",
    "next_table",
    "steps_table",
    "downloads",
    "view_html",
    "explorer_html",
]


def figure(path: str, alt: str, caption: str) -> str:
    """A generated figure in the reader's colour scheme, with its text alternative, a link that
    opens it full size (its text is too small on a phone) and its SVG and CSV downloads (loaded
    lazily)."""
    csv = path.removesuffix(".svg") + ".csv"
    alt = html.escape(alt)
    return (
        f'<figure class="workshop-figure">\n'
        f'<img src="{path}#only-light" alt="{alt}" loading="lazy">\n'
        f'<img src="{dark_name(path)}#only-dark" alt="{alt}" loading="lazy">\n'
        f'<figcaption>{caption} {open_full_size(path)} · <a href="{path}" download>Download SVG</a> · '
        f'<a href="{csv}" download>numbers as CSV</a></figcaption>\n'
        f"</figure>\n"
    )


def figure_parts(name: str) -> tuple[str, str]:
    """A figure of the page by name (a head drawn large, ``previous`` or ``induction``, or
    ``induction-scores``, ``rope``, ``lens``, ``prefix``): its file and its text alternative.
    The page's figure and the notebook's (:mod:`.notebook`) are made of these."""
    f = facts()
    shown = shown_heads(f)
    if name in shown:
        return head_file(name), head_desc(f.run(ch.REPEAT), shown[name])
    others = {
        "induction-scores": (f"{DIR}/induction-scores.svg", induction_desc),
        "rope": (f"{DIR}/rope-distance.svg", rope_desc),
        "lens": (LENS, lens_desc),
        "prefix": (PREFIX, prefix_desc),
    }
    if name not in others:
        known = ", ".join([*shown, *others])
        raise ValueError(f"no figure {name!r} on the page; there are: {known}")
    path, desc = others[name]
    return path, desc(f)


def causal_head_figure(name: str, caption: str) -> str:
    """One of the heads drawn large on the repeated sentence, by name (``previous``, ``induction``)."""
    if name not in shown_heads(facts()):
        raise ValueError(
            f"no head {name!r} is drawn large; there are: {', '.join(shown_heads(facts()))}"
        )
    return figure(*figure_parts(name), caption)


def induction_figure(caption: str) -> str:
    return figure(*figure_parts("induction-scores"), caption)


def rope_figure(caption: str) -> str:
    return figure(*figure_parts("rope"), caption)


def lens_figure(caption: str) -> str:
    return figure(*figure_parts("lens"), caption)


def prefix_figure(caption: str) -> str:
    return figure(*figure_parts("prefix"), caption)


def _token(text: str) -> str:
    """A next token as the table shows it: spaces and line breaks made visible."""
    shown = text.replace("\n", "↵").replace(" ", "␣")
    return f"<code>{html.escape(shown)}</code>"


def next_table() -> str:
    """Each sentence, then its five most probable next tokens with their probabilities."""
    f = facts()
    lines = ["| sentence | next token: probability (best first) |", "|:--|:--|"]
    for r in f.runs:
        cands = ", ".join(
            f"{_token(n.text)}: {fmt.fixed(n.p, 3)}" for n in r.next_tokens
        )
        lines.append(f"| {html.escape(r.sentence.text)} | {cands} |")
    return "\n".join(lines) + "\n\n␣ is a space, ↵ a line break.\n"


def steps_table() -> str:
    """The seven steps at SmolLM2's sizes and GPT-2's, for the repeated sentence's length."""
    f = facts()
    T = len(f.run(ch.REPEAT).tokens)
    rows = ch.step_table(T, f.d_model, f.n_head, f.n_kv_head, f.head_size)
    lines = [
        f"| step | SmolLM2 FLOPs (T = {T}) | GPT-2 FLOPs (T = {T}) |",
        "|:--|--:|--:|",
    ]
    for n, s in enumerate(rows, 1):
        lines.append(
            f"| {n}. [{s.step.title}](inside-the-model.md#{s.step.id}) | "
            f"{fmt.count(s.smollm)} | {fmt.count(s.gpt2)} |"
        )
    total = sum(s.smollm for s in rows), sum(s.gpt2 for s in rows)
    lines.append(
        f"| **one layer** | **{fmt.count(total[0])}** | **{fmt.count(total[1])}** |"
    )
    return "\n".join(lines) + "\n"


def downloads() -> str:
    """Links to each sentence's JSON (every head's weights): fetched only when clicked."""
    f = facts()
    items = [
        f'<a href="{DIR}/{r.sentence.key}.json" download>{html.escape(r.sentence.text)}</a>'
        for r in f.runs
    ]
    return "<ul>\n" + "\n".join(f"<li>{i}</li>" for i in items) + "\n</ul>\n"


def _row(head: str, cells: list[str], tag: str = "td") -> str:
    e = html.escape
    return (
        f'<tr><th scope="row">{e(head)}</th>'
        + "".join(f"<{tag}>{e(c)}</{tag}>" for c in cells)
        + "</tr>"
    )


def _heads(first: str, tokens: list[str]) -> str:
    e = html.escape
    return (
        "<thead><tr>"
        + "".join(f'<th scope="col">{e(t)}</th>' for t in [first, *tokens])
        + "</tr></thead>"
    )


def _scroll(table: str, label: str) -> str:
    return f'<div class="ca-scroll" tabindex="0" role="region" aria-label="{label}">{table}</div>'


#: The picked token's row of the heat table: outlined (causal.css) and current to a screen reader.
_PICKED = ' class="ca-picked" aria-current="true"'

#: The explorer's shapes table's columns: the FLOPs are one layer's, as in :func:`steps_table`.
SHAPES = ("step", "SmolLM2", "SmolLM2 FLOPs", "GPT-2", "GPT-2 FLOPs")


def view_html(v: dict) -> str:
    """One head's view (:func:`.causal_page.head_view`) as HTML: the elements ``render`` of
    ``docs/assets/causal/causal.js`` makes."""
    e = html.escape
    shapes = (
        '<table class="ca-shapes"><thead><tr>'
        + "".join(f'<th scope="col">{e(c)}</th>' for c in SHAPES)
        + "</tr></thead><tbody>"
        + "".join(_row(s, cells) for s, *cells in v["shapes"])
        + "</tbody></table>"
    )
    row = (
        f'<table class="ca-row">{_heads("token", v["tokens"])}<tbody>'
        + _row("3. scaled score", v["before"])
        + _row("4. after the mask", v["after"])
        + _row("5. weight", v["weights"])
        + "</tbody></table>"
    )
    heat = (
        f'<table class="ca-heat">{_heads("query", v["tokens"])}<tbody>'
        + "".join(
            f'<tr{_PICKED if i == v["picked"] else ""}><th scope="row">{e(t)}</th>'
            + "".join(f'<td class="ca-l{k}">{e(w)}</td>' for w, k in cells)
            + "</tr>"
            for i, (t, cells) in enumerate(zip(v["tokens"], v["heat"]))
        )
        + "</tbody></table>"
    )
    return (
        f'<p class="ca-title">{e(v["title"])}</p>'
        + _scroll(shapes, "The seven steps' shapes")
        + _scroll(row, "The token's row, steps 3 to 5")
        + f'<p class="ca-size">6. Its weighted sum is a row of {v["width"]} numbers of length {e(v["size"])}.</p>'
        + _scroll(heat, "Every weight of the head")
    )


def _select(name: str, label: str, options: list[tuple[str, str]], chosen: str) -> str:
    opts = "".join(
        f'<option value="{html.escape(v)}"{" selected" if v == chosen else ""}>{html.escape(t)}</option>'
        for v, t in options
    )
    return f'<label><span>{label}</span><select name="{name}">{opts}</select></label>'


def explorer_html() -> str:
    """The explorer: a form (hidden until ``causal.js`` runs) and the induction head's steps at
    the second "cat" on the repeated sentence, as static HTML."""
    f = facts()
    run = f.run(ch.REPEAT)
    (layer, head), token = f.induction_head, f.cat[0]
    view = head_view(steps_data(run, f), layer, head, token)
    form = (
        '<form class="ca-form" hidden>'
        + _select(
            "sentence",
            "Sentence",
            [(r.sentence.key, r.sentence.text) for r in f.runs],
            ch.REPEAT,
        )
        + _select(
            "layer",
            "Layer",
            [(str(n), str(n)) for n in range(1, f.n_layer + 1)],
            str(layer + 1),
        )
        + _select(
            "head",
            "Head",
            [(str(n), str(n)) for n in range(1, f.n_head + 1)],
            str(head + 1),
        )
        + _select(
            "token",
            "Token",
            [(str(i + 1), f"{i + 1} {t}") for i, t in enumerate(run.tokens)],
            str(token + 1),
        )
        + "".join(
            f'<a class="ca-data" data-key="{r.sentence.key}" '
            f'href="{steps_file(r.sentence.key)}" hidden>{html.escape(r.sentence.key)}</a>'
            for r in f.runs
        )
        + "</form>"
    )
    return (
        f'<div class="ca-app" id="causal-explorer">{form}'
        f'<div class="ca-out" aria-live="polite">{view_html(view)}</div></div>\n'
    )
