"""What the hooks share: the package's build-facing modules, how a hook reports a problem, and the
plain text of an HTML fragment.

MkDocs loads every hook by path and puts ``hooks/`` on ``sys.path`` while it runs the hook's module,
so a hook imports this module by name (``_workshop_common``, a name no installed package uses).
The package is imported here and nowhere else in ``hooks/``: when its modules move, this file changes.

A **problem** (:func:`problem`) is a warning: ``mkdocs build --strict`` lists every one and then
fails; a build that is not strict (``mkdocs serve``, ``make serve``) goes on and shows each on its
page (hooks/problems.py), so the reader's view of the page says what to fix.
"""

from __future__ import annotations

import html
import logging
import re
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

PACKAGE = "attention_workshop"
_TAGS = re.compile(r"<[^>]+>")
log = logging.getLogger("mkdocs.hooks.workshop")
#: The problems of this build: page (``docs/``-relative path, "" for the whole site) -> messages.
PROBLEMS: dict[str, list[str]] = {}


def problem(message: str, page: str = "") -> None:
    """Report a problem of ``page`` (or of the whole site): a warning the strict build fails on."""
    log.warning(message)
    PROBLEMS.setdefault(page, []).append(message)


def fresh_pages() -> ModuleType:
    """Forget every imported module of the package, then import its pages API anew.

    Under ``mkdocs serve`` an edit to src/ or snippets/ then shows up on the next reload.
    """
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
        del sys.modules[name]
    return pages()


def cache() -> ModuleType:
    """The content-addressed cache of the build's expensive results (``enable``, ``FRESH=1``)."""
    import attention_workshop.build.cache as module

    return module


def fonts() -> ModuleType:
    """The math font's subset (``FONT``, ``SUBSET``, ``math_text``, ``subset``)."""
    import attention_workshop.build.fonts as module

    return module


def pages() -> ModuleType:
    """What the hooks call in the package (``results``, ``runs``, ``context``, ``generated_files``, ``GENERATED``)."""
    import attention_workshop.build.site as module

    return module


def sources() -> ModuleType:
    """Where the site's words are written (``fences``, ``where_written``, ``line_of``)."""
    import attention_workshop.build.sources as module

    return module


def checks() -> ModuleType:
    """The page checks (``PLACEHOLDER``, ``closest``, ``unfilled``)."""
    import attention_workshop.build.checks as module

    return module


def handtyped() -> ModuleType:
    """The hand-typed number check (``find``, ``load_allowed``)."""
    import attention_workshop.build.handtyped as module

    return module


def notation() -> ModuleType:
    """The site's one notation: ``attention_workshop.build.notation`` (``check``, ``abbreviations``...)."""
    import attention_workshop.build.notation as module

    return module


def print_page() -> ModuleType:
    """The print page's making (``MARKER``, ``for_paper``, ``body``, ``toc``, ``stylesheet_links``...)."""
    import attention_workshop.build.print_page as module

    return module


def check_sizes() -> Callable[..., list[tuple[str, int]]]:
    """``check_sizes(text, name)``: the GPT-2 sizes a diagram's text states; ``ValueError`` if one is wrong."""
    from attention_workshop.build.diagrams import check_sizes as check

    return check


def run_d2() -> Callable[..., Any]:
    """``run_d2(args, input=None)``: the d2 binary's run, cached by the build (``subprocess.run``'s result)."""
    from attention_workshop.build.diagrams import run_d2 as run

    return run


def plain_text(fragment: str) -> str:
    """An HTML fragment as a reader hears it: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(_TAGS.sub(" ", fragment)).split())


def downloads() -> ModuleType:
    """The take-home files (wheel, lock, script, notebooks): ``files``, ``configure``, ``notebook_button``."""
    import attention_workshop.build.downloads as module

    return module


def notebook_pages() -> tuple[str, ...]:
    """The pages that are also downloadable notebooks (``docs/<name>.md``)."""
    from attention_workshop.build.notebooks import PAGES

    return PAGES


def source_missing() -> Callable[[str], list[str]]:
    """``missing(html)``: the experiment's modules the built Source page does not show as their files are."""
    from attention_workshop.build.source_page import missing

    return missing
