"""The Source page in Chromium: it opens light, and each listing arrives whole when its tab shows.

Every listing but the first of each group of tabs waits inside ``<noscript>``
(:func:`workshop_site.source_page.deferred`) until docs/assets/source.js puts it in its tab. What
a listing must hold is read from the package's files, never typed here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workshop_site import source_page

from .sweep import EVERY_TAB, LISTINGS_IN
from .test_site_quality import DESKTOP, PHONE, _axe_problems

pytestmark = [pytest.mark.browser, pytest.mark.site]

ROOT = Path(__file__).resolve().parents[1]

#: Each listing the page shows: its file's path (its title) and its code, as the reader sees them.
_LISTINGS = """() => [...document.querySelectorAll('.workshop-source-tabs .highlight')].map(h => ({
  path: h.querySelector('.filename').textContent.trim(),
  code: h.querySelector('td.code code').textContent,
  copy: h.querySelector('td.code pre > nav [data-clipboard-target]')?.dataset.clipboardTarget ?? null,
  pre: h.querySelector('td.code pre').id,
}))"""


def _files() -> dict[str, str]:
    return {
        source_page.relative(m): (ROOT / source_page.relative(m)).read_text(
            encoding="utf-8"
        )
        for m in source_page.experiment_modules()
    }


def test_the_page_opens_light_and_each_tab_brings_its_listing(browser, site_url):
    """At load the page holds one listing per group of tabs as elements; picking a tab (by mouse,
    then by keyboard) brings its file's text, with a copy button that copies that listing (Material
    says so), and code that scrolls sideways takes focus."""
    files = _files()
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(site_url + "source/", wait_until="networkidle")
    groups = page.locator(".workshop-source-tabs .tabbed-set").count()
    first = page.evaluate(_LISTINGS)
    assert groups == len(source_page.LAYERS) == len(first), (groups, len(first))
    assert page.evaluate("document.getElementsByTagName('*').length") < 5000
    # core.py, the second tab of the maths: by mouse
    label = page.locator("label", has_text="core.py").first
    label.click()
    page.wait_for_function(
        "() => document.querySelectorAll('.workshop-source-tabs .highlight').length > 3"
    )
    core = next(x for x in page.evaluate(_LISTINGS) if x["path"].endswith("/core.py"))
    assert core["code"].rstrip("\n") == files[core["path"]].rstrip("\n")
    assert core["copy"] == f"#{core['pre']} > code", core
    page.locator(f"#{core['pre']} nav button").click()
    page.wait_for_selector(".md-dialog", state="visible")
    assert "Copied" in page.locator(".md-dialog").inner_text()
    wide = page.evaluate(
        f"(() => {{ const c = document.querySelector('#{core['pre']} > code');"
        " return [c.scrollWidth > c.clientWidth, c.getAttribute('tabindex')]; })()"
    )
    assert wide == [True, "0"], wide  # core.py has lines wider than the box
    # the keyboard check of the next test can fail: this code block without its tabindex
    from axe_playwright_python.sync_playwright import Axe

    page.evaluate(
        f"document.querySelector('#{core['pre']} > code').removeAttribute('tabindex')"
    )
    unreachable = _axe_problems(
        Axe(), page, "core.py", ["scrollable-region-focusable"], f"#{core['pre']}"
    )
    assert any("scrollable-region-focusable" in p for p in unreachable), unreachable
    # the next tab, by keyboard (Material's tabs are radio buttons)
    page.locator("input[name='source-maths-__tabbed_1']:checked").focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.querySelectorAll('.workshop-source-tabs .highlight').length > 4"
    )
    assert len(page.evaluate(_LISTINGS)) == 5
    context.close()


def test_every_listing_arrives_whole_and_accessible(browser, site_url):
    """Every tab shown at once (as for print): every module's listing, its file's text exactly, its
    own copy button and code block id; on a phone, axe finds every code block that scrolls
    reachable by keyboard and every copy button named (what source.js sets up; the listings'
    colours are Pygments' classes, which the sweep checks on the listings shown at load)."""
    files = _files()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(site_url + "source/", wait_until="networkidle")
    page.add_style_tag(content=EVERY_TAB)
    page.wait_for_function(LISTINGS_IN)
    shown = page.evaluate(_LISTINGS)
    assert sorted(x["path"] for x in shown) == sorted(files)
    wrong = [
        x["path"]
        for x in shown
        if x["code"].rstrip("\n") != files[x["path"]].rstrip("\n")
    ]
    assert not wrong, wrong
    assert all(x["copy"] == f"#{x['pre']} > code" for x in shown), shown
    assert len({x["pre"] for x in shown}) == len(shown)
    from axe_playwright_python.sync_playwright import Axe

    rules = ["scrollable-region-focusable", "button-name"]
    problems = _axe_problems(Axe(), page, "source/", rules, ".workshop-source-tabs")
    context.close()
    assert not problems, "\n".join(problems)


def test_print_and_no_script_show_every_listing(browser, site_url):
    """Printed, every listing is in: under print media Material shows every tab (and so each
    listing arrives), and the print dialog's ``beforeprint`` puts them all in at once; a browser
    without scripts reads them as the page's markup."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(site_url + "source/", wait_until="networkidle")
    page.emulate_media(media="print")
    page.wait_for_function(LISTINGS_IN)
    assert len(page.evaluate(_LISTINGS)) == len(_files())
    page.emulate_media(media="screen")
    page.goto(site_url + "source/", wait_until="networkidle")
    assert page.evaluate(
        "document.querySelectorAll('noscript.workshop-listing').length"
    )
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    assert (
        page.evaluate("document.querySelectorAll('noscript.workshop-listing').length")
        == 0
    )
    assert len(page.evaluate(_LISTINGS)) == len(_files())
    context.close()
    context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + "source/", wait_until="load")
    assert page.locator(".workshop-source-tabs .highlight").count() == len(_files())
    page.locator("label", has_text="core.py").first.click()
    shown = page.locator(".workshop-source-tabs .tabbed-block:visible code").first
    assert shown.inner_text().startswith('"""The maths of self-attention')
    context.close()
