"""The math font, cut down at build time to the glyphs the site's formulas use.

Formulas are MathML that the browser lays out with Latin Modern Math
(``docs/assets/fonts/latinmodern-math.otf``, 734 KB). A page needs only the glyphs its
formulas draw, so the build writes :data:`SUBSET`: the characters of every ``<math>`` element
of the site (:func:`math_text`), the italic letters the browser draws for a one-letter
``<mi>``, the radical sign a ``<msqrt>`` or ``<mroot>`` draws (no text of the formula holds
it), and everything OpenType reaches from them (the ``MATH`` table's size variants and
the pieces that stretch a bracket, ``ssty`` script forms, ligatures), as WOFF.

The subset is a modified version of the font: it has its own file name, and the font's
licence (``LICENSE-latinmodern-math.txt``, the GUST Font License) ships beside it.
"""

from __future__ import annotations

import html
import io
import re
import unicodedata

__all__ = ["FONT", "SUBSET", "math_text", "subset"]

#: The full font, in docs/, and the subset the site serves instead (paths inside the site).
FONT = "assets/fonts/latinmodern-math.otf"
SUBSET = "assets/fonts/latinmodern-math-subset.woff"

_MATH = re.compile(r"<math\b.*?</math>", re.S)
_TAG = re.compile(r"<[^>]*>")
_MI = re.compile(r"<mi\b([^>]*)>([^<]*)</mi>")
# a root: the browser draws U+221A from the font's MATH table, though no text of the formula holds it
_RADICAL = re.compile(r"<m(?:sqrt|root)\b")
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


def math_text(page_html: str) -> set[str]:
    """Every character the formulas of ``page_html`` may draw.

    The text of each ``<math>`` element, the italic letter a browser draws for a one-letter
    ``<mi>`` (MathML's automatic italic), and U+221A for a root (``<msqrt>``, ``<mroot>``).
    """
    chars: set[str] = set()
    for formula in _MATH.findall(page_html):
        chars.update(html.unescape(_TAG.sub("", formula)))
        for attrs, text in _MI.findall(formula):
            letter = html.unescape(text).strip()
            if len(letter) == 1 and "mathvariant" not in attrs:
                chars.add(_italic(letter))
        if _RADICAL.search(formula):
            chars.add("\u221a")
    chars.discard("")
    return {c for c in chars if c not in "\n\r\t"} | set(_ALWAYS)


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
