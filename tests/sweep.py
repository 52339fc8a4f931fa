"""Every page of the built site opened once per colour scheme and width, for the browser checks
that only read a page (issue 29: they used to open every page again, each for itself).

A test that looks at every page registers a *probe* (:func:`probe`): a function of the open page
that returns what it found there. :meth:`Sweep.visits` opens each page once for a scheme and a
width, runs there every probe registered for that pair, in the order of the page's states below,
and keeps what each found; the tests then assert on it, with their own messages. A test that
clicks, types or breaks a page on purpose opens its own page instead.

The states of a page, in the order the probes see it (each probe sees the page as its test used to
open it alone):

- :data:`LOADED`: as it opened (``networkidle``), every reveal closed and the first tab of each
  tabbed block picked;
- :data:`TABS`: every tab of every tabbed block shown at once (:data:`EVERY_TAB`), reveals closed
  (the style is taken away again after), once every listing the Source page holds back until its
  tab shows is in (:data:`LISTINGS_IN`): before TABS that page holds three listings, not 48;
- :data:`DETAILS`: every ``<details>`` open (:data:`OPEN_DETAILS`), the tabs as built;
- :data:`ALL`: every reveal open and every tab shown.

A pair with a probe that needs a cold cache (what Chromium fetches to open a page,
tests/test_page_weight.py) opens each page in a fresh browser context; the other pairs open every
page in one context. Each visit keeps the console errors and the requests off the site that came while it was
open, whatever caused them.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The states of a page, by the order of the probes that see it (see the module's docstring).
LOADED, TABS, DETAILS, ALL = 0, 100, 200, 300
#: Every tab of every tabbed block shown at once: what a reader sees of a tab once they pick it
#: (Real heads shows one sentence's grid per tab), as the print page shows them on paper.
EVERY_TAB = ".md-typeset .tabbed-set > .tabbed-content > .tabbed-block { display: block !important; }"
#: Every reveal (a self-check's answer, a collapsed block) opened, as a reader who opens them sees it.
OPEN_DETAILS = "document.querySelectorAll('details').forEach(d => { d.open = true; })"
#: Every listing of the Source page put in its tab: it waits for its tab to show (docs/assets/source.js).
LISTINGS_IN = "() => !document.querySelector('noscript.workshop-listing')"
#: The pages whose widget is ready only once it says so (it fetches its data first).
READY = {"inside-the-model/": "#inside-explorer[data-ready]"}
#: The viewport of each width the probes use.
VIEWPORTS = {375: {"width": 375, "height": 800}, 1280: {"width": 1280, "height": 900}}


def every_page(visit: Visit) -> bool:
    return True


def not_404(visit: Visit) -> bool:
    return visit.url != "404.html"


@dataclass(frozen=True)
class Probe:
    name: str
    order: int  # its state: LOADED <= order < TABS, TABS <= order < DETAILS, ...
    run: Callable[[Any, Visit], Any]  # (the open page, the visit) -> what it found
    pairs: frozenset[tuple[str, int]]  # (scheme, width) pairs it looks at
    pages: Callable[[Visit], bool]  # whether it looks at the page of a visit
    cold: bool  # whether it needs each page opened in a fresh context (cache cold)


#: Every probe registered, by name (the test modules register theirs as they are imported).
PROBES: dict[str, Probe] = {}


def probe(
    name: str,
    order: int,
    pairs: Iterable[tuple[str, int]],
    pages: Callable[[Visit], bool] = every_page,
    cold: bool = False,
):
    """Register ``run(page, visit)`` as the probe ``name``: run at ``order`` on ``pages`` of each
    (scheme, width) of ``pairs``; with ``cold``, each page of those pairs opens in a fresh browser
    context (an empty cache)."""

    def register(run):
        assert name not in PROBES or PROBES[name].run.__qualname__ == run.__qualname__
        PROBES[name] = Probe(name, order, run, frozenset(pairs), pages, cold)
        return run

    return register


@dataclass
class Visit:
    """One page opened in one scheme at one width, and what every probe found there."""

    url: str  # under the site: '' (home), 'module-3/', '404.html'
    site: Path  # the built site
    html: Path  # the built file
    scheme: str
    width: int
    fetched: set[str] = field(
        default_factory=set
    )  # URLs finished when the page was open
    console_errors: list[str] = field(default_factory=list)
    foreign_requests: list[str] = field(default_factory=list)
    found: dict[str, Any] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The built file, under the site: ``module-3/index.html``."""
        return self.html.relative_to(self.site).as_posix()

    @property
    def where(self) -> str:
        return f"{self.url or 'home'} [{self.scheme}, {self.width} px]"

    def __getitem__(self, name: str) -> Any:
        """What the probe ``name`` found here; an AssertionError naming the page if it failed."""
        if name in self.failed:
            raise AssertionError(f"{self.where}: {name}: {self.failed[name]}")
        return self.found[name]


class Sweep:
    """The session's visits, each pair's made when a test first asks for it."""

    def __init__(self, browser, site_url: str, site: Path) -> None:
        self.browser, self.site_url, self.site = browser, site_url, site
        self._visits: dict[tuple[str, int], list[Visit]] = {}
        self._current: Visit | None = None  # the visit under way, and what it fetched
        self._fetched: list[str] = []
        #: Seconds each probe took, over the session (a reading, never asserted).
        self.seconds: dict[str, float] = defaultdict(float)

    def visits(self, name: str, scheme: str, width: int) -> list[Visit]:
        """The visits of the pages the probe ``name`` looks at, in ``scheme`` at ``width``."""
        pair = (scheme, width)
        probe = PROBES[name]
        assert pair in probe.pairs, f"probe {name} does not look at {pair}"
        if pair not in self._visits:
            self._visits[pair] = self._sweep(pair)
        return [v for v in self._visits[pair] if probe.pages(v)]

    def _context(self, pair: tuple[str, int]):
        return self.browser.new_context(
            viewport=VIEWPORTS[pair[1]], color_scheme=pair[0]
        )

    def _sweep(self, pair: tuple[str, int]) -> list[Visit]:
        from .test_site_quality import page_url, site_pages

        probes = sorted(
            (p for p in PROBES.values() if pair in p.pairs), key=lambda p: p.order
        )
        cold = any(p.cold for p in probes)
        visits: list[Visit] = []
        context = page = None
        try:
            for html in site_pages(self.site):
                visit = Visit(page_url(self.site, html), self.site, html, *pair)
                if (
                    page is None or cold
                ):  # one page for the pair, or a fresh context each
                    if context is not None:
                        context.close()
                    context = self.browser.new_context(
                        viewport=VIEWPORTS[pair[1]], color_scheme=pair[0]
                    )
                    page = self._page(context)
                self._visit(page, visit, [p for p in probes if p.pages(visit)])
                visits.append(visit)
        finally:
            if context is not None:
                context.close()
        return visits

    def _page(self, context):
        """A page whose console errors, foreign requests and fetches go to the current visit."""
        page = context.new_page()
        page.on("requestfinished", lambda r: self._fetched.append(r.url))
        page.on("console", lambda m: m.type == "error" and self._log(m.text))
        page.on("pageerror", lambda e: self._log(str(e)))
        page.on("request", lambda r: self._foreign(r.url))
        return page

    def _visit(self, page, visit: Visit, probes: list[Probe]) -> None:
        """Open the page of ``visit``, then run ``probes`` on it in order."""
        self._current, self._fetched = visit, []
        try:
            page.goto(self.site_url + visit.url, wait_until="networkidle")
        except Exception as e:  # every probe of the page failed with it
            visit.failed = {p.name: f"the page did not open: {e}" for p in probes}
            return
        visit.fetched = set(self._fetched)
        state = _State(page, visit.url)
        for p in probes:
            start = time.perf_counter()
            try:
                state.enter(p.order)
                visit.found[p.name] = p.run(page, visit)
            except Exception as e:
                visit.failed[p.name] = f"{type(e).__name__}: {e}"
            self.seconds[p.name] += time.perf_counter() - start
        # what the page fetched after its load event, and after the probes' actions, counts too
        page.wait_for_load_state("networkidle")

    def _log(self, error: str) -> None:
        self._current.console_errors.append(error)

    def _foreign(self, url: str) -> None:
        if not url.startswith((self.site_url, "data:", "blob:", "about:")):
            self._current.foreign_requests.append(url)


class _State:
    """Moves an open page through the states LOADED, TABS, DETAILS, ALL (forward only)."""

    def __init__(self, page, url: str) -> None:
        self.page, self.url = page, url
        self.order, self.tabs, self.details = LOADED, None, False

    def enter(self, order: int) -> None:
        assert order >= self.order, "probes run in order"
        if self.order < TABS <= order and self.url in READY:
            self.page.wait_for_selector(READY[self.url], state="attached")
        self.order = order
        want_tabs = TABS <= order < DETAILS or order >= ALL
        if order >= DETAILS and not self.details:
            if self.tabs is not None:  # DETAILS shows the tabs as built
                self.tabs.evaluate("s => s.remove()")
                self.tabs = None
            self.page.evaluate(OPEN_DETAILS)
            self.details = True
        if want_tabs and self.tabs is None:
            self.tabs = self.page.add_style_tag(content=EVERY_TAB)
            # a listing the Source page holds back until its tab shows: in, as for a reader
            self.page.wait_for_function(LISTINGS_IN)
