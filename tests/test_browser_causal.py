"""A causal model's explorer in headless Chromium, as a reader meets it: one head's seven steps
without JavaScript, nothing fetched before a pick, and after a pick the numbers shown are the
sentence's JSON and the package's own weights and scores, rounded as shown; axe clean after a pick.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from attention_workshop.chapters import causal_heads as ch

from .conftest import PageLog, causal_facts
from .test_site_quality import DESKTOP, PHONE, _axe_problems

pytestmark = pytest.mark.browser

PAGE = "causal-heads/"
APP = "#causal-explorer"
MINUS = "\u2212"


def _read(shown: list[str]) -> np.ndarray:
    """Numbers as the page prints them (a true minus sign), read back."""
    return np.array([float(x.replace(MINUS, "-")) for x in shown])


def _row(page, n: int) -> list[str]:
    """The cells of the token's row table, row ``n`` (0: scaled scores, 1: masked, 2: weights)."""
    return page.eval_on_selector_all(
        f"{APP} .ca-row tbody tr:nth-child({n + 1}) td",
        "els => els.map(e => e.textContent)",
    )


def test_without_javascript_one_head_is_shown_and_no_form(browser, site_url):
    context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(site_url + PAGE)
        f = causal_facts()
        layer, head = f.induction_head
        title = page.locator(f"{APP} .ca-title").text_content()
        assert title.startswith(
            f"Layer {layer + 1}, head {head + 1}, row of token {f.cat[0] + 1}"
        )
        assert not page.locator(f"{APP} form").is_visible()
        weights = [float(x) for x in _row(page, 2)]
        want = f.run(ch.REPEAT).attentions[layer, head, f.cat[0]]
        assert np.max(np.abs(np.array(weights) - want)) <= 0.005 + 1e-9
    finally:
        context.close()


def test_a_pick_shows_the_heads_numbers(browser, site_url, built_site):
    context = browser.new_context(viewport=DESKTOP)
    log = PageLog(site_url)
    try:
        page = context.new_page()
        page.on("request", log.on_request)
        page.on("console", log.on_console)
        page.on("pageerror", log.on_pageerror)
        fetched: list[str] = []
        page.on("request", lambda r: "/steps-" in r.url and fetched.append(r.url))
        page.goto(site_url + PAGE, wait_until="networkidle")
        page.wait_for_selector(f"{APP}[data-ready]", state="attached")
        assert fetched == [], "a sentence's data was fetched before any pick"
        assert page.locator(f"{APP} form").is_visible()
        page.select_option(f"{APP} select[name=layer]", "30")
        page.select_option(f"{APP} select[name=head]", "9")
        page.select_option(f"{APP} select[name=sentence]", "river")
        page.select_option(f"{APP} select[name=token]", "3")
        page.wait_for_function(
            f"document.querySelector('{APP}').dataset.shown === 'river 30 9 3'"
        )
        assert [u.rsplit("/", 1)[1] for u in fetched][-1] == "steps-river.json"
        data = json.loads(
            (built_site / "generated/causal/steps-river.json").read_text(
                encoding="utf-8"
            )
        )
        run = causal_facts().run("river")
        before, after, weights = (_row(page, n) for n in range(3))
        assert before == [
            f"{x / 10:.1f}".replace("-0.0", "0.0").replace("-", MINUS)
            for x in data["scores"][29][8][2]
        ]
        assert after[3:] == ["−∞"] * (len(run.tokens) - 3)
        shown = np.array([float(x) for x in weights])
        assert np.max(np.abs(shown - run.attentions[29, 8, 2])) <= 0.005 + 1e-9
        scores = _read(before)
        assert np.max(np.abs(scores - run.steps.scores[29, 8, 2])) <= 0.05 + 1e-5
        flops = page.eval_on_selector_all(
            f"{APP} .ca-shapes tbody tr",
            "rs => rs.map(r => [r.cells[2].textContent, r.cells[4].textContent])",
        )
        assert flops[:-1] == [[f"{a:,}", f"{b:,}"] for a, b in data["flops"]]
        heat = page.eval_on_selector_all(f"{APP} .ca-heat tbody tr", "rs => rs.length")
        assert heat == len(run.tokens)
        assert (
            page.locator(f"{APP} .ca-title")
            .text_content()
            .startswith(f"Layer 30, head 9, row of token 3 ({run.tokens[2]})")
        )
    finally:
        context.close()
    assert not log.foreign_requests and not log.console_errors, (
        log.foreign_requests + log.console_errors
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_explorer_after_a_pick_is_accessible(browser, site_url, scheme):
    from axe_playwright_python.sync_playwright import Axe

    problems = []
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(site_url + PAGE, wait_until="networkidle")
        page.wait_for_selector(f"{APP}[data-ready]", state="attached")
        page.select_option(f"{APP} select[name=sentence]", "tired")
        page.wait_for_function(
            f"document.querySelector('{APP}').dataset.shown?.startsWith('tired')"
        )
        problems += _axe_problems(Axe(), page, f"causal explorer, picked [{scheme}]")
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(150)
        problems += _axe_problems(
            Axe(), page, f"causal explorer, picked [{scheme}, phone]"
        )
    finally:
        context.close()
    assert not problems, "\n".join(problems)


#: Each table's columns: where every cell's text sits, header and body ('left' or 'right'), per column.
ALIGNMENTS = """(sel) => [...document.querySelectorAll(sel + ' table')].map(t => {
  const cols = [];
  for (const r of t.rows) [...r.cells].forEach((c, i) => {
    (cols[i] ||= new Set()).add(getComputedStyle(c).textAlign.replace('start', 'left'));
  });
  return [t.className, cols.map(s => [...s].sort().join('+'))];
})"""

#: The heat table's rows: [aria-current, the row header's border-top width, its colour, the page's
#: background colour, the row header's text] for each row.
PICKED_ROWS = """(sel) => [...document.querySelectorAll(sel + ' .ca-heat tbody tr')].map(r => {
  const th = r.cells[0], s = getComputedStyle(th), last = getComputedStyle(r.cells[r.cells.length - 1]);
  return [r.getAttribute('aria-current'), parseFloat(s.borderTopWidth), parseFloat(last.borderRightWidth),
          s.borderTopColor, getComputedStyle(document.body).backgroundColor, th.textContent];
})"""


def _luminance(css: str) -> float:
    """WCAG relative luminance of an ``rgb()``/``rgba()`` colour (its alpha over the page ignored)."""
    r, g, b = (float(x) / 255 for x in css[css.index("(") + 1 : -1].split(",")[:3])

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def _check_explorer(page, token: int) -> None:
    """Every column's header sits as its cells do; the picked token's row, and it alone, is outlined
    (2 px, in a colour that contrasts with the page) and current to a screen reader."""
    for table, cols in page.evaluate(ALIGNMENTS, APP):
        assert all("+" not in c for c in cols), (
            f"{table}: a header aligned unlike its column: {cols}"
        )
    assert next(c for _, c in page.evaluate(ALIGNMENTS, APP)) == [
        "left",
        "left",
        "right",
        "left",
        "right",
    ], "the shapes table: step and shapes left, FLOPs right"
    rows = page.evaluate(PICKED_ROWS, APP)
    current = [i for i, r in enumerate(rows) if r[0] == "true"]
    assert current == [token], f"aria-current rows {current}, picked token {token}"
    _, top, right, colour, bg, _ = rows[token]
    assert top >= 2 and right >= 2, f"the picked row's outline: {top} px, {right} px"
    assert all(r[1] < 2 for i, r in enumerate(rows) if i != token), (
        "another row is outlined"
    )
    hi, lo = sorted([_luminance(colour), _luminance(bg)], reverse=True)
    assert (hi + 0.05) / (lo + 0.05) >= 3, f"outline {colour} on {bg}: under 3:1"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_headers_align_with_their_columns_and_the_picked_row_is_outlined(
    browser, site_url, scheme
):
    f = causal_facts()
    context = browser.new_context(
        viewport=DESKTOP, java_script_enabled=False, color_scheme=scheme
    )
    try:  # the page's own HTML, before any script
        page = context.new_page()
        page.goto(site_url + PAGE)
        _check_explorer(page, f.cat[0])
    finally:
        context.close()
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    try:  # the script's HTML, after a pick
        page = context.new_page()
        page.goto(site_url + PAGE, wait_until="networkidle")
        page.wait_for_selector(f"{APP}[data-ready]", state="attached")
        page.select_option(f"{APP} select[name=sentence]", "river")
        page.select_option(f"{APP} select[name=token]", "2")
        page.wait_for_function(
            f"document.querySelector('{APP}').dataset.shown?.endsWith(' 2')"
        )
        _check_explorer(page, 1)
    finally:
        context.close()
