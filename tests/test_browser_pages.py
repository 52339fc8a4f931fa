"""Every page as a reader sees it, in headless Chromium: figures in the page's colours, code that keeps
its indentation, nothing cut off on a phone, each result shown once.

The checks run on every page of the built site (present and future pages alike). Each one is shown
to fail on a page broken on purpose in the browser, so none of them can pass by looking at nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from attention_workshop.experiment.plotting import DARK, LIGHT, contrast

from .sweep import ALL, DETAILS, EVERY_TAB, LOADED, not_404, probe
from .test_site_quality import page_url, site_pages

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 800}
DESKTOP = {"width": 1280, "height": 900}


def _pages(built_site: Path) -> list[str]:
    return [
        page_url(built_site, p) for p in site_pages(built_site) if p.name != "404.html"
    ]


def _hex(css: str) -> str:
    """A computed colour, ``rgb(30, 32, 41)``, as ``#1e2029``."""
    r, g, b = (int(v) for v in re.findall(r"[\d.]+", css)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


# --------------------------------------------------------------------------- figures in the page's colours

#: What a page shows of each figure: per figure, its visible images (src, natural width) and whether
#: a D2 diagram's visible drawing has a background of its own.
_FIGURES_SHOWN = """() => [...document.querySelectorAll('article figure')].map(f => ({
  imgs: [...f.querySelectorAll('img')].filter(i => i.offsetParent !== null).map(i => i.getAttribute('src')),
  d2: [...f.querySelectorAll('.d2 > div')].filter(d => getComputedStyle(d).display !== 'none')
        .map(d => ({scheme: d.className, background: d.querySelector('svg svg > rect')?.getAttribute('fill') ?? null})),
}))"""

_SVG_TEXT_FILLS = """async src => {
  const svg = await (await fetch(src)).text();
  return [...svg.matchAll(/<text[^>]*fill: (#[0-9a-fA-F]{6})/g)].map(m => m[1].toLowerCase());
}"""


#: The print page keeps each figure's light drawing only, the one paper prints; in the dark scheme
#: on screen it shows on a white card (docs/assets/print.css): the page and its card's colour.
PAPER = ("print/", "#ffffff")


def figure_problems(page, scheme: str, paper: bool = False) -> list[str]:
    """Figures on the open page that do not follow its colour scheme (``paper``: the print page,
    whose figures are drawn for paper, on a white card in the dark scheme)."""
    bg = _hex(page.evaluate("getComputedStyle(document.body).backgroundColor"))
    palette = DARK if scheme == "dark" else LIGHT
    drawn = scheme  # the scheme the page is shown in; images drawn for paper are light
    if paper:
        palette, scheme = LIGHT, "light"
    problems = []
    for n, fig in enumerate(page.evaluate(_FIGURES_SHOWN), 1):
        if fig["d2"]:
            (shown,) = fig["d2"]  # one drawing per scheme, the other hidden
            if shown["scheme"] != f"d2-{drawn}" or shown["background"] != "none":
                problems.append(
                    f"diagram {n}: shows {shown}, not a transparent d2-{drawn}"
                )
            continue
        if len(fig["imgs"]) != 1:
            problems.append(f"figure {n}: {len(fig['imgs'])} images shown, not one")
            continue
        src = fig["imgs"][0]
        want = "-dark.svg#only-dark" if scheme == "dark" else ".svg#only-light"
        if not src.endswith(want) or (scheme == "light" and "-dark" in src):
            problems.append(f"figure {n}: shows {src} in the {scheme} scheme")
            continue
        if paper and drawn == "dark":
            card = _hex(
                page.evaluate(
                    's => getComputedStyle(document.querySelector(`article img[src="${s}"]`)).backgroundColor',
                    src,
                )
            )
            if card != PAPER[1]:
                problems.append(f"figure {n} ({src}): on {card}, not a white card")
                continue
            bg = card
        fills = set(page.evaluate(_SVG_TEXT_FILLS, src))
        # text on the page must read on the page's own background; the background's own colour is
        # only ever text on a bright heatmap cell
        unreadable = [c for c in fills - {palette.bg} if contrast(c, bg) < 4.5]
        if unreadable or palette.fg not in fills:
            problems.append(
                f"figure {n} ({src}): text colours {sorted(fills)} on a page of {bg}"
            )
    return problems


#: Every tab of every tabbed block shown at once: what a reader sees of a figure in a tab once they
#: pick that tab (Real heads shows one sentence's grid per tab), as the print page shows them on paper.
_EVERY_TAB = EVERY_TAB


@probe("figure colours", ALL + 10, [("light", 1280), ("dark", 1280)], not_404)
def _figure_colours(page, visit) -> tuple[int, list[str]]:
    """How many figures the page has, and those that do not follow its scheme, every tab shown and
    every reveal open (after axe, which looks at the page with its tabs as built)."""
    paper = visit.url == PAPER[0]
    return page.locator("article figure").count(), [
        f"{visit.url or 'home'} [{visit.scheme}]: {p}"
        for p in figure_problems(page, visit.scheme, paper=paper)
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_figures_use_the_pages_colours(sweep, scheme):
    """In each scheme every figure shows its own scheme's drawing: transparent, its text readable on
    the page's background (no white cards in the dark), and D2 diagrams with no background of their own.
    A figure in a tab that is not picked is checked as it shows once its tab is picked."""
    problems, figures = [], 0
    for visit in sweep.visits("figure colours", scheme, DESKTOP["width"]):
        n, found = visit["figure colours"]
        figures, problems = figures + n, problems + found
    assert figures >= 20, "hardly any figure: the check looks at nothing"
    assert not problems, "\n".join(problems)


def test_the_figure_check_can_fail(browser, site_url):
    """Module 2 with its light drawing forced to show in the dark scheme, and a diagram with a white card."""
    context = browser.new_context(viewport=DESKTOP, color_scheme="dark")
    page = context.new_page()
    page.goto(site_url + "module-3/", wait_until="networkidle")
    assert figure_problems(page, "dark") == []
    page.evaluate("""() => {
      const img = document.querySelector('img[src$="#only-light"]'); img.style.display = 'inline';
      document.querySelector('.d2-dark svg svg > rect').setAttribute('fill', '#ffffff');
    }""")
    problems = figure_problems(page, "dark")
    context.close()
    assert any("images shown, not one" in p for p in problems), problems
    assert any("not a transparent d2-dark" in p for p in problems), problems


#: Pages that are a list to read from, with nothing to draw: the page and why.
WITHOUT_FIGURE = {
    "further-reading/": "a list of papers, each with a line on what it is for"
}


def test_every_page_has_a_figure(built_site):
    """Home, the modules, the reference pages: each shows at least one figure or diagram."""
    missing = [
        url or "home"
        for url, html in (
            (page_url(built_site, p), p.read_text(encoding="utf-8"))
            for p in site_pages(built_site)
            if p.name != "404.html"
        )
        if not re.search(r'<figure class="workshop-(?:figure|diagram)', html)
        and url not in WITHOUT_FIGURE
    ]
    assert not missing, f"pages without a figure: {missing}"


# --------------------------------------------------------------------------- code and layout on a phone

#: For every line of every code block: does a wrapped line go on at least as far in as it started?
_INDENT_PROBLEMS = """() => {
  const out = [];
  for (const code of document.querySelectorAll('pre > code')) {
    if (code.offsetParent === null) continue;
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    const chars = [];  // [text node, offset] for every character of the block
    for (let n = walker.nextNode(); n; n = walker.nextNode())
      for (let i = 0; i < n.data.length; i++) chars.push([n, i]);
    const text = chars.map(([n, i]) => n.data[i]).join('');
    let start = 0;
    for (const line of text.split('\\n')) {
      const first = line.search(/\\S/);
      if (first >= 0 && line.trim().length) {
        const r = document.createRange();
        r.setStart(...chars[start]); r.setEnd(chars[start + line.length - 1][0], chars[start + line.length - 1][1] + 1);
        const rows = [...r.getClientRects()].filter(b => b.width > 0);
        const c = document.createRange();
        c.setStart(...chars[start + first]); c.setEnd(chars[start + first][0], chars[start + first][1] + 1);
        const indent = c.getBoundingClientRect().left, top = rows.length ? rows[0].top : 0;
        const later = rows.filter(b => b.top > top + 2);
        if (later.some(b => b.left < indent - 1))
          out.push(line.trim().slice(0, 50));
      }
      start += line.length + 1;
    }
  }
  return out;
}"""

_CODE_PAGES = ["module-0/", "module-1/", "module-2/", "module-3/", "step-by-step/",
               "inside-the-model/", "reproducing/", "source/", "api/"]  # fmt: skip


@probe("code indentation", DETAILS, [("light", 375)], lambda v: v.url in _CODE_PAGES)
def _code_indentation(page, visit) -> list[str]:
    """The code lines of the page (reveals open) that wrap at the left margin."""
    return page.evaluate(_INDENT_PROBLEMS)


def test_code_lines_keep_their_indentation(sweep, browser, site_url):
    """At 375 px a code line wider than the screen scrolls or wraps under its own start: a wrapped
    line never goes on at the left margin (the package's source on Module 3 did)."""
    problems = []
    visits = sweep.visits("code indentation", "light", PHONE["width"])
    for visit in visits:
        problems += [f"{visit.url}: {line!r}" for line in visit["code indentation"]]
    # the check can fail: wrapping every line at the margin, as the site once did
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(site_url + "module-3/", wait_until="networkidle")
    page.add_style_tag(
        content=".md-typeset pre > code { white-space: pre-wrap !important; }"
    )
    broken = page.evaluate(_INDENT_PROBLEMS)
    context.close()
    assert {v.url for v in visits} == set(_CODE_PAGES), "a page of code is not built"
    assert not problems, "\n".join(problems)
    assert broken, "wrapped lines at the margin were not caught"


#: The page's width, the formulas wider than their box, and on Inside the model whether the code at
#: its end fits its box and how many of its shape comments run past it.
_WIDTHS = """() => {
  const out = {width: document.documentElement.scrollWidth,
    wideFormulas: Array.from(document.querySelectorAll('.arithmatex'))
      .filter(e => e.scrollWidth > e.clientWidth + 1).length};
  const boxes = document.querySelectorAll('.ins-code-static'), box = boxes[0];
  if (box) out.code = {boxes: boxes.length, fits: box.scrollWidth <= box.clientWidth + 1,
    shapes: [...box.querySelectorAll('.ins-shape')].filter(s => s.getBoundingClientRect().right
      > s.closest('pre').getBoundingClientRect().right + 1).length};
  return out;
}"""


@probe("widths", LOADED, [("light", 375)], not_404)
def _widths(page, visit) -> dict:
    """The page as it opens on a phone: :data:`_WIDTHS`."""
    return page.evaluate(_WIDTHS)


def test_nothing_is_cut_off_at_375_px(sweep):
    """No page scrolls sideways on a phone, and the code at the end of Inside the model shows its
    shape comments (they move under their line) instead of hiding them past the edge."""
    problems, code = [], None
    for visit in sweep.visits("widths", "light", PHONE["width"]):
        width = visit["widths"]["width"]
        if width > PHONE["width"] + 1:
            problems.append(f"{visit.url or 'home'}: the page is {width} px wide")
        if visit.url == "inside-the-model/":
            code = visit["widths"].get("code")
    assert not problems, "\n".join(problems)
    assert code is not None and code["boxes"] == 1, "Inside the model's code at its end"
    assert code["fits"] and code["shapes"] == 0, (
        "the shape comments of the code run past the screen"
    )


# --------------------------------------------------------------------------- each result once, answers behind reveals


def test_reveals_hide_their_answers_until_opened(page_and_log, site_url):
    """Module 3's causal table is shown once, inside its reveal; Step by step's practice log (every
    answer at once) waits in a closed block, not under the experiments."""
    page, log = page_and_log
    page.goto(site_url + "module-3/", wait_until="networkidle")
    causal = page.locator('img[src*="wired-weights-causal"]:visible')
    assert causal.count() == 0, "the causal table shows before the reveal is opened"
    page.locator("summary", has_text="Reveal: the causal table").click()
    assert causal.count() == 1, "the reveal shows the causal table once"
    reveal = page.locator("details", has_text="Reveal: the causal table").first
    assert reveal.locator("table:not(.highlighttable)").count() == 0, (
        "no table repeats the heatmap"
    )
    assert not reveal.locator(".highlight:visible").count(), (
        "the log excerpt is one more click away"
    )
    page.goto(site_url + "step-by-step/", wait_until="networkidle")
    log_block = page.locator("details", has_text="The four experiments in results.log")
    assert log_block.count() == 1 and log_block.get_attribute("open") is None
    assert not page.get_by_text(
        "the weights are the same as with the first V"
    ).first.is_visible()
    assert not log.console_errors


def test_the_paper_figure_check_can_fail(browser, site_url):
    """The print page in the dark scheme with one light drawing's white card taken away."""
    context = browser.new_context(viewport=DESKTOP, color_scheme="dark")
    page = context.new_page()
    page.goto(site_url + PAPER[0], wait_until="networkidle")
    page.add_style_tag(content=_EVERY_TAB)
    assert figure_problems(page, "dark", paper=True) == []
    page.evaluate(
        """() => { document.querySelector('article img[src$="#only-light"]').style.background = 'none'; }"""
    )
    problems = figure_problems(page, "dark", paper=True)
    context.close()
    assert any("not a white card" in p for p in problems), problems
