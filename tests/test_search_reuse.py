"""workshop_site/search_reuse.py: a page's search entries, kept from Material's own index, put back
in their place give Material's index byte for byte.

The expected indexes are Material's: its search plugin's ``SearchIndex`` (the pinned version) run
on small pages, all of them, or one page alone. If Material changes how it writes its index,
these fail.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from material.plugins.search.plugin import SearchIndex

from workshop_site import search_reuse

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
