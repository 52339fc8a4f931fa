"""workshop_site/page_weight.py: what the bench counts for a page is what a browser fetches for it.

A small site made here, its bytes computed here with gzip; then the built site: every page under
the budget, and in Chromium, every file the browser fetches to open each page among those
counted, and no widget data counted that it does not fetch (data fetched on a pick is not).
"""

from __future__ import annotations

import gzip

import pytest

from workshop_site.page_weight import BUDGET, page_weight, site_weights

from .sweep import LOADED, probe

PAGE = """<html><head><link rel="stylesheet" href="../assets/site.css">
<script type="module" src="../assets/app.js"></script></head>
<body>{math}<img src="../fig.svg" loading="lazy"><a href="../download.zip">zip</a>
<div data-src="../data.json"></div></body></html>"""


def _gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=6, mtime=0))


@pytest.fixture()
def site(tmp_path):
    files = {
        "with-math/index.html": PAGE.format(math="<math><mi>x</mi></math>"),
        "plain/index.html": PAGE.format(math=""),
        "assets/site.css": '@font-face { font-family: "Latin Modern Math"; src: url("m.woff"); }\n'
        '@import "more.css";',
        "assets/more.css": "p { color: red }",
        "assets/app.js": 'import { f } from "./lib.js";\nf();',
        "assets/lib.js": "export function f() {}",
        "assets/m.woff": "F" * 5000,
        "fig.svg": "<svg>" + "<rect/>" * 200 + "</svg>",
        "data.json": '{"items": [{"key": "one", "src": "one.json"}, '
        '{"key": "two", "src": "two.json"}], "start": {"sentence": "one"}}',
        "one.json": '{"a": 1}',
        "two.json": '{"b": 2}',
        "download.zip": "Z" * 9000,
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def test_a_page_costs_its_html_and_what_it_makes_the_browser_fetch(site):
    w = page_weight(site, site / "with-math" / "index.html")
    text = [
        "with-math/index.html",
        "assets/site.css",
        "assets/more.css",
        "assets/app.js",
        "assets/lib.js",
        "fig.svg",
        "data.json",
        "one.json",
    ]
    expected = {n: _gz((site / n).read_bytes()) for n in text}
    expected["assets/m.woff"] = 5000  # a font is counted as it is
    assert w.parts == expected and w.total == sum(expected.values())
    assert "download.zip" not in w.parts


def test_data_a_widget_fetches_only_on_a_pick_is_not_counted(site):
    """two.json is fetched when the reader picks it: the page opens on one.json alone."""
    assert "two.json" not in page_weight(site, site / "plain" / "index.html").parts
    (site / "data.json").write_text('{"items": [{"key": "one", "src": "one.json"}]}')
    parts = page_weight(site, site / "plain" / "index.html").parts
    assert "data.json" in parts and "one.json" not in parts  # no start: opens on none


def test_the_math_font_counts_only_where_a_formula_is(site):
    assert "assets/m.woff" not in page_weight(site, site / "plain" / "index.html").parts
    heaviest = site_weights(site)[0]
    assert heaviest.page == "with-math/index.html" and BUDGET == 500_000


def test_a_widgets_data_counts_only_where_its_script_runs(site):
    (site / "printed.html").write_text(
        PAGE.format(math="").replace(
            '<script type="module" src="../assets/app.js"></script>', ""
        )
    )
    parts = page_weight(site, site / "printed.html").parts
    assert "data.json" not in parts and "assets/app.js" not in parts


def test_the_search_index_counts_on_the_404_page_too(site):
    """Material fetches its search worker and index at load; on 404.html its base is "/"."""
    (site / "search").mkdir()
    (site / "search" / "search_index.json").write_text('{"docs": []}')
    for name, base in (("404.html", "/"), ("plain/index.html", "..")):
        config = f'{{"base": "{base}", "search": "{base.rstrip("/")}/assets/app.js"}}'
        (site / name).write_text(
            f'<html><head><script id="__config" type="application/json">{config}</script>'
            '</head><body><a class="exam-data" href="data.json" hidden>answers</a></body></html>'
        )
        parts = page_weight(site, site / name).parts
        assert "search/search_index.json" in parts and "assets/app.js" in parts, name
        # the exam's answers are fetched when the reader asks for a grade, not at open
        assert "data.json" not in parts, name


@pytest.mark.site
def test_every_page_of_the_site_is_under_budget(built_site):
    """Every page (each index.html and 404.html), as it costs when it opens, before any pick."""
    weights = site_weights(built_site)
    assert len(weights) >= 18, [w.page for w in weights]
    over = [
        f"{w.page}: {w.total:,} bytes; largest: "
        + ", ".join(
            f"{k} {v:,}" for k, v in sorted(w.parts.items(), key=lambda kv: -kv[1])[:5]
        )
        for w in weights
        if w.total > BUDGET
    ]
    assert not over, f"over the {BUDGET:,}-byte budget:\n" + "\n".join(over)


@probe("fetched", LOADED, [("light", 1280)], cold=True)
def _fetched(page, visit) -> set[str]:
    """The site's files Chromium fetched to open the page, cache cold (a fresh context; a data
    widget fetches at load: the page is open once the network settled), as site paths."""
    site_url = page.url.removesuffix(visit.url)
    return {
        (u.removeprefix(site_url).split("#")[0] or "index.html").removesuffix("/")
        for u in visit.fetched
        if u.startswith(site_url)
    }


@pytest.mark.browser
def test_every_file_chromium_fetches_is_counted(sweep, built_site):
    """On every page: what Chromium fetches is counted, and every widget's data counted
    (generated/*.json) is fetched when the page opens (none is only fetched on a pick)."""
    problems = []
    visits = {v.name: v for v in sweep.visits("fetched", "light", 1280)}
    for w in site_weights(built_site):
        names = visits[w.page]["fetched"]
        names = {n + "/index.html" if (built_site / n).is_dir() else n for n in names}
        if missed := names - set(w.parts):
            problems.append(f"{w.page}: fetched but not counted: {sorted(missed)}")
        data = {
            n for n in w.parts if n.startswith("generated/") and n.endswith(".json")
        }
        if extra := data - names:
            problems.append(f"{w.page}: counted but not fetched: {sorted(extra)}")
    assert not problems, "\n".join(problems)
