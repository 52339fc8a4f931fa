"""MkDocs hook: ``mkdocs serve`` lasts. Memory stays level over rebuilds; a fatal error shows on every page.

- A failed rebuild (a syntax error in the package or a hook, a false claim) left every request
  waiting. :func:`on_serve`'s builder then writes a page showing the error in place of every
  page (404 included), logs it every time and goes on: the browser reloads onto the error.
- **One of the project's two exceptions to "nothing patched"** (the other: snippet_errors.py).
  Upstream caches that keep every old page alive (else serve grows about 5 MB per rebuild; no
  public API clears them: hooks/_upstream_caches.py) are cleared at a build's start and end;
  tests/test_faults.py checks each, by name, is empty after a build of the pinned versions.
- A hook edited under serve runs as it is now: MkDocs 1.6 loads each hook once per process
  (``Hooks._load_hook``'s ``lru_cache``; test_sound found it). :func:`forget_hooks` clears that
  cache (the same exception) and drops the modules of ``hooks/`` before each rebuild.
- A save is seen within 0.1 s, not 0.5, and built 0.01 s later, not 0.1: :func:`on_serve`
  (where MkDocs hands a plugin its server) makes one of the same class with its public
  ``polling_interval``, watching what the one it replaces watched (watchdog's ``emitters``), and
  sets its public ``build_delay``, which gathers the events of one save.
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
    """The next ``load_config`` runs every hook's file again, and the helpers they import."""
    clear_caches()
    in_hooks = {"": False}  # each module's folder resolved once: 200, not 1,200 paths
    for name, module in list(sys.modules.items()):
        folder = os.path.dirname(str(getattr(module, "__file__", None) or ""))
        if folder not in in_hooks:
            in_hooks[folder] = Path(folder).resolve() == HOOKS
        if in_hooks[folder]:
            del sys.modules[name]


def said(error: BaseException) -> str:
    """``error`` as Python says it, no traceback (a file that does not compile: its line, a caret)."""
    text = "".join(traceback.format_exception_only(error)).strip()
    return text.replace(f'"{HOOKS.parent}{os.sep}', '"')


def on_build_error(error: Exception) -> None:
    _ERROR[:] = [said(error)]


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
            message = errors[0] if errors else said(err)
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
