"""workshop_site/page_weight.py: what the bench counts for a page is what a browser fetches for it.

A small site made here, its bytes computed here with gzip; then the built site in Chromium: every
file the browser fetches to show a page is among those counted.
"""

from __future__ import annotations

import gzip

import pytest

from workshop_site.page_weight import BUDGET, page_weight, site_weights

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
        "data.json": '{"items": [{"src": "one.json"}]}',
        "one.json": '{"a": 1}',
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


@pytest.mark.browser
@pytest.mark.parametrize(
    "path", ["module-3/", "real-heads/", "final-exam/", "inside-the-model/", "print/"]
)
def test_every_file_chromium_fetches_is_counted(browser, site_url, built_site, path):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    fetched: list[str] = []
    page.on("requestfinished", lambda r: fetched.append(r.url))
    # a data widget fetches at load: wait for the network to settle
    page.goto(site_url + path, wait_until="networkidle")
    context.close()
    counted = page_weight(built_site, built_site / path / "index.html").parts
    names = {
        (u.removeprefix(site_url).split("#")[0] or "index.html").removesuffix("/")
        for u in fetched
        if u.startswith(site_url)
    }
    names = {n + "/index.html" if (built_site / n).is_dir() else n for n in names}
    assert names - set(counted) == set(), f"{path}: fetched but not counted"
