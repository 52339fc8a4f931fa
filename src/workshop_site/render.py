"""Markdown and HTML pieces a page prints: tables, results.log excerpts, figures, package source.

Every function returns text for a snippet to print; numbers are written by :mod:`.fmt`.
"""

from __future__ import annotations

import html
import inspect
from collections.abc import Callable, Sequence
from itertools import pairwise
from types import ModuleType
from typing import Any

from attention_workshop.experiment import fmt
from attention_workshop.experiment.figure_files import dark_name, open_full_size
from attention_workshop.experiment.md_tables import matrix_table, md_table
from attention_workshop.toy import SENT_RIVER

from .pages import GENERATED, LOG_PAGE, results

__all__ = [
    "md_table",
    "matrix_table",
    "log_excerpt",
    "log_page",
    "figure_summary",
    "figure",
    "python_source",
]


def log_excerpt(key: str, sentence: Sequence[str] = SENT_RIVER) -> str:
    """One section of results.log, with its real line numbers and a link to them.

    Prints a code block numbered from the section's first line, then
    "results.log lines A–B" linking to line A on the results.log page, in a box search leaves out.
    """
    r = results(sentence)
    s = r.section(key)
    body = "\n".join(r.excerpt(key))
    # data-search-exclude: Material's search leaves the box out, so no search shows a raw log as a
    # page's excerpt (the results.log page keeps every line searchable). A <section>, not a <div>:
    # Material's parser matches an element by its tag alone, so the code block's first </div>
    # would end the exclusion.
    return (
        '<section class="log-excerpt" data-search-exclude markdown="1">\n\n'
        f'```text linenums="{s.start}"\n{body}\n```\n\n'
        f"<small>Quoted from [results.log lines {s.start}–{s.end}]({LOG_PAGE}#L{s.start}), "
        f"section [{s.label}] of this build.</small>\n\n</section>\n"
    )


def log_page() -> str:
    """The whole results.log as HTML: one line each, numbered, each with its own anchor ``#L<n>``."""
    r = results()
    out = ['<pre class="results-log" tabindex="0"><code>']
    for n, line in enumerate(r.lines, 1):
        # The number is drawn by CSS from data-n, so copying the log copies the log alone;
        # tabindex -1 keeps 200-odd line links out of the Tab order (each stays clickable).
        out.append(
            f'<span class="log-line" id="L{n}"><a class="ln" href="#L{n}" data-n="{n}" tabindex="-1" '
            f'aria-label="line {n}"></a>{html.escape(line) or " "}</span>'
        )
    out.append("</code></pre>")
    return "".join(out) + "\n"


def _f3(v: float) -> str:
    return fmt.minus(fmt.fixed(v))


def figure_summary(name: str) -> str:
    """What a figure shows, in words, from its CSV: a heatmap's every weight, a curve's range, and for
    any other figure every row of its numbers.

    Returns "" for a figure without a CSV.
    """
    import csv
    import io

    table = results().tables.get(f"{name.removesuffix('.svg')}.csv")
    if table is None:
        return ""
    header, *rows = list(csv.reader(io.StringIO(table)))
    if header[0] == "query" and len(header) == len(rows) + 1:  # a weight table
        cells = "; ".join(
            f"{row[0]}: "
            + ", ".join(f"{k} {_f3(float(v))}" for k, v in zip(header[1:], row[1:]))
            for row in rows
        )
        return (
            f"Every weight, row by row (the query, then each key it looks at): {cells}."
        )
    if {"d_k", "max_weight_raw", "max_weight_scaled"} <= set(header):
        col = {h: [float(row[i]) for row in rows] for i, h in enumerate(header)}
        dk, raw, scaled = col["d_k"], col["max_weight_raw"], col["max_weight_scaled"]
        rises = all(b > a for a, b in pairwise(raw))
        return (
            f"Without scaling, the mean largest weight {'rises' if rises else 'goes'} from {_f3(raw[0])} at "
            f"d_k = {dk[0]:g} to {_f3(raw[-1])} at d_k = {dk[-1]:g}; divided by the square root of d_k it "
            f"stays between {_f3(min(scaled))} and {_f3(max(scaled))}."
        )
    names = ", ".join(h.replace("_", " ") for h in header)
    listed = "; ".join(", ".join(_cell(v) for v in row) for row in rows)
    return f"Its numbers ({names}): {listed}."


def _cell(text: str) -> str:
    """A CSV cell as the text alternative reads it: numbers to 3 decimals (whole numbers bare), an
    empty cell as "none" (read aloud, ", , " is a pause, not a value)."""
    if not text.strip():
        return "none"
    try:
        x = float(text)
    except ValueError:
        return text
    return fmt.count(int(x)) if x == int(x) and "." not in text else _f3(x)


def figure(name: str, alt: str, caption: str) -> str:
    """A generated figure in the reader's colour scheme, with its text alternative and downloads.

    The light and the dark SVG (:func:`attention_workshop.experiment.figures.themed`) are both in the
    figure, marked ``#only-light`` and ``#only-dark``: Material shows the one of the page's scheme.
    The text alternative is ``alt`` followed by :func:`figure_summary` (the numbers the figure shows);
    the caption opens the light SVG full size (:func:`.figures.open_full_size`: on a phone the page shrinks
    the figure's text) and links it and the CSV for download.
    """
    r = results()
    stem, dark = name.removesuffix(".svg"), dark_name(name)
    if name not in r.figures:
        raise KeyError(f"no figure {name!r}; figures: {', '.join(r.figures)}")
    summary = figure_summary(name)
    alt = f"{alt} {summary}".strip() if summary else alt
    alt = alt.replace("[", "(").replace("]", ")")
    csv = (
        f' · <a href="{GENERATED}/{stem}.csv" download>numbers as CSV</a>'
        if f"{stem}.csv" in r.tables
        else ""
    )
    images = f"![{alt}]({GENERATED}/{name}#only-light)\n"
    if dark in r.figures:
        images += f"![{alt}]({GENERATED}/{dark}#only-dark)\n"
    return (
        f'<figure class="workshop-figure" markdown="span">\n{images}'
        f"<figcaption>{caption} {open_full_size(f'{GENERATED}/{name}')} · "
        f'<a href="{GENERATED}/{name}" download>Download SVG</a>{csv}</figcaption>\n'
        f"</figure>\n"
    )


def python_source(obj: Callable[..., Any] | ModuleType | type) -> str:
    """The source of a package function or module, as a Python code block (shown, never retyped)."""
    # Wrapped in a div the pages can style; long lines scroll sideways (workshop.css), never wrap.
    code = inspect.getsource(obj).rstrip()
    return f'<div class="package-source" markdown="block">\n\n```python\n{code}\n```\n\n</div>\n'
