"""The print page in Chromium's print emulation: every Learn page's headings and figures, no widgets,
the self-checks' answers at the end, and a PDF.

What must be there is read from the other built pages (their headings, figures and self-check
questions), never typed here.
"""

from __future__ import annotations

import html
import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.site]

PRINTED = [
    "module-0",
    "module-1",
    "module-2",
    "module-3",
    "step-by-step",
    "inside-the-model",
    "real-heads",
    "causal-heads",
]
# a section that holds a form is left out of print, heading and all
WIDGET_SECTIONS: dict[str, set[str]] = {
    "causal-heads": {"The seven steps on a real head"}
}


def _text(fragment: str) -> str:
    """A heading's or a question's text as the browser's textContent gives it (what the print page is
    read with): tags dropped without a space, since an inline tag such as a hover definition's
    ``<abbr>`` adds none ("The <abbr>dot product</abbr>: do" reads "The dot product: do")."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def headings(doc: str) -> list[str]:
    """h1 and h2 texts of a built page's article (the permalink sign dropped)."""
    article = doc.split("<article", 1)[1]
    return [
        _text(re.sub(r'<a class="headerlink".*?</a>', "", h))
        for h in re.findall(r"<h[12]\b[^>]*>(.*?)</h[12]>", article, re.S)
    ]


def figures(doc: str) -> list[str]:
    """The generated figures of a built page, as paths in generated/ (``wired-weights.svg``,
    ``real-heads/river-L1H3.svg``): their light drawings (``#only-light``), the ones the light
    scheme shows and prints."""
    article = doc.split("<article", 1)[1]
    return re.findall(
        r'<img [^>]*src="\.\./generated/([\w./-]+\.svg)#only-light"', article
    )


def questions(doc: str) -> list[str]:
    return [
        _text(q)
        for q in re.findall(
            r'<details class="question">\s*<summary>(.*?)</summary>', doc, re.S
        )
    ]


@pytest.fixture(scope="module")
def printed(browser, site_url, built_site):
    """The print page under print media: what is visible, in order, and the PDF's bytes."""
    from .conftest import PageLog

    context = browser.new_context(viewport={"width": 1000, "height": 1400})
    page = context.new_page()
    log = PageLog(site_url)
    page.on("request", log.on_request)
    page.on("console", log.on_console)
    page.on("pageerror", log.on_pageerror)
    page.goto(site_url + "print/")
    page.wait_for_load_state("networkidle")
    page.emulate_media(media="print")
    seen = page.evaluate(
        """() => {
        const shown = (el) => { const r = el.getBoundingClientRect();
            return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
        const art = document.querySelector('article');
        const text = (el) => el.textContent.replace('¶', '').replace(/\\s+/g, ' ').trim();
        return {
          headings: [...art.querySelectorAll('h1, h2')].filter(shown).map(text),
          images: [...art.querySelectorAll('img')].filter(shown)
                    .map((i) => ({src: i.getAttribute('src'), loaded: i.complete && i.naturalWidth > 0})),
          diagrams: [...art.querySelectorAll('figure.workshop-diagram svg[role=img]')].filter(shown).length,
          widgets: [...art.querySelectorAll(
                      'button, input, select, textarea, form, .ins-app, .rh-app, .screen-only, .md-button')]
                    .filter(shown).map((e) => e.outerHTML.slice(0, 120)),
          closed: [...art.querySelectorAll('details:not([open])')].length,
          parts: [...art.querySelectorAll('section.print-part')].map((s) => s.id),
          answers: text(document.getElementById('answers')),
        };
    }"""
    )
    pdf = page.pdf(format="A4")
    yield seen, pdf, log
    context.close()


def test_every_printed_page_has_all_its_headings(printed, built_site):
    seen, _, log = printed
    for name in PRINTED:
        own = headings((built_site / name / "index.html").read_text(encoding="utf-8"))
        lost = [h for h in own if h not in seen["headings"]]
        assert set(lost) <= WIDGET_SECTIONS.get(name, set()), (
            f"{name}: not printed: {lost}"
        )
        assert own[0] in seen["headings"], f"{name}: its title is not printed"
    assert seen["parts"][: len(PRINTED)] == PRINTED and seen["parts"][-1] == "answers"
    assert not log.foreign_requests and not log.console_errors


def test_every_figure_and_diagram_is_printed_and_loaded(printed, built_site):
    seen, _, _ = printed
    shown = {
        img["src"].split("/generated/", 1)[-1].split("#")[0]: img["loaded"]
        for img in seen["images"]
    }
    diagrams, count = 0, 0
    for name in PRINTED:
        doc = (built_site / name / "index.html").read_text(encoding="utf-8")
        diagrams += doc.split("<article", 1)[1].count('<figure class="workshop-diagram')
        for figure in figures(doc):
            assert shown.get(figure), (
                f"{name}: {figure} is not printed, or did not load"
            )
            count += 1
    assert count >= 10, "hardly any figure: the check looks at nothing"
    assert diagrams > 0 and seen["diagrams"] == diagrams


def test_no_widget_and_no_closed_reveal(printed):
    seen, _, _ = printed
    assert seen["widgets"] == []
    assert seen["closed"] == 0


def test_the_self_checks_answers_are_at_the_end(printed, built_site):
    seen, _, _ = printed
    count = 0
    for name in PRINTED:
        for q in questions(
            (built_site / name / "index.html").read_text(encoding="utf-8")
        ):
            assert q in seen["answers"], f"{name}: {q!r} has no answer at the end"
            count += 1
    assert count >= 10


def test_it_prints_to_a_pdf(printed):
    _, pdf, _ = printed
    pages = len(re.findall(rb"/Type\s*/Page\b", pdf))
    assert pdf.startswith(b"%PDF") and pages >= 20, pages
