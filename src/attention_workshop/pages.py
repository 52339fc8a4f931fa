"""What the site build asks of the package: the cached run, inline values, and Markdown pieces.

Snippets in ``snippets/`` call these functions and print what they return; the
MkDocs hook in ``hooks/workshop.py`` calls ``results()`` once per build and
``context()`` to fill the double-brace placeholders in the prose.
"""

from __future__ import annotations

import hashlib
import html
import inspect
import subprocess
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from . import claims, experiment
from .gpt2 import GPT2
from .toy import SENT_RIVER

__all__ = [
    "RUNS",
    "results",
    "source_fingerprint",
    "context",
    "build_info",
    "md_table",
    "matrix_table",
    "log_excerpt",
    "log_page",
    "figure",
    "figure_summary",
    "python_source",
    "capture_header",
    "LOG_PAGE",
    "GENERATED",
    "generated_files",
    "SITE_FILE_MODULES",
]

#: The results.log page (Markdown source path, for links) and the folder of generated files.
LOG_PAGE = "results-log.md"
GENERATED = "generated"

#: How many times the experiment has run in this process (the build runs it once).
RUNS = 0

_PACKAGE_DIR = Path(__file__).resolve().parent
_REPO_DIR = _PACKAGE_DIR.parent.parent


def source_fingerprint() -> str:
    """A hash of the package's own source: the cache key changes whenever the code does."""
    h = hashlib.sha256()
    for path in sorted(_PACKAGE_DIR.rglob("*.py")):
        h.update(path.relative_to(_PACKAGE_DIR).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


@lru_cache(maxsize=4)
def _run(sentence: tuple[str, ...], fingerprint: str) -> experiment.Results:
    global RUNS
    RUNS += 1
    r = experiment.run(sentence)
    claims.verify(r)
    return r


def results(sentence: Sequence[str] = SENT_RIVER) -> experiment.Results:
    """The experiment's results for this build: run once, claims verified, then cached.

    The cache is keyed on the sentence and on :func:`source_fingerprint`, so an edit to
    the package never serves stale numbers.
    """
    return _run(tuple(sentence), source_fingerprint())


def _git(*args: str) -> str:
    try:
        out = subprocess.run(["git", *args], cwd=_REPO_DIR, capture_output=True, text=True, timeout=10, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


#: Package modules that contribute files to the site (each has ``site_files() -> {path: text}``).
SITE_FILE_MODULES: tuple[str, ...] = ("inside", "exam")


def generated_files() -> dict[str, str]:
    """Every file the build writes into the site: results.log, figures, CSVs, and the JSON of
    the interactive pages. Keys are paths inside the site (``generated/...``)."""
    import importlib

    r = results()
    files = {f"{GENERATED}/{name}": text for name, text in {"results.log": r.text, **r.figures, **r.tables}.items()}
    for name in SITE_FILE_MODULES:
        module = importlib.import_module(f"{__package__}.{name}")
        for path, text in module.site_files().items():
            if path in files:
                raise ValueError(f"{name}.site_files() writes {path!r}, which another part of the build writes too")
            files[path] = text
    return files


def build_info() -> dict[str, str]:
    """Versions of the tools this site was built with, and the commit it was built from."""
    commit = _git("rev-parse", "HEAD")
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    info = dict(experiment.versions())
    info["commit"] = (commit[:12] + (" with uncommitted changes" if dirty else "")) if commit else "unknown (not a git checkout)"
    info["commit_full"] = commit or "unknown"
    import markdown_exec  # noqa: F401  (the docs build always has it)
    from importlib.metadata import version

    for dist in ("mkdocs", "mkdocs-material", "markdown-exec"):
        info[dist] = version(dist)
    info["attention-workshop"] = version("attention-workshop")
    return info


def context() -> dict[str, str]:
    """Every value the prose may quote in double braces, by key: ``section.name``, ``section.lines``,
    ``build.commit`` (and the other ``build.*``), and GPT-2's sizes as ``gpt2.n_layer``, ``gpt2.n_head``,
    ``gpt2.n_embd``, ``gpt2.head_size``, ``gpt2.n_ctx``, ``gpt2.vocab_size``."""
    r = results()
    ctx: dict[str, str] = {}
    for section, values in r.show.items():
        for name, text in values.items():
            ctx[f"{section}.{name}"] = text
        s = r.sections[section]
        ctx[f"{section}.lines"] = f"{s.start}–{s.end}"
    for name, text in build_info().items():
        ctx[f"build.{name}"] = text
    for name in ("n_layer", "n_head", "n_embd", "head_size", "n_ctx", "vocab_size"):
        ctx[f"gpt2.{name}"] = str(getattr(GPT2, name))
    return ctx


# --------------------------------------------------------------------------- Markdown pieces


def md_table(header: Sequence[str], rows: Sequence[Sequence[object]], align: str | None = None) -> str:
    """A Markdown table; ``align`` is one letter per column (l, r, c), right-aligned numbers by default."""
    align = align or "l" + "r" * (len(header) - 1)
    marks = {"l": ":--", "r": "--:", "c": ":-:"}
    lines = ["| " + " | ".join(str(h) for h in header) + " |", "|" + "|".join(marks[a] for a in align) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def matrix_table(M: np.ndarray, rows: Sequence[str], cols: Sequence[str], corner: str = "", nd: int = 3) -> str:
    """A matrix as a Markdown table with labelled rows and columns."""
    M = np.asarray(M)
    return md_table([corner, *cols], [[f"**{r}**", *(f"{v:.{nd}f}" for v in row)] for r, row in zip(rows, M)])


def log_excerpt(key: str, sentence: Sequence[str] = SENT_RIVER) -> str:
    """One section of results.log, with its real line numbers and a link to them.

    Prints a code block numbered from the section's first line, then
    "results.log lines A–B" linking to line A on the results.log page.
    """
    r = results(sentence)
    s = r.section(key)
    body = "\n".join(r.excerpt(key))
    return (
        f'```text linenums="{s.start}"\n{body}\n```\n\n'
        f"<small>Quoted from [results.log lines {s.start}–{s.end}]({LOG_PAGE}#L{s.start}), "
        f"section [{s.label}] of this build.</small>\n"
    )


def log_page() -> str:
    """The whole results.log as HTML: one line each, numbered, each with its own anchor ``#L<n>``."""
    r = results()
    out = ['<pre class="results-log" tabindex="0"><code>']
    for n, line in enumerate(r.lines, 1):
        # The number is drawn by CSS from data-n, so copying the log copies the log alone;
        # tabindex -1 keeps 200-odd line links out of the Tab order (each stays clickable).
        out.append(f'<span class="log-line" id="L{n}"><a class="ln" href="#L{n}" data-n="{n}" tabindex="-1" '
                   f'aria-label="line {n}"></a>{html.escape(line) or " "}</span>')
    out.append("</code></pre>")
    return "".join(out) + "\n"


def _f3(v: float) -> str:
    return f"{v:.3f}".replace("-", "\u2212")


def figure_summary(name: str) -> str:
    """What a figure shows, in words, from its CSV: a heatmap's every value, a curve's range.

    Returns "" for a figure without a CSV or of a kind this function does not describe.
    """
    import csv
    import io

    table = results().tables.get(f"{name.removesuffix('.svg')}.csv")
    if table is None:
        return ""
    header, *rows = list(csv.reader(io.StringIO(table)))
    if header[0] == "query":  # a weight table: rows are queries, columns keys
        cells = "; ".join(f"{row[0]}: " + ", ".join(f"{k} {_f3(float(v))}" for k, v in zip(header[1:], row[1:]))
                          for row in rows)
        return f"Every weight, row by row (the query, then each key it looks at): {cells}."
    if {"d_k", "max_weight_raw", "max_weight_scaled"} <= set(header):
        col = {h: [float(row[i]) for row in rows] for i, h in enumerate(header)}
        dk, raw, scaled = col["d_k"], col["max_weight_raw"], col["max_weight_scaled"]
        rises = all(b > a for a, b in zip(raw, raw[1:]))
        return (f"Without scaling, the mean largest weight {'rises' if rises else 'goes'} from {_f3(raw[0])} at "
                f"d_k = {dk[0]:g} to {_f3(raw[-1])} at d_k = {dk[-1]:g}; divided by the square root of d_k it "
                f"stays between {_f3(min(scaled))} and {_f3(max(scaled))}.")
    return ""


def figure(name: str, alt: str, caption: str) -> str:
    """A generated SVG figure with its text alternative and download links (SVG and CSV).

    The text alternative is ``alt`` followed by :func:`figure_summary` (the numbers the figure shows).
    """
    r = results()
    stem = name.removesuffix(".svg")
    if name not in r.figures:
        raise KeyError(f"no figure {name!r}; figures: {', '.join(r.figures)}")
    summary = figure_summary(name)
    alt = f"{alt} {summary}".strip() if summary else alt
    alt = alt.replace("[", "(").replace("]", ")")
    csv = f' · <a href="{GENERATED}/{stem}.csv" download>numbers as CSV</a>' if f"{stem}.csv" in r.tables else ""
    return (
        f'<figure class="workshop-figure" markdown="span">\n'
        f'![{alt}]({GENERATED}/{name})\n'
        f'<figcaption>{caption} <a href="{GENERATED}/{name}" download>Download SVG</a>{csv}</figcaption>\n'
        f"</figure>\n"
    )


def python_source(obj: Callable | object) -> str:
    """The source of a package function or module, as a Python code block (shown, never retyped)."""
    # Wrapped in a div whose long lines wrap on narrow screens instead of scrolling sideways.
    return f'<div class="package-source" markdown="block">\n\n```python\n{inspect.getsource(obj).rstrip()}\n```\n\n</div>\n'


CAPTURE = _REPO_DIR / "captures" / "results.log"


def capture_header() -> str:
    """The committed capture's stamp (its ``#`` lines) and whether this build's log matches it byte for byte."""
    if not CAPTURE.exists():
        return "!!! warning \"No committed capture\"\n    `captures/results.log` is missing: run `make captures` and commit it.\n"
    text = CAPTURE.read_text(encoding="utf-8")
    stamp = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    same = text == results().text
    verdict = (
        "This build ran the experiment again and its log is **byte for byte identical** to the committed capture."
        if same
        else "This build's log **differs** from the committed capture: the code changed since the capture was "
        "made (run `make captures`), or this machine's versions differ from the lock."
    )
    return f"```text\n{stamp}\n```\n\n{verdict}\n"
