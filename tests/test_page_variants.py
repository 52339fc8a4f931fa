"""workshop_site/page_variants.py: several kept renders under one page key, each used only when
every file it read holds the bytes it read.

The expected renders come from the files' contents as the test wrote them (a render is named by
the text it read), not from the module under test.
"""

from __future__ import annotations

from attention_workshop.experiment import cache
from workshop_site import page_variants
from workshop_site.page_reads import snapshot

KEY = "a-page-key"


def render(path) -> dict:
    """A render that read ``path``: its HTML names what it read."""
    text = path.read_text()
    return {
        "reads": [("file", str(path), snapshot("file", str(path)))],
        "html": f"<p>{text}</p>",
    }


def found(key: str = KEY):
    hit = page_variants.find(key)
    return None if hit is None else hit[1]["html"]


def test_an_undone_edit_finds_the_render_before_it(empty_cache):
    data = empty_cache / "data.txt"
    data.write_text("first")
    page_variants.keep(KEY, render(data))
    data.write_text("second")
    assert found() is None  # what the render read changed
    page_variants.keep(KEY, render(data))
    assert found() == "<p>second</p>"
    data.write_text("first")  # undone
    assert found() == "<p>first</p>"
    data.write_text("third")
    assert found() is None


def test_a_key_keeps_its_newest_renders_only(empty_cache):
    data = empty_cache / "data.txt"
    for n in range(page_variants.VARIANTS + 1):
        data.write_text(f"version {n}")
        page_variants.keep(KEY, render(data))
    for n in range(1, page_variants.VARIANTS + 1):
        data.write_text(f"version {n}")
        assert found() == f"<p>version {n}</p>"
    data.write_text("version 0")  # the oldest left the index
    assert found() is None


def test_keeping_the_same_render_again_adds_no_variant(empty_cache):
    data = empty_cache / "data.txt"
    data.write_text("same")
    for _ in range(3):
        page_variants.keep(KEY, render(data))
    assert len(cache.lookup(page_variants.INDEX, KEY)) == 1


def test_other_keys_are_apart(empty_cache):
    data = empty_cache / "data.txt"
    data.write_text("x")
    page_variants.keep(KEY, render(data))
    assert found("another-key") is None


def _flip(path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))


def test_a_damaged_render_is_named_and_not_used(empty_cache):
    data = empty_cache / "data.txt"
    data.write_text("first")
    own = page_variants.keep(KEY, render(data))
    _flip(empty_cache / "cache" / page_variants.KIND / f"{own}.pickle")
    assert found() is None
    assert any(d.startswith(f"{page_variants.KIND}/{own}") for d in cache.DAMAGED)


def test_a_damaged_index_is_named_and_finds_nothing(empty_cache):
    data = empty_cache / "data.txt"
    data.write_text("first")
    page_variants.keep(KEY, render(data))
    (index,) = (empty_cache / "cache" / page_variants.INDEX).glob("*.pickle")
    _flip(index)
    assert found() is None
    assert any(d.startswith(f"{page_variants.INDEX}/") for d in cache.DAMAGED)


def test_a_render_whose_reads_differ_from_its_index_is_not_used(empty_cache):
    """The index and the render must agree on what it read (each is checksummed on its own)."""
    data = empty_cache / "data.txt"
    data.write_text("first")
    own = page_variants.keep(KEY, render(data))
    other = render(data)
    other["reads"] = [("file", str(empty_cache / "elsewhere"), None)]
    cache.store(page_variants.KIND, own, other)
    assert found() is None


def test_nothing_is_found_fresh_or_off(empty_cache, monkeypatch):
    data = empty_cache / "data.txt"
    data.write_text("first")
    page_variants.keep(KEY, render(data))
    monkeypatch.setenv("FRESH", "1")
    assert found() is None
    monkeypatch.delenv("FRESH")
    monkeypatch.setenv("WORKSHOP_CACHE", "off")
    assert found() is None
