"""Claims say what they check: a page's sentence is no stronger than the claim that backs it.

Each :class:`~attention_workshop.chapters.Claim` names the sentence it backs (a fragment of the
page's Markdown) and its :class:`~attention_workshop.chapters.Quantifier`. :func:`problems`
finds each fragment on the claim's page, reads the quantifiers of the whole sentence around it
and reports, with the page, the line and the claim:

- a claim whose sentence is not on its page any more;
- a quantifier word the claims of the sentence do not back (``each token`` backed by a mean).

**Which words quantify** (:data:`WORDS`, read in the sentence's prose: placeholders, inline code,
formulas and link targets left out), first match wins, whole words, any case:

- at least one: ``at least one``, ``one or more``, ``some``;
- the mean: ``on average``, ``average(d)``, ``mean``;
- every element: ``each``, ``every``, ``everything``, ``everywhere``, ``all``, ``always``,
  ``any``, ``anything``, ``both``, ``either``, ``neither``, ``no``, ``none``, ``never``,
  ``nothing``, ``nowhere``, ``whatever``;
- the maximum: ``largest``, ``most``, ``mostly``, ``maximum``, ``highest``, ``greatest``, ``biggest``;
- the minimum: ``smallest``, ``least``, ``minimum``, ``lowest``, ``fewest``.

**Idioms that do not quantify** (:data:`IDIOMS`, removed first): ``all its`` / ``all of its``
(``all its weight``: one row's whole mass), ``in all`` (in total), ``at all``, ``each other``,
``no longer``, ``any more``, ``at least`` and ``at most`` before a number or a value (a bound,
not a minimum: ``at least {{ x }}``), ``no more than`` / ``no less than``.

**Which claims back which words** (:data:`BACKS`): a claim over every element backs every,
at least one, the maximum and the minimum (``each word's largest share``); a maximum backs a
maximum and at least one, a minimum a minimum and at least one; a mean backs only a mean; at
least one backs only at least one; a single fact backs no quantifier word. A word inside one
claim's fragment must be backed by that claim; a word outside every fragment of the sentence,
by one of the sentence's claims.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from attention_workshop.chapters import Claim, Quantifier

__all__ = [
    "WORDS",
    "IDIOMS",
    "BACKS",
    "Sentence",
    "Word",
    "sentences",
    "prose",
    "words",
    "locate",
    "problems",
]

Q = Quantifier

#: The words of each quantifier, in the order they are read (the first match wins).
WORDS: tuple[tuple[Quantifier, str], ...] = (
    (Q.SOME, r"at least one|one or more|some"),
    (Q.MEAN, r"on average|averaged?|mean"),
    (
        Q.EVERY,
        r"each|every|everything|everywhere|all|always|any|anything|both|either|neither"
        r"|no|none|never|nothing|nowhere|whatever",
    ),
    (Q.MAX, r"largest|most|mostly|maximum|highest|greatest|biggest"),
    (Q.MIN, r"smallest|least|minimum|lowest|fewest"),
)

#: Phrases that hold a quantifier's word without quantifying (read before :data:`WORDS`).
IDIOMS: tuple[str, ...] = (
    r"all (?:of )?(?:its|their)",
    r"in all",
    r"at all",
    r"each other",
    r"no longer",
    r"any more",
    r"at (?:least|most)(?= (?:X|[\d(]|one half|half|a (?:tenth|third|quarter|fifth)))",
    r"no (?:more|less) than",
)

#: The sentence quantifiers each claim quantifier backs.
BACKS: dict[Quantifier, frozenset[Quantifier]] = {
    Q.EVERY: frozenset({Q.EVERY, Q.SOME, Q.MAX, Q.MIN}),
    Q.MAX: frozenset({Q.MAX, Q.SOME}),
    Q.MIN: frozenset({Q.MIN, Q.SOME}),
    Q.MEAN: frozenset({Q.MEAN}),
    Q.SOME: frozenset({Q.SOME}),
    Q.FACT: frozenset(),
}

_WORDS = re.compile(
    "|".join(rf"(?P<{q.name}>\b(?:{pattern})\b)" for q, pattern in WORDS), re.I
)
_IDIOMS = re.compile("|".join(rf"\b(?:{i})\b" for i in IDIOMS), re.I)
# what a reader does not read as words: placeholders, inline code, formulas, link targets, HTML tags
_NOT_PROSE = re.compile(r"\{\{.*?\}\}|`[^`]*`|\$[^$]*\$|\]\([^)]*\)|<[^>]+>")
_END = re.compile(r"(?<=[.!?])[\"')\]*]*\s+(?=[^a-z\s])")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_NEW_BLOCK = re.compile(r"^\s*(?:[-*+] |\d+\. |#|\||!!!|\?\?\?|<)")


@dataclass(frozen=True)
class Sentence:
    """One sentence of a page's prose: its text (whitespace collapsed) and first line."""

    text: str
    line: int


@dataclass(frozen=True)
class Word:
    """A quantifier word of a sentence: the word, its quantifier, where it starts in the text."""

    word: str
    quantifier: Quantifier
    at: int


def _blocks(markdown: str) -> Iterable[list[tuple[int, str]]]:
    """The page's prose, paragraph by paragraph (a list item, heading or table row starts one):
    ``(line, text)`` pairs; fenced code is left out."""
    block: list[tuple[int, str]] = []
    fence = ""
    for n, line in enumerate(markdown.split("\n"), 1):
        m = _FENCE.match(line)
        if fence or m:
            if block:
                yield block
                block = []
            if m and not fence:
                fence = m.group(1)
            elif m and m.group(1).startswith(fence):
                fence = ""
            continue
        if not line.strip() or _NEW_BLOCK.match(line):
            if block:
                yield block
            block = [(n, line.strip())] if line.strip() else []
        else:
            block.append((n, line.strip()))
    if block:
        yield block


def sentences(markdown: str) -> list[Sentence]:
    """Every sentence of a page's prose, in order, with the line it starts on."""
    found = []
    for block in _blocks(markdown):
        text, starts = "", []
        for n, line in block:
            starts.append((len(text), n))
            text += line + " "
        text = text.strip()
        pos = 0
        for piece in _END.split(text):
            at = text.index(piece, pos)
            first = max(n for start, n in starts if start <= at)
            found.append(Sentence(" ".join(piece.split()), first))
            pos = at + len(piece)
    return found


def prose(text: str) -> str:
    """``text`` as the quantifier check reads it: what is not prose blanked, length kept."""
    return _NOT_PROSE.sub(lambda m: "X" + " " * (len(m.group(0)) - 1), text)


def words(text: str) -> list[Word]:
    """The quantifier words of ``text``, idioms left out (:data:`IDIOMS`, :data:`WORDS`)."""
    read = _IDIOMS.sub(lambda m: " " * len(m.group(0)), prose(text))
    return [
        Word(m.group(0), Quantifier[m.lastgroup or ""], m.start())
        for m in _WORDS.finditer(read)
    ]


def locate(fragment: str, page: Sequence[Sentence]) -> Sentence | None:
    """The sentence of ``page`` that holds ``fragment`` (whitespace collapsed), or None."""
    needle = " ".join(fragment.split())
    return next((s for s in page if needle in s.text), None)


def _unbacked(
    sentence: Sentence, claims: Sequence[Claim[Any]]
) -> list[tuple[Word, Claim[Any]]]:
    """The words of ``sentence`` its claims do not back, each with the claim that fails it."""
    spans = []
    for c in claims:
        start = sentence.text.index(" ".join((c.sentence or "").split()))
        spans.append((c, start, start + len(" ".join((c.sentence or "").split()))))
    out = []
    for w in words(sentence.text):
        owners = [c for c, a, b in spans if a <= w.at < b] or list(claims)
        if not any(w.quantifier in BACKS[c.quantifier] for c in owners):
            out.append((w, owners[0]))
    return out


def problems(
    claims: Iterable[Claim[Any]],
    pages_of: Callable[[Claim[Any]], Sequence[str]],
    read: Callable[[str], str],
) -> list[tuple[str, str]]:
    """Every claim whose sentence is gone or says more than it checks: ``(page, message)`` pairs.

    Args:
        claims: the claims to check (a claim without a sentence is skipped).
        pages_of: the pages (``docs/``-relative) a claim may be stated on, its own page first.
        read: a page's Markdown, by its ``docs/``-relative path.
    """
    parsed: dict[str, list[Sentence]] = {}
    backing: dict[tuple[str, Sentence], list[Claim[Any]]] = {}
    out = []
    for c in claims:
        if c.sentence is None:
            continue
        pages = list(pages_of(c))
        for page in pages:
            if page not in parsed:
                parsed[page] = sentences(read(page))
            if (s := locate(c.sentence, parsed[page])) is not None:
                backing.setdefault((page, s), []).append(c)
                break
        else:
            page = pages[0] if pages else "?"
            out.append(
                (
                    page,
                    f"docs/{page}: claim {c.key} backs the sentence {c.sentence!r}, which is "
                    "not on the page any more: give the claim the sentence as it is now written",
                )
            )
    for (page, s), backers in backing.items():
        for w, c in _unbacked(s, backers):
            out.append(
                (
                    page,
                    f"docs/{page}:{s.line}: {w.word!r} says {w.quantifier.value}, but claim "
                    f"{c.key} checks {c.quantifier.value}: say what it checks, or back the "
                    f"sentence with a claim over {w.quantifier.value} ({s.text!r})",
                )
            )
    return out
