"""Every table as a reader sees it, in headless Chromium, at 375 and 1280 px: each one either shows all
its columns, or shows that it scrolls ("scroll" above it and a fade at the cut edge, more than a
scrollbar) with its key column in view, scrolled to the start and to the end (issue 21, point 4).

The key column is a table's first, and the second too when its box says ``data-keys="2"`` (a bold
heading in the Markdown, hooks/tables.py). A table with its cue taken away, or with its key column
let go, fails the check (the deliberate breaks below).
"""

from __future__ import annotations

import re

import pytest

from .sweep import ALL, OPEN_DETAILS, not_404, probe
from .test_browser_figures import EAGER, _summed
from .test_browser_pages import _EVERY_TAB, PHONE

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}

#: For each table of the open page: its box's name, how far it overflows, and what is wrong with it.
#: A table that fits must have no cell past its box (or the screen); one that overflows is checked
#: scrolled to the start and to the end: the cue ("scroll" drawn above it), the fade, the key columns
#: inside the box and not under each other.
TABLE_PROBLEMS = """async () => {
  const out = [];
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const tables = [...document.querySelectorAll('article table')]
    .filter(t => !t.closest('.highlighttable, .highlight') && t.offsetParent !== null);
  for (const t of tables) {
    const box = t.closest('[role="region"][tabindex="0"]');
    const name = box ? box.getAttribute('aria-label') : (t.rows[0]?.textContent.trim().slice(0, 40));
    if (!box) { out.push({name, problem: 'no scroll box'}); continue; }
    const over = box.scrollWidth - box.clientWidth;
    const rec = {name, over, overflows: over > 1, problems: []};
    if (over <= 1) {
      const b = box.getBoundingClientRect();
      const edge = Math.min(b.right, innerWidth) + 1;
      const cut = [...t.rows].flatMap(r => [...r.cells]).filter(c => c.getBoundingClientRect().right > edge);
      if (cut.length) rec.problems.push(`${cut.length} cell(s) past the edge`);
      out.push(rec); continue;
    }
    const keys = Number(box.dataset.keys || 1);
    for (const x of [0, over]) {
      box.scrollLeft = x; await frame();
      const cue = getComputedStyle(box, '::before');
      const text = cue.content;
      const fade = getComputedStyle(box).maskImage || getComputedStyle(box).webkitMaskImage;
      const b = box.getBoundingClientRect();
      if (!/scroll/.test(text) || cue.display === 'none' || cue.visibility === 'hidden' || parseFloat(cue.height) < 8)
        rec.problems.push(`at scroll ${Math.round(x)}: no "scroll" cue shown (content ${text})`);
      if (x === 0 && !/gradient/.test(fade || ''))
        rec.problems.push('no fade at the cut edge');
      for (let k = 0; k < keys; k++) {
        for (const row of t.rows) {
          const c = row.cells[k]; if (!c) continue;
          const r = c.getBoundingClientRect();
          const prev = k > 0 ? row.cells[k - 1].getBoundingClientRect() : null;
          if (r.left < b.left - 1 || r.right > b.right + 1 || (prev && r.left < prev.right - 1)) {
            const head = t.rows[0].cells[k]?.textContent.trim();
            rec.problems.push(`at scroll ${Math.round(x)}: key column ${k + 1} ("${head}") is out of view`);
            break;
          }
        }
      }
    }
    box.scrollLeft = 0;
    out.push(rec);
  }
  return out;
}"""


def table_problems(page) -> tuple[int, list[str]]:
    """``(how many tables overflow their box, what is wrong)`` on the open page, every tab and
    reveal shown as a reader who opens them sees it."""
    page.add_style_tag(content=_EVERY_TAB)
    page.evaluate(OPEN_DETAILS)
    return _tables_shown(page)


def _tables_shown(page) -> tuple[int, list[str]]:
    """:func:`table_problems` on a page whose tabs and reveals are shown already."""
    page.wait_for_timeout(
        100
    )  # the boxes are re-measured once shown (assets/tables.js)
    found = page.evaluate(TABLE_PROBLEMS)
    problems = [f"{t['name']}: {p}" for t in found for p in t["problems"]]
    return sum(t["overflows"] for t in found), problems


@probe("tables", ALL, [("light", 375), ("light", 1280)], not_404)
def _tables(page, visit) -> tuple[int, int, list[str]]:
    """How many tables the page has, how many overflow their box, and what is wrong with them."""
    tables = page.locator("article table:not(.highlighttable)").count()
    return (tables, *_tables_shown(page))


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["375px", "1280px"])
def test_every_table_fits_or_shows_that_it_scrolls(sweep, viewport):
    problems, tables, overflowing = [], 0, 0
    for visit in sweep.visits("tables", "light", viewport["width"]):
        n, over, found = visit["tables"]
        tables, overflowing = tables + n, overflowing + over
        problems += [f"{visit.url or 'home'}: {p}" for p in found]
    assert tables > 20, "hardly any table: the check looks at nothing"
    if viewport is PHONE:
        assert overflowing >= 5, "no table overflows a phone: the cue is never checked"
    assert not problems, "\n".join(problems)


#: The breaks: the cue taken away (no text, no fade), and the key column let go (it scrolls away).
NO_CUE = (
    ".md-typeset [data-scroll]::before { content: none !important; }"
    ".md-typeset [data-scroll] { mask: none !important; -webkit-mask: none !important; }"
)
NO_KEY = ".md-typeset table :is(th, td) { position: static !important; }"


def test_a_table_without_its_cue_or_its_key_column_fails(browser, site_url):
    """Real heads on a phone: its tables pass as built, and fail once the cue or the sticky key
    column is gone (the grid of classes overflows by far: its "layer" column would scroll away)."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(site_url + "real-heads/", wait_until="networkidle")
    overflowing, problems = table_problems(page)
    assert overflowing >= 5 and problems == [], problems
    page.add_style_tag(content=NO_CUE)
    _, no_cue = table_problems(page)
    page.reload(wait_until="networkidle")
    page.add_style_tag(content=NO_KEY)
    _, no_key = table_problems(page)
    context.close()
    assert any('no "scroll" cue' in p for p in no_cue), no_cue
    assert any("no fade" in p for p in no_cue), no_cue
    assert any("head 1" in p and "key column 1" in p for p in no_key), no_key


# --------------------------------------------------------------------------- the downloads, grouped

#: The home page's list of downloads on a phone, from the top of its table to the end of the
#: folded figures: at most two screens of 800 px. Its 14 rows (the take-home files and the
#: notebooks, each up to five lines at 375 px) take about 1,300 px; the flat list of 51 rows took 4,662.
DOWNLOADS_MAX_PX = 1600

_DOWNLOADS_HEIGHT = """() => {
  let top = null, bottom = 0;
  const first = document.getElementById('take-home').nextElementSibling;
  for (let e = first; e && e.tagName !== 'H2'; e = e.nextElementSibling)
    if (e.querySelector('table') || e.tagName === 'DETAILS') {
      const r = e.getBoundingClientRect(); top ??= r.top; bottom = r.bottom;
    }
  return bottom - top;
}"""


def test_the_downloads_fit_two_phone_screens(browser, site_url):
    """One row per take-home file; the figures' files and the notebooks folded under a line each.
    Unfolded, as the list used to be, it is far longer than the bound: the check can fail."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(site_url, wait_until="networkidle")
    height = page.evaluate(_DOWNLOADS_HEIGHT)
    folded = page.locator("#take-home ~ details").first
    assert "figures" in folded.locator("summary").inner_text()
    assert folded.get_attribute("open") is None, "the figures are folded"
    page.evaluate(
        "document.querySelectorAll('details').forEach(d => { d.open = true; })"
    )
    unfolded = page.evaluate(_DOWNLOADS_HEIGHT)
    context.close()
    assert height <= DOWNLOADS_MAX_PX, f"the downloads take {height:.0f} px at 375 px"
    assert unfolded > DOWNLOADS_MAX_PX, (
        f"unfolded: {unfolded:.0f} px, the check cannot fail"
    )


# --------------------------------------------------------------------------- every box that scrolls

#: Every element of the page's article that scrolls sideways (overflow-x auto or scroll, content wider
#: than the box), whatever made it (a table, a grid of heads, code, a figure, an explorer): what it is
#: and whether it shows its "scroll" cue.
SCROLLER_PROBLEMS = """async () => {
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const out = [];
  for (const el of document.querySelectorAll('article *')) {
    if (el.offsetParent === null && getComputedStyle(el).position !== 'fixed') continue;
    const x = getComputedStyle(el).overflowX;
    if (!(x === 'auto' || x === 'scroll') || el.scrollWidth - el.clientWidth <= 1) continue;
    const label = el.getAttribute('aria-label');
    const name = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`
      + (label ? ` "${label.slice(0, 60)}"` : '');
    const cue = getComputedStyle(el, '::before');
    const shown = /scroll/.test(cue.content) && cue.display !== 'none' && parseFloat(cue.height) >= 8;
    const r = el.getBoundingClientRect();
    out.push({name, table: !!el.querySelector('table'), shown, over: el.scrollWidth - el.clientWidth,
              visible: r.width > 0 && r.right <= innerWidth + 1});
  }
  return out;
}"""


#: Resolves once the page has drawn two frames from now.
TWO_FRAMES = (
    "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
)


def scroller_problems(page) -> tuple[list[dict], list[str]]:
    """``(every box of the open page that scrolls sideways, those without their cue)``, every tab and
    reveal shown."""
    page.add_style_tag(content=_EVERY_TAB)
    page.evaluate(OPEN_DETAILS)
    return _scrollers_shown(page)


def _scrollers_shown(page) -> tuple[list[dict], list[str]]:
    """:func:`scroller_problems` on a page whose tabs and reveals are shown already."""
    page.evaluate(EAGER)  # every figure loaded, as it is once a reader scrolls to it
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(150)  # the boxes are looked at again (assets/tables.js)
    # ... and two frames drawn since: a box a shown tab resized is updated by tables.js's
    # ResizeObserver, whose callbacks come with a frame (a busy machine's fresh clone found two
    # of Real heads' grids, in tabs just shown, still unmarked after the 150 ms alone)
    page.evaluate(TWO_FRAMES)
    found = page.evaluate(SCROLLER_PROBLEMS)
    return found, [
        f"{b['name']} ({b['over']} px more): no scroll cue"
        for b in found
        if not b["shown"]
    ]


@probe("boxes", ALL + 30, [("light", 375)], not_404)
def _boxes(page, visit) -> tuple[list[dict], list[str]]:
    """Every tab and reveal shown, every figure loaded: :func:`_scrollers_shown`."""
    return _scrollers_shown(page)


def test_every_box_that_scrolls_shows_that_it_scrolls(sweep):
    """At 375 px, on every page: every box whose content is wider than it, table or not, shows
    "scroll →" (issue 31, point 4). Real heads' grid of heads is one of them."""
    problems, boxes = [], []
    for visit in sweep.visits("boxes", "light", PHONE["width"]):
        found, missing = visit["boxes"]
        boxes += [(visit.url, b) for b in found]
        problems += [f"{visit.url or 'home'}: {p}" for p in missing]
    assert any(not b["table"] for _, b in boxes), (
        "no box but tables scrolls: the check looks at tables only"
    )
    assert any(u == "real-heads/" and "rh-grid" in b["name"] for u, b in boxes), (
        "Real heads' grid does not scroll"
    )
    assert not problems, "\n".join(problems)


def test_a_box_without_its_cue_fails(browser, site_url):
    """Real heads' grid of heads on a phone passes as built, and fails once tables.js leaves it unmarked."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(site_url + "real-heads/", wait_until="networkidle")
    _, as_built = scroller_problems(page)
    page.add_style_tag(
        content=".md-typeset .rh-grid[data-scroll]::before { content: none !important; }"
    )
    _, broken = scroller_problems(page)
    context.close()
    assert as_built == [], as_built
    assert any("rh-grid" in p for p in broken), broken


#: Each piece of code in a table cell (not a listing), and its text where a line of it starts inside
#: a word: after a character that is neither a space nor one of ``. _ ( ) ] , - /`` (a section key never
#: breaks, a name in the Notation table only where it holds a <wbr>: workshop.css).
_TABLE_CODE = r"""() => [...document.querySelectorAll('article :is(td, th) code')]
  .filter(c => !c.closest('pre') && c.getClientRects().length > 0)
  .map(c => {
    const text = c.textContent, tops = [];
    const walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
    let at = 0;
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (let i = 0; i < n.length; i++, at++) {
        const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
        const box = r.getClientRects()[0];
        if (box && box.width > 0) tops.push([at, Math.round(box.top)]);
      }
    }
    const inside = [];
    for (let k = 1; k < tops.length; k++) {
      const [i, top] = tops[k], [j, before] = tops[k - 1];
      if (top > before && !/[\s._(),\]\-\/]/.test(text[j]) && !/\s/.test(text.slice(j + 1, i + 1)))
        inside.push(text.slice(0, i) + "|" + text.slice(i));
    }
    return {text, keyed: c.classList.contains('workshop-key') || c.classList.contains('workshop-name'), inside};
  })"""


def _broken_code(page, url: str, width: int) -> tuple[int, list[str]]:
    """How many of the open page's table cells' code pieces are ours to break (section keys and
    Notation names), and each piece of table code a line of which starts inside a word."""
    code = page.evaluate(_TABLE_CODE)
    return sum(c["keyed"] for c in code), [
        f"{url or 'home'} at {width} px: {c['text']!r} breaks inside a word: {', '.join(map(repr, c['inside']))}"
        for c in code
        if c["inside"]
    ]


@probe("table code", ALL + 40, [("light", 375), ("light", 1280)], not_404)
def _table_code(page, visit) -> tuple[int, list[str]]:
    """Every reveal open and every tab shown: :func:`_broken_code`."""
    return _broken_code(page, visit.url, visit.width)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["375px", "1280px"])
def test_code_in_a_table_breaks_only_between_words(sweep, viewport):
    """At 375 and 1280 px, no line of code in a table cell starts inside a word: a results.log
    section key (``[general_head]``) stays on one line, and a name in the Notation table breaks
    after a ``.``, ``_`` or ``(``. Material lets code break anywhere: the Reproducing page's key
    column came out as narrow as "[general_he" at 1280 px, and the Notation table showed
    "k.transpo" over "se(-2," on a phone. Every key and name the built pages hold is measured."""
    measured, problems = _summed(sweep, "table code", viewport["width"])
    built = sum(
        len(
            re.findall(
                r'<code class="workshop-(?:key|name)">',
                v.html.read_text(encoding="utf-8"),
            )
        )
        for v in sweep.visits("table code", "light", viewport["width"])
    )
    assert measured == built > 0, f"{measured} keys and names measured, {built} built"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("url", "width", "css", "named"),
    [
        (
            "reproducing/",
            1280,
            "code.workshop-key { white-space: normal",
            "'[general_head]'",
        ),
        (
            "notation/",
            375,
            "code.workshop-name { word-break: break-word",
            "'k.transpose(-2, -1)'",
        ),
    ],
    ids=["keys", "names"],
)
def test_the_table_code_check_can_fail(browser, site_url, url, width, css, named):
    """Section keys allowed to wrap again (Reproducing, 1280 px), and the Notation table's names
    allowed to break anywhere, as Material breaks code (375 px): a key and a name are named."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(site_url + url, wait_until="networkidle")
    n, as_built = _broken_code(page, url, width)
    page.add_style_tag(content=f".md-typeset {css} !important; }}")
    _, problems = _broken_code(page, url, width)
    context.close()
    assert n > 0 and as_built == [], as_built
    assert any(p.split(": ", 1)[1].startswith(named) for p in problems), problems
