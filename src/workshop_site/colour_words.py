"""Words that name a colour or a shade, checked against the colours the page draws, in both schemes.

A caption, an alt text or a sentence that says "darker for more weight" is true in the light scheme
(white paper, dark ink) and false in the dark one (dark paper, light ink). :func:`problems` finds
every sentence of a page that names a shade (:data:`SHADES`: darker, lighter, brighter, paler, bright, pale, ...)
or a hue (:data:`HUES`: red, blue, orange, ...) and checks it against each colour map the page
draws (:func:`page_maps`), in each scheme the sentence speaks of:

- a shade word says the cells for *more* are that shade of the cells for less ("darker for more
  weight", "a darker cell gives more weight"); a word for less in the sentence ("less", "smaller")
  turns it round. It must hold for every map of the page, from its colour for 0 to its colour for 1.
- a hue word must be the hue of one of the map's named colours ("blue for positive").

A sentence speaks of both schemes unless the words right after the shade name one ("darker in the
light scheme, lighter in the dark scheme"): then each part is checked in its own scheme.

The colour maps are read where they are defined: the figures' :class:`Palette` (``low`` -> ``high``)
and the explorers' stylesheets (``docs/assets/*/*.css``, their light rule and their
``[data-md-color-scheme="slate"]`` rule).
"""

from __future__ import annotations

import colorsys
import html
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "ColourMap",
    "SHADES",
    "HUES",
    "css_colours",
    "page_maps",
    "sentences",
    "problems",
    "hue",
    "luminance",
]

#: Shade words: True when the word means "of lower luminance".
SHADES = {
    "darker": True,
    "deeper": True,
    "lighter": False,
    "brighter": False,
    "paler": False,
    "fainter": False,
    # the same shades said outright ("its bright cells", "pale for little"): "dark" and "light"
    # are left out, as they name the schemes too
    "bright": False,
    "brightest": False,
    "pale": False,
    "palest": False,
    "faint": False,
    "faintest": False,
}
#: Hue words and their ranges of hue, in degrees (red wraps round 0).
HUES = {
    "red": ((345, 360), (0, 15)),
    "orange": ((15, 45),),
    "yellow": ((45, 70),),
    "green": ((70, 170),),
    "blue": ((190, 260),),
    "purple": ((260, 320),),
}
_LESS = re.compile(r"\b(less|smaller|lower|fewer|weaker)\b", re.I)
_SCHEME = re.compile(r"^\W*(?:\w+\W+){0,4}?(?:in|on) (?:the )?(light|dark)\b", re.I)
_WORD = re.compile(r"\b(" + "|".join([*SHADES, *HUES]) + r")\b", re.I)
_TAGS = re.compile(r"<[^>]+>")
_ATTR = re.compile(r'\b(?:alt|aria-label|title)="([^"]*)"')
_SKIP = re.compile(r"<(script|style|svg|pre|code)\b.*?</\1>", re.S | re.I)


@dataclass(frozen=True)
class ColourMap:
    """One figure's or explorer's colours in one scheme: ``low`` for 0, ``high`` for 1, and the
    colours it names (``{"positive": "#1f6feb"}``), each ``#rrggbb``."""

    name: str
    scheme: str
    low: str | None = None
    high: str | None = None
    named: tuple[tuple[str, str], ...] = ()


def luminance(hex_colour: str) -> float:
    """WCAG's relative luminance of ``#rrggbb``."""
    h = hex_colour.lstrip("#")
    out = []
    for c in (int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)):
        out.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * out[0] + 0.7152 * out[1] + 0.0722 * out[2]


def hue(hex_colour: str) -> str | None:
    """The hue word of ``#rrggbb`` (:data:`HUES`), or None for a grey (saturation under 0.25)."""
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))
    degrees, _, saturation = colorsys.rgb_to_hls(r, g, b)
    if saturation < 0.25:
        return None
    for word, ranges in HUES.items():
        if any(lo <= degrees * 360 < hi for lo, hi in ranges):
            return word
    return None


def css_colours(css: str) -> dict[str, dict[str, str]]:
    """A stylesheet's custom properties set to ``#rrggbb``: ``{"light": {...}, "dark": {...}}``,
    the dark ones from rules under ``[data-md-color-scheme="slate"]`` (over the light ones)."""
    found: dict[str, dict[str, str]] = {"light": {}, "dark": {}}
    for selector, body in re.findall(
        r"([^{}]+)\{([^{}]*)\}", re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    ):
        scheme = "dark" if 'data-md-color-scheme="slate"' in selector else "light"
        for prop, value in re.findall(r"(--[\w-]+)\s*:\s*(#[0-9a-fA-F]{6})\b", body):
            found[scheme][prop] = value.lower()
    found["dark"] = {**found["light"], **found["dark"]}
    return found


def _css_maps(assets: Path) -> dict[str, list[ColourMap]]:
    """The explorers' colour maps, per page, read from their stylesheets."""

    def read(name: str) -> dict[str, dict[str, str]]:
        return css_colours((assets / name).read_text(encoding="utf-8"))

    causal, heads, inside = (
        read("causal/causal.css"),
        read("real-heads/heads.css"),
        read("inside/inside.css"),
    )
    out: dict[str, list[ColourMap]] = {
        "causal-heads.md": [],
        "real-heads.md": [],
        "inside-the-model.md": [],
    }
    for s in ("light", "dark"):
        out["causal-heads.md"].append(
            ColourMap(
                "the explorer's table of weights",
                s,
                causal[s]["--ca-l1"],
                causal[s]["--ca-l5"],
            )
        )
        out["real-heads.md"].append(
            ColourMap(
                "the grid's thumbnails",
                s,
                heads[s]["--rh-paper"],
                heads[s]["--rh-thumb"],
            )
        )
        out["real-heads.md"].append(
            ColourMap(
                "the large head's cells",
                s,
                heads[s]["--rh-paper"],
                heads[s]["--rh-ink"],
            )
        )
        named = (
            ("positive", inside[s]["--ins-pos"]),
            ("negative", inside[s]["--ins-neg"]),
        )
        out["inside-the-model.md"].append(
            ColourMap("the step tables' cells", s, named=named)
        )
    return out


def page_maps(page: str, assets: Path) -> list[ColourMap]:
    """The colour maps page ``page`` (``docs/``-relative) draws: the figures' heat maps on every
    page (their :class:`Palette`), and its explorers' (:func:`_css_maps`; the print page has all)."""
    from attention_workshop.experiment.plotting import PALETTES

    maps = [
        ColourMap("the figures' heat maps", p.name, p.low, p.high) for p in PALETTES
    ]
    explorers = _css_maps(assets)
    if page == "print.md":  # every Learn page on one page
        return maps + [m for page_maps in explorers.values() for m in page_maps]
    return maps + explorers.get(page, [])


def sentences(page_html: str) -> list[str]:
    """The page's sentences as a reader meets them: its text (code, scripts and SVG left out) and its
    alt texts, names and titles, split at full stops."""
    body = _SKIP.sub(" ", page_html)
    parts = [html.unescape(a) for a in _ATTR.findall(body)]
    parts.append(html.unescape(_TAGS.sub(" ", body)))
    out = []
    for part in parts:
        out += [
            s.strip()
            for s in re.split(r"(?<=[.!?;])\s+", " ".join(part.split()))
            if s.strip()
        ]
    return out


def _true(word: str, clause: str, m: ColourMap) -> bool:
    """Whether ``word``, followed by ``clause`` (up to its comma), is true of map ``m``."""
    if word in HUES:
        colours = [c for _, c in m.named] + [c for c in (m.low, m.high) if c]
        return any(hue(c) == word for c in colours)
    if m.low is None or m.high is None:
        return True  # a map without a scale: nothing for a shade to say
    darker = luminance(m.high) < luminance(m.low)
    if _LESS.search(re.split(r"[,;(]", clause)[0]):
        darker = not darker
    return darker == SHADES[word]


def problems(page: str, page_html: str, assets: Path) -> list[str]:
    """Every colour or shade word of the page that one of its colour maps contradicts, in a scheme
    the sentence speaks of: each message names the page, the word, the scheme and the map."""
    maps = page_maps(page, assets)
    out = []
    for sentence in sentences(page_html):
        for found in _WORD.finditer(sentence):
            word = found.group(1).lower()
            said = _SCHEME.match(sentence[found.end() :])
            schemes = {said.group(1).lower()} if said else {"light", "dark"}
            for scheme in sorted(schemes):
                mine = [m for m in maps if m.scheme == scheme]
                wrong = [m for m in mine if not _true(word, sentence[found.end() :], m)]
                if word in HUES and len(wrong) < len(mine):
                    continue  # a hue names one map's colour: one of the page's maps is enough
                for m in wrong[:1]:
                    out.append(
                        f'{page}: "{word}" is false in the {m.scheme} scheme for {m.name}: "{sentence[:160]}". '
                        f'Name what is drawn in both schemes ("a stronger colour") or say it for each '
                        f'("darker in the light scheme, lighter in the dark scheme").'
                    )
    return out
