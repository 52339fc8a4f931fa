"""What the hooks share: the package's build-facing modules, how a hook reports a problem, and the
plain text of an HTML fragment.

MkDocs loads every hook by path and puts ``hooks/`` on ``sys.path`` while it runs the hook's module,
so a hook imports this module by name (``_workshop_common``, a name no installed package uses).
The package is imported here and nowhere else in ``hooks/``: when its modules move, this file changes.

A **problem** (:func:`problem`) is a warning the project counts itself: a strict build lists
every one and then fails, whatever the log level; a build that is not strict (``mkdocs serve``,
``make serve``) goes on and shows each on its page (hooks/problems.py).
"""

from __future__ import annotations

import html
import importlib
import logging
import re
from collections.abc import Callable
from types import ModuleType

import _workshop_fresh

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
    """The package imported afresh for this build (``_workshop_fresh``): every build, each
    ``mkdocs serve`` rebuild too, runs the package's files as they are now."""
    _workshop_fresh.forget(PACKAGE)
    return pages()


def _build(name: str) -> ModuleType:
    return importlib.import_module(f"{PACKAGE}.build.{name}")


def cache() -> ModuleType:
    """The content-addressed cache of the build's expensive results (``enable``, ``FRESH=1``)."""
    return _build("cache")


def diagrams() -> ModuleType:
    """The D2 diagrams (``check_sizes``, ``draw``, ``figure_texts``, ``stable_classes``...)."""
    return _build("diagrams")


def fonts() -> ModuleType:
    """The math font's subset and its check (``FONT``, ``SUBSET``, ``subset``, ``lacking``...)."""
    return _build("fonts")


def pages() -> ModuleType:
    """What the hooks call in the package (``results``, ``runs``, ``context``, ``generated_files``, ``GENERATED``)."""
    return _build("site")


def sources() -> ModuleType:
    """Where the site's words are written (``fences``, ``where_written``, ``line_of``)."""
    return _build("sources")


def checks() -> ModuleType:
    """The page checks (``PLACEHOLDER``, ``closest``, ``unfilled``)."""
    return _build("checks")


def handtyped() -> ModuleType:
    """The hand-typed number check (``find``, ``load_allowed``)."""
    return _build("handtyped")


def notation() -> ModuleType:
    """The site's one notation: ``attention_workshop.build.notation`` (``check``, ``abbreviations``...)."""
    return _build("notation")


def print_page() -> ModuleType:
    """The print page's making (``MARKER``, ``for_paper``, ``body``, ``toc``, ``stylesheet_links``...)."""
    return _build("print_page")


def plain_text(fragment: str) -> str:
    """An HTML fragment as a reader hears it: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(_TAGS.sub(" ", fragment)).split())


def downloads() -> ModuleType:
    """The take-home files (wheel, lock, script, notebooks): ``files``, ``configure``, ``notebook_button``."""
    return _build("downloads")


def notebook_pages() -> tuple[str, ...]:
    """The pages that are also downloadable notebooks (``docs/<name>.md``)."""
    return tuple(_build("notebooks").PAGES)


def source_missing() -> Callable[[str], list[str]]:
    """``missing(html)``: the experiment's modules the built Source page does not show as their files are."""
    missing: Callable[[str], list[str]] = _build("source_page").missing
    return missing
