"""Figures at a readable width (workshop_site.legible): each SVG's least width, and the page's figures widened."""

from __future__ import annotations

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
