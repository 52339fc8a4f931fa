"""A page's render reused when nothing it read has changed (issue 28), for ``mkdocs serve`` and a
plain ``mkdocs build``; never with ``FRESH=1`` (so never ``make site``), never with the cache off.

A page's entry (kind ``page`` of experiment/cache.py: checksummed, a damaged one is rendered
again and named in the log) is found under a key of the page's final Markdown (after every other
``on_page_markdown``), its source and URL, the site's nav (every title and URL), the project's
code and data (``src/``, ``hooks/``, ``overrides/``, ``captures/``, mkdocs.yml, the locks,
pyproject.toml), the interpreter and platform, every environment variable, and the config's
address. It holds what the render read, with their bytes' hash: every file opened, every folder
listed and every program run (a ``sys.addaudithook`` hook, :class:`.page_reads.Reads`), from the
page's ``on_pre_page`` to its HTML, and what the build read before and between the pages'
renders (its configuration, the experiment, the generated files; not what the checks of every
page read, :func:`.page_reads.checking`). It is used only when each of those is unchanged (a
key keeps several renders, :mod:`.page_variants`: an edit undone finds the render before it).
The snippets and pages are not in the key: a page reads the ones it includes, and an edit to one
renders again only the pages that read it.

Memory that outlives one page's render could carry what an earlier page read into a later page
without the later page reading it. The build's is of three kinds: the package's modules (loaded
before the first page, or by a render; their files are read when they load), their
``functools`` memos (whatever a render or a check put in one is forgotten at its end,
:func:`.page_reads.forget_filled`, so a later page computes it again and reads what it reads),
and markdown-exec's sessions (:func:`.page_reads.own_sessions` gives each page's its own name:
a session never spans pages, in any build). A file changed while a page rendered (its status
at the read is not its status at the keep) leaves the render unkept: the next build renders it.

A render that reported a problem or logged a warning is never kept.

What a reused render gives MkDocs back is the page's HTML as the render made it (every hook's
``on_page_content`` then runs on it as after a render, or gives back what it gave the same HTML,
:mod:`.page_steps`), its toc, title, anchors and links to other pages' anchors (the fields of
``mkdocs/structure/pages.py``), the anchors its render registered with autorefs, registered
again through autorefs' public ``register_anchor``, and the files it left in the site
(:mod:`.page_anchors`: which anchors, found by public calls; mkdocstrings' two files).
"""

from __future__ import annotations

import hashlib
import logging
import os
import platform
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attention_workshop.experiment import cache

from . import page_variants, publish
from .jinja_cache import templates
from .page_anchors import anchors, keep_files, kept_files, put_back
from .page_reads import (
    KEEPER,
    Reads,
    changed_while_read,
    forget_filled,
    inputs,
    installed,
    memos,
    own_sessions,
    recorder,
    snapshot,
)
from .page_steps import Steps

__all__ = [
    "Build",
    "recorder",
    "installed",
    "may_reuse",
    "own_sessions",
    "usable",
    "site_key",
    "page_key",
]

#: The kind of a Recorded result kept between builds (a notebook).
RECORDED = "recorded"
# the environment variables no page's render reads: the completion marker's path, which differs
# with the site folder of every build, read by hooks/publish.py once every page is written
_AFTER_THE_PAGES = (publish.MARKER,)
_VERSION = 3
_API = "\n::: "
_TREES = ("src", "hooks", "overrides", "captures")
_FILES = (
    "mkdocs.yml",
    "requirements.lock",
    "requirements-model.lock",
    "pyproject.toml",
)
log = logging.getLogger("mkdocs.hooks.page_reuse")


def site_key(config: Any, nav: Any) -> str:
    """What every page's key shares: the project's files, the nav, the process and the config."""
    root, h = Path(config.config_file_path).parent, hashlib.sha256()
    files = [root / f for f in _FILES]
    for tree in _TREES:
        files += sorted(
            p for p in (root / tree).rglob("*") if "__pycache__" not in p.parts
        )
    for p in files:
        if p.is_file():
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    pages = [(p.file.src_uri, p.url, p.title) for p in nav.pages]
    process = (
        sys.version,
        sys.executable,
        platform.platform(),
        sorted((k, v) for k, v in os.environ.items() if k not in _AFTER_THE_PAGES),
    )
    site = (config.site_url, config.repo_url, config.use_directory_urls, config.strict)
    h.update(repr((_VERSION, pages, process, site)).encode())
    return h.hexdigest()


def page_key(site: str, markdown: str, page: Any) -> str:
    parts = (site, page.file.src_uri, page.url, markdown)
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def may_reuse() -> bool:
    """Whether this build may reuse a page, known from its start: not ``FRESH=1``, the cache not
    off (:func:`usable` also needs the cache turned on, which the experiment's hook does)."""
    return not cache.fresh() and os.environ.get("WORKSHOP_CACHE", "") != "off"


def usable() -> bool:
    return cache.enabled() and not cache.fresh()


def is_api(markdown: str) -> bool:
    """Whether a page's Markdown has mkdocstrings' ``::: identifier`` blocks (the API page)."""
    return _API in f"\n{markdown}"


def find(key: str, known: dict | None) -> dict | None:
    """A kept :class:`.page_reads.Recorded` result (a notebook) when every read it recorded is
    unchanged (a page's render: :func:`.page_variants.find`)."""
    entry = cache.lookup(RECORDED, key) if cache.holds(RECORDED, key) else None
    if not isinstance(entry, dict):
        return None
    if any(snapshot(k, w, known) != seen for k, w, seen in entry["reads"]):
        return None
    return entry


def keep(
    key: str,
    reads: set[tuple[str, str]],
    page: Any,
    html: str,
    held: list[list[Any]],
    known: dict | None = None,
) -> str:
    """Store the render of ``page`` with what it read and the anchors it registered (``held``),
    the newest under ``key`` (:mod:`.page_variants`); the render's own key."""
    links = {
        to.src_uri: dict(anchors)
        for to, anchors in (page.links_to_anchors or {}).items()
    }
    entry = {
        "reads": sorted((k, w, snapshot(k, w, known)) for k, w in reads),
        "html": html,
        "toc": page.toc,
        "title": page.title,
        "present": sorted(page.present_anchor_ids or ()),
        "links": links,
        "anchors": held,
    }
    return page_variants.keep(key, entry)


def give_back(entry: dict, page: Any, files: Any) -> str:
    """The kept render's HTML; the page's fields set as the render set them."""
    page.toc = entry["toc"]
    page.title = entry["title"]
    page.present_anchor_ids = set(entry["present"])
    links = {files.get_file_from_path(src): a for src, a in entry["links"].items()}
    page.links_to_anchors = {f: a for f, a in links.items() if f is not None}
    return str(entry["html"])


class _Warnings(logging.Handler):
    """Counts the warnings logged while a page renders (a render that logged one is not kept)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class Build:
    """One build's page reuse: its reads outside the pages, the hashes it took, its counts.

    The hook calls :meth:`begin` at a page's ``on_pre_page``, :meth:`lookup` with its final
    Markdown, and :meth:`end` with its HTML. ``problems(src)`` counts the problems reported so
    far for a page (a render that reported one is not kept)."""

    def __init__(
        self,
        outside: set[tuple[str, str]],
        config: Any,
        nav: Any,
        problems: Callable[[str], int],
    ) -> None:
        self.reads: Reads = recorder()
        self.outside = outside
        self.site = site_key(config, nav)
        self.autorefs = config.plugins.get("autorefs")
        docs = config.plugins.get("mkdocstrings")
        self.handlers = docs.handlers if docs is not None else None
        self.problems = problems
        self.known: dict[tuple[str, str], str | None] = {}
        self.reused = self.rendered = 0
        self.page: dict[str, Any] = {}
        self.gap: Any = memos()  # the memos before the reads between two pages
        # the API page's key when it rendered and was kept; its files when it was reused
        self.api_key: str | None = None
        self.api_files: dict[str, bytes] | None = None
        KEEPER[:] = [self]  # a Recorded result (a notebook) is kept between builds too
        self.steps = Steps(
            self
        )  # the hooks' steps on a page, kept in memory (.page_steps)

    def begin(self) -> None:
        """A page's reads start: its own from here."""
        self.release()
        forget_filled(self.gap)
        self.page = {"raw": set(), "memos": memos()}
        self.reads.seen = self.page["raw"]

    def release(self) -> None:
        """No warning counter left on (a render that raised left it); from a page's HTML to the
        next page's start, what is read is no input of a kept render (the other hooks'
        ``on_page_content`` run on every build's HTML, the kept one too) and what fills a memo
        is forgotten before the next page renders."""
        warnings = self.page.get("warnings")
        for name in ("", "mkdocs"):
            if warnings is not None:
                logging.getLogger(name).removeHandler(warnings)
        if self.page:
            self.gap = memos()
            self.reads.seen = set()
        self.page = {}

    def lookup(self, markdown: str, page: Any) -> bool:
        """Whether the page's kept render is used (its Markdown is then not rendered)."""
        if "raw" not in self.page:
            return False
        key, api = page_key(self.site, markdown, page), is_api(markdown)
        self.reads.seen = None  # looking up the kept render is no read of the page's
        found = page_variants.find(key, self.known)
        entry = found[1] if found is not None else None
        if found is not None and api:  # the API page's files must be kept too
            self.api_files = kept_files(found[0])
            entry = entry if self.api_files is not None else None
        self.reads.seen = self.page["raw"]
        if entry is not None:
            self.page.update(entry=entry)
            return True
        warnings = _Warnings()
        for name in ("", "mkdocs"):
            logging.getLogger(name).addHandler(warnings)
        problems = self.problems(page.file.src_uri)
        self.page.update(key=key, warnings=warnings, problems=problems, api=api)
        return False

    def find(self, what: object) -> tuple[Any, set[tuple[str, str]]] | None:
        """A :class:`.page_reads.Recorded` result kept by an earlier build, and what it read,
        if every file it read is unchanged."""
        seen = self.reads.seen
        self.reads.seen = None  # the check is no read of the result's
        entry = find(cache.key(RECORDED, self.site, what), self.known)
        self.reads.seen = seen
        return (
            None
            if entry is None
            else (entry["value"], {(k, w) for k, w, _ in entry["reads"]})
        )

    def keep(self, what: object, value: Any, raw: set[tuple[str, str]]) -> None:
        """Keep a Recorded result with what it read (and what the build read before the pages),
        unless a file it read changed while it was read."""
        reads = inputs(self.reads, raw | self.outside)
        if not changed_while_read(self.reads, reads):
            seen = sorted((k, w, snapshot(k, w, self.known)) for k, w in reads)
            cache.store(
                RECORDED,
                cache.key(RECORDED, self.site, what),
                {"reads": seen, "value": value},
            )

    def files(self, site_dir: str) -> None:
        """After every ``on_env``: the files a rendered API page left in the site are kept beside
        it; those of a reused one are written again."""
        self.steps.report()
        if self.api_files is not None:
            put_back(site_dir, self.api_files)
            log.info("page_reuse: the API page reused, mkdocstrings' files put back")
        elif self.api_key is not None:
            keep_files(site_dir, self.api_key)

    def end(self, output: str, page: Any, files: Any) -> str:
        """The page's HTML: the kept one on a hit (its anchors registered with autorefs
        again); on a miss the render is kept if it reported no problem, logged no warning and
        no file it read changed meanwhile. Reads go to the build's again."""
        if "raw" not in self.page:
            return output
        self.reads.seen = None
        forget_filled(self.page["memos"])
        if "entry" in self.page:
            self.reused += 1
            output = give_back(self.page["entry"], page, files)
            for identifier, anchor, title, primary in self.page["entry"]["anchors"]:
                self.autorefs.register_anchor(
                    page, identifier, anchor, title=title, primary=primary
                )
        else:
            self.rendered += 1
        if "key" in self.page:
            clean = self.page["warnings"].count == 0
            clean = clean and self.problems(page.file.src_uri) == self.page["problems"]
            reads = inputs(self.reads, self.page["raw"] | self.outside)
            changed = changed_while_read(self.reads, reads)
            if changed:
                log.info(
                    "page_reuse: %s changed while it was read; not kept", changed[0]
                )
            if clean and not changed:
                probe = self.autorefs and (self.page["api"] or self.autorefs.scan_toc)
                held = anchors(self.autorefs, self.handlers, page) if probe else []
                own = keep(self.page["key"], reads, page, output, held, self.known)
                self.api_key = own if self.page["api"] else self.api_key
        self.release()
        return output

    def stop(self, env: Any) -> None:
        """Every page is rendered: nothing more recorded; the counts in the log; the theme's
        templates compiled once (:func:`.jinja_cache.templates`)."""
        templates(env)
        self.release()
        forget_filled(self.gap)
        self.reads.seen = None
        log.info(
            "page_reuse: %d page(s) reused, %d rendered", self.reused, self.rendered
        )
