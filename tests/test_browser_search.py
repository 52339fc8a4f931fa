"""Search as a reader uses it (issue 31, point 5): each of the site's main terms typed into the search
box, in headless Chromium, and the order of the pages it lists read back.

The lesson that teaches each term is typed here from the pages (the section that introduces it, as
notation.toml and the nav say), not read from hooks/search_rank.py. Every term's first result is a
lesson, and its teaching lesson is the very first result and ranks above every reference page.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

REFERENCE = (
    "api/",
    "notation/",
    "results-log/",
    "print/",
    "source/",
    "reproducing/",
    "further-reading/",
)
LESSONS = (
    "module-0/",
    "module-1/",
    "module-2/",
    "module-3/",
    "step-by-step/",
    "inside-the-model/",
    "real-heads/",
    "causal-heads/",
    "final-exam/",
)
#: term -> the lesson that teaches it
TEACHES = {
    "softmax": "module-0/",
    "attention": "module-1/",
    "query": "module-2/",
    "key": "module-2/",
    "value": "module-2/",
    "mask": "module-3/",
    "causal": "module-3/",
    "head": "module-2/",
    "induction": "causal-heads/",
    "RoPE": "causal-heads/",
    "d_k": "module-2/",
    "scaling": "module-2/",
    "LayerNorm": "inside-the-model/",
}

RESULT_PAGES = """() => [...document.querySelectorAll(
  '.md-search-result__list > .md-search-result__item > a.md-search-result__link')]
  .map(a => new URL(a.href).pathname)"""


@pytest.fixture(scope="module")
def search_page(browser, site_url):
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, color_scheme="light"
    )
    page = context.new_page()
    page.goto(site_url, wait_until="networkidle")
    yield page
    context.close()


#: The results each term found: its search is typed once, whatever tests read it.
_SEARCHED: dict[str, tuple[list[str], list[str]]] = {}

#: The results whose excerpt shows a line of results.log ("[key] Module ..."), by their link.
RAW_LOG_BLOCKS = """() => [...document.querySelectorAll('.md-search-result__item')]
  .filter(i => /\\[\\w+\\] (Module|Step)/.test(i.textContent))
  .map(i => i.querySelector('a').getAttribute('href'))"""


def searched(page, site_url: str, term: str) -> tuple[list[str], list[str]]:
    """``(the pages search lists for term, in order, as paths under the site ('' for home), the
    links of the results that show a raw results.log block)``, the search typed once per term."""
    if term not in _SEARCHED:
        page.goto(site_url, wait_until="networkidle")
        page.click("input.md-search__input")
        page.keyboard.type(term)  # typed: Material searches on key events
        page.wait_for_selector(".md-search-result__item", timeout=10_000)
        page.wait_for_timeout(300)  # the result list renders in batches
        base = site_url.split("//", 1)[1].split("/", 1)[1]
        pages = [p.removeprefix("/" + base) for p in page.evaluate(RESULT_PAGES)]
        found = list(dict.fromkeys(p.split("#")[0] for p in pages))
        _SEARCHED[term] = found, page.evaluate(RAW_LOG_BLOCKS)
    return _SEARCHED[term]


def _results(page, site_url: str, term: str) -> list[str]:
    """The pages search lists for ``term``, in order, as paths under the site ('' for home)."""
    return searched(page, site_url, term)[0]


@pytest.mark.parametrize("term", list(TEACHES))
def test_a_lesson_comes_first_and_the_teaching_one_above_every_reference(
    search_page, site_url, term
):
    pages = _results(search_page, site_url, term)
    assert pages and pages[0] in LESSONS, f"{term!r}: first result {pages[:3]}"
    teacher = TEACHES[term]
    assert teacher in pages, f"{term!r}: {teacher} not listed: {pages}"
    above = [p for p in pages[: pages.index(teacher)] if p in REFERENCE]
    assert above == [], f"{term!r}: reference pages above {teacher}: {above}"


@pytest.mark.parametrize("term", list(TEACHES))
def test_the_first_result_is_the_lesson_that_teaches_it(search_page, site_url, term):
    pages = _results(search_page, site_url, term)
    assert pages[:1] == [TEACHES[term]], f"{term!r}: {pages[:4]}"


def test_no_result_shows_a_raw_results_log_block(search_page, site_url):
    """A Step by step hit once showed a results.log block as its excerpt: only the results.log page
    itself may show the log's lines."""
    _, shown = searched(search_page, site_url, "softmax")
    assert [h for h in shown if "results-log" not in h] == [], shown


def test_the_teaching_lessons_are_notation_tomls_where_it_lists_the_term():
    """notation.toml names the section that introduces each of its terms and symbols: where it lists
    one of the terms above (softmax, d_k, causal mask, LayerNorm, RoPE, induction head), its page is
    the teaching lesson typed here."""
    import tomllib

    from .conftest import ROOT

    toml = ROOT / "src" / "workshop_site" / "notation.toml"
    entries = tomllib.loads(toml.read_text(encoding="utf-8"))["entry"]
    page = {
        e.get("term") or e.get("tex"): e["page"].split(".md")[0] + "/" for e in entries
    }
    named = {
        "softmax": "softmax",
        "d_k": "d_k",
        "causal": "causal mask",
        "mask": "causal mask",
    }
    named |= {"LayerNorm": "LayerNorm", "RoPE": "RoPE", "induction": "induction head"}
    assert {t: page[n] for t, n in named.items()} == {t: TEACHES[t] for t in named}


def test_each_lesson_outranks_the_lessons_after_it(built_site):
    """The boost hooks/search_rank.py gives each page, read from the built search index: it falls
    along the reading order, and every reference page's is below every lesson's."""
    import json

    index = json.loads((built_site / "search" / "search_index.json").read_text())
    boost = {d["location"].split("#")[0]: d.get("boost") for d in index["docs"]}
    lessons = [boost[p] for p in LESSONS]
    assert lessons == sorted(lessons, reverse=True) and len(set(lessons)) == len(
        lessons
    )
    refs = [boost[p] for p in REFERENCE if p in boost]
    assert refs and max(refs) < min(lessons), (refs, lessons)
