"""workshop_site/search_reuse.py and hooks/search_reuse.py: a page's search entries, kept from
Material's own index, put back in their place give Material's index byte for byte; the hook,
driven as MkDocs drives it around Material's own indexing, gives Material's index whichever pages
it kept, and a kept page's front matter is its own again after the page.

The expected indexes are Material's: its search plugin's ``SearchIndex`` (the pinned version) run
on small pages, all of them, or one page alone. If Material changes how it writes its index,
these fail.
"""

from __future__ import annotations

import copy
import json
import sys
from types import SimpleNamespace

import pytest
from material.plugins.search.plugin import SearchIndex

from workshop_site import search_reuse

from .conftest import load_hook

SETTINGS = {
    "lang": ["en"],
    "separator": r"[\s\-]+",
    "pipeline": ["stemmer"],
    "fields": {"title": {"boost": 1e3}, "text": {"boost": 1e0}, "tags": {"boost": 1e6}},
}


def _item(id: str, title: str, children=()) -> SimpleNamespace:
    return SimpleNamespace(
        id=id, url=f"#{id}", title=title, level=2, children=list(children)
    )


def _page(url: str, title: str, sections: list[str], boost: float = 1.0):
    body = "".join(
        f'<h2 id="{s.lower()}">{s}</h2><p>{title}: about {s}, <code>x</code>.</p>'
        for s in sections
    )
    return SimpleNamespace(
        url=url,
        title=title,
        content=f"<h1>{title}</h1>{body}",
        toc=[
            _item(
                url.strip("/") or "home", title, [_item(s.lower(), s) for s in sections]
            )
        ],
        meta={"search": {"boost": boost}},
        file=SimpleNamespace(src_uri=(url.strip("/") or "index") + ".md"),
    )


PAGES = [
    _page("", "Home", ["Start"]),
    _page("one/", "One", ["Queries", "Keys"], boost=8.0),
    _page("two/", "Two", ["Values"], boost=4.0),
    _page("three/", "Three", [], boost=2.0),
]


def material_index(pages) -> str:
    """Material's search_index.json of ``pages``, in that order."""
    index = SearchIndex(**SETTINGS)
    for page in pages:
        index.add_entry_from_context(page)
    return index.generate_search_index(None)


def material_entries(page) -> list:
    return json.loads(material_index([page]))["docs"]


ORDER = [p.url for p in PAGES]


def test_parsing_nothing_again_gives_materials_index_and_each_pages_entries():
    text = material_index(PAGES)
    merged = search_reuse.merge(text, ORDER, {})
    assert merged is not None
    out, parsed = merged
    assert out == text
    assert parsed == {p.url: material_entries(p) for p in PAGES}


@pytest.mark.parametrize("skipped", [[1], [0, 2], [3], [0, 1, 2, 3]])
def test_kept_entries_put_back_give_materials_index_byte_for_byte(skipped):
    kept = {PAGES[i].url: material_entries(PAGES[i]) for i in skipped}
    # Material parses only the others (the skipped ones carry search: exclude)
    text = material_index([p for n, p in enumerate(PAGES) if n not in skipped])
    merged = search_reuse.merge(text, ORDER, kept)
    assert merged is not None
    assert merged[0] == material_index(PAGES)
    assert set(merged[1]) == {p.url for n, p in enumerate(PAGES) if n not in skipped}


def test_an_index_that_does_not_read_as_expected_keeps_nothing():
    text = material_index(PAGES)
    data = json.loads(text)
    spaced = json.dumps(data)  # other separators: not as Material writes it
    assert search_reuse.merge(spaced, ORDER, {}) is None
    docs = data["docs"]
    k = next(n for n, e in enumerate(docs) if e["location"].startswith("two/"))
    moved = dict(
        data, docs=[docs[k], *docs[:k], *docs[k + 1 :]]
    )  # not the build's order
    assert (
        search_reuse.merge(json.dumps(moved, separators=(",", ":")), ORDER, {}) is None
    )
    assert (
        search_reuse.merge(text, ORDER[:2], {}) is None
    )  # entries of a page not in the build


def test_the_key_changes_with_everything_materials_search_reads():
    page = _page("one/", "One", ["Queries", "Keys"], boost=8.0)
    base = search_reuse.key(page, SETTINGS)
    assert (
        search_reuse.key(_page("one/", "One", ["Queries", "Keys"], boost=8.0), SETTINGS)
        == base
    )
    changes = [
        _page("one/", "One", ["Queries", "Kays"], boost=8.0),  # the HTML and the toc
        _page("uno/", "One", ["Queries", "Keys"], boost=8.0),  # the URL
        _page("one/", "One", ["Queries", "Keys"], boost=4.0),  # the front matter
    ]
    retitled = _page("one/", "One", ["Queries", "Keys"], boost=8.0)
    retitled.title = "Uno"
    toc_only = _page("one/", "One", ["Queries", "Keys"], boost=8.0)
    toc_only.toc[0].children[1].title = "Keys!"
    keys = [search_reuse.key(p, SETTINGS) for p in [*changes, retitled, toc_only]]
    keys.append(search_reuse.key(page, {**SETTINGS, "lang": ["de"]}))
    assert base not in keys and len(set(keys)) == len(keys)


def _build(hook, config, pages, site) -> str:
    """One build as MkDocs runs it: the hook's on_page_context (before Material's search, which
    skips a page whose front matter says ``search: exclude``), Material's, the hook's
    on_post_page; Material writes its index, then the hook's on_post_build. The index written."""
    index = SearchIndex(**SETTINGS)
    hook.on_config(config)
    for page in pages:
        before = copy.deepcopy(page.meta)
        hook.on_page_context({}, page=page, config=config, nav=None)
        index.add_entry_from_context(page)  # Material's own step, as its plugin runs it
        hook.on_post_page("", page=page, config=config)
        assert page.meta == before  # the page's own front matter again
    path = site / "search" / "search_index.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(index.generate_search_index(None), encoding="utf-8")
    hook.on_post_build(config)
    return path.read_text(encoding="utf-8")


def _config(site):
    settings = {"enabled": True, **SETTINGS}
    plugin = SimpleNamespace(config=settings)
    return SimpleNamespace(plugins={"material/search": plugin}, site_dir=str(site))


def test_the_hook_gives_materials_index_whichever_pages_it_kept(empty_cache):
    """Builds with the cache: the first keeps every page's entries, the second puts them all
    back (Material parses none), the third after one page changed parses that page alone; each
    index is the one Material makes of the pages as they are."""
    hook = load_hook("search_reuse")
    common = sys.modules["_workshop_common"]
    site, pages = empty_cache / "site", [copy.deepcopy(p) for p in PAGES]
    config = _config(site)
    common.PROBLEMS.clear()
    assert _build(hook, config, pages, site) == material_index(PAGES)
    assert hook._KEPT == {}
    assert _build(hook, config, pages, site) == material_index(PAGES)
    assert set(hook._KEPT) == set(ORDER)  # every page's entries came from the cache
    pages[2] = _page("two/", "Two", ["Values", "Outputs"], boost=4.0)
    assert _build(hook, config, pages, site) == material_index(pages)
    assert set(hook._KEPT) == set(ORDER) - {"two/"}
    assert common.PROBLEMS == {}


def test_kept_entries_that_cannot_be_put_back_are_a_problem(empty_cache):
    """Every page's entries kept, then an index not written as Material writes it: a problem
    (the strict build fails on it) naming the hook and FRESH=1."""
    hook = load_hook("search_reuse")
    common = sys.modules["_workshop_common"]
    site = empty_cache / "site"
    config = _config(site)
    common.PROBLEMS.clear()
    _build(hook, config, [copy.deepcopy(p) for p in PAGES], site)  # keeps every page's
    hook.on_config(config)
    for page in [copy.deepcopy(p) for p in PAGES]:
        hook.on_page_context({}, page=page, config=config, nav=None)
    path = site / "search" / "search_index.json"
    path.write_text(json.dumps({"config": {}, "docs": []}), encoding="utf-8")  # spaced
    hook.on_post_build(config)
    said = [m for ms in common.PROBLEMS.values() for m in ms]
    common.PROBLEMS.clear()
    assert len(said) == 1 and "hooks/search_reuse.py" in said[0], said
    assert "FRESH=1" in said[0], said
