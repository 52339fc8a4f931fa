"""The math font, cut down at build time to the glyphs the site's formulas use.

Formulas are MathML that the browser lays out with Latin Modern Math
(``docs/assets/fonts/latinmodern-math.otf``, 734 KB). A page needs only the glyphs its
formulas draw, so the build writes :data:`SUBSET`: the characters of every ``<math>`` element
of the site (:func:`math_text`), the italic letters the browser draws for a one-letter
``<mi>``, the radical sign a ``<msqrt>`` or ``<mroot>`` draws (no text of the formula holds
it), and everything OpenType reaches from them (the ``MATH`` table's size variants and
the pieces that stretch a bracket, ``ssty`` script forms, ligatures), as WOFF.

The build then checks the subset against what the formulas need (:func:`needs`,
:func:`first_uses`, :func:`lacking`): each character they draw has its glyph in it, and a
stretchy fence or a root's sign also has the sizes and the assembly parts the full font's
``MATH`` table grows it with. What it lacks, or what the full font lacks, is named with the
first page that draws it (hooks/fonts.py reports it: the strict build fails).

The subset is a modified version of the font: it has its own file name, and the font's
licence (``LICENSE-latinmodern-math.txt``, the GUST Font License) ships beside it.
"""

from __future__ import annotations

import html
import io
import re
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fontTools.ttLib import TTFont

__all__ = [
    "FONT",
    "SUBSET",
    "Use",
    "first_uses",
    "lacking",
    "math_text",
    "needs",
    "subset",
]

#: The full font, in docs/, and the subset the site serves instead (paths inside the site).
FONT = "assets/fonts/latinmodern-math.otf"
SUBSET = "assets/fonts/latinmodern-math-subset.woff"

_MATH = re.compile(r"<math\b.*?</math>", re.S)
_TAG = re.compile(r"<[^>]*>")
_MI = re.compile(r"<mi\b([^>]*)>([^<]*)</mi>")
# a root: the browser draws U+221A from the font's MATH table, though no text of the formula holds it
_RADICAL = re.compile(r"<m(?:sqrt|root)\b")
_MO = re.compile(r"<mo\b([^>]*)>([^<]*)</mo>")
_STRETCHY = re.compile(r'\bstretchy="true"')
_FENCE = re.compile(r'\bfence="true"')
#: How a formula draws a character, from least to most of the font it needs.
_KINDS = ("character", "stretchy", "radical")
_HOW = {
    "character": "",
    "stretchy": " as a stretchy operator",
    "radical": " as a root's sign",
}
# a few characters a browser may draw whatever the formulas hold: spaces, the minus sign
_ALWAYS = " \u00a0\u2212"


def _italic(ch: str) -> str:
    """The mathematical italic form of a Latin or Greek letter (``x`` -> U+1D465), or ""."""
    name = unicodedata.name(ch, "")
    m = re.fullmatch(r"(LATIN|GREEK) (CAPITAL|SMALL) LETTER (\w+)", name)
    if m is None:
        return ""
    if ch == "h":  # the one italic letter that lives in Letterlike Symbols
        return "\u210e"
    kind = "CAPITAL" if m.group(2) == "CAPITAL" else "SMALL"
    alphabet = "" if m.group(1) == "LATIN" else " " + m.group(1)
    try:
        return unicodedata.lookup(f"MATHEMATICAL ITALIC{alphabet} {kind} {m.group(3)}")
    except KeyError:
        return ""


def needs(page_html: str) -> dict[str, str]:
    """What the formulas of ``page_html`` draw from the math font: character -> how it is drawn.

    ``"character"``: the text of each ``<math>`` element, and the italic letter a browser draws
    for a one-letter ``<mi>`` (MathML's automatic italic). ``"stretchy"``: an ``<mo>`` that
    grows with what it holds (``stretchy="true"``, or a fence not marked ``stretchy="false"``).
    ``"radical"``: U+221A for a root (``<msqrt>``, ``<mroot>``), though no text holds it.
    A character drawn two ways is listed by the one that needs more of the font.
    """
    drawn: dict[str, str] = {}

    def add(ch: str, kind: str) -> None:
        if (
            ch
            and ch not in "\n\r\t"
            and _KINDS.index(kind) >= _KINDS.index(drawn.get(ch, kind))
        ):
            drawn[ch] = kind

    for formula in _MATH.findall(page_html):
        for ch in html.unescape(_TAG.sub("", formula)):
            add(ch, "character")
        for attrs, text in _MI.findall(formula):
            letter = html.unescape(text).strip()
            if len(letter) == 1 and "mathvariant" not in attrs:
                add(_italic(letter), "character")
        for attrs, text in _MO.findall(formula):
            if _STRETCHY.search(attrs) or (
                _FENCE.search(attrs) and "stretchy" not in attrs
            ):
                for ch in html.unescape(text).strip():
                    add(ch, "stretchy")
        if _RADICAL.search(formula):
            add("\u221a", "radical")
    return drawn


def math_text(page_html: str) -> set[str]:
    """Every character the formulas of ``page_html`` may draw (:func:`needs`), and the few a
    browser may draw whatever they hold (spaces, the minus sign)."""
    return set(needs(page_html)) | set(_ALWAYS)


def subset(font: bytes, chars: str) -> bytes:
    """``font`` (OpenType bytes) cut down to ``chars`` and what OpenType reaches from them, as WOFF.

    Kept: the ``MATH`` table with its variants and assemblies (stretchy brackets, big operators),
    every layout feature, the names and the licence fields. Same inputs, same bytes.
    """
    from fontTools import subset as ft_subset
    from fontTools.ttLib import TTFont

    options = ft_subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.recalc_timestamp = False
    options.flavor = "woff"
    # FontForge's timestamp table: nothing to keep, and fontTools would warn that it cannot subset it
    options.drop_tables = [*options.drop_tables, "FFTM"]
    font_file = TTFont(io.BytesIO(font), recalcTimestamp=False)
    subsetter = ft_subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(chars)))
    subsetter.subset(font_file)
    out = io.BytesIO()
    font_file.flavor = "woff"
    font_file.save(out, reorderTables=True)
    return out.getvalue()


#: A formula's character, how it is drawn and the first page (or file of the site) that draws it.
Use = tuple[str, str, str]


def first_uses(texts: Iterable[tuple[str, str]]) -> tuple[Use, ...]:
    """``(character, how it is drawn, where)`` for each way a character is drawn (:func:`needs`),
    with the first of ``texts`` (``(where, HTML)`` in reading order) that draws it so."""
    first: dict[tuple[str, str], str] = {}
    for where, text in texts:
        for ch, kind in sorted(needs(text).items()):
            first.setdefault((ch, kind), where)
    return tuple((ch, kind, where) for (ch, kind), where in first.items())


def _open(font: bytes) -> TTFont:
    from fontTools.ttLib import TTFont

    return TTFont(io.BytesIO(font), lazy=True)


def _growth(font: TTFont, glyph: str) -> dict[str, tuple[str, ...]]:
    """How the font's ``MATH`` table lets ``glyph`` grow: ``"vertical sizes"``, ``"vertical
    parts"`` (the pieces of its assembly), and the same horizontally; only those it has."""
    variants = font["MATH"].table.MathVariants if "MATH" in font else None
    out: dict[str, tuple[str, ...]] = {}
    for way, name in (("Vert", "vertical"), ("Horiz", "horizontal")):
        coverage = getattr(variants, f"{way}GlyphCoverage", None)
        if coverage is None or glyph not in coverage.glyphs:
            continue
        grows = getattr(variants, f"{way}GlyphConstruction")[
            coverage.glyphs.index(glyph)
        ]
        out[f"{name} sizes"] = tuple(
            v.VariantGlyph for v in grows.MathGlyphVariantRecord
        )
        if grows.GlyphAssembly is not None:
            out[f"{name} parts"] = tuple(
                p.glyph for p in grows.GlyphAssembly.PartRecords
            )
    return out


def _lack(shipped: TTFont, full: TTFont, ch: str, kind: str) -> str:
    """What ``shipped`` lacks to draw ``ch`` as ``kind`` ("" for nothing), said against ``full``."""
    glyph = full.getBestCmap().get(ord(ch))
    if glyph is None:
        return f"the math font (docs/{FONT}) has no glyph for it: write the formula without it"
    keep = "the subset must keep it (workshop_site/fonts.py)"
    if shipped.getBestCmap().get(ord(ch)) != glyph:
        return f"the font the site ships ({SUBSET}) lacks it, though docs/{FONT} has it: {keep}"
    want, have = _growth(full, glyph), _growth(shipped, glyph)
    grows = (
        ("vertical sizes",)
        if kind == "radical"
        else ("vertical sizes", "horizontal sizes")
    )
    if kind != "character" and not any(k in want for k in grows):
        return f"the math font (docs/{FONT}) has no sizes to grow it with: it cannot stretch"
    lost = sorted({g for k, gs in want.items() if have.get(k) != gs for g in gs})
    if lost:
        return (
            f"the font the site ships ({SUBSET}) lacks the glyphs that make it grow "
            f"({', '.join(lost)}), though docs/{FONT} has them: {keep}"
        )
    return ""


def lacking(shipped: bytes, full: bytes, uses: Iterable[Use]) -> list[tuple[str, str]]:
    """Each way the formulas draw a character (:func:`first_uses`) that the font the site ships
    (``shipped``) cannot draw, said against the whole font (``full``): ``(where, message)``, the
    message naming the character, how it is drawn, the first page that draws it so, and why."""
    ship, whole = _open(shipped), _open(full)
    problems = []
    for ch, kind, where in uses:
        if reason := _lack(ship, whole, ch, kind):
            name = unicodedata.name(ch, "(no Unicode name)")
            drawn = f"U+{ord(ch):04X} {name} ({ch}){_HOW[kind]}"
            first = f"{where} (the first page that needs it)"
            problems.append((where, f"{first}: a formula draws {drawn}, and {reason}"))
    return problems
