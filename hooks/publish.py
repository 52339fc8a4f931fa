"""MkDocs hook: what a build publishes. No traceback, no path of the build machine; a marker at the end.

- A page whose HTML shows a Python traceback or an absolute path of this machine (the project's
  folder, the Python environment, the home folder) is a problem (hooks/problems.py) naming the
  page and what it shows, so the strict build fails (after reporting every page, as markdown-exec's own snippet
  errors do): a snippet that printed its own error, or ``__file__``, never reaches a reader.
- When ``ATTENTION_WORKSHOP_BUILD_MARKER`` names a file, the build writes it as its very last
  step. ``make site`` (``workshop_site.publish``) and the tests' builds require it:
  a build that vanished half-way (a snippet calling ``os._exit(0)`` exits 0) never counts.
- When ``ATTENTION_WORKSHOP_BUILD_LOG`` names a file, every build (each ``serve`` rebuild too)
  adds a line to it as its first step, naming the test that started it and how many Markdown
  pages it renders (those of docs/ that ``exclude_docs`` leaves), and one at its end with how
  many it reused (hooks/page_reuse.py): tests/conftest.py counts the full builds apart.
"""

from __future__ import annotations

import html
import json
import os
import re
import sys
import sysconfig
import time
from pathlib import Path
from typing import TYPE_CHECKING

import _workshop_common as common
from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page

MARKER = "ATTENTION_WORKSHOP_BUILD_MARKER"
BUILD_LOG = "ATTENTION_WORKSHOP_BUILD_LOG"
TRACEBACK = "Traceback (most recent call last)"
_TAG = re.compile(r"<[^>]+>")
# folders too general to be this machine's (a system Python's prefix)
_GENERAL = {"/", "/usr", "/usr/local", "/opt"}
#: This build's line in the build log (:data:`BUILD_LOG`).
_ID: list[str] = []


def machine_paths(project: Path) -> list[str]:
    """Absolute paths that belong to this build machine, longest first."""
    paths = {
        str(project.resolve()),
        sys.prefix,
        sys.exec_prefix,
        sysconfig.get_paths()["purelib"],
    }
    home = Path.home()
    if str(home) not in _GENERAL:
        # "/root" alone is a word; "/root/" is the folder
        paths.add(str(home) + os.sep)
    return sorted((p for p in paths if p not in _GENERAL), key=len, reverse=True)


def leaks(output: str, project: Path) -> tuple[list[str], str]:
    """What a page's HTML shows that a published page must not (a traceback, a machine path), and
    the text around the first (highlighted code splits a traceback into spans: tags dropped)."""
    text = html.unescape(_TAG.sub("", output))
    found = [TRACEBACK] if TRACEBACK in text else []
    found += [p for p in machine_paths(project) if p in text]
    at = text.index(found[0]) if found else 0
    return found, text[max(0, at - 60) : at + 120]


def rendered_pages(config: MkDocsConfig) -> list[str]:
    """The Markdown pages of docs/ the build renders: all but those ``exclude_docs`` names."""
    docs, excluded = Path(config.docs_dir), config.exclude_docs
    names = (p.relative_to(docs).as_posix() for p in sorted(docs.rglob("*.md")))
    return [n for n in names if excluded is None or not excluded.match_file(n)]


@event_priority(1000)  # a build's first step: one that fails later is counted too
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    if path := os.environ.get(BUILD_LOG):
        test = os.environ.get("PYTEST_CURRENT_TEST", "")
        common.REUSED.clear()
        _ID[:] = [f"{os.getpid()}-{time.monotonic_ns()}"]
        line = {
            "id": _ID[0],
            "test": test,
            "project": str(Path(config.config_file_path).parent),
            "pages": len(rendered_pages(config)),
        }
        # a build of a pytest session a test started (tests/conftest.py): that test too
        if outer := os.environ.get("ATTENTION_WORKSHOP_OUTER_TEST"):
            line["outer"] = outer
        with open(
            path, "a", encoding="utf-8"
        ) as log:  # one short line: an atomic append
            log.write(json.dumps(line) + "\n")
    return config


@event_priority(-100)  # after the other hooks have changed the page
def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    from workshop_site.page_steps import same  # kept between serve's builds

    found, context = same(leaks, output, Path(config.config_file_path).parent)
    if found:
        common.problem(
            f"docs/{page.file.src_uri}: the page shows {', '.join(repr(f) for f in found)}, "
            f"which a published page must not (a snippet printing an error or a path?): ...{context}...",
            page=page.file.src_uri,
        )
    return output


@event_priority(-1000)  # the very last step of a build
def on_post_build(config: MkDocsConfig) -> None:
    if (path := os.environ.get(BUILD_LOG)) and _ID:
        with open(path, "a", encoding="utf-8") as log:
            log.write(json.dumps({"id": _ID[0], "reused": sum(common.REUSED)}) + "\n")
    marker = os.environ.get(MARKER)
    if marker:
        Path(marker).write_text("the build reached its end\n", encoding="utf-8")
