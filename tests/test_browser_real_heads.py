"""The "Real heads" page as a reader meets it, in headless Chromium.

The weights and classes the grid shows are compared with the package
(:func:`attention_workshop.chapters.real_heads.facts`, itself checked against transformers in
test_real_heads.py). Each test also asserts no console error and no request off the site; the
page's weight before any sentence is picked is measured as a compressing server sends it.
"""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from attention_workshop.chapters import real_heads as rh

from .conftest import PageLog
from .test_site_quality import DESKTOP, PHONE, _axe_problems

pytestmark = pytest.mark.browser

PAGE = "real-heads/"


def open_page(page, site_url):
    page.goto(site_url + PAGE)
    page.wait_for_selector("#real-heads-explorer[data-ready]", state="attached")
    return page


def large(page) -> tuple[list[str], np.ndarray]:
    """The large head's token labels and the weights printed in its cells."""
    tokens = page.eval_on_selector_all(
        ".rh-table thead th", "ths => ths.map(th => th.textContent)"
    )
    rows = page.eval_on_selector_all(
        ".rh-table tbody tr",
        "trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent))",
    )
    return tokens, np.array([[float(t) for t in row] for row in rows])


#: The grid prints two decimals of the thousandths the JSON holds: at most this far from the package.
PRINTED = 0.005 + 0.0005 + 1e-9


def pressed(page) -> str:
    return page.locator('.rh-head[aria-pressed="true"]').get_attribute("aria-label")


def test_the_grid_opens_on_the_previous_token_head_with_the_packages_weights(
    page_and_log, site_url
):
    page, log = page_and_log
    open_page(page, site_url)
    h = rh.facts().sentence("river")
    tokens, shown = large(page)
    assert tokens == list(h.tokens)
    assert np.abs(shown - h.attentions[0, 2]).max() <= PRINTED
    assert pressed(page) == "layer 1, head 3: previous token, share 1.00"
    assert page.locator(".rh-head").count() == 72
    assert page.locator(".rh-nojs").is_hidden()
    assert not log.console_errors and not log.foreign_requests


def test_menus_and_arrow_keys_pick_sentence_layer_and_head(page_and_log, site_url):
    page, log = page_and_log
    open_page(page, site_url)
    f = rh.facts()
    with page.expect_response(lambda r: r.url.endswith("/tired.json")):
        page.select_option(".rh-menu select >> nth=0", value="tired")
    page.wait_for_function(
        "document.querySelector('.rh-text').textContent.includes('too tired')"
    )
    head = f.it.top("tired", "animal")
    page.select_option(".rh-menu select >> nth=1", value=str(head[0] + 1))
    page.select_option(".rh-menu select >> nth=2", value=str(head[1] + 1))
    h = f.sentence("tired")
    _, shown = large(page)
    assert np.abs(shown - h.attentions[head]).max() <= PRINTED
    it, animal = h.tokens.index("it"), h.tokens.index("animal")
    thousandths = round(float(h.attentions[(*head, it, animal)]) * 1000) / 1000
    assert shown[it, animal] == float(f"{thousandths:.2f}")
    # the keyboard: the picked head has the focus stop; arrows move and pick
    page.locator('.rh-head[aria-pressed="true"]').focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    want = (head[0] + 1, head[1] + 1)
    cls = rh.LABELS[h.classes[want[0]][want[1]]]
    assert pressed(page).startswith(f"layer {want[0] + 1}, head {want[1] + 1}: {cls}, ")
    assert (
        page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    )
    assert page.locator(".rh-head[tabindex='0']").count() == 1
    page.keyboard.press("Home")
    assert pressed(page).startswith(f"layer {want[0] + 1}, head 1:")
    assert f"Sentence 4, layer {want[0] + 1}, head 1:" in page.inner_text(".rh-status")
    assert not log.console_errors and not log.foreign_requests


def test_other_sentences_load_only_when_picked_and_the_page_stays_light(
    browser, site_url
):
    """Before any sentence is picked, the page (theme, search index, grid data and the math
    font's subset included) weighs under 400 KB as a gzip-compressing server sends it."""
    context = browser.new_context(viewport=DESKTOP, color_scheme="light")
    page = context.new_page()
    log = PageLog(site_url)
    page.on("request", log.on_request)
    sizes: dict[str, tuple[int, int]] = {}

    def on_response(r):
        body = r.body() if r.ok else b""
        sizes[r.url] = (len(body), len(gzip.compress(body, mtime=0)))

    page.on("response", on_response)
    try:
        open_page(page, site_url)
        page.wait_for_load_state("networkidle")
        loaded = {u.rsplit("/", 1)[-1] for u in sizes}
        assert "index.json" in loaded and "river.json" in loaded
        assert not {f"{s.key}.json" for s in rh.SENTENCES[1:]} & loaded, loaded
        raw = sum(a for a, _ in sizes.values())
        sent = sum(b for _, b in sizes.values())
        assert sent < 400_000, f"{sent} bytes compressed ({raw} raw): {sizes}"
        # the page's two formulas (cosine similarity, normalised entropy) load the math font
        # cut to the site's glyphs, counted in the weight above, never the whole font
        fonts = [u for u in sizes if "latinmodern" in u]
        assert all(u.endswith("latinmodern-math-subset.woff") for u in fonts), fonts
        with page.expect_response(lambda r: r.url.endswith("/long.json")):
            page.select_option(".rh-menu select >> nth=0", value="long")
    finally:
        context.close()
    assert not log.foreign_requests


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_grid_after_a_pick_is_accessible(browser, site_url, scheme):
    from axe_playwright_python.sync_playwright import Axe

    problems = []
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    try:
        page = context.new_page()
        open_page(page, site_url)
        page.select_option(".rh-menu select >> nth=0", value="long")
        page.wait_for_function(
            "document.querySelector('.rh-text').textContent.includes('winter')"
        )
        page.locator('.rh-head[aria-pressed="true"]').focus()
        page.keyboard.press("PageDown")
        problems += _axe_problems(Axe(), page, f"real heads, picked [{scheme}]")
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(150)
        problems += _axe_problems(Axe(), page, f"real heads, picked [{scheme}, phone]")
    finally:
        context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_thumbnails_are_drawn_in_the_schemes_colours(browser, site_url, scheme):
    """A weight of 1.00 is drawn in the scheme's thumbnail ink, a weight under 0.05 in its paper."""
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    try:
        page = context.new_page()
        open_page(page, site_url)
        got = page.evaluate(
            """() => {
              const root = document.getElementById("real-heads-explorer");
              const css = (name) => getComputedStyle(root).getPropertyValue(name).trim();
              const probe = document.createElement("canvas").getContext("2d");
              const rgb = (c) => { probe.fillStyle = c; probe.fillRect(0, 0, 1, 1);
                                   return [...probe.getImageData(0, 0, 1, 1).data.slice(0, 3)]; };
              const ctx = document.querySelectorAll(".rh-head canvas")[2].getContext("2d");
              const at = (x, y) => [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)];
              return { ink: rgb(css("--rh-thumb")), paper: rgb(css("--rh-paper")),
                       one: at(0, 1), faint: at(5, 1) };
            }"""
        )
    finally:
        context.close()
    h = rh.facts().sentence("river")
    assert h.attentions[0, 2, 1, 0] > 0.95 and h.attentions[0, 2, 1, 5] < 0.05
    assert got["one"] == got["ink"] and got["faint"] == got["paper"], got
    assert (got["ink"] == [23, 63, 133]) == (scheme == "light"), got


def test_without_javascript_every_grid_and_table_is_there(browser, site_url):
    context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(site_url + PAGE)
        assert page.locator(".rh-nojs").is_visible()
        grids = page.locator('img[src$="-grid.svg#only-light"]')
        assert grids.count() == len(rh.SENTENCES)
        # the first tab shows sentence 1's grid and its table of classes, without a script
        first = grids.first
        first.scroll_into_view_if_needed()
        page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=first.element_handle()
        )
        assert (
            "layer 1 broad entropy 0.89 broad entropy 0.88 prev share 1.00"
            in " ".join(page.inner_text(".tabbed-block >> nth=0").split())
        )
        # another tab is one click away (Material's tabs are radio buttons and CSS)
        page.click("label:has-text('4 tired')")
        assert page.locator('img[src$="tired-grid.svg#only-light"]').is_visible()
    finally:
        context.close()
