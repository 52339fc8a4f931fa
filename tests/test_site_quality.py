"""The built site as a reader meets it, on every page there is (present and future).

Static checks read the HTML of the session's strict build (``built_site``): every formula
became MathML, every internal link and ``#anchor`` resolves, every figure has a text
alternative and its SVG and CSV downloads, every heatmap prints its values, and the API
page covers the package's public names. Browser checks open every page in headless
Chromium: no request leaves the site, no console error, and axe-core (shipped inside
axe-playwright-python, injected from the package: no network) finds no serious or critical
violation in the light or the dark scheme.
"""

from __future__ import annotations

import csv
import io
import os
import re
from html.parser import HTMLParser
from itertools import pairwise
from pathlib import Path
from typing import ClassVar
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from .conftest import load_hook
from .sweep import DETAILS, LOADED, probe

# ---------------------------------------------------------------------------- reading the site


class _Page(HTMLParser):
    """What the checks need from one HTML page: ids, links, images, and prose text outside code."""

    SKIP: ClassVar[set[str]] = {
        "code",
        "pre",
        "script",
        "style",
        "math",
        "svg",
        "textarea",
        "kbd",
        "samp",
    }
    VOID: ClassVar[set[str]] = {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, url)
        self.images: list[dict[str, str | None]] = []
        self.svg_imgs: list[dict[str, str | None]] = []
        self.prose: list[str] = []
        self._stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        for attr in ("href", "src"):
            if a.get(attr) is not None and tag in {
                "a",
                "img",
                "script",
                "link",
                "iframe",
                "source",
                "audio",
                "video",
            }:
                self.links.append((tag, attr, a[attr]))
        if tag == "img":
            self.images.append(a)
        if tag == "svg" and a.get("role") == "img":
            self.svg_imgs.append(a)
        if tag not in self.VOID:
            self._stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID and self._stack and self._stack[-1] == tag:
            self._stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag in self._stack:
            while self._stack and self._stack.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if not self.SKIP.intersection(self._stack):
            self.prose.append(data)


def site_pages(site: Path) -> list[Path]:
    """Every HTML page of the built site, whatever pages the nav holds today."""
    pages = sorted(site.rglob("*.html"))
    assert pages, f"no HTML pages in {site}"
    return pages


def page_url(site: Path, page: Path) -> str:
    """The page's URL path relative to the site root (``module-3/`` for module-3/index.html)."""
    rel = page.relative_to(site).as_posix()
    return rel.removesuffix("index.html")


_parsed: dict[Path, _Page] = {}


def parse(page: Path) -> _Page:
    if page not in _parsed:
        p = _Page()
        p.feed(page.read_text(encoding="utf-8"))
        _parsed[page] = p
    return _parsed[page]


def source_name(site: Path, page: Path) -> str:
    return page.relative_to(site).as_posix()


# ---------------------------------------------------------------------------- math

_RAW_TEX = re.compile(
    r"\$|\\\(|\\\)|\\\[|\\\]|\\(?:frac|sqrt|text|operatorname|left|right|begin|top|infty|cdot|times)\b"
)


@pytest.mark.site
def test_no_caption_shows_its_markdown(built_site):
    """A figure's caption is raw HTML (render.figure): Markdown typed in it (**bold**, `code`)
    would reach the reader as typed."""
    problems = []
    for page in site_pages(built_site):
        text = page.read_text(encoding="utf-8")
        for cap in re.findall(r"<figcaption>(.*?)</figcaption>", text, re.S):
            words = re.sub(r"<(code|pre)\b.*?</\1>|<[^>]+>", " ", cap, flags=re.S)
            if re.search(r"\*\*[^*\s][^*]*\*\*|`[^`\s][^`]*`", words):
                problems.append(
                    f"{source_name(built_site, page)}: {words.strip()[:80]!r}"
                )
    assert not problems, "Markdown shown as typed in a caption:\n" + "\n".join(problems)


@pytest.mark.site
def test_every_formula_became_mathml(built_site):
    """No raw TeX in any page's prose (outside code), no arithmatex leftover, no MathML error."""
    problems = []
    for page in site_pages(built_site):
        html_text = page.read_text(encoding="utf-8")
        name = source_name(built_site, page)
        if 'class="arithmatex"' in html_text:
            problems.append(
                f"{name}: a formula was not converted (class arithmatex left)"
            )
        if "<merror" in html_text:
            problems.append(f"{name}: latex2mathml produced an <merror>")
        prose = " ".join(parse(page).prose)
        for m in _RAW_TEX.finditer(prose):
            problems.append(
                f"{name}: raw TeX {m.group(0)!r} in the text: ...{prose[max(0, m.start() - 60) : m.end() + 60]!r}"
            )
    assert not problems, "\n".join(problems)


@pytest.mark.site
def test_formulas_of_module_3_are_there(built_site):
    """The attention equation and sqrt(d_k) render as MathML elements (not just vanish)."""
    html_text = (built_site / "module-3" / "index.html").read_text(encoding="utf-8")
    assert len(re.findall(r'<math [^>]*display="block"', html_text)) >= 1
    assert "<msqrt>" in html_text and "<mfrac>" in html_text, (
        "the attention equation lost its fraction or root"
    )


def test_the_raw_tex_check_can_fail():
    p = _Page()
    p.feed(
        "<p>the scale $\\sqrt{d_k}$ and \\(x\\)</p><pre><code>echo $HOME</code></pre>"
    )
    prose = " ".join(p.prose)
    assert _RAW_TEX.search(prose) and "HOME" not in prose


_TEX_CODE = re.compile(r'<code class="workshop-tex" hidden>(.*?)</code>', re.S)


@pytest.mark.site
def test_search_indexes_the_tex_of_formulas_not_flattened_mathml(built_site):
    """Material's search would flatten MathML to "softmax(x)i=exi∑jexj": the index holds each formula's TeX."""
    import html
    import json

    index = json.loads(
        (built_site / "search" / "search_index.json").read_text(encoding="utf-8")
    )
    text = html.unescape(
        " ".join(doc["title"] + " " + doc["text"] for doc in index["docs"])
    )
    problems, formulas = [], 0
    for page in site_pages(built_site):
        html_text = page.read_text(encoding="utf-8")
        maths = re.findall(r"<math\b[^>]*>", html_text)
        formulas += len(maths)
        bare = [m for m in maths if "data-search-exclude" not in m]
        if bare:
            problems.append(
                f"{source_name(built_site, page)}: {len(bare)} formula(s) indexed as flattened MathML"
            )
        texs = _TEX_CODE.findall(html_text)
        if len(texs) != len(maths):
            problems.append(
                f"{source_name(built_site, page)}: {len(maths)} formulas but {len(texs)} TeX copies for search"
            )
        problems += [
            f"{source_name(built_site, page)}: TeX {t!r} is not in the search index"
            for t in texs
            if html.unescape(t) not in text
        ]
    assert formulas > 10, "hardly any formula on the site: the check looks at nothing"
    # MathML's <mo>∑</mo> as plain text; the prose writes sums in words or TeX, never with the bare symbol.
    assert "∑" not in text, "the search index still holds flattened MathML (a bare ∑)"
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------- links and anchors


def _broken_links(site: Path) -> list[str]:
    problems = []
    for page in site_pages(site):
        base = "http://site.invalid/" + page_url(site, page)
        for tag, attr, url in parse(page).links:
            parts = urlsplit(url)
            if parts.scheme or parts.netloc or url.startswith("javascript:"):
                continue  # links to elsewhere are links, not requests; requests are checked in the browser
            target = urlsplit(urljoin(base, url))
            path = unquote(target.path).removeprefix("/")
            file = site / path
            if path == "" or path.endswith("/"):
                file = site / path / "index.html"
            where = f"{source_name(site, page)}: <{tag} {attr}={url!r}>"
            if not file.is_file():
                problems.append(
                    f"{where} points at {path or '/'}, which is not a file of the site"
                )
                continue
            frag = unquote(target.fragment)
            if frag and file.suffix == ".html" and frag not in parse(file).ids:
                problems.append(
                    f"{where}: no element with id {frag!r} on {source_name(site, file)}"
                )
    return problems


@pytest.mark.site
def test_every_internal_link_and_anchor_resolves(built_site):
    problems = _broken_links(built_site)
    assert not problems, f"{len(problems)} broken link(s):\n" + "\n".join(problems[:50])


def test_the_link_check_can_fail(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text(
        '<h2 id="here">x</h2><a href="#here">ok</a>'
        '<a href="../b/#nowhere">bad anchor</a><a href="../c/">missing</a>'
    )
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "index.html").write_text(
        '<p id="there">b</p><a href="../a/#here">ok</a>'
    )
    _parsed.clear()
    problems = _broken_links(tmp_path)
    _parsed.clear()
    assert len(problems) == 2 and "nowhere" in problems[0] and "c/" in problems[1], (
        problems
    )


# ---------------------------------------------------------------------------- figures


_FIGURE = re.compile(r"<figure\b.*?</figure>", re.S)


@pytest.mark.site
def test_every_image_and_diagram_has_a_text_alternative(built_site):
    problems = []
    for page in site_pages(built_site):
        p = parse(page)
        for img in p.images:
            if not (img.get("alt") or "").strip() and img.get("role") != "presentation":
                problems.append(
                    f"{source_name(built_site, page)}: <img src={img.get('src')!r}> has no alt text"
                )
        for svg in p.svg_imgs:
            if len((svg.get("aria-label") or "").strip()) < 20:
                problems.append(
                    f"{source_name(built_site, page)}: an SVG figure has no real aria-label: {svg.get('aria-label')!r}"
                )
    assert not problems, "\n".join(problems)


@pytest.mark.site
def test_every_figure_downloads_as_svg_and_csv(built_site):
    """Generated figures link their SVG and their CSV; diagrams link an SVG and describe themselves."""
    problems = []
    figures = 0
    for page in site_pages(built_site):
        html_text = page.read_text(encoding="utf-8")
        name = source_name(built_site, page)
        for fig in _FIGURE.findall(html_text):
            hrefs = re.findall(r'<a [^>]*href="([^"]+)"', fig)
            # a figure shows one drawing per colour scheme (#only-light, #only-dark); downloads are the light one's
            srcs = [
                re.sub(r"-dark\.svg$", ".svg", s)
                for s in re.findall(
                    r'<img [^>]*src="([^"#]+\.svg)(?:#only-(?:light|dark))?"', fig
                )
            ]
            is_diagram = 'class="d2' in fig
            if not srcs and not is_diagram:
                continue
            figures += 1
            if "<figcaption" not in fig:
                problems.append(f"{name}: a figure has no caption")
            if is_diagram:
                if not any(h.endswith(".svg") for h in hrefs):
                    problems.append(f"{name}: a diagram has no SVG download link")
                continue
            for src in srcs:
                stem = src.rsplit("/", 1)[-1].removesuffix(".svg")
                if src not in hrefs:
                    problems.append(
                        f"{name}: figure {src} has no 'Download SVG' link to itself"
                    )
                if not any(
                    h.endswith(f"/{stem}.csv") or h == f"{stem}.csv" for h in hrefs
                ):
                    problems.append(
                        f"{name}: figure {src} has no link to its numbers as CSV ({stem}.csv)"
                    )
    assert figures >= 20, (
        "hardly any figure on the whole site: the check looks at nothing"
    )
    assert not problems, "\n".join(problems)


@pytest.mark.site
def test_downloaded_diagrams_carry_title_and_description(built_site):
    """A downloaded diagram describes itself: <title> and <desc> first in its root <svg>, the desc being the text
    alternative the page gives it. (The experiment's figures are served byte for byte as it wrote them.)"""
    problems, checked = [], 0
    alts = {}
    for page in site_pages(built_site):
        for img in parse(page).images:
            alts.setdefault(
                (img.get("src") or "").rsplit("/", 1)[-1], img.get("alt") or ""
            )
        for svg in parse(page).svg_imgs:
            alts.setdefault("aria:" + (svg.get("aria-label") or ""), "")
    for svg in sorted((built_site / "generated" / "diagrams").glob("*.svg")):
        text = svg.read_text(encoding="utf-8")
        root = re.search(
            r"<svg\b[^>]*>\s*<title>([^<]{8,})</title>\s*<desc>([^<]{20,})</desc>", text
        )
        name = svg.relative_to(built_site).as_posix()
        checked += 1
        if root is None:
            problems.append(f"{name}: no <title> and <desc> at the top of the SVG")
            continue
        import html

        desc = html.unescape(root.group(2))
        if svg.parent.name != "diagrams" and desc != alts.get(svg.name):
            problems.append(
                f"{name}: <desc> differs from the page's alt text: {desc!r} vs {alts.get(svg.name)!r}"
            )
        if svg.parent.name == "diagrams" and f"aria:{desc}" not in alts:
            problems.append(
                f"{name}: <desc> is not the diagram's text alternative on its page: {desc!r}"
            )
    assert checked >= 2, "no downloadable diagram: the check looks at nothing"
    assert not problems, "\n".join(problems)


@pytest.mark.site
def test_figure_alt_texts_state_their_numbers(built_site):
    """A heatmap's alt text gives every value of its CSV; the sqrt(d_k) chart's states what it shows, from its CSV."""
    checked = 0
    for page in site_pages(built_site):
        for img in parse(page).images:
            src = (img.get("src") or "").split("#")[0]
            table = (
                built_site
                / "generated"
                / re.sub(r"(-dark)?\.svg$", ".csv", src.rsplit("/", 1)[-1])
            )
            if "/generated/" not in "/" + src.lstrip("./") or not table.exists():
                continue
            alt = img.get("alt") or ""
            rows = list(csv.reader(io.StringIO(table.read_text(encoding="utf-8"))))
            where = f"{source_name(built_site, page)}: alt of {src}"
            if rows[0][0] == "query" and len(rows[0]) == len(rows):  # a weight table
                missing = [
                    f"{float(v):.3f}"
                    for row in rows[1:]
                    for v in row[1:]
                    if f"{float(v):.3f}" not in alt
                ]
                assert not missing, (
                    f"{where} does not state the values {missing}: {alt!r}"
                )
            elif "max_weight_raw" not in rows[0]:
                # any other figure: every number of its CSV, as the alt text writes it
                for row in rows[1:]:
                    for v in row:
                        try:
                            x = float(v)
                        except ValueError:
                            # an image's alt text in Markdown writes brackets as parentheses
                            v = v.replace("[", "(").replace("]", ")")
                            assert v in alt, f"{where} does not name {v!r}: {alt!r}"
                            continue
                        text = f"{int(x):,}" if "." not in v else f"{x:.3f}"
                        assert text.replace("-", "\u2212") in alt or text in alt, (
                            f"{where} does not state {text}: {alt!r}"
                        )
            else:
                col = {
                    h: [float(r[i]) for r in rows[1:]] for i, h in enumerate(rows[0])
                }
                raw, scaled = col["max_weight_raw"], col["max_weight_scaled"]
                for v in (raw[0], raw[-1], min(scaled), max(scaled)):
                    assert f"{v:.3f}" in alt, f"{where} does not state {v:.3f}: {alt!r}"
                assert ("rises" in alt) == all(b > a for a, b in pairwise(raw)), (
                    f"{where}: 'rises' is not what the data do"
                )
            checked += 1
    assert checked >= 20, (
        "fewer figures with a CSV than expected: the check looks at nothing"
    )


@pytest.mark.site
def test_every_heatmap_prints_its_values(built_site):
    """A heatmap (an SVG with a raster image of cells) prints each value of its CSV, to 3 decimals."""
    checked = 0
    problems = []
    for svg in sorted(built_site.rglob("*.svg")):
        text = svg.read_text(encoding="utf-8")
        if "<image" not in text:
            continue  # line charts and diagrams: no colour-only cells
        table = svg.with_name(svg.name.replace("-dark.svg", ".svg")).with_suffix(".csv")
        if not table.exists():
            problems.append(
                f"{svg.relative_to(built_site)}: a heatmap without a CSV twin"
            )
            continue
        rows = list(csv.reader(io.StringIO(table.read_text(encoding="utf-8"))))
        values = [float(c) for row in rows[1:] for c in row[1:]]
        labels = set(re.findall(r">\s*([-0-9.]+)\s*<", text)) | set(
            re.findall(r"([-0-9]+\.[0-9]{3})", text)
        )
        missing = [f"{v:.3f}" for v in values if f"{v:.3f}" not in labels]
        if missing:
            problems.append(
                f"{svg.relative_to(built_site)}: values not printed in the cells: {missing}"
            )
        checked += 1
    assert checked, "no heatmap found: the check looks at nothing"
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------- scroll boxes


def test_tables_get_a_named_keyboard_reachable_box():
    out = load_hook("tables").scroll_regions(
        "<p>x</p><table>\n<thead><tr><th></th><th>the</th><th>river</th></tr></thead><tbody></tbody></table>"
        '<span class="doc-section-title">Parameters:</span><table><thead><tr><th>Name</th></tr></thead></table>'
        '<div class="ins-matrix"><table class="ins-grid"><caption>Q (head 1)</caption></table></div>'
        # a boxed table without a caption is named by its headings (all of them were "table")
        '<div class="ins-matrix"><table class="ins-costs"><thead><tr><th>scale</th><th>cost</th>'
        "</tr></thead></table></div>"
        # code listings with line numbers (Pygments' table): the file, or results.log's lines
        '<div class="language-python highlight"><table class="highlighttable"><tr>'
        '<th colspan="2" class="filename"><span class="filename">src/a/core.py</span></th></tr>'
        '<tr><td class="linenos"><pre><span class="normal">1</span></pre></td></tr></table></div>'
        '<section class="log-excerpt">\n<div class="language-text highlight"><table class="highlighttable">'
        '<tr><td class="linenos"><div class="linenodiv"><pre><span></span><span class="normal">35</span>\n'
        '<span class="normal">36</span></pre></div></td><td class="code">x</td></tr></table></div>'
        '<div class="language-text highlight"><table class="highlighttable"><tr><td class="linenos">'
        '<pre><span class="normal"> 9</span></pre></td></tr></table></div>'
    )
    boxes = re.findall(
        r'<div class="([^"]+)" tabindex="0" role="region" aria-label="([^"]+)">', out
    )
    assert boxes == [
        ("workshop-scroll", "table: the, river"),
        ("workshop-scroll", "table: Parameters"),
        ("ins-matrix", "table: Q (head 1)"),
        ("ins-matrix", "table: scale, cost"),
        ("language-python highlight", "code: src/a/core.py"),
        ("language-text highlight", "results.log, lines 35 to 36"),
        ("language-text highlight", "code, lines 9 to 9"),
    ], boxes


def test_a_bold_second_heading_makes_a_second_key_column():
    """A bold heading right after the first column (the dot product, the lean) keeps that column in
    view too: its box says ``data-keys="2"``; a bold heading further right, or none, says nothing."""
    tables = load_hook("tables")
    second = tables.scroll_regions(
        "<table><thead><tr><th>pair</th><th><strong>dot product</strong></th><th>water</th></tr></thead></table>"
    )
    third = tables.scroll_regions(
        "<table><thead><tr><th>pair</th><th>water</th><th><strong>sum</strong></th></tr></thead></table>"
    )
    assert 'aria-label="table: pair, dot product, water" data-keys="2">' in second
    assert "data-keys" not in third


@pytest.mark.site
def test_every_table_sits_in_a_focusable_named_region(built_site):
    """On a phone a table is wider than the screen: its scroll box must take focus and have a name
    that says what it holds (a code listing's too: Pygments sets its line numbers in a table), not
    the bare word "table" that 74 boxes had: results.log's excerpts, the Source page's files, the
    explorer's cost tables."""
    problems, tables = [], 0
    for page in site_pages(built_site):
        html_text = page.read_text(encoding="utf-8")
        for m in re.finditer(
            r"(<div [^>]*>)?\s*<table( class=\"[^\"]*\")?>", html_text
        ):
            tables += 1
            box = m.group(1) or ""
            name = re.search(r'aria-label="([^"]*)"', box)
            if not (
                'tabindex="0"' in box
                and 'role="region"' in box
                and name
                and len(name.group(1)) >= 5
                and name.group(1).rstrip(": ") not in ("table", "code", "results.log")
            ):
                problems.append(
                    f"{source_name(built_site, page)}: a table's box is not focusable and named: {box!r}"
                )
    assert tables > 10, "hardly any table on the site: the check looks at nothing"
    assert not problems, "\n".join(problems[:20])


# ---------------------------------------------------------------------------- nothing from elsewhere

# URLs the theme's JavaScript bundle holds but never requests on this site, each with the reason.
LATENT_IN_MATERIAL = {
    "https://unpkg.com/mermaid@": "loaded only for a page with a Mermaid diagram (none here: checked below)",
    "https://api.github.com/": "repository facts, only for a data-md-component=source link (overridden: checked below)",
    "https://${e}/api/v4/projects/": "GitLab repository facts, only with repo_url",
    "https://unpkg.com/resize-observer-polyfill": "only in a browser without ResizeObserver (none current)",
}
_URL = re.compile(r"https?://[^\s\"'`)<>]+")
_NAMESPACE = re.compile(r"https?://www\.w3\.org/")


def foreign_references(site: Path, site_url: str) -> list[str]:
    """Every reference to a URL outside the site in the built CSS, JS, HTML and SVG (plain <a href> links aside)."""
    problems = []
    for path in sorted(site.rglob("*")):
        if path.suffix not in {".css", ".js", ".html", ".svg"}:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        name = path.relative_to(site).as_posix()
        if path.suffix == ".css":
            found = re.findall(
                r"(?:url\(\s*['\"]?|@import\s+['\"])(https?://[^'\")\s]+)", text
            )
        elif path.suffix == ".js":
            found = [
                u
                for u in re.findall(r"[\"'`](https?://[^\"'`\s]+)", text)
                if not any(u.startswith(k) for k in LATENT_IN_MATERIAL)
            ]
        else:
            found = []
            for tag, attrs in re.findall(r"<([a-zA-Z][\w:-]*)\b([^>]*)>", text):
                for attr, value in re.findall(r"([\w:-]+)\s*=\s*\"([^\"]*)\"", attrs):
                    if attr.startswith(("xmlns", "rdf:")) or (
                        tag.lower() == "a" and attr in {"href", "xlink:href"}
                    ):
                        # namespaces and RDF metadata names (matplotlib's) identify, they are never fetched
                        continue
                    found += _URL.findall(value)
            found += re.findall(r"url\(\s*['\"]?(https?://[^'\")\s]+)", text)
        problems += [
            f"{name}: {u}"
            for u in found
            if not _NAMESPACE.match(u) and not u.startswith(site_url)
        ]
    return problems


def _site_url() -> str:
    """The site's own address in this build (mkdocs.yml reads SITE_URL; unset, the site claims none)."""
    return os.environ.get("SITE_URL") or "https://site-url-unset.invalid/"


@pytest.mark.site
def test_no_built_file_references_a_foreign_url(built_site):
    """No CSS @import/url(), no script or link or image source, no fetch in a script points outside the site."""
    problems = foreign_references(built_site, _site_url())
    assert not problems, (
        f"{len(problems)} reference(s) outside the site:\n" + "\n".join(problems[:30])
    )
    assert not list(built_site.rglob("_markdown_exec_pyodide*")), (
        "markdown-exec's pyodide assets reached the site"
    )
    # The conditions under which Material's latent URLs would be used do not hold.
    assert not any(
        'class="mermaid"' in p.read_text(encoding="utf-8")
        for p in site_pages(built_site)
    )
    # repo_url comes from REPO_URL, and the repository link never asks the host's API for facts
    root = Path(__file__).resolve().parent.parent
    assert re.search(
        r"^repo_url: !ENV \[REPO_URL, null\]", (root / "mkdocs.yml").read_text(), re.M
    )
    source = (root / "overrides" / "partials" / "source.html").read_text()
    link = re.search(r"<a\b[^>]*>", source).group(0)
    assert 'class="md-source"' in link and "data-md-component" not in link, link


def test_the_foreign_reference_check_can_fail(tmp_path):
    (tmp_path / "a.css").write_text(
        'html { color: red }\n@import "https://cdn.example/x.css";\n'
    )
    (tmp_path / "b.js").write_text(
        '// see https://example.org/docs\nfetch("https://evil.example/t.js")\n'
    )
    (tmp_path / "c.html").write_text(
        '<a href="https://example.org/">ok</a><link rel="canonical" href="https://site.invalid/c/">'
        '<script src="https://cdn.example/s.js"></script><svg xmlns="http://www.w3.org/2000/svg"></svg>'
    )
    problems = foreign_references(tmp_path, "https://site.invalid/")
    assert problems == [
        "a.css: https://cdn.example/x.css",
        "b.js: https://evil.example/t.js",
        "c.html: https://cdn.example/s.js",
    ], problems


# ---------------------------------------------------------------------------- API reference


@pytest.mark.site
def test_api_page_documents_every_public_name(built_site):
    import attention_workshop

    ids = parse(built_site / "api" / "index.html").ids
    missing = [
        name
        for name in attention_workshop.__all__
        if f"attention_workshop.{name}" not in ids
    ]
    assert not missing, (
        f"docs/api.md does not document {missing} (add them to a ::: attention_workshop members list)"
    )
    text = " ".join(parse(built_site / "api" / "index.html").prose)
    # Google-style sections were parsed into tables, not left as literal "Args:" paragraphs.
    assert "Parameters:" in text and "Returns:" in text and "Raises:" in text
    assert "Args:" not in text, (
        "a docstring's Args: section was not parsed (not Google style?)"
    )


# ---------------------------------------------------------------------------- in the browser


DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 800}


def _axe_problems(
    axe, page, where: str, rules: list[str] | None = None, within: str | None = None
) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (only ``rules``, if
    given; only inside the elements the CSS selector ``within`` picks, if given).

    Every rule runs on every node whatever ``resultTypes`` says; it only spares axe finding a
    unique selector for each node that passed (thousands on the Source and print pages), which
    nothing here reads: about half of a run's time on those pages."""
    problems = []
    options: dict[str, object] = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = rules
    context = {"include": [[within]]} if within else None
    for v in axe.run(page, context=context, options=options).response["violations"]:
        if v["impact"] in ("serious", "critical"):
            targets = [n["target"] for n in v["nodes"][:3]]
            problems.append(
                f"{where}: axe {v['impact']} {v['id']} on {len(v['nodes'])} node(s), e.g. {targets}"
            )
    return problems


#: What a colour scheme changes: colours (the rest of a page is the same markup in both schemes).
SCHEME_RULES = ["color-contrast", "link-in-text-block"]
#: What the width changes: boxes that scroll sideways, checked on the whole page, in the light
#: scheme only: a scheme changes colours, not a box's width (the dark run took as long again, 6.5 s
#: on the Source page alone, and could find nothing the light one had not).
WIDTH_RULES = ["scrollable-region-focusable"]
#: Where the phone layout puts text on another background than the desktop's: the header (its
#: search button and field) and the navigation drawer. The colours of the rest of a page depend on
#: the scheme alone, and are checked once per scheme at desktop width (:data:`SCHEME_RULES`).
PHONE_COLOURS = ".md-header, .md-sidebar--primary"


#: The print page is every Learn page again, one after another, in the same markup: axe checks it
#: once (light, desktop, every rule); its pages' dark and phone rules are checked on the pages themselves.
ONCE_ONLY = {"print/index.html"}


def _rules(scheme: str) -> list[str] | None:
    """At desktop width: every rule once per page (light), then the rules a scheme changes (dark)."""
    return None if scheme == "light" else SCHEME_RULES


def _axe_here(built_site: Path, html_file: Path, scheme: str, width: int) -> bool:
    """Whether axe looks at this page in this scheme at this width (see :data:`ONCE_ONLY`)."""
    once = html_file.relative_to(built_site).as_posix() in ONCE_ONLY
    return not once or (scheme == "light" and width == DESKTOP["width"])


SCHEMES_AND_WIDTHS = [
    (s, w["width"]) for s in ("light", "dark") for w in (DESKTOP, PHONE)
]


@probe("scheme", LOADED, SCHEMES_AND_WIDTHS)
def _scheme_shown(page, visit) -> str:
    """The colour scheme the page shows (Material's data-md-color-scheme)."""
    return page.evaluate("document.body.getAttribute('data-md-color-scheme')")


@probe("axe", DETAILS, SCHEMES_AND_WIDTHS)
def _axe_on_the_page(page, visit) -> list[str]:
    """axe on every page, reveals open: at desktop width every rule (light) or the rules a scheme
    changes (dark, :data:`SCHEME_RULES`); at phone width the width's own (:data:`WIDTH_RULES` on
    the page, light only) and the colours of :data:`PHONE_COLOURS` (both schemes). The print page
    once (:data:`ONCE_ONLY`)."""
    from axe_playwright_python.sync_playwright import Axe

    if not _axe_here(visit.site, visit.html, visit.scheme, visit.width):
        return []
    name = visit.name
    if visit.width == DESKTOP["width"]:
        return _axe_problems(
            Axe(), page, f"{name} [{visit.scheme}]", _rules(visit.scheme)
        )
    where = f"{name} [{visit.scheme}, {visit.width}px]"
    colour = _axe_problems(Axe(), page, where, ["color-contrast"], PHONE_COLOURS)
    if visit.scheme != "light":
        return colour
    return _axe_problems(Axe(), page, where, WIDTH_RULES) + colour


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_offline_clean_and_accessible(sweep, built_site, scheme):
    """Every page, in one colour scheme, at desktop and at phone width (375 x 800): it shows that
    scheme, no foreign request, no console error, no serious axe violation (:func:`_axe_on_the_page`)."""
    problems = [f"{p}: listed in ONCE_ONLY, not built" for p in ONCE_ONLY]
    problems = [p for p in problems if not (built_site / p.split(":")[0]).is_file()]
    want = "slate" if scheme == "dark" else "default"
    for width in (DESKTOP["width"], PHONE["width"]):
        for visit in sweep.visits("axe", scheme, width):
            name = source_name(built_site, visit.html)
            at = f"{name} [{scheme}" + (
                "]" if width == DESKTOP["width"] else f", {width}px]"
            )
            if (got := visit["scheme"]) != want:
                problems.append(f"{at}: the page shows scheme {got!r}, not {want!r}")
            problems += visit["axe"]
            problems += [
                f"{at}: request outside the site: {u}" for u in visit.foreign_requests
            ]
            problems += [f"{at}: console error: {e}" for e in visit.console_errors]
    assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(problems)


@pytest.mark.browser
def test_search_works_offline(page_and_log, site_url):
    """Search (its worker and index) runs from the site's own files."""
    page, log = page_and_log
    page.goto(site_url, wait_until="networkidle")
    page.click("input.md-search__input")
    page.keyboard.type("softmax")  # typed: Material searches on key events
    page.wait_for_selector(".md-search-result__item", timeout=10_000)
    assert page.locator(".md-search-result__item").count() >= 1
    assert not log.foreign_requests, log.foreign_requests
    assert not log.console_errors, log.console_errors


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_search_results_are_accessible(browser, site_url, scheme, viewport):
    """With results showing (counts, matches highlighted in prose and code, code excerpts),
    axe finds nothing serious."""
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(site_url, wait_until="networkidle")
        if viewport is PHONE:
            page.click("label.md-header__button[for='__search']")
        page.click("input.md-search__input")
        page.keyboard.type("softmax")
        page.wait_for_selector(".md-search-result__item", timeout=10_000)
        page.wait_for_timeout(300)  # the result list renders in batches
        assert page.locator(".md-search-result mark").count() >= 3, (
            "no highlighted match: nothing to check"
        )
        assert page.locator(".md-search-result pre > code").count() >= 1, (
            "no code excerpt among the results"
        )
        problems = _axe_problems(
            Axe(), page, f"search [{scheme}, {viewport['width']}px]"
        )
    finally:
        context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.browser
def test_the_axe_check_can_fail(browser):
    """A page with grey-on-white text, a button without a name and a box that scrolls but cannot
    be reached by keyboard: :func:`_axe_problems` names all three with every rule, only the colour
    with the scheme's rules, only the box with the width's, and the colour within the faint text
    but not within the rest of the page (``resultTypes`` keeps every violation)."""
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.set_content(
            '<html lang="en"><head><title>t</title></head><body><main>'
            '<p style="color:#bbb;background:#fff">faint words</p>'
            "<button></button>"
            '<div class="box" style="overflow:auto;width:60px">'
            '<p style="width:600px">wide words</p></div>'
            "</main></body></html>"
        )
        axe = Axe()
        every = "\n".join(_axe_problems(axe, page, "t"))
        scheme = "\n".join(_axe_problems(axe, page, "t", SCHEME_RULES))
        width = "\n".join(_axe_problems(axe, page, "t", WIDTH_RULES))
        colour = ["color-contrast"]
        inside = "\n".join(_axe_problems(axe, page, "t", colour, "p[style*='#bbb']"))
        outside = "\n".join(_axe_problems(axe, page, "t", colour, "div.box, button"))
    finally:
        context.close()
    for rule in ("color-contrast", "button-name", "scrollable-region-focusable"):
        assert f" {rule} " in every, every
    assert " color-contrast " in scheme and "button-name" not in scheme, scheme
    assert " scrollable-region-focusable " in width, width
    assert "color-contrast" not in width and "button-name" not in width, width
    assert " color-contrast " in inside, inside
    assert not outside, outside


def test_axe_is_loaded_from_the_package():
    """axe-core is injected from the wheel's own axe.min.js, so the accessibility check needs no network."""
    from axe_playwright_python import base

    assert base.AXE_FILE_PATH.is_file() and base.AXE_SCRIPT.lstrip().startswith(
        "/*! axe v"
    )
