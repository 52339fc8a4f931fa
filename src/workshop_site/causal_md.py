"""The "A causal model" page's Markdown and HTML: figures, the next-token table, the seven steps' FLOPs.

Every number comes from :func:`attention_workshop.chapters.causal_heads.facts` through the one
formatter; the files the figures point at are written by :mod:`.causal_page`.
"""

from __future__ import annotations

import html

from attention_workshop.chapters import causal_heads as ch
from attention_workshop.experiment import fmt
from attention_workshop.experiment.figures import dark_name

from .causal_page import (
    DIR,
    facts,
    head_desc,
    head_file,
    induction_desc,
    rope_desc,
    shown_heads,
)

__all__ = [
    "figure",
    "head_figure",
    "induction_figure",
    "rope_figure",
    "next_table",
    "steps_table",
    "downloads",
]


def figure(path: str, alt: str, caption: str) -> str:
    """A generated figure in the reader's colour scheme, with its text alternative and its SVG
    and CSV downloads (loaded lazily)."""
    csv = path.removesuffix(".svg") + ".csv"
    alt = html.escape(alt)
    return (
        f'<figure class="workshop-figure">\n'
        f'<img src="{path}#only-light" alt="{alt}" loading="lazy">\n'
        f'<img src="{dark_name(path)}#only-dark" alt="{alt}" loading="lazy">\n'
        f'<figcaption>{caption} <a href="{path}" download>Download SVG</a> · '
        f'<a href="{csv}" download>numbers as CSV</a></figcaption>\n'
        f"</figure>\n"
    )


def head_figure(name: str, caption: str) -> str:
    """One of the heads drawn large on the repeated sentence, by name (``previous``, ``induction``)."""
    f = facts()
    shown = shown_heads(f)
    if name not in shown:
        raise ValueError(
            f"no head {name!r} is drawn large; there are: {', '.join(shown)}"
        )
    return figure(head_file(name), head_desc(f.run(ch.REPEAT), shown[name]), caption)


def induction_figure(caption: str) -> str:
    return figure(f"{DIR}/induction-scores.svg", induction_desc(facts()), caption)


def rope_figure(caption: str) -> str:
    return figure(f"{DIR}/rope-distance.svg", rope_desc(facts()), caption)


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
