"""Figures readable where they are read: each shown at a width where its smallest text is 11 CSS px.

A figure's SVG shrinks to fit its column; on a phone (a column of about 310 CSS px) a wide figure's
text would be 4 to 8 px. :func:`least_width` reads an SVG's drawn width (its ``viewBox``) and its
smallest font size (every ``<text>``'s ``font-size``, as an attribute or in its style) and gives the
narrowest width at which that text is still :data:`SMALLEST` px. :func:`widen` gives every SVG image
of a page's figures, and every diagram drawn inline (D2's), that width as its least
(``--workshop-least-width``, workshop.css), inside a box
that scrolls sideways when the column is narrower (``workshop-figure-scroll``: the keyboard reaches
it, it has a name, and assets/tables.js gives it its "scroll →" cue). A column wide enough shows the
figure as before. :func:`glue_separators` keeps each "·" between a caption's links on the line of
the link before it, so that a narrow column never starts a line with one.
"""

from __future__ import annotations

import html
import math
import posixpath
import re
from collections.abc import Callable

__all__ = [
    "SMALLEST",
    "smallest_font",
    "least_width",
    "widen",
    "glue_separators",
    "loose_separators",
]

#: The smallest text a reader is asked to read, in CSS pixels.
SMALLEST = 11.0

_VIEWBOX = re.compile(r'<svg\b[^>]*\bviewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)')
_TEXT = re.compile(r"<text\b([^>]*)>(.*?)</text>", re.S)
_SIZE = re.compile(r'font-size(?:="|\s*:\s*)([\d.]+)(?:px)?')
_FIGURE = re.compile(
    r'(<figure class="workshop-(?:figure|diagram)\b[^"]*"[^>]*>)(.*?)(</figure>)', re.S
)
_IMG = re.compile(r'<img\b[^>]*\bsrc="([^"#]+\.svg)(?:#[^"]*)?"[^>]*>')
#: A figure caption: its opening tag, its content, its closing tag.
_CAPTION = re.compile(r"(<figcaption\b[^>]*>)(.*?)(</figcaption>)", re.S)
#: What separates a caption's links ("Open full size · Download SVG · numbers as CSV"): a dot with
#: white space on both sides, where a line may break before the dot.
_LOOSE = re.compile(r"[ \t\r\n]+·(?=\s)")
_TAGS = re.compile(r"<[^>]+>")


def smallest_font(svg: str) -> float | None:
    """The smallest font size of the SVG's texts that print something, in its own units (None: no text).

    A text's size is its ``font-size`` attribute or style, else that of the ``<svg>``'s own style
    rule for ``text``, else Matplotlib's 10 (never left unsaid in the site's figures)."""
    default = _SIZE.search(svg.split("</style>")[0]) if "<style" in svg else None
    sizes = []
    for attrs, body in _TEXT.findall(svg):
        if not _TAGS.sub("", body).strip():
            continue
        size = _SIZE.search(attrs)
        sizes.append(
            float(size.group(1))
            if size
            else float(default.group(1))
            if default
            else 10.0
        )
    return min(sizes) if sizes else None


def least_width(svg: str, smallest: float = SMALLEST) -> int | None:
    """The narrowest width, in CSS px, at which the SVG's smallest text is ``smallest`` px (None: it
    has no text, or no viewBox to scale by)."""
    box, font = _VIEWBOX.search(svg), smallest_font(svg)
    if box is None or font is None:
        return None
    return math.ceil(float(box.group(1)) * smallest / font)


def _name(figure: str) -> str:
    caption = _CAPTION.search(figure)
    words = (
        " ".join(html.unescape(_TAGS.sub(" ", caption.group(2))).split())
        if caption
        else ""
    )
    first = re.split(r"(?<=[.:])\s", words)[0] if words else "a figure"
    return html.escape(f"figure: {first[:100]}", quote=True)


def widen(
    page_html: str,
    page_url: str,
    read: Callable[[str], str | None],
    measure: Callable[[str], int | None] = least_width,
) -> str:
    """Every ``workshop-figure`` of the page with its SVG images at their :func:`least_width`, in a
    named, keyboard-reachable box that scrolls when the column is narrower.

    Args:
        page_html: the page's content.
        page_url: the page's URL from the site's root (``"causal-heads/"``), which the images'
            relative ``src`` start from.
        read: the SVG text of a path from the site's root, or None when the site has no such file.
        measure: :func:`least_width`, or a function that gives what it would (the build keeps
            each SVG's between two builds of ``mkdocs serve``: hooks/figure_width.py).
    """

    def one(m: re.Match[str]) -> str:
        head, body, tail = m.groups()
        widths = []

        def img(i: re.Match[str]) -> str:
            src = posixpath.normpath(posixpath.join(page_url, i.group(1)))
            svg = read(src)
            width = measure(svg) if svg else None
            if width is None:
                return i.group(0)
            widths.append(width)
            tag = i.group(0)
            return tag.replace(
                "<img ", f'<img style="--workshop-least-width: {width}px" ', 1
            )

        body = _IMG.sub(img, body)
        at = body.find("<figcaption")
        images, rest = (body[:at], body[at:]) if at >= 0 else (body, "")
        style = ""
        if (
            not widths and "<svg" in images
        ):  # a diagram drawn inline: its light drawing (the dark has the same sizes)
            inline = measure(images[images.index("<svg") :].split('class="d2-dark"')[0])
            style = f' style="--workshop-least-width: {inline}px"' if inline else ""
        if not widths and not style:
            return m.group(0)
        box = f'<div class="workshop-figure-scroll"{style} tabindex="0" role="region" aria-label="{_name(body)}">'
        return f"{head}{box}{images}</div>{rest}{tail}"

    return _FIGURE.sub(one, page_html)


def glue_separators(page_html: str) -> str:
    """Each " · " of the page's figure captions with a no-break space before the dot: a caption
    that wraps breaks after a separator, never before it (at 1280 px, Module 3's causal-mask
    caption had a line that began "· numbers as CSV"). Nothing outside a ``<figcaption>`` changes."""

    def one(m: re.Match[str]) -> str:
        return m[1] + _LOOSE.sub("\u00a0·", m[2]) + m[3]

    return _CAPTION.sub(one, page_html)


def loose_separators(page_html: str) -> list[str]:
    """The text of each figure caption of ``page_html`` that still holds a " · " a line could start
    with (none once :func:`glue_separators` has run)."""
    return [
        html.unescape(_TAGS.sub("", m[2])).strip()
        for m in _CAPTION.finditer(page_html)
        if _LOOSE.search(html.unescape(m[2]))
    ]
