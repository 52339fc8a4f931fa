"""The hand-typed number check: a number in a page's prose that the build computes must be quoted.

House rule: no result typed by hand. :func:`find` reads a page's Markdown as a reader reads it
(code, inline code, comments, placeholders, link targets, HTML tags and attribute lists left
out) and reports each number that

- is a decimal, a grouped count (``147,456``) or in scientific notation and equals a value the
  build computes (any number inside a value counts: a vector's entries too);
- is a whole number of 10 or more and equals a value the build computes;
- is a whole number from 2 to 9 written as a value (``d = 4``), or in the same paragraph as a
  placeholder that gives that number ("{{ inside.n_axes }} axes, so each row holds 4 numbers"),
  and not a name such as "Module 2" or "step 3" (:data:`ORDINALS`);
- looks like a computed result without matching one: three or more decimals, a count of six or
  more digits, scientific notation.

0 and 1 are never reported: they are the identities of the maths (``e^0 = 1``, rows sum to 1).
A number that is a definition where it stands (the wired head's two channels) may be allowed
with a reason (:class:`Allowed`, read by :func:`load_allowed` from ``hooks/handtyped_numbers.toml``).
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from attention_workshop.experiment import cache

from .page_reads import pure

__all__ = [
    "ORDINALS",
    "Allowed",
    "Finding",
    "prose",
    "numbers_in",
    "find",
    "report",
    "load_allowed",
    "unused",
    "message",
]

#: Words after which a small whole number is a name, not a quantity ("Module 2", "step 3").
ORDINALS = frozenset(
    [
        "module",
        "modules",
        "step",
        "steps",
        "question",
        "questions",
        "part",
        "parts",
        "section",
        "sections",
        "chapter",
        "layer",
        "layers",
        "block",
        "blocks",
        "head",
        "heads",
        "line",
        "lines",
        "row",
        "rows",
        "column",
        "columns",
        "page",
        "pages",
        "exercise",
        "exercises",
        "practice",
        "experiment",
        "experiments",
        "figure",
        "table",
        "seed",
    ]
)
# values that are not results: the build's versions and commit, where a section stands
_NOT_RESULTS = re.compile(r"^build\.|\.(lines|label)$")

_NUMBER = re.compile(
    r"(?P<sign>[-−+]?)(?P<n>\d{1,3}(?:,\d{3})+(?![\d,]\d)|\d+(?:\.\d+)?(?:[eE][-+−]?\d+)?)(?![\w])"
)
_SCI_HTML = re.compile(r"(\d+(?:\.\d+)?) × 10<sup>([-−]?\d+)</sup>")
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][\w.\-]*)\s*\}\}")
_SKIP = (
    re.compile(r"\A---\n.*?\n---\n", re.S),  # front matter
    re.compile(r"^([ \t]*)(`{3,}|~{3,})[^\n]*\n.*?^\1\2[ \t]*$", re.S | re.M),  # fences
    re.compile(r"^:::.*(?:\n[ \t]+.*)*", re.M),  # mkdocstrings blocks and their options
    re.compile(r"<!--.*?-->", re.S),  # comments
    re.compile(r"`[^`\n]+`"),  # inline code
    re.compile(r"\]\([^)\n]*\)"),  # link and image targets
    re.compile(r"<[^>\n]+>"),  # HTML tags and their attributes
    re.compile(r"\{[:\s]*[#.][^}\n]*\}"),  # attribute lists: { #anchor .class }
    re.compile(r"https?://\S+"),
)


@dataclass(frozen=True)
class Allowed:
    """A number that may be typed where it stands: on ``page``, the ``number`` on a line holding ``context``."""

    page: str
    number: str
    context: str
    reason: str


@dataclass(frozen=True)
class Finding:
    """A number typed by hand: its line, its text, the line, and the placeholders that give it."""

    line: int
    number: str
    text: str
    placeholders: tuple[str, ...]


def prose(markdown: str) -> str:
    """The page with everything but its prose blanked out (same length, same lines)."""
    for pattern in _SKIP:
        markdown = pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), markdown)
    return markdown


def _value(text: str) -> float:
    return float(text.replace(",", "").replace("−", "-"))


def numbers_in(value: str) -> list[float]:
    """The numbers a value's text holds (``2.22 × 10<sup>−16</sup>`` is one number, 2.22e-16)."""
    value = _SCI_HTML.sub(lambda m: f"{m.group(1)}e{m.group(2)}", value)
    value = re.sub(r"<[^>]+>", " ", value)
    return [_value(m["n"]) for m in _NUMBER.finditer(value) if not _named(value, m)]


def _named(text: str, m: re.Match[str]) -> bool:
    """A number glued to a word is a name: GPT-2, d2, W_q1, v1.2."""
    at = m.start("n")
    before = text[at - 1] if at else " "
    if before.isalnum() or before in "_.":
        return True
    return not m["sign"] and before in "-−" and at > 1 and text[at - 2].isalnum()


def _index(
    values: Mapping[str, str],
) -> tuple[dict[float, list[str]], dict[float, list[str]]]:
    """Every computed number -> the keys whose value holds it; and whole values -> their keys
    (read only: made once for the values every page of a build is checked against)."""
    return _index_of(tuple(values.items()))


@pure  # a function of the values: made once per build, not once per page
@functools.lru_cache(maxsize=4)
def _index_of(
    items: tuple[tuple[str, str], ...],
) -> tuple[dict[float, list[str]], dict[float, list[str]]]:
    anywhere: dict[float, list[str]] = {}
    whole: dict[float, list[str]] = {}
    for key, text in items:
        if _NOT_RESULTS.search(key):
            continue
        found = numbers_in(text)
        for x in found:
            anywhere.setdefault(abs(x), []).append(key)
        if len(found) == 1 and found[0] == round(found[0]):
            whole.setdefault(abs(found[0]), []).append(key)
    return anywhere, whole


def _rank(keys: Iterable[str], line: str, quoted: set[str]) -> tuple[str, ...]:
    """Up to five keys, best first: of a section the page quotes, sharing a word with the line."""
    words = set(re.findall(r"[a-z]+", line.lower()))

    def score(key: str) -> tuple[int, int]:
        section, _, name = key.partition(".")
        return (-(section in quoted), -len(words & set(name.lower().split("_"))))

    return tuple(sorted(dict.fromkeys(keys), key=score)[:5])


def _small(text: str, m: re.Match[str], paragraph_values: set[float], x: float) -> bool:
    """A whole number 2..9 counts when written as a value or next to a placeholder giving it."""
    before = text[: m.start()]
    word = re.search(r"([A-Za-z]+)\W*$", before)
    if word and word.group(1).lower() in ORDINALS:
        return False
    return bool(re.search(r"[=≈]\s*$", before)) or x in paragraph_values


def find(
    markdown: str, values: Mapping[str, str], allowed: Sequence[Allowed] = ()
) -> list[Finding]:
    """Every number typed by hand in a page's Markdown (see the module's rules), less the allowed ones.

    Args:
        markdown: the page as written (placeholders not filled in).
        values: what the placeholders give, by name (``site.context()``).
        allowed: numbers that may stand where they are (their ``page`` is not checked here).
    """
    anywhere, whole = _index(values)
    text, source_lines = prose(markdown), markdown.split("\n")
    quoted = {k.split(".")[0] for k in _PLACEHOLDER.findall(markdown)}
    found = []
    for para in re.finditer(r"[^\n]*\S[^\n]*(?:\n[^\n]*\S[^\n]*)*", text):
        near = {
            _value(values[k])
            for k in _PLACEHOLDER.findall(markdown[para.start() : para.end()])
            if re.fullmatch(r"\d{1,3}(?:,\d{3})*|\d+", values.get(k, ""))
        }
        body = _PLACEHOLDER.sub(lambda m: " " * len(m.group(0)), para.group(0))
        for m in _NUMBER.finditer(body):
            if _named(body, m):
                continue
            n, x = m["n"], abs(_value(m["n"]))
            line = text.count("\n", 0, para.start() + m.start()) + 1
            source = source_lines[line - 1]
            looks = bool(re.search(r"\.\d{3,}|[eE]|\d{1,3}(,\d{3}){2,}|\d{3},\d{3}", n))
            if "." in n or "," in n or "e" in n.lower():
                keys = anywhere.get(x, [])
                hit = bool(keys) or looks
            elif x >= 10:
                keys = whole.get(x, []) + anywhere.get(x, [])
                hit = bool(keys)
            else:
                keys = whole.get(x, [])
                hit = x >= 2 and bool(keys) and _small(body, m, near, x)
            if hit and not any(a.number == n and a.context in source for a in allowed):
                found.append(
                    Finding(line, n, source.strip(), _rank(keys, source, quoted))
                )
    return found


def unused(
    markdown: str, values: Mapping[str, str], allowed: Sequence[Allowed]
) -> list[Allowed]:
    """The allowed numbers of a page that no longer stand on it: each should be removed."""
    everything = find(markdown, values)
    return [
        a
        for a in allowed
        if not any(f.number == a.number and a.context in f.text for f in everything)
    ]


def load_allowed(path: str | Path) -> list[Allowed]:
    """The allow-list: ``[[allow]]`` tables with page, number, context and reason (all required)."""
    p = Path(path)
    if not p.is_file():
        return []
    entries = tomllib.loads(p.read_text(encoding="utf-8")).get("allow", [])
    out = []
    for n, e in enumerate(entries, 1):
        missing = {"page", "number", "context", "reason"} - e.keys()
        if missing or not str(e.get("reason", "")).strip():
            raise ValueError(
                f"{p.name}: [[allow]] number {n} needs page, number, context and a reason; "
                f"missing: {', '.join(sorted(missing)) or 'reason'}"
            )
        out.append(Allowed(e["page"], str(e["number"]), e["context"], e["reason"]))
    return out


def report(
    markdown: str, values: Mapping[str, str], allowed: Sequence[Allowed]
) -> tuple[list[Finding], list[Allowed]]:
    """:func:`find` and :func:`unused` of a page, made once per page text, values and allowed
    numbers (``mkdocs serve`` checks every page at every rebuild: in a site build the report is
    kept on disk, under this code and those three, :func:`.cache.call`)."""
    return cache.call(_report, markdown, tuple(sorted(values.items())), tuple(allowed))


@functools.lru_cache(maxsize=64)
def _report(
    markdown: str, values: tuple[tuple[str, str], ...], allowed: tuple[Allowed, ...]
) -> tuple[list[Finding], list[Allowed]]:
    return find(markdown, dict(values), allowed), unused(
        markdown, dict(values), allowed
    )


def message(page: str, f: Finding, allow_file: str) -> str:
    """What the build says about a finding: where, what, and the placeholder to write instead."""
    where = f"docs/{page}:{f.line}: {f.number} is typed by hand"
    if f.placeholders:
        first, *rest = (f"{{{{ {k} }}}}" for k in f.placeholders)
        also = f" (or {', '.join(rest)})" if rest else ""
        fix = f"the build computes it: write {first}{also}"
    else:
        fix = "it looks like a computed result: compute it in the package and quote it as {{ section.name }}"
    return (
        f"{where}; {fix}. If it is a definition where it stands, allow it in {allow_file} "
        f"with a reason. The line: {f.text[:100]}"
    )
