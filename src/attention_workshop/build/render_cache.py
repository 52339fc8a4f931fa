"""A page whose inputs have not changed is not rendered from Markdown again (hooks/render_cache.py).

A page's rendering (Markdown to HTML: the snippets run, the API reference, the diagrams) is
kept in the build's cache (:mod:`.cache`) under the key of everything it reads
(:func:`page_key`): its Markdown after the other hooks (values filled), its front matter, the
files it includes (``--8<--``, followed), where it stands, mkdocs.yml, the hooks, the theme
overrides, the diagrams, the site's list of files and the environment; for a page that runs
code (an exec fence, a ``:::`` block) also the package (:mod:`.page_keys`: every byte where
the page may show its text, else what its code does), captures/, every value the prose may
quote (the commit included) and, when one of its snippets lists the downloads, the take-home
files' names and sizes as shown. markdown-exec numbers its blocks across the build: the count
so far is part of the key too.

A hit restores what rendering leaves behind: the HTML, the table of contents, the title, the
anchors and links MkDocs validates, the anchors autorefs resolves and mkdocstrings' inventory.
Every hook after rendering runs as in a full build, so every check is made on every page. A
rendering that logged a warning is never kept: a page with a problem is rendered, and reports
it, every time. Material's search entries of a page are kept the same way (:func:`indexed`).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import cache, downloads, highlight_memo, site, theme_files
from .takehome import human_size

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

__all__ = [
    "compile_templates_once",
    "keep_theme_listing",
    "start",
    "folder_digest",
    "includes",
    "page_key",
    "renderer",
    "indexed",
]

#: What a page's rendering does, given the page, the config and the files (``Page.render``'s call).
Render = Callable[["Page", "MkDocsConfig", "Files"], None]

_INCLUDE = re.compile(r"""^\s*-{1,}8<-{1,}\s+["']?([^"'\s]+)["']?\s*$""", re.M)
# a line-numbered listing (pymdownx.highlight's table): the Source page's whole files
_LISTING = re.compile(r'<table class="highlighttable">.*?</table>', re.S)
_RUNS_CODE = re.compile(r"""exec=["']?(?:1|true|on)|^\s*:::\s""", re.M)
#: What every page's rendering shares in this build (:func:`start`): "site", "root", "captures".
_BUILD: dict[str, Any] = {}


def _counter() -> Any:
    from markdown_exec._internal.rendering import MarkdownConverter

    return MarkdownConverter


def folder_digest(root: Path, *parts: str) -> str:
    """A digest of the files under ``root``'s ``parts`` (folders or files), by relative name and bytes."""
    files = [
        (p.relative_to(root).as_posix(), p.read_bytes())
        for part in parts
        for p in sorted(
            (root / part).rglob("*") if (root / part).is_dir() else [root / part]
        )
        if p.is_file() and "__pycache__" not in p.parts
    ]
    return str(cache.digest(files))


def keep_theme_listing(config: MkDocsConfig) -> None:
    """The theme's static files listed once per process, not per build (:mod:`.theme_files`)."""
    theme = config.theme
    get_env = theme.get_env
    settings = tuple(sorted(theme.static_templates))
    theme.get_env = lambda: theme_files.remember(get_env(), settings)  # type: ignore[method-assign]


def compile_templates_once(config: MkDocsConfig) -> None:
    """mkdocstrings' templates compiled once, not at every build that renders the API page: its
    Jinja environment (made anew for each build) keeps their bytecode on disk, keyed by Jinja on
    each template's file and text, as the theme's templates are (hooks/render_cache.py)."""
    from jinja2 import FileSystemBytecodeCache

    plugin = config.plugins.get("mkdocstrings")
    if plugin is None or not cache.enabled():
        return
    handler = plugin.handlers.get_handler(plugin.config.default_handler)
    folder = cache.folder() / "jinja-mkdocstrings"
    folder.mkdir(parents=True, exist_ok=True)
    handler.env.bytecode_cache = FileSystemBytecodeCache(str(folder))


def start(config: MkDocsConfig, files: Files) -> None:
    """What every page's rendering shares, once per build (MkDocs' ``on_nav``)."""
    root = Path(config.config_file_path).parent
    # a code block's Pygments HTML is made once per text and options (Source's listings)
    highlight_memo.install()
    _BUILD.clear()
    _BUILD["site"] = cache.digest(
        folder_digest(root, "mkdocs.yml", "hooks", "overrides", "docs/diagrams"),
        sorted((f.src_uri, f.dest_uri, f.url, str(f.inclusion)) for f in files),
        config.site_url,
        config.repo_url,
        dict(config.mdx_configs.get("pymdownx.snippets", {})),
    )
    _BUILD["root"] = root


def includes(markdown: str, root: Path, seen: set[Path]) -> list[tuple[str, bytes]]:
    """Every file ``--8<--`` includes (pymdownx.snippets' base paths: snippets/, the project), followed."""
    out = []
    for name in _INCLUDE.findall(markdown):
        path = next(
            (b / name for b in (root / "snippets", root) if (b / name).is_file()), None
        )
        if path is None or path in seen:
            out.append((name, b""))
            continue
        seen.add(path)
        data = path.read_bytes()
        out.append((name, data))
        out += includes(data.decode("utf-8", errors="replace"), root, seen)
    return out


def _captures(root: Path) -> str:
    """captures/'s digest, once per build."""
    if "captures" not in _BUILD:
        _BUILD["captures"] = folder_digest(root, "captures")
    return str(_BUILD["captures"])


def page_key(markdown: str, page: Page) -> str:
    """The key of a page's rendering: everything it reads (the module's docstring lists it)."""
    root = _BUILD["root"]
    included = includes(markdown, root, set())
    parts: list[object] = [
        _BUILD["site"],
        page.file.src_uri,
        markdown,
        page.meta,
        included,
        _counter().counter,
    ]
    if _RUNS_CODE.search(markdown):
        parts += [
            # every byte of the package where the page may show it, else what its code does
            site.code_key(markdown, included),
            _captures(root),
            sorted(site.context().items()),
        ]
        if any(b"downloads" in data for _, data in included):
            # what such a page shows of them: each file's name and size as the table rounds it
            parts.append(
                sorted((p, human_size(len(d))) for p, d in downloads.files().items())
            )
    return str(cache.key("page", *parts))


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def _plugins(config: MkDocsConfig) -> tuple[Any, Any]:
    """autorefs, and mkdocstrings' inventory (None where a plugin is not used)."""
    autorefs = config.plugins.get("autorefs")
    strings = config.plugins.get("mkdocstrings")
    inventory = getattr(getattr(strings, "handlers", None), "inventory", None)
    return autorefs, inventory


@contextlib.contextmanager
def _recording(
    autorefs: Any,
) -> Iterator[list[tuple[str, tuple[Any, ...], dict[str, Any]]]]:
    """The calls a rendering makes to autorefs' ``register_anchor`` and ``register_url`` (the page
    left out), passed on as they come."""
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    originals = {}
    for name in ("register_anchor", "register_url"):
        if autorefs is not None:
            originals[name] = getattr(autorefs, name)

            def record(*args: Any, _name: str = name, **kwargs: Any) -> Any:
                calls.append(
                    (_name, args[1:] if _name == "register_anchor" else args, kwargs)
                )
                return originals[_name](*args, **kwargs)

            setattr(autorefs, name, record)
    try:
        yield calls
    finally:
        for name in originals:
            delattr(autorefs, name)


@contextlib.contextmanager
def _warnings() -> Iterator[_Records]:
    """The warnings logged meanwhile, counted."""
    records = _Records()
    # MkDocs' own logger does not pass its records on to the root logger: both are watched
    watched = (logging.getLogger(), logging.getLogger("mkdocs"))
    for logger in watched:
        logger.addHandler(records)
    try:
        yield records
    finally:
        for logger in watched:
            logger.removeHandler(records)


def _render_and_keep(key: str) -> Render:
    def render(page: Page, config: MkDocsConfig, files: Files) -> None:
        from mkdocs.structure.pages import Page

        autorefs, inventory = _plugins(config)
        before = dict(inventory) if inventory is not None else {}
        start = _counter().counter
        with _recording(autorefs) as calls, _warnings() as warnings:
            Page.render(page, config, files)
        if warnings.count:
            return
        cache.store(
            "page",
            key,
            {
                "content": page.content,
                "toc": page.toc,
                "title": page._title_from_render,
                "anchors": page.present_anchor_ids,
                "links": {
                    f.src_uri: d for f, d in (page.links_to_anchors or {}).items()
                },
                "autorefs": calls,
                "inventory": {
                    k: v for k, v in (inventory or {}).items() if before.get(k) is not v
                },
                "blocks": _counter().counter - start,
            },
        )

    return render


def _restore(entry: dict[str, Any]) -> Render:
    def render(page: Page, config: MkDocsConfig, files: Files) -> None:
        page.content, page.toc = entry["content"], entry["toc"]
        page._title_from_render = entry["title"]
        page.present_anchor_ids = entry["anchors"]
        links = {files.get_file_from_path(k): d for k, d in entry["links"].items()}
        page.links_to_anchors = {f: d for f, d in links.items() if f is not None}
        autorefs, inventory = _plugins(config)
        for name, args, kwargs in entry["autorefs"]:
            if name == "register_anchor":
                autorefs.register_anchor(page, *args, **kwargs)
            else:
                autorefs.register_url(*args, **kwargs)
        if inventory is not None:
            inventory.update(entry["inventory"])
        _counter().counter += entry["blocks"]

    return render


def renderer(markdown: str, page: Page) -> Render | None:
    """How to render ``page`` in this build: the kept rendering restored, or rendered and kept;
    None when the cache is off (or :func:`start` has not run): MkDocs renders as usual."""
    if not cache.enabled() or "root" not in _BUILD:
        return None
    key = page_key(markdown, page)
    entry = cache.lookup("page", key)
    return _render_and_keep(key) if entry is None else _restore(entry)


def indexed(search_index: Any, config: MkDocsConfig) -> Callable[[Page], None]:
    """Material's search entries of a page, kept under the key of what they are made from (cache
    on). A page whose front matter says ``search: {code: false}`` (the Source page) is indexed
    without its line-numbered code listings: its words are found, not every line of the program."""
    add = search_index.add_entry_from_context
    options = dict(config.plugins["material/search"].config)

    def index(page: Page) -> None:
        content = page.content
        if not (page.meta.get("search") or {}).get("code", True):
            page.content = _LISTING.sub("", content or "")
        try:
            add(page)
        finally:
            page.content = content

    def add_entry_from_context(page: Page) -> None:
        if not cache.enabled():
            index(page)
            return
        key = cache.key(
            "search", options, page.url, page.title, page.meta, page.content, page.toc
        )
        entries = cache.lookup("search", key)
        if entries is None:
            before = len(search_index.entries)
            index(page)
            entries = search_index.entries[before:]
            cache.store("search", key, entries)
        else:
            search_index.entries.extend(entries)

    return add_entry_from_context
