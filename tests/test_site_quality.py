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
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

# ---------------------------------------------------------------------------- reading the site


class _Page(HTMLParser):
    """What the checks need from one HTML page: ids, links, images, and prose text outside code."""

    SKIP = {"code", "pre", "script", "style", "math", "svg", "textarea", "kbd", "samp"}
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

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
            if a.get(attr) is not None and tag in {"a", "img", "script", "link", "iframe", "source", "audio", "video"}:
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

_RAW_TEX = re.compile(r"\$|\\\(|\\\)|\\\[|\\\]|\\(?:frac|sqrt|text|operatorname|left|right|begin|top|infty|cdot|times)\b")


@pytest.mark.site
def test_every_formula_became_mathml(built_site):
    """No raw TeX in any page's prose (outside code), no arithmatex leftover, no MathML error."""
    problems = []
    for page in site_pages(built_site):
        html_text = page.read_text(encoding="utf-8")
        name = source_name(built_site, page)
        if 'class="arithmatex"' in html_text:
            problems.append(f"{name}: a formula was not converted (class arithmatex left)")
        if "<merror" in html_text:
            problems.append(f"{name}: latex2mathml produced an <merror>")
        prose = " ".join(parse(page).prose)
        for m in _RAW_TEX.finditer(prose):
            problems.append(f"{name}: raw TeX {m.group(0)!r} in the text: ...{prose[max(0, m.start() - 60):m.end() + 60]!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.site
def test_formulas_of_module_3_are_there(built_site):
    """The attention equation and sqrt(d_k) render as MathML elements (not just vanish)."""
    html_text = (built_site / "module-3" / "index.html").read_text(encoding="utf-8")
    assert html_text.count('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">') >= 1
    assert "<msqrt>" in html_text and "<mfrac>" in html_text, "the attention equation lost its fraction or root"


def test_the_raw_tex_check_can_fail():
    p = _Page()
    p.feed('<p>the scale $\\sqrt{d_k}$ and \\(x\\)</p><pre><code>echo $HOME</code></pre>')
    prose = " ".join(p.prose)
    assert _RAW_TEX.search(prose) and "HOME" not in prose


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
                problems.append(f"{where} points at {path or '/'}, which is not a file of the site")
                continue
            frag = unquote(target.fragment)
            if frag and file.suffix == ".html" and frag not in parse(file).ids:
                problems.append(f"{where}: no element with id {frag!r} on {source_name(site, file)}")
    return problems


@pytest.mark.site
def test_every_internal_link_and_anchor_resolves(built_site):
    problems = _broken_links(built_site)
    assert not problems, f"{len(problems)} broken link(s):\n" + "\n".join(problems[:50])


def test_the_link_check_can_fail(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<h2 id="here">x</h2><a href="#here">ok</a>'
                                               '<a href="../b/#nowhere">bad anchor</a><a href="../c/">missing</a>')
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "index.html").write_text('<p id="there">b</p><a href="../a/#here">ok</a>')
    _parsed.clear()
    problems = _broken_links(tmp_path)
    _parsed.clear()
    assert len(problems) == 2 and "nowhere" in problems[0] and "c/" in problems[1], problems


# ---------------------------------------------------------------------------- figures


_FIGURE = re.compile(r"<figure\b.*?</figure>", re.S)


@pytest.mark.site
def test_every_image_and_diagram_has_a_text_alternative(built_site):
    problems = []
    for page in site_pages(built_site):
        p = parse(page)
        for img in p.images:
            if not (img.get("alt") or "").strip() and img.get("role") != "presentation":
                problems.append(f"{source_name(built_site, page)}: <img src={img.get('src')!r}> has no alt text")
        for svg in p.svg_imgs:
            if len((svg.get("aria-label") or "").strip()) < 20:
                problems.append(f"{source_name(built_site, page)}: an SVG figure has no real aria-label: {svg.get('aria-label')!r}")
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
            srcs = re.findall(r'<img [^>]*src="([^"]+\.svg)"', fig)
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
                    problems.append(f"{name}: figure {src} has no 'Download SVG' link to itself")
                if not any(h.endswith(f"/{stem}.csv") or h == f"{stem}.csv" for h in hrefs):
                    problems.append(f"{name}: figure {src} has no link to its numbers as CSV ({stem}.csv)")
    assert figures, "no figure found on the whole site: the check looks at nothing"
    assert not problems, "\n".join(problems)


@pytest.mark.site
def test_every_heatmap_prints_its_values(built_site):
    """A heatmap (an SVG with a raster image of cells) prints each value of its CSV, to 3 decimals."""
    checked = 0
    problems = []
    for svg in sorted(built_site.rglob("*.svg")):
        text = svg.read_text(encoding="utf-8")
        if "<image" not in text:
            continue  # line charts and diagrams: no colour-only cells
        table = svg.with_suffix(".csv")
        if not table.exists():
            problems.append(f"{svg.relative_to(built_site)}: a heatmap without a CSV twin")
            continue
        rows = list(csv.reader(io.StringIO(table.read_text(encoding="utf-8"))))
        values = [float(c) for row in rows[1:] for c in row[1:]]
        labels = set(re.findall(r">\s*([-0-9.]+)\s*<", text)) | set(re.findall(r"([-0-9]+\.[0-9]{3})", text))
        missing = [f"{v:.3f}" for v in values if f"{v:.3f}" not in labels]
        if missing:
            problems.append(f"{svg.relative_to(built_site)}: values not printed in the cells: {missing}")
        checked += 1
    assert checked, "no heatmap found: the check looks at nothing"
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------- API reference


@pytest.mark.site
def test_api_page_documents_every_public_name(built_site):
    import attention_workshop

    ids = parse(built_site / "api" / "index.html").ids
    missing = [name for name in attention_workshop.__all__ if f"attention_workshop.{name}" not in ids]
    assert not missing, f"docs/api.md does not document {missing} (add them to a ::: attention_workshop members list)"
    text = " ".join(parse(built_site / "api" / "index.html").prose)
    # Google-style sections were parsed into tables, not left as literal "Args:" paragraphs.
    assert "Parameters:" in text and "Returns:" in text and "Raises:" in text
    assert "Args:" not in text, "a docstring's Args: section was not parsed (not Google style?)"


# ---------------------------------------------------------------------------- in the browser


class _Log:
    """Console errors and requests that leave the site (as conftest's PageLog, for a page of our own)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.console_errors: list[str] = []
        self.foreign_requests: list[str] = []

    def on_console(self, msg) -> None:
        if msg.type == "error":
            self.console_errors.append(msg.text)

    def on_pageerror(self, err) -> None:
        self.console_errors.append(str(err))

    def on_request(self, req) -> None:
        if not req.url.startswith((self.base, "data:", "blob:", "about:")):
            self.foreign_requests.append(req.url)


def _visit_all(browser, site_url: str, built_site: Path, scheme: str) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    problems = []
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    try:
        page = context.new_page()
        log = _Log(site_url)
        page.on("console", log.on_console)
        page.on("pageerror", log.on_pageerror)
        page.on("request", log.on_request)
        for html_file in site_pages(built_site):
            url = site_url + page_url(built_site, html_file)
            name = source_name(built_site, html_file)
            log.console_errors.clear()
            log.foreign_requests.clear()
            page.goto(url, wait_until="networkidle")
            want = "slate" if scheme == "dark" else "default"
            got = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
            if got != want:
                problems.append(f"{name} [{scheme}]: the page shows scheme {got!r}, not {want!r}")
            # Collapsed answers and reveals are part of the page too: open them before axe looks.
            page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
            result = axe.run(page)
            for v in result.response["violations"]:
                if v["impact"] in ("serious", "critical"):
                    targets = [n["target"] for n in v["nodes"][:3]]
                    problems.append(f"{name} [{scheme}]: axe {v['impact']} {v['id']} on {len(v['nodes'])} node(s), e.g. {targets}")
            problems += [f"{name} [{scheme}]: request outside the site: {u}" for u in log.foreign_requests]
            problems += [f"{name} [{scheme}]: console error: {e}" for e in log.console_errors]
    finally:
        context.close()
    return problems


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_offline_clean_and_accessible(browser, site_url, built_site, scheme):
    """Every page, in one colour scheme: no foreign request, no console error, no serious axe violation."""
    problems = _visit_all(browser, site_url, built_site, scheme)
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


def test_axe_is_loaded_from_the_package():
    """axe-core is injected from the wheel's own axe.min.js, so the accessibility check needs no network."""
    from axe_playwright_python import base

    assert base.AXE_FILE_PATH.is_file() and base.AXE_SCRIPT.lstrip().startswith("/*! axe v")
