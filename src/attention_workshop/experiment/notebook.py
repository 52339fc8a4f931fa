"""What a notebook's code cell shows: the page's tables, figures, log quotes and code as Jupyter draws them.

A page's snippet prints Markdown and HTML, which the site renders. A notebook's code cell calls
the same names from this module instead, and each returns an object that Jupyter shows through
its ``_repr_*_`` methods, so no cell needs the site or IPython imported:

- a table: :class:`Markdown` (``text/markdown``; its Markdown is the plain text too);
- the page's static HTML (Inside the model's steps and code): :class:`HTML` (``text/html``, its
  visible text the plain text);
- a figure: :class:`Figure` (``image/svg+xml``, the light drawing on a white ground, so that a
  dark notebook theme keeps its labels readable; its text alternative is the plain text);
- a quote of results.log: :class:`Text`, its lines numbered as in the log (``text/plain``);
- a function's source: :class:`Markdown`, a Python code block.

How a snippet becomes a cell is the site's rule (``workshop_site.notebook_code.code``): the same
code, its imports of the page-writing modules pointed here, its last ``print`` its value.

Everything here is computed by the wheel: :func:`results` is the experiment's run, the Real
heads page's figures are drawn by :mod:`.real_heads_page`, Inside the model's tables written by
:mod:`.inside_page` and :mod:`.inside_html`, A causal model's by :mod:`.causal_md` (its figures
drawn by :mod:`.causal_page` and :mod:`.causal_reads`, kept in a site build's cache). They are
computed once per process; a site build, which has the run and the Real heads files already,
hands them over with :func:`reuse`.
"""

from __future__ import annotations

import html
import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from functools import wraps
from types import ModuleType
from typing import Any, ParamSpec

from ..toy import SENT_RIVER
from . import (
    cache,
    causal_md,
    causal_page,
    causal_reads,
    inside_html,
    inside_page,
    md_tables,
    real_heads_md,
    real_heads_page,
)
from .real_heads_page import facts, grid_desc, grid_file, head_desc, head_file
from .results import Results

__all__ = [
    "Markdown",
    "Text",
    "HTML",
    "Figure",
    "reuse",
    "results",
    "log_excerpt",
    "figure",
    "python_source",
    "vocab_table",
    "sentence_table",
    "dot_table",
    "wired_matrices_table",
    "bank_moves_table",
    "inputs_table",
    "sentences_table",
    "counts_table",
    "bank_table",
    "it_table",
    "grid_parts",
    "head_figure",
    "bank_figure",
    "sizes_table",
    "growth_table",
    "static_step",
    "static_code",
    "causal_head_figure",
    "induction_figure",
    "rope_figure",
    "lens_figure",
    "prefix_figure",
    "split_table",
    "copying_table",
    "next_table",
    "steps_table",
]

P = ParamSpec("P")


class Markdown:
    """Markdown that Jupyter renders (a table, a code block, a line of text)."""

    def __init__(self, text: str) -> None:
        self.text = text.strip("\n")

    def _repr_markdown_(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text


class Text:
    """Plain text, shown as it is in a fixed-width font (a quote of results.log)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


class HTML:
    """HTML that Jupyter renders (a page's static tables, its code with shape comments); its
    plain text is what a reader sees of it, tags dropped."""

    def __init__(self, markup: str) -> None:
        self.markup = markup.strip("\n")

    def _repr_html_(self) -> str:
        return self.markup

    def __repr__(self) -> str:
        text = re.sub(r"</t[dh]>|<br>", " ", self.markup)  # a table's cells apart
        text = re.sub(r"</(?:tr|caption|p|div|table)>", "\n", text)  # its rows on lines
        text = html.unescape(re.sub(r"<[^>]+>", "", text))
        return "\n".join(ln.rstrip() for ln in text.split("\n") if ln.strip())


#: What the drawing gets on its root element: a white ground under its transparent one.
WHITE = ' style="background-color: #ffffff"'


class Figure:
    """A figure: its SVG (``image/svg+xml``), with its text alternative as the plain text."""

    def __init__(self, svg: str, alt: str) -> None:
        self.svg, self.alt = svg, alt

    def _repr_svg_(self) -> str:
        root = re.search(r"<svg\b[^>]*>", self.svg)
        if root is None or " style=" in root.group(0):
            return self.svg
        at = root.start() + len("<svg")
        return f"{self.svg[:at]}{WHITE}{self.svg[at:]}"

    def __repr__(self) -> str:
        return self.alt


# ------------------------------------------------------------------ what the cells read

#: This process's run of the experiment (by sentence) and the Real heads page's files.
_KEPT: dict[str, Any] = {}


def reuse(run: Results, real_heads_files: Mapping[str, str]) -> None:
    """Use a run and the Real heads page's files that this process already has.

    A site build calls it before it runs the notebooks' cells in its own process: they are
    the values a reader's kernel computes (``tests/test_notebooks.py`` runs every notebook on a
    fresh kernel and requires the same outputs), and the build does not compute them twice.
    """
    _KEPT[f"run:{' '.join(run.sentence)}"] = run
    _KEPT["real-heads"] = dict(real_heads_files)


def results(sentence: Sequence[str] = SENT_RIVER) -> Results:
    """The experiment's run on ``sentence`` (:func:`.runner.run`), once per process."""
    from . import runner

    key = f"run:{' '.join(sentence)}"
    if key not in _KEPT:
        _KEPT[key] = runner.run(tuple(sentence))
    run: Results = _KEPT[key]
    return run


def _real_heads_svg(path: str) -> str:
    if "real-heads" not in _KEPT:
        _KEPT["real-heads"] = real_heads_page.site_files()
    svg: str = _KEPT["real-heads"][path]
    return svg


# ------------------------------------------------------------------ the page's pieces


def log_excerpt(key: str, sentence: Sequence[str] = SENT_RIVER) -> Text:
    """One section of results.log, each line with its number in the log."""
    r = results(sentence)
    s = r.section(key)
    width = len(str(s.end))
    lines = r.excerpt(key)
    return Text(
        "\n".join(
            f"{n:>{width}}  {line}".rstrip() for n, line in enumerate(lines, s.start)
        )
    )


def figure(name: str, alt: str, caption: str) -> Figure:
    """A figure of the run (``softmax.svg``), light colours. ``caption`` is the page's; the
    notebook's cell shows it in its code."""
    r = results()
    if name not in r.figures:
        raise KeyError(f"no figure {name!r}; figures: {', '.join(r.figures)}")
    return Figure(r.figures[name], alt)


def python_source(obj: Callable[..., Any] | ModuleType | type) -> Markdown:
    """The source of a package function or module, as a Python code block."""
    return Markdown(f"```python\n{inspect.getsource(obj).rstrip()}\n```")


def _markdown(table: Callable[P, str]) -> Callable[P, Markdown]:
    """A function that writes a Markdown table, made to return it as :class:`Markdown`."""

    @wraps(table)
    def shown(*args: P.args, **kwargs: P.kwargs) -> Markdown:
        return Markdown(table(*args, **kwargs))

    return shown


vocab_table = _markdown(md_tables.vocab_table)
sentence_table = _markdown(md_tables.sentence_table)
dot_table = _markdown(md_tables.dot_table)
wired_matrices_table = _markdown(md_tables.wired_matrices_table)
bank_moves_table = _markdown(md_tables.bank_moves_table)
inputs_table = _markdown(md_tables.inputs_table)
sentences_table = _markdown(real_heads_md.sentences_table)
counts_table = _markdown(real_heads_md.counts_table)
bank_table = _markdown(real_heads_md.bank_table)
it_table = _markdown(real_heads_md.it_table)


def _html(writer: Callable[P, str]) -> Callable[P, HTML]:
    """A function that writes a page's HTML, made to return it as :class:`HTML`."""

    @wraps(writer)
    def shown(*args: P.args, **kwargs: P.kwargs) -> HTML:
        return HTML(writer(*args, **kwargs))

    return shown


sizes_table = _markdown(inside_page.sizes_table)
growth_table = _markdown(inside_page.growth_table)
static_step = _html(inside_html.static_step)
static_code = _html(inside_page.static_code)


def grid_parts() -> list[Markdown | Figure]:
    """Each sentence's grid of heads: the sentence, its grid, its table of classes."""
    parts: list[Markdown | Figure] = []
    for h in facts().heads:
        parts += [
            Markdown(f"**{h.sentence.text}**"),
            Figure(_real_heads_svg(grid_file(h.sentence.key)), grid_desc(h)),
            Markdown(real_heads_md.class_table(h)),
        ]
    return parts


def head_figure(name: str, caption: str) -> Figure:
    """One of the heads the Real heads page shows large, by name (``previous``, ``copy``...)."""
    key, head = real_heads_md.shown_head(name)
    return Figure(
        _real_heads_svg(head_file(key, head)), head_desc(facts().sentence(key), head)
    )


def bank_figure(caption: str) -> Figure:
    """bank's cosine across the bank sentences, going in and after each layer."""
    return Figure(_real_heads_svg(real_heads_md.BANK_FILE), real_heads_md.bank_alt())


def _causal_svg(path: str) -> str:
    """A causal page's file by its path in the site: drawn once per process (a site build reads
    them from its cache, where it keeps them)."""
    if "causal" not in _KEPT:
        _KEPT["causal"] = {
            **cache.call(causal_page.site_files),
            **cache.call(causal_reads.site_files),
        }
    svg: str = _KEPT["causal"][path]
    return svg


def _causal_figure(name: str) -> Figure:
    path, alt = causal_md.figure_parts(name)
    return Figure(_causal_svg(path), alt)


def causal_head_figure(name: str, caption: str) -> Figure:
    """One of the heads A causal model draws large, by name (``previous``, ``induction``)."""
    if name not in causal_page.shown_heads(causal_page.facts()):
        causal_md.causal_head_figure(name, caption)  # raises, naming the heads it draws
    return _causal_figure(name)


def induction_figure(caption: str) -> Figure:
    """Every head's induction score on the repeated sentence."""
    return _causal_figure("induction-scores")


def rope_figure(caption: str) -> Figure:
    """The score of two words as the key moves back, with RoPE and without."""
    return _causal_figure("rope")


def lens_figure(caption: str) -> Figure:
    """Each sentence's final guess, read after every layer: its rank."""
    return _causal_figure("lens")


def prefix_figure(caption: str) -> Figure:
    """Every head's prefix-matching score on random tokens repeated once."""
    return _causal_figure("prefix")


split_table = _markdown(causal_md.split_table)
copying_table = _markdown(causal_md.copying_table)
next_table = _markdown(causal_md.next_table)
steps_table = _markdown(causal_md.steps_table)
