"""MkDocs hook: ``mkdocs serve`` lasts. Memory stays level over rebuilds; a fatal error shows on every page.

- A failed rebuild (a syntax error in the package, a false claim) used to leave every request
  waiting: MkDocs' server answers only after a completed build. :func:`on_serve` gives it a
  builder that, when the build fails, writes a page showing the error in place of every page
  (404 included), logs the error every time, and goes on: the browser reloads onto the error.
- **One of the project's two exceptions to "nothing patched"** (the other: snippet_errors.py).
  Upstream caches that keep every old page alive are cleared at a build's start and end (else
  ``mkdocs serve`` grows about 5 MB per rebuild); no public API clears them (the list:
  hooks/_upstream_caches.py). tests/test_faults.py imports each by name from the pinned
  versions and checks it is empty after a build: it fails when a library changes underneath.
- A hook edited under ``mkdocs serve`` is run as it is now. MkDocs 1.6 loads each hook once per
  process (``Hooks._load_hook``, an ``lru_cache`` every ``load_config`` shares): an edit to one
  showed only after a restart (tests/test_sound.py found it: 11 served pages differed from
  ``FRESH=1``). Before each rebuild, :func:`forget_hooks` clears that cache (the same exception
  as above, in hooks/_upstream_caches.py) and drops the modules of ``hooks/``.
- A save is seen within 0.1 s, not 0.5 (MkDocs' polling), and built 0.01 s later, not 0.1:
  :func:`on_serve` (where MkDocs hands a plugin its server to change) makes one of the same class
  with its constructor's public ``polling_interval``, watching what the one it replaces watched
  (watchdog's ``emitters``), and sets its public ``build_delay``. That delay gathers the events of
  one save, and a poll reports them all at once (MkDocs' own delay is shorter than its polling).
"""

from __future__ import annotations

import html
import logging
import os
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

from _upstream_caches import clear_caches
from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

log = logging.getLogger("mkdocs.hooks.serve")
HOOKS = Path(__file__).resolve().parent
_ERROR: list[str] = []  # the error of the build that failed last (on_build_error)


# the first thing a build does, before any plugin fills a cache again
@event_priority(100)
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    clear_caches()
    return config


def forget_hooks() -> None:
    """The next ``load_config`` runs every hook's file again, and the helpers they import.
    Each module's folder is resolved once (200 for 1,200 modules): 0.04 s less per rebuild."""
    clear_caches()
    in_hooks = {"": False}
    for name, module in list(sys.modules.items()):
        folder = os.path.dirname(str(getattr(module, "__file__", None) or ""))
        if folder not in in_hooks:
            in_hooks[folder] = Path(folder).resolve() == HOOKS
        if in_hooks[folder]:
            del sys.modules[name]


def on_build_error(error: Exception) -> None:
    _ERROR[:] = ["".join(traceback.format_exception_only(error)).strip()]


def error_page(message: str) -> str:
    """The page every address of ``mkdocs serve`` answers with after a failed build."""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        "<title>The build failed</title></head><body>"
        "<h1>The build failed</h1><p>Fix it and save: the server builds the site again.</p>"
        f'<pre style="white-space: pre-wrap">{html.escape(message)}</pre></body></html>\n'
    )


def show_error(site_dir: Path, message: str) -> None:
    """Every HTML page of the served folder, and its 404 page, replaced by :func:`error_page`."""
    page = error_page(message)
    for path in [*site_dir.rglob("*.html"), site_dir / "404.html"]:
        path.write_text(page, encoding="utf-8")


POLLING_INTERVAL = 0.1  # seconds between two looks for changed files (MkDocs': 0.5)
BUILD_DELAY = 0.01  # seconds with no new event before a build starts (MkDocs': 0.1)


# first: a plugin's on_serve then watches on the server that will run
@event_priority(100)
def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    build, site_dir = builder, Path(config.site_dir)

    def build_or_show_error() -> None:
        forget_hooks()
        try:
            build()
        except Exception as err:
            # this build's own copy of this hook (loaded again) kept the error
            errors = getattr(sys.modules.get(__name__), "_ERROR", [])
            message = errors[0] if errors else f"{type(err).__name__}: {err}"
            log.error(
                "The build failed; every page shows why until a save fixes it:\n%s",
                message,
            )
            show_error(site_dir, message)

    where = (*server.server_address, server.root, server.mount_path)
    quick = type(server)(build_or_show_error, *where, POLLING_INTERVAL)
    quick.error_handler, quick.build_delay = server.error_handler, BUILD_DELAY
    for emitter in sorted(server.observer.emitters, key=lambda e: e.watch.raw_path):
        quick.watch(emitter.watch.raw_path, recursive=emitter.watch.is_recursive)
    return quick


# after the plugins' own post-build steps: nothing reads these caches any more
@event_priority(-100)
def on_post_build(config: MkDocsConfig) -> None:
    clear_caches()
