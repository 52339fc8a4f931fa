"""The "Real heads" page's Markdown and HTML: tables, figures, the static grids, the grid's mount.

Every number comes from :func:`attention_workshop.chapters.real_heads.facts` through the one
formatter; the files the figures point at are written by :mod:`.real_heads_page`. Without
JavaScript the page still shows every sentence's grid as a picture, with its table of classes.
"""

from __future__ import annotations

import html

from ..chapters import real_heads as rh
from ..chapters.real_heads import Head, Heads
from ..trained import MiniLM, browser
from . import cache, fmt
from .figure_files import dark_name, open_full_size
from .real_heads_page import (
    DIR,
    INDEX_PATH,
    class_label,
    facts,
    grid_desc,
    grid_file,
    head_desc,
    head_file,
    head_name,
    shown_heads,
)

__all__ = [
    "MINILM_FILE",
    "run_box_html",
    "figure",
    "sentences_table",
    "counts_table",
    "class_table",
    "grid_caption",
    "grid_parts",
    "static_grids",
    "shown_head",
    "head_figure",
    "BANK_FILE",
    "bank_alt",
    "bank_figure",
    "bank_table",
    "it_table",
    "explorer_html",
]


def figure(path: str, alt: str, caption: str) -> str:
    """A generated figure in the reader's colour scheme, with its text alternative and its SVG and
    CSV downloads (loaded lazily).

    Both drawings are in it (:func:`.figures.themed`), marked ``#only-light`` and ``#only-dark``:
    Material shows the one of the page's scheme. The caption opens the light SVG full size
    (:func:`.figures.open_full_size`) and downloads it.
    """
    csv = path.removesuffix(".svg") + ".csv"
    alt = html.escape(alt)
    return (
        f'<figure class="workshop-figure rh-figure">\n'
        f'<img src="{path}#only-light" alt="{alt}" loading="lazy">\n'
        f'<img src="{dark_name(path)}#only-dark" alt="{alt}" loading="lazy">\n'
        f"<figcaption>{caption} {open_full_size(path)} · "
        f'<a href="{path}" download>Download SVG</a> · '
        f'<a href="{csv}" download>numbers as CSV</a></figcaption>\n'
        f"</figure>\n"
    )


def sentences_table() -> str:
    """The page's sentences: the text, its number of tokens, what it was chosen to show."""
    f = facts()
    rows = [
        f"| {n} | {h.sentence.text} | {len(h.tokens)} | {h.sentence.shows} |"
        for n, h in enumerate(f.heads, 1)
    ]
    head = "| | sentence | tokens | chosen to show |\n|--:|:--|--:|:--|"
    return "\n".join([head, *rows]) + "\n"


def counts_table() -> str:
    """How many heads each sentence puts in each class (sentences down, classes across)."""
    f = facts()
    counts = f.counts()  # (sentences, classes)
    head = "| sentence | " + " | ".join(rh.LABELS[c] for c in rh.CLASSES) + " |"
    rule = "|:--|" + "--:|" * len(rh.CLASSES)
    rows = [
        f"| {n} {h.sentence.key} | " + " | ".join(str(c) for c in row) + " |"
        for n, (h, row) in enumerate(zip(f.heads, counts), 1)
    ]
    return "\n".join([head, rule, *rows]) + "\n"


def class_table(h: Heads) -> str:
    """Every head's class and the number that put it there, named for what it measures, for one
    sentence: layers down, heads across (``prev<br>share 1.00``)."""
    L, H = h.score.shape
    head = "| | " + " | ".join(f"head {n + 1}" for n in range(H)) + " |"
    rule = "|:--|" + ":-:|" * H
    rows = [
        f"| layer {layer + 1} | "
        + " | ".join(class_label(h, layer, n).replace("\n", "<br>") for n in range(H))
        + " |"
        for layer in range(L)
    ]
    return "\n".join([head, rule, *rows]) + "\n"


def _indent(text: str) -> str:
    return "\n".join(("    " + line).rstrip() for line in text.splitlines())


def grid_caption(n: int) -> str:
    """The caption of sentence ``n``'s grid (counted from 1)."""
    f = facts()
    return (
        f"All {f.n_layer * f.n_head} heads on sentence {n}, each with its class and the "
        "number that put it there."
    )


def grid_parts() -> list[str]:
    """:func:`static_grids` in the pieces a snippet prints one by one: for each sentence its tab's
    title, then (indented into the tab) its grid, its text and its table of classes."""
    parts = []
    for n, h in enumerate(facts().heads, 1):
        fig = figure(grid_file(h.sentence.key), grid_desc(h), grid_caption(n))
        parts += [
            f'=== "{n} {h.sentence.key}"\n',
            f"{_indent(fig)}\n",
            f"    {html.escape(h.sentence.text)}\n",
            f"{_indent(class_table(h))}\n",
        ]
    return parts


def static_grids() -> str:
    """One tab per sentence: its grid as a picture and its table of classes (no JavaScript needed)."""
    return "\n".join(grid_parts())


def shown_head(name: str) -> tuple[str, Head]:
    """One of the heads the page shows large (:func:`.real_heads_page.shown_heads`), by name:
    ``(sentence key, head)``."""
    shown = shown_heads(facts())
    if name not in shown:
        raise ValueError(
            f"no head {name!r} is drawn large; there are: {', '.join(shown)}"
        )
    return shown[name]


def head_figure(name: str, caption: str) -> str:
    """One of the heads the page shows large (:func:`shown_head`), by name."""
    key, head = shown_head(name)
    return figure(head_file(key, head), head_desc(facts().sentence(key), head), caption)


def bank_alt() -> str:
    """The bank figure's text alternative: every cosine it draws."""
    b = facts().bank
    return (
        "Line chart of bank's cosine, going in (layer 0) and after each layer. "
        "River bank against savings bank: "
        + ", ".join(fmt.fixed(x, 3) for x in b.senses)
        + ". River bank against river bank in another sentence: "
        + ", ".join(fmt.fixed(x, 3) for x in b.same)
        + ". Bank against an unrelated word, the mean: "
        + ", ".join(fmt.fixed(x, 3) for x in b.unrelated.mean(axis=1))
        + "; the largest: "
        + ", ".join(fmt.fixed(x, 3) for x in b.unrelated.max(axis=1))
        + "."
    )


#: The bank figure's file, a path inside the site.
BANK_FILE = f"{DIR}/bank-cosine.svg"


def bank_figure(caption: str) -> str:
    """bank's cosine across the bank sentences, going in and after each layer."""
    return figure(BANK_FILE, bank_alt(), caption)


def bank_table() -> str:
    """bank's two cosines per layer, beside the baseline (bank against unrelated words: the
    mean and the largest), as a Markdown table."""
    b = facts().bank
    rows = [
        f"| {'going in' if n == 0 else f'after layer {n}'} | {fmt.fixed(s, 3)} | "
        f"{fmt.fixed(t, 3)} | {fmt.fixed(u.mean(), 3)} | {fmt.fixed(u.max(), 3)} |"
        for n, (s, t, u) in enumerate(zip(b.senses, b.same, b.unrelated))
    ]
    head = (
        "| bank's vector | river vs savings | river vs river "
        "| vs unrelated words: mean | vs unrelated words: largest |\n|:--|--:|--:|--:|--:|"
    )
    return "\n".join([head, *rows]) + "\n"


def it_table() -> str:
    """For each ending and noun, the head that sends "it" most to that noun, and its weight."""
    f = facts()
    rows = []
    for ending in f.it.endings:
        for noun in rh.NOUNS:
            top = f.it.top(ending, noun)
            w = f.it.to_noun[ending][noun][top]
            other = next(n for n in rh.NOUNS if n != noun)
            rows.append(
                f'| "…too {ending}." | {noun} | {head_name(top)} | {fmt.fixed(w, 2)} | '
                f"{fmt.fixed(f.it.to_noun[ending][other][top], 2)} |"
            )
    head = (
        '| sentence | "it" to | the head that sends most | weight | same head, to the other noun |\n'
        "|:--|:--|:--|--:|--:|"
    )
    return "\n".join([head, *rows]) + "\n"


#: The run box's model file in the site (written by workshop_site.site.generated_files).
MINILM_FILE = f"generated/minilm/{browser.FILE_NAME}"


def run_box_html() -> str:
    """The run box's mount point: run.js adds the sentence box and the Run button. The model's
    link and size are here, so the page says what Run downloads before it does; without
    JavaScript, the box says what it needs."""
    size = len(cache.call(browser.weights_file))  # kept on disk, as the build writes it
    return (
        '<div class="mm-app" id="minilm-run" '
        f'data-bytes="{size}" data-max-tokens="{MiniLM.MAX_TOKENS}" data-dtype="{browser.DTYPE}">'
        '<p class="mm-nojs">Running your own sentence needs JavaScript. '
        "The grids above were computed when this site was built.</p>"
        f'<p class="mm-size">Run downloads the model once from this site: <a class="mm-model" '
        f'href="{MINILM_FILE}" download>{fmt.fixed(size / 1e6, 1)} MB</a> of {browser.DTYPE} '
        "weights; your browser keeps it for the next time, offline too.</p>"
        "</div>\n"
    )


def explorer_html() -> str:
    """The interactive grid's mount point; says plainly what happens without JavaScript."""
    return (
        f'<div class="rh-app" id="real-heads-explorer" data-src="{INDEX_PATH}">'
        '<p class="rh-nojs">The interactive grid needs JavaScript. Every sentence\'s grid is '
        "also below, as a picture with its table of classes, computed when this site was built.</p>"
        "</div>\n"
    )
