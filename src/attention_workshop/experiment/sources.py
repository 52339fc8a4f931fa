"""Where the site's words are written: the pages in ``docs/``, their exec fences, the snippets they include.

The build's error messages point at the line to edit: a fence without an ``id``, the snippet
file behind a fence that failed, the line a broken link or an unknown value is written on,
and the pages that state a claim (:func:`stated_on`). Everything here reads files of the
repository; nothing runs a snippet.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..chapters.sections import SECTIONS

__all__ = [
    "REPO",
    "DOCS",
    "SNIPPETS",
    "Fence",
    "fences",
    "line_of",
    "snippet_file",
    "where_written",
    "chapter_page",
    "pages_quoting",
    "quoting_texts",
    "stated_on",
]

#: The repository (a checkout; an installed package has no docs/ and no snippets/ beside it).
REPO = Path(__file__).resolve().parent.parent.parent.parent
DOCS = REPO / "docs"
SNIPPETS = REPO / "snippets"

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)$")
_ATTR = re.compile(r'([A-Za-z_][\w-]*)="([^"]*)"')
_INCLUDE = re.compile(r'^\s*-{1,3}8<-{1,3}\s+"([^"]+)"', re.M)


@dataclass(frozen=True)
class Fence:
    """One exec fence of a page: ``python exec="1" id="..."`` and the snippets it includes.

    Attributes:
        id: the fence's ``id`` ("" when it has none).
        line: the line of its opening ``` in the page (1-based).
        language: the fence's language (``python``, ``bash``, ...).
        snippets: the files its ``--8<--`` lines include, as repository paths (``snippets/module-3/x.py``).
    """

    id: str
    line: int
    language: str
    snippets: tuple[str, ...]


def _executes(attrs: dict[str, str]) -> bool:
    # markdown-exec runs a fence whose exec is not "", "no", "off", "false" or "0"
    return "exec" in attrs and attrs["exec"].lower() not in {
        "",
        "no",
        "off",
        "false",
        "0",
    }


def snippet_file(include: str) -> str:
    """The repository path of a ``--8<--`` include (mkdocs.yml's base paths: ``snippets/``, then the root)."""
    name = re.sub(
        r"(:-?\d*)+$", "", include
    )  # "x.py:3:5" includes lines 3 to 5 of x.py
    for base in (SNIPPETS, REPO):
        if (base / name).is_file():
            return (base / name).relative_to(REPO).as_posix()
    return f"snippets/{name}"


def fences(markdown: str) -> list[Fence]:
    """Every exec fence of a page's Markdown, in order (fences inside other fences are text, not fences)."""
    found: list[Fence] = []
    lines = markdown.split("\n")
    n = 0
    while n < len(lines):
        m = _OPEN.match(lines[n])
        if not m:
            n += 1
            continue
        indent, fence, info = m["indent"], m["fence"], m["info"]
        close = re.compile(rf"^{re.escape(indent)}{fence[0]}{{{len(fence)},}}[ \t]*$")
        end = next(
            (k for k in range(n + 1, len(lines)) if close.match(lines[k])), len(lines)
        )
        attrs = dict(_ATTR.findall(info))
        if _executes(attrs):
            body = "\n".join(lines[n + 1 : end])
            found.append(
                Fence(
                    attrs.get("id", ""),
                    n + 1,
                    (info.split() or [""])[0],
                    tuple(snippet_file(p) for p in _INCLUDE.findall(body)),
                )
            )
        n = end + 1
    return found


def line_of(text: str, pos: int) -> int:
    """The 1-based line of character ``pos`` of ``text``."""
    return text.count("\n", 0, pos) + 1


def _read(path: str) -> str:
    try:
        return (REPO / path).read_text(encoding="utf-8")
    except OSError:
        return ""


def where_written(page: str, markdown: str, needle: str) -> str:
    """Where ``needle`` (a link target, a placeholder) is written for page ``docs/<page>``.

    Returns ``docs/<page>:<line>`` when the page's Markdown has it, else the snippet file that
    holds it with its fence (``snippets/x.py (fence 'id', docs/<page>:<line>)``), else the page
    alone, said to be in a snippet's output.
    """
    at = markdown.find(needle)
    if at >= 0:
        return f"docs/{page}:{line_of(markdown, at)}"
    for f in fences(markdown):
        for path in f.snippets:
            if needle in _read(path):
                fence = f"fence '{f.id}'" if f.id else "a fence without an id"
                return f"{path} ({fence}, docs/{page}:{f.line})"
    ids = ", ".join(f"'{f.id}'" for f in fences(markdown) if f.id)
    return f"docs/{page}, in the output of one of its snippets ({ids or 'no fence'})"


def chapter_page(module: str) -> str | None:
    """The page of a chapter module: ``attention_workshop.chapters.module_3`` -> ``module-3.md``
    (a chapter package such as ``step_by_step.steps`` -> ``step-by-step.md``); None without one."""
    parts = module.split(".")
    if "chapters" not in parts[:-1]:
        return None
    name = parts[parts.index("chapters") + 1].replace("_", "-") + ".md"
    return name if (DOCS / name).is_file() else None


#: A page as :func:`pages_quoting` reads it: its ``docs/``-relative path, its Markdown and the
#: text of every snippet its exec fences include.
Quoting = tuple[str, str, list[str]]


def quoting_texts() -> list[Quoting]:
    """Every page with its snippets' texts, read once for many :func:`pages_quoting` calls."""
    if not DOCS.is_dir():
        return []
    out = []
    for p in sorted(DOCS.rglob("*.md")):
        markdown = p.read_text(encoding="utf-8")
        texts = [_read(path) for f in fences(markdown) for path in f.snippets]
        out.append((p.relative_to(DOCS).as_posix(), markdown, texts))
    return out


def _quotes(markdown: str, snippets: list[str], key: str, names: Iterable[str]) -> bool:
    # a pattern is searched for only in a text that holds its words (asked per claim and page)
    placeholder = r"\{\{\s*" + re.escape(key) + r"\."
    if f"{key}." in markdown and re.search(placeholder, markdown):
        return True
    names = list(names)
    quoted = re.escape(f'"{key}"')
    # log_excerpt("key"), results.show["key"], or the chapter's constant (results()[CAUSAL])
    words = [
        rf"\b(?:log_excerpt|excerpt|section)\(\s*{quoted}",
        rf"\[\s*{quoted}\s*\]",
        *(rf"\b{re.escape(n)}\b" for n in names),
    ]
    pattern = re.compile("|".join(words))
    needles = [f'"{key}"', *names]
    return any(
        pattern.search(text)
        for text in snippets
        if any(needle in text for needle in needles)
    )


def pages_quoting(
    key: str, names: Sequence[str] = (), texts: list[Quoting] | None = None
) -> list[str]:
    """Pages that quote section ``key``: a ``{{ key.name }}`` value, or a snippet that names the
    section (``log_excerpt("key")``, or one of ``names``, the chapter's constant such as ``CAUSAL``).
    ``texts``: the pages as :func:`quoting_texts` read them (read now if not given)."""
    return [
        page
        for page, markdown, snippets in (quoting_texts() if texts is None else texts)
        if _quotes(markdown, snippets, key, names)
    ]


def stated_on(
    subject: str, module: str | None = None, texts: list[Quoting] | None = None
) -> list[str]:
    """The pages that state a claim about ``subject`` (a section key, or a page subject such as
    ``final_exam``): the chapter's own page first, then every page that quotes the section."""
    import sys

    section = next((s for s in SECTIONS if s.key == subject), None)
    module = module or (section.run.__module__ if section else f"chapters.{subject}")
    names: list[str] = []
    if section is not None and (mod := sys.modules.get(section.run.__module__)):
        names = [n for n, v in vars(mod).items() if v is section]
    own = chapter_page(module)
    pages = [own] if own else []
    return [*pages, *(p for p in pages_quoting(subject, names, texts) if p != own)]
