"""Figures on a phone and a desktop, in headless Chromium: no figure text smaller than 11 CSS pixels
where the figure is shown (an "Open full size" link is no excuse: issue 31, point 1).

A figure's text size is measured as drawn: for an SVG shown by an ``<img>``, the file is laid out
at the image's rendered width and each ``<text>``'s font size is multiplied by its scale on screen
(its CTM); an inline SVG (a D2 diagram) is measured where it is. Each check is shown to fail on a
page broken on purpose.
"""

from __future__ import annotations

import pytest

from attention_workshop.experiment.plotting import DARK, contrast

from .sweep import ALL, OPEN_DETAILS, not_404, probe
from .test_browser_pages import _EVERY_TAB

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 800}
DESKTOP = {"width": 1280, "height": 900}
#: Every lazy image of the page loaded now, as it is once a reader scrolls to it.
EAGER = "document.querySelectorAll('img[loading=lazy]').forEach(i => { i.loading = 'eager'; })"
#: The smallest text a reader should be asked to read, in CSS pixels.
SMALLEST = 11.0

#: The smallest text of an SVG element (or document) as drawn on screen: font size times scale.
_SMALLEST_TEXT = """root => {
  let least = Infinity;
  for (const t of root.querySelectorAll('text')) {
    if (!t.textContent.trim()) continue;
    const m = t.getScreenCTM();
    if (!m) continue;
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.c, m.d);
    if (px > 0) least = Math.min(least, px);
  }
  return least;
}"""

#: Every figure on the open page: where it is, its smallest text as shown, and its full-size link.
#: Each image's SVG file is laid out in a hidden box of the image's width on the page; the boxes are
#: added all at once and taken away together (one layout of the page, not two per image: the print
#: page's 36 images took 5 s one by one).
_FIGURES = (
    """async () => {
  const smallest = """
    + _SMALLEST_TEXT
    + """;
  const figures = [...document.querySelectorAll('article figure')];
  const texts = new Map();
  const text = (src) => {
    if (!texts.has(src)) texts.set(src, fetch(src).then(r => r.text()));
    return texts.get(src);
  };
  const drawn = await Promise.all(figures.map(f => Promise.all([...f.querySelectorAll('img')]
    .map(img => [img, img.getBoundingClientRect().width])
    .filter(([img, width]) => img.offsetParent !== null && width !== 0)
    .map(async ([img, width]) => {
      const svg = new DOMParser().parseFromString(await text(img.src.split('#')[0]), 'image/svg+xml')
        .documentElement;
      const holder = document.createElement('div');
      holder.style.cssText = `position:absolute;left:0;top:0;width:${width}px;visibility:hidden`;
      const copy = document.importNode(svg, true);
      copy.setAttribute('width', width); copy.removeAttribute('height');
      holder.appendChild(copy);
      return {holder, copy, src: img.getAttribute('src')};
    }))));
  for (const d of drawn.flat()) document.body.appendChild(d.holder);
  const measured = drawn.map(ds => ds.map(d => [smallest(d.copy), d.src]));
  for (const d of drawn.flat()) d.holder.remove();
  const out = [];
  for (const [n, f] of figures.entries()) {
    let least = Infinity, what = '';
    for (const [px, src] of measured[n]) { least = Math.min(least, px); what = src; }
    for (const svg of f.querySelectorAll('svg')) {
      if (svg.getBoundingClientRect().width === 0 || svg.closest('img')) continue;
      if (svg.parentElement.closest('svg')) continue;
      least = Math.min(least, smallest(svg)); what = what || 'an inline SVG';
    }
    if (least === Infinity) continue;
    const link = [...f.querySelectorAll('a')].find(a => a.textContent.trim().startsWith('Open full size'));
    let control = null;
    if (link) {
      const r = link.getBoundingClientRect(), s = getComputedStyle(link);
      link.focus();
      control = {href: link.href, shown: r.width > 0 && r.height > 0 && s.visibility !== 'hidden'
                 && s.display !== 'none', focusable: document.activeElement === link && link.tabIndex >= 0};
    }
    out.push({n: n + 1, what, least, control});
  }
  return out;
}"""
)


def figure_text_problems(
    browser, site_url: str, url: str, edit: str = "", viewport: dict = PHONE
) -> tuple[int, list[str]]:
    """The figures of one page (at 375 px unless told) whose text is under :data:`SMALLEST` on the
    page: a full-size link is no excuse (issue 31, point 1). ``edit`` is JavaScript run on the page
    first (to break it on purpose)."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(site_url + url, wait_until="networkidle")
    page.add_style_tag(content=_EVERY_TAB)
    # what a reader sees once they open each "Reveal" and pick each tab
    page.evaluate(OPEN_DETAILS)
    if edit:
        page.evaluate(edit)
    found = _small_figure_text(page, url, viewport["width"])
    context.close()
    return found


def _small_figure_text(page, url: str, width: int) -> tuple[int, list[str]]:
    """How many figures the open page shows, and those whose text is under :data:`SMALLEST`."""
    figures = page.evaluate(_FIGURES)
    problems = [
        f"{url or 'home'} figure {f['n']} ({f['what']}): text {f['least']:.1f} px at {width} px"
        for f in figures
        if f["least"] < SMALLEST
    ]
    return len(figures), problems


@probe("figure text", ALL + 20, [("light", 375), ("light", 1280)], not_404)
def _figure_text(page, visit) -> tuple[int, list[str]]:
    """Every reveal open and every tab shown: :func:`_small_figure_text`."""
    return _small_figure_text(page, visit.url, visit.width)


def _summed(sweep, name: str, width: int) -> tuple[int, list[str]]:
    """A probe's ``(count, problems)`` over every page the sweep visited (light, ``width`` px)."""
    count, problems = 0, []
    for visit in sweep.visits(name, "light", width):
        n, found = visit[name]
        count, problems = count + n, problems + found
    return count, problems


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["375px", "1280px"])
def test_no_figure_text_under_11_px(sweep, viewport):
    """On every page at 375 and 1280 px: each figure's text is 11 CSS px or more where it is shown
    (a figure wider than the column scrolls in its box: hooks/figure_width.py)."""
    figures, problems = _summed(sweep, "figure text", viewport["width"])
    assert figures >= 30, f"{figures} figures measured: the check looks at nothing"
    assert not problems, "\n".join(problems)


def test_the_figure_text_check_can_fail(browser, site_url, sweep):
    """Module 1's and Real heads' figures let shrink to the column, as they were before
    hooks/figure_width.py: each is named (their text is drawn at about 4 to 8 px at 375 px), and
    their "Open full size" links do not excuse them. As built, the same pages pass (as the sweep
    at 375 px measured them)."""
    shrink = (
        "document.querySelectorAll('.workshop-figure-scroll, .workshop-figure-scroll img')"
        ".forEach(i => i.style.setProperty('--workshop-least-width', '0px'))"
    )
    built = {v.url: v for v in sweep.visits("figure text", "light", PHONE["width"])}
    for url, at_least in (("module-1/", 1), ("real-heads/", 5), ("reproducing/", 1)):
        n, problems = figure_text_problems(browser, site_url, url, shrink)
        assert n >= 1 and len(problems) >= at_least, problems
        n, as_built = built[url]["figure text"]
        assert as_built == [], as_built


#: Each shown link of a figure caption, with how many lines it takes (its boxes' distinct tops).
_CAPTION_LINKS = """() => [...document.querySelectorAll('figcaption a')]
  .map(a => ({text: a.textContent.trim(),
              lines: new Set([...a.getClientRects()].map(r => Math.round(r.top))).size}))
  .filter(l => l.lines > 0)"""


def _broken_links(page, url: str, width: int) -> tuple[int, list[str]]:
    """How many caption links the open page shows, and those that break across lines."""
    links = page.evaluate(_CAPTION_LINKS)
    return len(links), [
        f"{url or 'home'} at {width} px: caption link {link['text']!r} on {link['lines']} lines"
        for link in links
        if link["lines"] > 1
    ]


@probe("caption links", ALL + 30, [("light", 375), ("light", 1280)], not_404)
def _caption_links(page, visit) -> tuple[int, list[str]]:
    """Every reveal open and every tab shown: :func:`_broken_links`."""
    return _broken_links(page, visit.url, visit.width)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["375px", "1280px"])
def test_no_caption_link_breaks_across_lines(sweep, viewport):
    """On every page at 375 and 1280 px, each link of a figure caption ("Open full size (SVG,
    light colours)", "Download SVG", "numbers as CSV", "D2 source") stays on one line; the
    caption wraps between its links, after a "·"."""
    links, problems = _summed(sweep, "caption links", viewport["width"])
    assert links >= 100, f"{links} caption links measured: the check looks at nothing"
    assert not problems, "\n".join(problems)


def test_the_caption_link_check_can_fail(browser, site_url):
    """Module 3 at 1280 px with caption links allowed to wrap again: "Download SVG" of the
    causal-mask caption breaks across two lines, and is named."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(site_url + "module-3/", wait_until="networkidle")
    n, as_built = _broken_links(page, "module-3/", DESKTOP["width"])
    page.add_style_tag(
        content=".md-typeset figcaption a { white-space: normal !important; }"
    )
    _, problems = _broken_links(page, "module-3/", DESKTOP["width"])
    context.close()
    assert n >= 10 and as_built == [], as_built
    assert any("'Download SVG' on 2 lines" in p for p in problems), problems


def test_a_wide_figure_scrolls_in_its_box_with_its_cue(browser, site_url):
    """Real heads at 375 px: an all-heads grid is wider than the column, in a named box the keyboard
    reaches, which shows "scroll →"; the page itself does not scroll sideways."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(site_url + "real-heads/", wait_until="networkidle")
    page.evaluate(EAGER)  # every figure loaded, as a reader who scrolls to it sees it
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(200)
    got = page.evaluate(
        """() => {
          const b = [...document.querySelectorAll('.workshop-figure-scroll')]
            .filter(b => b.offsetParent !== null && b.querySelector('img[src*="-grid"]'))
            .sort((x, y) => (y.scrollWidth - y.clientWidth) - (x.scrollWidth - x.clientWidth))[0];
          if (!b) return null;
          b.scrollIntoView();
          return {over: b.scrollWidth - b.clientWidth, scroll: b.dataset.scroll || '',
                  cue: getComputedStyle(b, '::before').content, tab: b.tabIndex,
                  name: b.getAttribute('aria-label') || '',
                  page: document.documentElement.scrollWidth - innerWidth};
        }"""
    )
    context.close()
    assert got is not None, "no all-heads grid shown in a figure box"
    assert got["over"] > 100 and got["scroll"] == "right" and "scroll" in got["cue"], (
        got
    )
    assert got["tab"] == 0 and got["name"].startswith("figure: "), got
    assert got["page"] <= 0, got


# --------------------------------------------------------------------------- the 72-head grid, dark


def test_the_head_grid_reads_in_the_dark(browser, site_url):
    """Real heads in the dark scheme: the grid shows its own dark drawing, every label (titles,
    layer and head numbers, each head's class) is in a colour of 4.5:1 or more on the page, and a
    thumbnail's strongest shade stands out from the page by 3:1 or more."""
    import re

    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, color_scheme="dark"
    )
    page = context.new_page()
    page.goto(site_url + "real-heads/", wait_until="networkidle")
    page.add_style_tag(content=_EVERY_TAB)
    src = page.evaluate(
        "() => [...document.querySelectorAll('article figure img')].filter(i => i.offsetParent"
        " !== null).map(i => i.getAttribute('src')).find(s => s.includes('-grid'))"
    )
    assert src and src.endswith("-grid-dark.svg#only-dark"), src
    svg = page.evaluate("async s => (await fetch(s)).text()", src.split("#")[0])
    context.close()
    labels = re.findall(r'<text style="fill: (#[0-9a-f]{6})"[^>]*>([^<]+)</text>', svg)
    assert sum(t.startswith("layer ") for _, t in labels) == 6, (
        "the layers' labels are missing"
    )
    assert sum(t.startswith("head ") for _, t in labels) == 12, (
        "the heads' labels are missing"
    )
    assert len(labels) >= 72 + 18, f"{len(labels)} labels: a head's class is missing"
    weak = {(c, t) for c, t in labels if contrast(c, DARK.bg) < 4.5}
    assert not weak, f"labels under 4.5:1 on {DARK.bg}: {sorted(weak)[:5]}"
    assert contrast(DARK.high, DARK.bg) >= 3, (
        "the strongest shade hardly shows on the page"
    )


#: The interactive grid's labels as shown: each layer's and head's number and each head's class
#: and score, with its size, its colour blended on the page and whether it is drawn at all.
_GRID_LABELS = """() => {
  const g = document.querySelector('.rh-grid');
  const rgb = s => s.match(/[\\d.]+/g).map(Number);
  const bg = rgb(getComputedStyle(document.body).backgroundColor);
  const hex = c => '#' + c.map(v => Math.round(v).toString(16).padStart(2, '0')).join('');
  const labels = [...g.querySelectorAll('.rh-row, .rh-col, .rh-label > span')].map(e => {
    const [r, gr, b, a = 1] = rgb(getComputedStyle(e).color), r0 = e.getBoundingClientRect();
    return {text: e.textContent, px: parseFloat(getComputedStyle(e).fontSize),
            colour: hex([r, gr, b].map((v, i) => a * v + (1 - a) * bg[i])), shown: r0.width > 0 && r0.height > 0};
  });
  const last = g.querySelectorAll('.rh-head')[g.querySelectorAll('.rh-head').length - 1];
  last.focus();
  const box = last.getBoundingClientRect(), view = g.getBoundingClientRect();
  return {labels, bg: hex(bg), lastInView: box.left >= view.left - 1 && box.right <= view.right + 1};
}"""


def grid_label_problems(
    browser, site_url: str, scheme: str, edit: str = ""
) -> list[str]:
    """What is wrong with the interactive 72-head grid at 375 px in ``scheme``."""
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    page = context.new_page()
    page.goto(site_url + "real-heads/", wait_until="networkidle")
    page.wait_for_selector(".rh-ready .rh-label > span", state="attached")
    if edit:
        page.add_style_tag(content=edit)
    found = page.evaluate(_GRID_LABELS)
    context.close()
    labels, problems = found["labels"], []
    if len(labels) < 6 + 12 + 2 * 72:
        problems.append(f"{len(labels)} labels in the grid")
    for lab in labels:
        if not lab["shown"]:
            problems.append(f"{lab['text']!r} is not shown")
        elif lab["px"] < SMALLEST:
            problems.append(f"{lab['text']!r} is {lab['px']} px")
        elif contrast(lab["colour"], found["bg"]) < 4.5:
            problems.append(f"{lab['text']!r}: {lab['colour']} on {found['bg']}")
    if not found["lastInView"]:
        problems.append(
            "layer 6, head 12 is not brought into view when it has the focus"
        )
    return sorted(set(problems))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_interactive_grid_keeps_its_labels_on_a_phone(browser, site_url, scheme):
    """At 375 px every layer, head and class label of the 72 heads is drawn, at 11 px or more,
    4.5:1 on the page; the grid scrolls sideways, and the focused head scrolls into view."""
    problems = grid_label_problems(browser, site_url, scheme)
    assert not problems, problems[:10]


def test_the_grid_label_check_can_fail(browser, site_url):
    """The labels hidden on a phone, as the page once did, and the layer numbers made faint."""
    problems = grid_label_problems(
        browser,
        site_url,
        "dark",
        ".md-typeset .rh-label { display: none !important; } .md-typeset .rh-row { color: #3a3d47 !important; }",
    )
    assert any("'prev' is not shown" in p or "is not shown" in p for p in problems), (
        problems
    )
    assert any(p.startswith("'layer 1':") for p in problems), problems
