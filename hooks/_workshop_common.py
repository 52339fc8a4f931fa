"""What the hooks share: the site build's modules, a problem's report, an HTML fragment's text.

MkDocs loads every hook by path and puts ``hooks/`` on ``sys.path`` while it runs the hook's module,
so a hook imports this module by name (``_workshop_common``, a name no installed package uses).
The packages (the workshop, the site's build ``workshop_site``) are imported here alone, by plain
imports in each function: after :func:`fresh_pages` drops them, each runs their files as they are.

A **problem** (:func:`problem`) is a warning the project counts itself: a strict build lists every
one and then fails, whatever the log level; ``mkdocs serve`` shows each on its page (problems.py).
"""

from __future__ import annotations

import html
import logging
import re
from types import ModuleType

import _workshop_fresh

PACKAGE, SITE = "attention_workshop", "workshop_site"
_TAGS = re.compile(r"<[^>]+>")
log = logging.getLogger("mkdocs.hooks.workshop")
#: The problems of this build: page (``docs/``-relative path, "" for the whole site) -> messages.
PROBLEMS: dict[str, list[str]] = {}
#: How many pages this build reused (hooks/page_reuse.py sets it; hooks/publish.py writes it to the
#: suite's build log: a build that reuses every page but one is not counted as a full build).
REUSED: list[int] = []


def problem(message: str, page: str = "", at: tuple[str, str] | None = None) -> None:
    """Report a problem of ``page`` (or of the whole site), said where ``at`` (the page's Markdown
    and a text) has the text written if given: a warning the strict build fails on."""
    if at is not None:
        message = f"{sources().where_written(page, *at)}: {message}"
    log.warning(message)
    PROBLEMS.setdefault(page, []).append(message)


def fresh_pages() -> ModuleType:
    """The package imported afresh for this build (``_workshop_fresh``): every build, each
    ``mkdocs serve`` rebuild too, runs the package's files as they are now."""
    _workshop_fresh.forget(PACKAGE)
    _workshop_fresh.forget(SITE)
    return pages()


def cache() -> ModuleType:
    """The content-addressed cache of the build's expensive results (``enable``, ``FRESH=1``)."""
    from attention_workshop.experiment import cache

    return cache


def diagrams() -> ModuleType:
    """The D2 diagrams (``check_sizes``, ``draw``, ``figure_texts``, ``stable_classes``...)."""
    from workshop_site import diagrams

    return diagrams


def fonts() -> ModuleType:
    """The math font's subset and its check (``FONT``, ``SUBSET``, ``subset``, ``lacking``...)."""
    from workshop_site import fonts

    return fonts


def pages() -> ModuleType:
    """What the hooks call in the package (``results``, ``runs``, ``context``, ``generated_files``, ``GENERATED``)."""
    from workshop_site import site

    return site


def sources() -> ModuleType:
    """Where the site's words are written (``fences``, ``where_written``, ``line_of``)."""
    from attention_workshop.experiment import sources

    return sources


def checks() -> ModuleType:
    """The page checks (``PLACEHOLDER``, ``closest``, ``unfilled``)."""
    from workshop_site import checks

    return checks


def handtyped() -> ModuleType:
    """The hand-typed number check (``find``, ``load_allowed``)."""
    from workshop_site import handtyped

    return handtyped


def notation() -> ModuleType:
    """The site's one notation: ``workshop_site.notation`` (``check``, ``abbreviations``...)."""
    from workshop_site import notation

    return notation


def print_page() -> ModuleType:
    """The print page's making (``MARKER``, ``for_paper``, ``body``, ``toc``, ``stylesheet_links``...)."""
    from workshop_site import print_page

    return print_page


def plain_text(fragment: str) -> str:
    """An HTML fragment as a reader hears it: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(_TAGS.sub(" ", fragment)).split())


def downloads() -> ModuleType:
    """The take-home files (wheel, lock, script, notebooks): ``files``, ``configure``, ``notebook_button``."""
    from workshop_site import downloads

    return downloads
