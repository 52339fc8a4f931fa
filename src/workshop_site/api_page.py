"""What reusing the API page takes besides its HTML (workshop_site/page_cache.py reuses it).

mkdocstrings renders the page's ``::: identifier`` blocks: while it renders it registers every
object's anchor and its aliases with autorefs, and at ``on_env`` it writes two files into the site
(:data:`API_FILES`), only when a handler rendered. A reused API page must leave the same: the
anchors are registered again through autorefs' public ``register_anchor``, but which ones they
were can only be read from autorefs' private maps (:func:`anchors`: the one place the build reads
another library's private state; the pinned version is checked, and tests/test_page_cache.py
fails when the maps change shape); the files are kept beside the page when it renders and written
again when it is reused.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from attention_workshop.experiment import cache

__all__ = [
    "API_FILES",
    "AUTOREFS",
    "anchors",
    "is_api",
    "keep_files",
    "kept_files",
    "write_files",
]

#: The files a page's render leaves in the site besides its HTML (the API page's: API_FILES).
FILES = "page-files"
_API = "\n::: "
#: What mkdocstrings writes into the site when a handler rendered (its plugin's ``css_filename``
#: and ``objects.inv``), so what a reused API page must leave there too.
API_FILES = ("assets/_mkdocstrings.css", "objects.inv")
#: The mkdocs-autorefs whose private maps :func:`anchors` reads (requirements.lock pins it).
AUTOREFS = "1.4.5"
log = logging.getLogger("mkdocs.hooks.page_reuse")


def is_api(markdown: str) -> bool:
    """Whether a page's Markdown has mkdocstrings' ``::: identifier`` blocks (the API page)."""
    return _API in f"\n{markdown}"


def anchors(autorefs: Any, url: str) -> list[list[Any]]:
    """``[identifier, anchor, title, primary]`` of every anchor autorefs holds on the page at
    ``url``, in the order its maps hold them (read from autorefs' private ``_primary_url_map``,
    ``_secondary_url_map`` and ``_title_map``: identifier -> URLs, URL -> title)."""
    from importlib.metadata import version

    if version("mkdocs-autorefs") != AUTOREFS:
        raise RuntimeError(
            f"page reuse reads mkdocs-autorefs {AUTOREFS}'s private maps, and "
            f"{version('mkdocs-autorefs')} is installed: check "
            "workshop_site/api_page.py anchors() against it, then change AUTOREFS"
        )
    out = []
    for primary, urls in (
        (True, autorefs._primary_url_map),
        (False, autorefs._secondary_url_map),
    ):
        for identifier, found in urls.items():
            for u in found:
                if u.startswith(f"{url}#"):
                    title = autorefs._title_map.get(u)
                    out.append([identifier, u[len(url) + 1 :], title, primary])
    return out


def kept_files(key: str) -> dict[str, bytes] | None:
    """The files the API page's render under ``key`` left in the site, or None when they were not
    kept or their entry is damaged (the cache then names it)."""
    kept = cache.lookup(FILES, key) if cache.holds(FILES, key) else None
    if not isinstance(kept, dict) or sorted(kept) != sorted(API_FILES):
        return None
    return kept


def keep_files(key: str, site: Path) -> None:
    """After every ``on_env`` of a build that rendered the API page (and kept it under ``key``)."""
    if all((site / n).is_file() for n in API_FILES):
        cache.store(FILES, key, {n: (site / n).read_bytes() for n in API_FILES})


def write_files(files: dict[str, bytes], site: Path) -> None:
    """After every ``on_env`` of a build that reused the API page: mkdocstrings wrote none of its
    files, or empty ones."""
    for name, data in files.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_bytes(data)
    log.info(
        "page_reuse: the API page reused, mkdocstrings' %s written again",
        " and ".join(files),
    )
