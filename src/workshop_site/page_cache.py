"""A page's render reused when nothing it read has changed (issue 28), for ``mkdocs serve`` and a
plain ``mkdocs build``; never with ``FRESH=1`` (so never ``make site``), never with the cache off.

A page's entry (kind ``page`` of experiment/cache.py: checksummed, a damaged one is rendered
again and named in the log) is found under a key of the page's final Markdown (after every other
``on_page_markdown``), its source and URL, the site's nav (every title and URL), the project's
code and data (``src/``, ``hooks/``, ``snippets/``, ``overrides/``, ``captures/``, mkdocs.yml, the
locks, pyproject.toml), the interpreter and platform, every environment variable, and the
config's address. It holds what the render read: every file opened and every folder listed
while it rendered (a ``sys.addaudithook`` hook, on only during the render), with their bytes'
hash, and every program it ran (the executable's bytes too). It is used only when each of those
is unchanged. A render that reported a problem or logged a warning is never kept; the API page
(mkdocstrings registers its anchors while it renders) is rendered at every build.

What a reused render gives MkDocs back is the page's HTML as the render made it (every hook's
``on_page_content`` then runs on it as after a render), its toc, title, anchors and links to
other pages' anchors (``mkdocs/structure/pages.py``'s fields), and autorefs' anchors of its
headings, registered again through autorefs' public ``register_anchor``.
"""

from __future__ import annotations

import hashlib
import logging
import os
import platform
import sys
from pathlib import Path
from typing import Any

from attention_workshop.experiment import cache

from . import publish

KIND = "page"
# the environment variables no page's render reads: the completion marker's path, which differs
# with the site folder of every build, read by hooks/publish.py once every page is written
_AFTER_THE_PAGES = (publish.MARKER,)
_VERSION = 1
_TREES = ("src", "hooks", "snippets", "overrides", "captures")
_FILES = (
    "mkdocs.yml",
    "requirements.lock",
    "requirements-model.lock",
    "pyproject.toml",
)
_ADOPT = (
    "workshop_site.page_cache.adopt"  # a process keeps one recorder over fresh imports
)
_SKIP = tuple({sys.prefix, sys.base_prefix, "/proc", "/dev", "/sys"})
_API = "\n::: "
log = logging.getLogger("mkdocs.hooks.page_reuse")


class Reads:
    """The audit hook: while ``seen`` is a set, what the process opens, lists and runs."""

    def __init__(self) -> None:
        self.seen: set[tuple[str, str]] | None = None

    def __call__(self, event: str, args: tuple) -> None:
        if event == _ADOPT:
            args[0]["reads"] = self
        seen = self.seen
        if seen is None:
            return
        try:
            if event == "open":
                path, mode, flags = args
                reading = (
                    mode is None and (flags or 0) & os.O_ACCMODE != os.O_WRONLY
                ) or (isinstance(mode, str) and ("r" in mode or "+" in mode))
                if reading and not isinstance(path, int):
                    seen.add(("file", os.path.abspath(os.fsdecode(path))))
            elif event in ("os.listdir", "os.scandir") and not isinstance(args[0], int):
                seen.add(("dir", os.path.abspath(os.fsdecode(args[0] or "."))))
            elif event == "subprocess.Popen":
                seen.add(("file", os.path.abspath(os.fsdecode(args[0]))))
                seen.add(("ran", repr(args[1])))
        except (
            Exception
        ):  # an audit hook must never raise: the read is marked unrecorded
            seen.add(("unrecorded", event))


def recorder() -> Reads:
    """The process's one recorder (the package is imported afresh at every build)."""
    box: dict[str, Any] = {"reads": None}
    sys.audit(_ADOPT, box)
    found: Reads | None = box["reads"]
    if found is None:
        found = Reads()
        sys.addaudithook(found)
    return found


def snapshot(kind: str, where: str) -> str | None:
    """What a recorded read found now: the bytes' hash, a folder's names' hash, None if absent."""
    if kind == "ran":
        return where
    if kind == "unrecorded":
        return (
            "unrecorded"  # an entry with a read the hook could not name is never used
        )
    try:
        listed = kind == "dir"
        data = "\0".join(sorted(os.listdir(where))).encode() if listed else b""
        data = data if listed else Path(where).read_bytes()
    except OSError:
        return None
    return hashlib.sha256(data).hexdigest()


def _kept(kind: str, where: str) -> bool:
    return kind != "file" or not where.startswith(_SKIP)


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


def usable() -> bool:
    return cache.enabled() and not cache.fresh()


def reusable(markdown: str) -> bool:
    """The API page is rendered at every build (mkdocstrings registers its anchors as it renders)."""
    return _API not in f"\n{markdown}"


def find(key: str) -> dict | None:
    """The kept render under ``key`` when every read it recorded is unchanged, else None."""
    # a page never kept is no computed result of the cache's count (hooks/experiment.py's line)
    if not cache.holds(KIND, key):
        return None
    entry = cache.lookup(KIND, key)
    if not isinstance(entry, dict):
        return None
    for kind, where, seen in entry["reads"]:
        if snapshot(kind, where) != seen:
            log.debug("page_reuse: %s changed since the render was kept", where)
            return None
    return entry


def keep(key: str, reads: set[tuple[str, str]], page: Any, html: str) -> None:
    """Store the render of ``page`` with what it read."""
    links = {
        to.src_uri: dict(anchors)
        for to, anchors in (page.links_to_anchors or {}).items()
    }
    entry = {
        "reads": sorted((k, w, snapshot(k, w)) for k, w in reads if _kept(k, w)),
        "html": html,
        "toc": page.toc,
        "title": page.title,
        "present": sorted(page.present_anchor_ids or ()),
        "links": links,
    }
    cache.store(KIND, key, entry)


def give_back(entry: dict, page: Any, files: Any) -> str:
    """The kept render's HTML; the page's fields set as the render set them."""
    page.toc = entry["toc"]
    page.title = entry["title"]
    page.present_anchor_ids = set(entry["present"])
    links = {files.get_file_from_path(src): a for src, a in entry["links"].items()}
    page.links_to_anchors = {f: a for f, a in links.items() if f is not None}
    return str(entry["html"])


def headings(toc: Any) -> list[tuple[str, str]]:
    """(id, title) of every heading of a toc, in order (what autorefs registers of a page)."""
    out: list[tuple[str, str]] = []
    for item in toc:
        out.append((item.id, item.title))
        out.extend(headings(item.children))
    return out
