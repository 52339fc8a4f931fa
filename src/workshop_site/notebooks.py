"""A module page as a Jupyter notebook: the page's prose and its snippets, in page order.

:func:`cells` splits a page's Markdown (its ``{{ placeholders }}`` already filled by the
build) into Markdown cells and code cells: every ``python exec="1"`` fence becomes a code
cell holding the snippet it includes, exactly as the page runs it. What only MkDocs reads
becomes what Jupyter reads: a collapsible ``???`` block becomes ``<details>``, a ``!!!`` note a
quote, a diagram an attached SVG, a link to another page the site's URL of that page.
:func:`notebook` writes the cells as notebook JSON with :mod:`nbformat` (stable cell ids), with
the outputs the build made for them (:mod:`.notebook_run`). The site ships each notebook's code
cells made to run on the reader's wheel alone (:mod:`.notebook_code`), after an install cell.
"""

from __future__ import annotations

import base64
import functools
import json
import posixpath
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["PAGES", "MODEL_PAGES", "Cell", "fill", "links", "cells", "notebook"]

#: The pages that are also notebooks (a docs/<name>.md each), in the order of the site's nav.
PAGES = (
    "module-0",
    "module-1",
    "module-2",
    "module-3",
    "step-by-step",
    "inside-the-model",
    "real-heads",
    "causal-heads",
)
#: The notebook pages whose cells run a trained model: their install cell installs its wheels.
MODEL_PAGES = ("inside-the-model", "real-heads", "causal-heads")

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][\w.\-]*)\s*\}\}")
_EXEC = re.compile(r'^```python exec="1"(?P<options>[^\n]*)$')
_FENCE = re.compile(r"^(`{3,}|~{3,})")
_ADMONITION = re.compile(
    r'^(?P<mark>!!!|\?\?\?\+?)\s+(?P<kind>[\w-]+)(?:\s+"(?P<title>[^"]*)")?\s*$'
)
_INCLUDE = re.compile(r'^--8<--\s+"(?P<path>[^"]+)"\s*$')
_HEADING_ATTRS = re.compile(r"^(#{1,6} .*?)\s*\{[^}]*\}\s*$")
_LINK = re.compile(r"(!?\[[^\]]*\]\()(?P<target>[^)\s]+)\)")
#: What only the site's page can use: its widget's stylesheet and script, and a paragraph marked
#: ``{ .screen-only }`` (how to work the widget), attribute line included.
_PAGE_ONLY = re.compile(
    r'^<link rel="stylesheet"[^>]*>\n|^<script\b[^>]*></script>\n'
    r"|^(?:[^\n]+\n)*?\{:? ?\.screen-only \}\n",
    re.M,
)


@dataclass(frozen=True)
class Cell:
    """One notebook cell: ``kind`` is ``markdown`` or ``code``; a code cell keeps its fence's options."""

    kind: str
    text: str
    options: Mapping[str, str] = field(default_factory=dict)


def fill(markdown: str, values: Mapping[str, str], page: str) -> str:
    """``{{ key }}`` placeholders replaced by the build's values, as the site's pages get them.

    An unknown key stays as it is written: hooks/values.py reports it on the page itself, with
    its file, its line and the closest names, and the strict build fails there.
    """

    def value(m: re.Match[str]) -> str:
        return values.get(m.group(1), m.group(0))

    return _PLACEHOLDER.sub(value, markdown)


def _options(text: str) -> dict[str, str]:
    """A fence's options: ``id="m0-table" session="s"`` -> ``{"id": "m0-table", "session": "s"}``."""
    return dict(part.split("=", 1) for part in shlex.split(text) if "=" in part)


def _snippet(spec: str, snippets: Path) -> str:
    """What pymdownx.snippets includes for ``spec``: a file, or its lines ``start`` to ``end``
    (1-based, both included) as ``name.py:start:end``."""
    path, _, lines = spec.partition(":")
    text = (snippets / path).read_text(encoding="utf-8").rstrip("\n")
    if not lines:
        return text
    start, _, end = lines.partition(":")
    rows = text.split("\n")
    return "\n".join(rows[int(start or 1) - 1 : int(end) if end else None])


def _code(body: list[str], snippets: Path) -> str:
    """An exec fence's code: the snippets it includes (``--8<-- "page/name.py"``, with a line
    range ``"name.py:1:4"``, or a block of files between two ``--8<--`` lines), or its own lines."""
    out, block = [], False
    for line in body:
        m = _INCLUDE.match(line.strip())
        if line.strip() == "--8<--":
            block = not block
        elif block and line.strip():
            out.append(_snippet(line.strip(), snippets))
        elif not block:
            out.append(_snippet(m.group("path"), snippets) if m else line)
    return "\n".join(out).strip("\n")


def _indented(lines: list[str], start: int) -> int:
    """The end of the block of lines from ``start`` that are blank or indented by 4 spaces."""
    end = start
    while end < len(lines) and (
        not lines[end].strip() or lines[end].startswith("    ")
    ):
        end += 1
    while end > start and not lines[end - 1].strip():  # trailing blanks stay outside
        end -= 1
    return end


def _admonition(mark: str, title: str, inner: list[Cell]) -> str:
    """An admonition without code as Markdown a notebook shows: a ``<details>`` for a reveal
    (``???``, open with ``???+``), a titled quote otherwise."""
    text = "\n\n".join(c.text for c in inner)
    if mark.startswith("???"):
        opened = " open" if mark.endswith("+") else ""
        return f"<details{opened}><summary>{title}</summary>\n\n{text}\n\n</details>"
    quoted = "\n".join(f"> {ln}".rstrip() for ln in text.split("\n"))
    return f"> **{title}**\n>\n{quoted}"


def _blocks(lines: list[str], snippets: Path) -> list[Cell]:
    """Cells from Markdown lines: exec fences become code cells, admonitions become Jupyter's idioms."""
    out: list[Cell] = []
    md: list[str] = []

    def flush() -> None:
        if "\n".join(md).strip():
            out.append(Cell("markdown", "\n".join(md).strip("\n")))
        md.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        exec_fence, fence, note = (
            _EXEC.match(line),
            _FENCE.match(line),
            _ADMONITION.match(line),
        )
        if exec_fence or fence:
            close = fence.group(1) if fence else "```"
            end = next(
                (j for j in range(i + 1, len(lines)) if lines[j].strip() == close),
                len(lines),
            )
            if exec_fence:
                flush()
                options = _options(exec_fence.group("options"))
                out.append(Cell("code", _code(lines[i + 1 : end], snippets), options))
            else:
                md.extend(lines[i : end + 1])
            i = end + 1
        elif note:
            end = _indented(lines, i + 1)
            inner = _blocks([ln[4:] for ln in lines[i + 1 : end]], snippets)
            title = note.group("title") or note.group("kind").capitalize()
            if any(c.kind == "code" for c in inner):
                # a code cell cannot sit inside a quote or a <details>: the title leads the cells
                md.append(f"**{title}**")
                flush()
                out.extend(inner)
            else:
                md.append(_admonition(note.group("mark"), title, inner))
            i = end
        else:
            md.append(line)
            i += 1
    flush()
    return out


def _figure(text: str) -> str:
    """``<figure markdown>`` blocks as plain Markdown: the image, then the caption as a paragraph."""
    text = re.sub(r"^<figure\b[^>]*>\s*$|^</figure>\s*$", "", text, flags=re.M)
    return re.sub(
        r"^<figcaption[^>]*>(.*?)</figcaption>\s*$", r"\n\1\n", text, flags=re.M | re.S
    )


def links(
    text: str, site_url: str, page: str, diagrams: Mapping[str, bytes]
) -> tuple[str, dict[str, bytes]]:
    """Links to the site's pages and files made absolute (``site_url``); D2 images attached.

    Without a ``site_url`` (a build that does not know where it will be published), a link
    to the site becomes its words alone, and an image its text alternative in italics.
    """
    attached: dict[str, bytes] = {}

    def link(m: re.Match[str]) -> str:
        target = m.group("target")
        if re.match(r"[a-z][a-z0-9+.-]*:|#", target):
            return m.group(0)
        path, _, anchor = target.partition("#")
        path = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
        stem = posixpath.basename(path).removesuffix(".d2")
        if path.endswith(".d2") and m.group(1).startswith("!") and stem in diagrams:
            attached[f"{stem}.svg"] = diagrams[stem]
            return f"{m.group(1)}attachment:{stem}.svg)"
        if path.endswith(".md"):
            path = "" if path == "index.md" else path.removesuffix(".md") + "/"
        if not site_url:
            # no published address (SITE_URL unset): the words stay, with no link that cannot work
            label = m.group(1)[m.group(1).index("[") + 1 : -2]
            return f"*{label}*" if m.group(1).startswith("!") else label
        return f"{m.group(1)}{site_url.rstrip('/')}/{path}{'#' + anchor if anchor else ''})"

    return _LINK.sub(link, text), attached


def cells(
    markdown: str,
    snippets: Path,
    site_url: str,
    page: str,
    diagrams: Mapping[str, bytes] | None = None,
) -> list[Cell]:
    """A page's cells, in page order.

    Args:
        markdown: the page's Markdown, placeholders filled (:func:`fill`).
        snippets: the folder ``--8<--`` includes are read from.
        site_url: the site's address; links to pages and files of the site point there.
        page: the page's name (``module-0``), for links relative to it.
        diagrams: ``{"pipeline": svg bytes}``; a ``![...](diagrams/pipeline.d2)`` image becomes
            that SVG, attached to its cell (a notebook needs no site to show it).
    """
    merged: list[Cell] = []
    markdown = _PAGE_ONLY.sub("", markdown)
    for cell in _blocks(markdown.split("\n"), snippets):
        if merged and cell.kind == merged[-1].kind == "markdown":
            cell = Cell("markdown", f"{merged.pop().text}\n\n{cell.text}")
        merged.append(cell)
    result = []
    for cell in merged:
        if cell.kind == "code":
            result.append(cell)
            continue
        text = "\n".join(
            _HEADING_ATTRS.sub(r"\1", line) for line in _figure(cell.text).split("\n")
        )
        text, attached = links(text, site_url, page, diagrams or {})
        result.append(
            Cell(
                "markdown",
                re.sub(r"\n{3,}", "\n\n", text).strip("\n"),
                {
                    f"attachment:{k}": base64.b64encode(v).decode()
                    for k, v in attached.items()
                },
            )
        )
    return result


def notebook(
    page: str,
    page_cells: list[Cell],
    outputs: Sequence[Sequence[Mapping[str, Any]]] | None = None,
) -> str:
    """The notebook's JSON: cell ids ``<page>-<n>``, a Python 3 kernel.

    ``outputs`` (one list of nbformat output dicts per code cell, :mod:`.notebook_run`) are saved
    with their cells, each code cell numbered as a kernel numbers it; without them, no outputs.
    """
    return _notebook(
        page,
        tuple((c.kind, c.text, tuple(sorted(c.options.items()))) for c in page_cells),
        None if outputs is None else json.dumps(outputs, sort_keys=True),
    )


# made once per page's cells (mkdocs serve builds again at every save; nbformat validates)
@functools.lru_cache(maxsize=16)
def _notebook(
    page: str,
    page_cells: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...],
    outputs: str | None,
) -> str:
    import nbformat
    from nbformat import v4

    nb = v4.new_notebook()
    nb.metadata = {
        "kernelspec": {
            "display_name": "Python 3",
            "language": "python",
            "name": "python3",
        },
        "language_info": {"name": "python"},
    }
    ran = iter(json.loads(outputs)) if outputs is not None else None
    count = 0
    for n, (kind, text, options) in enumerate(page_cells, 1):
        cell_id = f"{page}-{n:02d}"
        if kind == "code":
            c = v4.new_code_cell(text, id=cell_id)
            c.metadata = {"workshop": dict(options)}
            if ran is not None:
                count += 1
                c.execution_count = count
                c.outputs = [nbformat.from_dict(o) for o in next(ran)]
        else:
            c = v4.new_markdown_cell(text, id=cell_id)
            files = {
                k.removeprefix("attachment:"): v
                for k, v in options
                if k.startswith("attachment:")
            }
            if files:
                c.attachments = {
                    name: {"image/svg+xml": data}
                    for name, data in sorted(files.items())
                }
        nb.cells.append(c)
    nbformat.validate(nb)
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
