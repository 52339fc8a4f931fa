"""What a page's render leaves outside its HTML, for page reuse (workshop_site/page_cache.py):
the anchors it registered with autorefs, and the API page's two files in the site.

- :func:`anchors`: which anchors a render registered, found with public calls alone.
  mkdocstrings puts every heading it registers into the page's toc; autorefs' ``get_item_url``
  says where each toc id leads and the title it holds; the handler's ``get_aliases`` names the
  other identifiers mkdocstrings registered for that heading (``mkdocstrings/_internal/
  extension.py``, ``AutoDocProcessor._process_headings``). A reused render registers the same
  through autorefs' public ``register_anchor``.
- :data:`API_FILES`: mkdocstrings writes its CSS and the objects' inventory at ``on_env`` only
  when a handler rendered. They are kept beside the API page's render (:func:`keep_files`) and
  written again when it is reused (:func:`put_back`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from attention_workshop.experiment import cache

__all__ = ["API_FILES", "FILES", "anchors", "kept_files", "keep_files", "put_back"]

#: The cache's kind of the files a page's render leaves in the site (the API page's).
FILES = "page-files"
#: What mkdocstrings writes into the site when a handler rendered: its CSS, the inventory.
API_FILES = ("assets/_mkdocstrings.css", "objects.inv")


def _toc_ids(toc: Any) -> list[str]:
    out: list[str] = []
    for item in toc:
        out += [item.id, *_toc_ids(item.children)]
    return list(dict.fromkeys(out))


def anchors(autorefs: Any, handlers: Any, page: Any) -> list[list[Any]]:
    """``[identifier, anchor, title, primary]`` of every anchor the render of ``page`` registered
    with autorefs, in the order mkdocstrings registers them: each id of its toc that autorefs
    leads to this page (autorefs registers a Markdown heading only when it scans headings),
    then the aliases of it that a rendering handler names."""
    out: list[list[Any]] = []
    for anchor in _toc_ids(page.toc):
        try:
            url, title = autorefs.get_item_url(anchor)
        except KeyError:
            continue
        if url == f"{page.url}#{anchor}":
            out.append([anchor, anchor, title, True])
            for handler in handlers.seen_handlers if handlers is not None else ():
                for alias in handler.get_aliases(anchor):
                    if alias != anchor:
                        out.append([alias, anchor, None, False])
    return out


def kept_files(key: str) -> dict[str, bytes] | None:
    """The files kept beside the page's render under ``key``, or None (not kept, or damaged)."""
    kept = cache.lookup(FILES, key) if cache.holds(FILES, key) else None
    if not isinstance(kept, dict) or sorted(kept) != sorted(API_FILES):
        return None
    return kept


def keep_files(site_dir: str, key: str) -> None:
    """mkdocstrings' files, as this build's ``on_env`` left them, kept beside the render ``key``."""
    site = Path(site_dir)
    if all((site / n).is_file() for n in API_FILES):
        cache.store(FILES, key, {n: (site / n).read_bytes() for n in API_FILES})


def put_back(site_dir: str, kept: dict[str, bytes]) -> None:
    """The kept files written into the site again (mkdocstrings wrote none, or empty ones)."""
    for name, data in kept.items():
        (Path(site_dir) / name).parent.mkdir(parents=True, exist_ok=True)
        (Path(site_dir) / name).write_bytes(data)
