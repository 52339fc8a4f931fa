"""Figures at a readable width (workshop_site.legible): each SVG's least width, and the page's figures widened."""

from __future__ import annotations

import re

import pytest

from workshop_site import legible

#: 300 units wide, its smallest printed text 10 units: at 330 px, 10 units are 11 px (330 / 300 * 10).
SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="400pt" viewBox="0 0 300 150">
<style>text{font-size:12px}</style>
<text x="1" y="9" style="font-size: 10px">small</text>
<text x="1" y="30" font-size="8"> </text>
<text x="1" y="50">default</text>
</svg>"""

PAGE = """<p>Before.</p>
<figure class="workshop-figure">
<img src="../generated/a.svg#only-light" alt="A."><img src="../generated/a-dark.svg#only-dark" alt="A.">
<figcaption>Each word's weights. More words <a href="x">Open full size</a></figcaption>
</figure>
<figure class="workshop-figure"><img src="../generated/none.svg" alt="B."><figcaption>B.</figcaption></figure>"""


def test_the_smallest_printed_text_counts() -> None:
    assert (
        legible.smallest_font(SVG) == 10.0
    )  # the blank text at 8 prints nothing; the unsized one is 12
    assert legible.smallest_font('<svg viewBox="0 0 9 9"></svg>') is None


def test_least_width_makes_the_smallest_text_11_px() -> None:
    assert legible.least_width(SVG) == 330
    assert legible.least_width(SVG, smallest=15) == 450
    assert legible.least_width("<svg><text>no viewBox</text></svg>") is None


def test_widen_boxes_each_figure_at_its_least_width() -> None:
    asked = []

    def read(path: str) -> str | None:
        asked.append(path)
        return SVG if path.startswith("generated/a") else None

    out = legible.widen(PAGE, "module-1/", read)
    assert asked[:2] == ["generated/a.svg", "generated/a-dark.svg"]
    assert out.count('style="--workshop-least-width: 330px"') == 2
    assert (
        out.count('class="workshop-figure-scroll"') == 1
    )  # the figure without its SVG is left as it was
    assert (
        'tabindex="0" role="region" aria-label="figure: Each word&#x27;s weights."'
        in out
    )
    box = out.index("workshop-figure-scroll")
    assert box < out.index("<img") < out.index("</div>") < out.index("<figcaption>")
    assert out.endswith(PAGE.split("</figure>\n", 1)[1])


def test_widen_boxes_an_inline_diagram_by_its_light_drawing() -> None:
    light = SVG.replace("<svg ", '<svg role="img" ')
    dark = SVG.replace('viewBox="0 0 300 150"', 'viewBox="0 0 900 150"')
    page = (
        f'<figure class="workshop-diagram workshop-diagram--tall"><div class="d2"><div class="d2-light">{light}</div>'
        f'<div class="d2-dark">{dark}</div></div><figcaption>The flow.</figcaption></figure>'
    )
    out = legible.widen(page, "api/", lambda path: None)
    assert (
        '<div class="workshop-figure-scroll" style="--workshop-least-width: 330px" tabindex="0"'
        in out
    )
    assert out.index("</div></div></div><figcaption>") > 0


CAPTIONED = (
    "<p>river · bank</p>\n<figure><figcaption><strong>A.</strong> "
    '<a href="a.svg">Open full size</a> · <a href="a.svg" download>Download SVG</a>\n'
    '· <a href="a.csv" download>numbers as CSV</a></figcaption></figure>'
)


def test_a_captions_separators_are_glued_to_the_link_before_them() -> None:
    """Each " · " of a caption (a line break before the dot too) gets a no-break space before
    its dot; the prose's dot product outside the caption keeps its spaces."""
    glued = legible.glue_separators(CAPTIONED)
    assert glued.count("</a>\u00a0· <a") == 2
    assert glued.startswith("<p>river · bank</p>")
    assert legible.glue_separators(glued) == glued
    assert legible.loose_separators(CAPTIONED) == [
        "A. Open full size · Download SVG\n· numbers as CSV"
    ]
    assert legible.loose_separators(glued) == []


@pytest.mark.site
def test_no_caption_of_the_site_can_start_a_line_with_a_separator(built_site) -> None:
    """Every built page: no figure caption holds a "·" that a line could start with, and the
    site's captions hold glued ones (a figure's three downloads, a diagram's D2 source). The
    same pages with the no-break spaces put back to plain ones are each named."""
    from .test_site_quality import site_pages

    glued, loose, unglued = 0, [], set()
    for page in site_pages(built_site):
        text = page.read_text(encoding="utf-8")
        captions = re.findall(r"<figcaption\b.*?</figcaption>", text, re.S)
        glued += sum(c.count("\u00a0·") for c in captions)
        name = page.relative_to(built_site).as_posix()
        loose += [f"{name}: {c}" for c in legible.loose_separators(text)]
        if legible.loose_separators(text.replace("\u00a0·", " ·")):
            unglued.add(name)
    assert loose == [], "\n".join(loose)
    assert glued >= 40, glued
    assert {"module-3/index.html", "causal-heads/index.html", "index.html"} <= unglued
