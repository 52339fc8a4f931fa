"""How many bytes a reader's browser fetches to show one page of the built site, cache cold.

A page costs its HTML and everything the HTML makes the browser fetch: stylesheets, scripts
(and their ES imports), images (lazy ones too: a reader scrolls), ``<object>``/``<iframe>``
documents, Material's search worker and search index (its script fetches both at load), a
widget's data (``data-src``, where a module script runs the widget, and of the files that data
names, the one the widget opens on: see :func:`_opened`), and the fonts its stylesheets declare
(the math font only on a page with ``<math>``). Text (HTML, CSS, JS, SVG, JSON, XML) counts
gzip-compressed (level 6), as GitHub Pages serves it; fonts and images count as they are. Links
a reader may follow (downloads, other pages) and data a widget fetches only when the reader picks
something (another sentence) are not counted: the budget is what the page costs when it opens.
``tests/test_page_weight.py`` checks that this counts every file Chromium fetches on every page,
and no widget data it does not fetch, and that every page of the site is under :data:`BUDGET`;
``make bench`` prints every page against it.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

__all__ = ["BUDGET", "Weight", "transferred", "page_weight", "site_weights"]

#: The most a page may weigh, transferred with a cold cache.
BUDGET = 500_000

_TEXT = {
    ".html",
    ".css",
    ".js",
    ".mjs",
    ".svg",
    ".json",
    ".xml",
    ".txt",
    ".csv",
    ".map",
}
_CSS_URL = re.compile(
    r"""url\(\s*['"]?([^'")]+)['"]?\s*\)|@import\s+['"]([^'"]+)['"]"""
)
_FONT_FACE = re.compile(r"@font-face\s*{([^}]*)}", re.S)
_FAMILY = re.compile(r"""font-family\s*:\s*['"]?([^;'"]+)""")
# relative ES imports of a module script: import ... from "./x.js", import "./x.js"
_JS_IMPORT = re.compile(
    r"""\bimport\s*(?:[^'";]*?\bfrom\s*)?['"](\.{1,2}/[^'"]+)['"]"""
)


@dataclass(frozen=True)
class Weight:
    """One page: its transferred bytes in all, and each resource's (site path -> bytes)."""

    page: str
    total: int
    parts: dict[str, int]


def transferred(path: Path) -> int:
    """The bytes one file costs over the wire: gzip (level 6) for text, as it is otherwise."""
    data = path.read_bytes()
    if path.suffix.lower() in _TEXT:
        return len(gzip.compress(data, compresslevel=6, mtime=0))
    return len(data)


class _Fetches(HTMLParser):
    """The URLs an HTML page makes the browser fetch, and whether it has a formula.

    Material's script fetches two more at load: its search worker and the search index,
    named in the page's ``__config`` (``search``, ``base``).
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []
        self.math = False
        self.data: list[str] = []
        self.widget = False
        self._config = False

    def handle_data(self, data: str) -> None:
        if self._config:
            config = json.loads(data)
            if config.get("search"):
                base = config.get("base", ".").rstrip("/")  # "/" on the 404 page
                self.urls += [config["search"], f"{base}/search/search_index.json"]
            self._config = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "math":
            self.math = True
        elif tag == "script" and a.get("id") == "__config":
            self._config = True
        elif tag == "link" and a.get("href"):
            rel = (a.get("rel") or "").lower().split()
            if {"stylesheet", "icon", "modulepreload", "preload"} & set(rel):
                self.urls.append(a["href"] or "")
        elif tag in ("script", "img", "iframe", "embed", "source", "audio", "video"):
            if a.get("src"):
                self.urls.append(a["src"] or "")
        elif tag == "object" and a.get("data"):
            self.urls.append(a["data"] or "")
        # a widget's data (data-src): fetched by the page's module script when the page opens
        # (the exam's answers, a.exam-data, are fetched only when the reader asks for a grade)
        if a.get("data-src"):
            self.data.append(a["data-src"] or "")
        if tag == "script" and a.get("type") == "module" and a.get("src"):
            self.widget = True


def _follow(site: Path, path: Path, math: bool, seen: dict[str, int]) -> None:
    """What a fetched file fetches in turn: a stylesheet's imports and fonts, a script's ES
    imports, the file a widget's data opens on (:func:`_opened`)."""
    if path.suffix == ".css":
        _css(site, path, math, seen)
        return
    base = "/" + path.relative_to(site).as_posix()
    if path.suffix in (".js", ".mjs"):
        text = path.read_text(encoding="utf-8", errors="replace")
        urls = [m.group(1) for m in _JS_IMPORT.finditer(text)]
    elif path.suffix == ".json":
        urls = _opened(json.loads(path.read_text(encoding="utf-8")))
    else:
        return
    for url in urls:
        target = _local(site, base, url)
        if target is not None and target.relative_to(site).as_posix() not in seen:
            seen[target.relative_to(site).as_posix()] = transferred(target)
            _follow(site, target, math, seen)


def _opened(data: object) -> list[str]:
    """Of the files a widget's data names, the one its script fetches when the page opens.

    The data lists its files as entries with a ``"key"`` and a ``"src"`` (Real heads' sentences);
    the script shows the entry its ``"start"`` names (``{"sentence": key}``) at once and fetches
    any other only when the reader picks it. Data without a ``"start"`` opens on none.
    """
    if not isinstance(data, dict) or not isinstance(data.get("start"), dict):
        return []
    key = data["start"].get("sentence")
    return [
        e["src"]
        for v in data.values()
        if isinstance(v, list)
        for e in v
        if isinstance(e, dict) and e.get("key") == key and isinstance(e.get("src"), str)
    ]


def _local(site: Path, base: str, url: str) -> Path | None:
    """The file of the site a URL names, relative to the page at ``base``; None off the site."""
    parts = urlsplit(urljoin(base, url))
    if parts.scheme not in ("", "file") or parts.netloc:
        return None
    path = site / unquote(parts.path).lstrip("/")
    if path.is_dir():
        path = path / "index.html"
    return path if path.is_file() else None


def _css(site: Path, css: Path, math: bool, seen: dict[str, int]) -> None:
    """A stylesheet's own fetches: its imports, and the fonts of the faces the page uses."""
    text = css.read_text(encoding="utf-8", errors="replace")
    base = "/" + css.relative_to(site).as_posix()
    faces = {m.span() for m in _FONT_FACE.finditer(text)}
    for m in _CSS_URL.finditer(text):
        url = m.group(1) or m.group(2)
        face = next((f for f in faces if f[0] <= m.start() < f[1]), None)
        if face is not None:
            family = _FAMILY.search(text[face[0] : face[1]])
            # only the math font is used by this site's pages, and only where a formula is
            if not (math and family and "math" in family.group(1).lower()):
                continue
        path = _local(site, base, url)
        if path is not None and path.relative_to(site).as_posix() not in seen:
            seen[path.relative_to(site).as_posix()] = transferred(path)
            _follow(site, path, math, seen)


def page_weight(site: Path, page: Path) -> Weight:
    """What ``page`` (an HTML file of the built ``site``) costs a browser with a cold cache."""
    html = page.read_text(encoding="utf-8")
    fetches = _Fetches()
    fetches.feed(html)
    rel = page.relative_to(site).as_posix()
    seen = {rel: transferred(page)}
    # a widget's data counts where a script runs the widget (the print page keeps none)
    for url in fetches.urls + (fetches.data if fetches.widget else []):
        path = _local(site, "/" + rel, url)
        if path is None:
            continue
        name = path.relative_to(site).as_posix()
        if name not in seen:
            seen[name] = transferred(path)
            _follow(site, path, fetches.math, seen)
    return Weight(rel, sum(seen.values()), seen)


def site_weights(site: Path) -> list[Weight]:
    """Every page of the site (each ``index.html`` and ``404.html``), heaviest first."""
    pages = sorted(
        p for p in site.rglob("*.html") if p.name in ("index.html", "404.html")
    )
    return sorted((page_weight(site, p) for p in pages), key=lambda w: -w.total)
