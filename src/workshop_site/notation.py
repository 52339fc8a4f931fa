"""The site's one notation: every symbol and term, the page that introduces it, and the checks that keep
the pages to it.

The entries live in ``notation.toml`` (in this package). :func:`table` writes the Notation page's table;
:func:`check` reads every page's Markdown and says where a page breaks the notation (the build fails on
any problem: ``hooks/notation.py``); :func:`abbreviations` and :func:`symbol_titles` give the hover
definitions of terms and of symbols.
"""

from __future__ import annotations

import functools
import html
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.resources import files

from .page_reads import pure

__all__ = [
    "DATA_FILE",
    "Entry",
    "entries",
    "math_segments",
    "prose",
    "uses",
    "check",
    "table",
    "abbreviations",
    "symbol_titles",
]

#: The data file of the entries, in this package.
DATA_FILE = "notation.toml"

#: How the table names each page.
_TITLES = {
    "module-0.md": "Module 0",
    "module-1.md": "Module 1",
    "module-2.md": "Module 2",
    "module-3.md": "Module 3",
    "step-by-step.md": "Step by step",
    "inside-the-model.md": "Inside the model",
    "real-heads.md": "Real heads",
    "causal-heads.md": "A causal model",
}


@dataclass(frozen=True)
class Entry:
    """One symbol or term of the notation (see ``notation.toml`` for what each field holds)."""

    name: str
    meaning: str
    page: str
    tex: str = ""
    term: str = ""
    code: str = ""
    never: tuple[str, ...] = field(default_factory=tuple)
    alias: bool = False

    @property
    def label(self) -> str:
        """How the entry is named in a message: its TeX or its term."""
        return f"${self.tex}$" if self.tex else f'"{self.term}"'

    @property
    def page_file(self) -> str:
        return self.page.split("#")[0]


def entries() -> tuple[Entry, ...]:
    """The entries of the data file, in its order (read afresh at every call, parsed once per text)."""
    return _parse(files(__package__).joinpath(DATA_FILE).read_bytes())


@pure  # a function of the file's bytes: parsed once per build, not once per page
@functools.lru_cache(maxsize=2)
def _parse(data: bytes) -> tuple[Entry, ...]:
    return tuple(
        Entry(**{**e, "never": tuple(e.get("never", ()))})
        for e in tomllib.loads(data.decode("utf-8"))["entry"]
    )


_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,}).*?^\1\2[ \t]*$", re.S | re.M)
_INLINE_CODE = re.compile(r"`[^`\n]+`")
_MATH = re.compile(r"\$\$(.+?)\$\$|\$([^$\n]+?)\$", re.S)


def _without_code(markdown: str) -> str:
    return _INLINE_CODE.sub(" ", _FENCE.sub(" ", markdown))


def math_segments(markdown: str) -> list[str]:
    """The TeX of every formula of a page (``$...$`` and ``$$...$$``), code blocks and inline code left out."""
    return list(_views(markdown)[1])


def prose(markdown: str) -> str:
    """A page's text without its code blocks, inline code and formulas."""
    return _views(markdown)[0]


# every entry asks the same pages: each page's text is taken apart once (per text)
@functools.lru_cache(maxsize=64)
def _views(markdown: str) -> tuple[str, tuple[str, ...]]:
    text = _without_code(markdown)
    return _MATH.sub(" ", text), tuple((a or b).strip() for a, b in _MATH.findall(text))


def _token(text: str) -> re.Pattern[str]:
    """``text`` standing alone: not part of a longer name (letters, digits, ``_`` or ``\\`` around it)."""
    return re.compile(r"(?<![A-Za-z0-9_\\])" + re.escape(text) + r"(?![A-Za-z0-9_])")


def uses(markdown: str, e: Entry) -> bool:
    """Whether a page writes the entry: its symbol in a formula, or its term in the prose."""
    if e.tex:
        pattern = _token(e.tex)
        return any(pattern.search(m) for m in math_segments(markdown))
    return bool(_token(e.term).search(prose(markdown)))


def _misplaced(
    e: Entry, pages: Sequence[tuple[str, str]], skip: Sequence[str]
) -> list[str]:
    """Pages that write an entry where they should not: a symbol before its page, an alias anywhere but its page."""
    order = [path for path, _ in pages]
    at = order.index(e.page_file)
    out = []
    for n, (path, md) in enumerate(pages):
        if path in skip or path == e.page_file:
            continue
        if e.alias and uses(md, e):
            out.append(
                f"{e.label}: {path} writes it (another name, used only on {e.page_file})"
            )
        elif e.tex and n < at and uses(md, e):
            out.append(f"{e.label}: {path} writes it before {e.page} introduces it")
    return out


def check(
    pages: Sequence[tuple[str, str]], skip: Sequence[str] = ("index.md",)
) -> list[str]:
    """Where the pages break the notation, one line each (empty when they keep to it).

    Args:
        pages: ``(path, Markdown)`` of every page, in the order of the site's navigation.
        skip: pages that may mention anything anywhere (the overview on the home page).

    Checks: each entry's page is a page of the site and writes it; no page before that one writes a
    symbol; an alias appears only on its own page; a ``never`` spelling appears on no page, outside code.
    """
    text = dict(pages)
    problems = []
    for e in entries():
        if e.page_file not in text:
            problems.append(
                f"{e.label}: its page {e.page_file} is not a page of the site"
            )
            continue
        if not uses(text[e.page_file], e):
            problems.append(
                f"{e.label}: {e.page_file} introduces it but never writes it"
            )
        problems += _misplaced(e, pages, skip)
        for wrong in e.never:
            found = _token(wrong)
            problems += [
                f"{path}: writes {wrong!r}; the site writes {e.label}"
                for path, md in pages
                if found.search(prose(md))
                or any(found.search(m) for m in math_segments(md))
            ]
    return problems


#: Where a name in code may break across lines: after a dot, an underscore or an opening bracket.
_NAME_BREAK = re.compile(r"(?<=[._(])(?=.)")


def _names(cell: str) -> str:
    """The code of a table cell (Markdown) as HTML that breaks only after ``.``, ``_`` or ``(``, or
    at a space (workshop.css): Material lets code break anywhere, and on a phone the table's
    column showed ``k.transpo`` over ``se(-2,``."""

    def one(m: re.Match[str]) -> str:
        parts = _NAME_BREAK.split(m.group(0)[1:-1])
        return f'<code class="workshop-name">{"<wbr>".join(map(html.escape, parts))}</code>'

    return _INLINE_CODE.sub(one, cell)


def table() -> str:
    """The Notation page's table: each entry, what it means, its names in code, and where it is introduced."""
    rows = [
        "| Symbol or term | Meaning | In code | Introduced in |",
        "|:--|:--|:--|:--|",
    ]
    for e in entries():
        shown = f"${e.tex}$" if e.tex else f"*{e.term}*"
        where = _TITLES.get(e.page_file, e.page_file)
        rows.append(
            f"| {shown} | **{e.name}.** {e.meaning} | {_names(e.code)} | [{where}]({e.page}) |"
        )
    return "\n".join(rows) + "\n"


def abbreviations() -> str:
    """The terms' hover definitions, as Markdown abbreviations (``*[softmax]: ...``)."""
    return "".join(f"*[{e.term}]: {e.meaning}\n" for e in entries() if e.term)


def symbol_titles() -> dict[str, str]:
    """Each symbol's hover definition, by its TeX: ``{"W_Q": "W Q, the query matrix. Turns ..."}``."""
    return {e.tex: f"{e.name}. {e.meaning}" for e in entries() if e.tex}
