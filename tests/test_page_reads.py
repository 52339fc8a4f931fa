"""workshop_site/page_reads.py: memory between two pages' renders, and results kept between builds.

- a ``functools`` memo a render filled is forgotten at its end (the next page computes it again
  and records what it reads), unless it is marked :func:`page_reads.pure`;
- a memo defined after a module was first looked at is found too;
- a :class:`page_reads.Recorded` result with ``inputs`` goes to the build's keeper with what it
  read, is found there by a later build (nothing computed), and is not kept when ``settled()``
  moved while it was made (a notebook whose cells failed).
"""

from __future__ import annotations

import functools
import os
import sys
import types

import pytest

from workshop_site import page_reads


@pytest.fixture()
def module(monkeypatch):
    """A module of the site's package, as a build imports them, to hold memos."""
    mod = types.ModuleType("workshop_site._test_memos")
    monkeypatch.setitem(sys.modules, mod.__name__, mod)
    return mod


def test_a_filled_memo_is_forgotten_unless_it_is_pure(module):
    calls: list[str] = []

    @functools.lru_cache
    def plain(x: str) -> str:
        calls.append(f"plain {x}")
        return x

    @page_reads.pure
    @functools.lru_cache
    def parsed(x: str) -> str:
        calls.append(f"pure {x}")
        return x

    module.plain, module.parsed = plain, parsed
    before = page_reads.memos()
    assert id(plain) in before and id(parsed) not in before
    plain("a"), parsed("a")
    page_reads.forget_filled(before)
    plain("a"), parsed("a")
    assert calls == ["plain a", "pure a", "plain a"], calls


def test_a_memo_added_to_a_module_later_is_found(module):
    assert page_reads.memos() == page_reads.memos()  # the module is looked at once

    @functools.lru_cache
    def late(x: str) -> str:
        return x

    module.late = late
    assert id(late) in page_reads.memos()


def test_only_the_two_packages_memos_are_looked_at(monkeypatch):
    """A memo in either package's modules, the packages themselves included, and none in a
    module whose name only starts the same (``workshop_site_extra``) or holds it further on."""
    found = {}
    for name in (
        "attention_workshop",
        "workshop_site._test_sub.deeper",
        "workshop_site_extra",
        "other.workshop_site",
        "attention_workshopx.y",
    ):
        mod = types.ModuleType(name)
        mod.memo = found[name] = functools.lru_cache(lambda x: x)
        monkeypatch.setitem(sys.modules, name, mod)
    seen = page_reads.memos()
    assert [n for n, m in found.items() if id(m) in seen] == [
        "attention_workshop",
        "workshop_site._test_sub.deeper",
    ]


class Keeper:
    """A build's keeper in memory: what was kept, by what the result is keyed on."""

    def __init__(self) -> None:
        self.kept: dict[object, tuple[object, set]] = {}

    def find(self, what):
        return self.kept.get(what)

    def keep(self, what, value, reads):
        self.kept[what] = (value, set(reads))


def test_a_recorded_result_is_kept_between_builds_with_what_it_read(
    tmp_path, monkeypatch
):
    page = tmp_path / "page.md"
    page.write_text("# A page\n")
    failures: list[str] = []
    made: list[str] = []
    reads = page_reads.recorder()
    keeper = Keeper()
    monkeypatch.setattr(page_reads, "KEEPER", [keeper])

    def notebook(name: str) -> bytes:
        made.append(name)
        if name == "broken":
            failures.append(name)
        return page.read_bytes()

    def build() -> page_reads.Recorded:
        return page_reads.Recorded(
            notebook,
            inputs=lambda name: ("values", name),
            settled=lambda: len(failures),
        )

    outer: set[tuple[str, str]] = set()
    monkeypatch.setattr(reads, "seen", outer)
    try:
        assert build()("page") == b"# A page\n"
        assert made == ["page"]
        (what, (value, read)), *_ = keeper.kept.items()
        assert what[1:] == ("page", ("values", "page")) and value == b"# A page\n"
        assert ("file", str(page)) in read and ("file", str(page)) in outer
        # a later build (a new memo) finds it, and its page reads what it read
        outer.clear()
        assert build()("page") == b"# A page\n"
        assert made == ["page"] and ("file", str(page)) in outer
        # a result whose making added a failure is not kept
        build()("broken")
        assert made == ["page", "broken"] and len(keeper.kept) == 1
    finally:
        reads.seen = None


def test_a_first_build_making_its_cache_and_site_folders_still_keeps_its_pages(
    tmp_path, monkeypatch
):
    """``page_reads.start`` makes the cache's and the site's folders before it records: a page's
    reads hold the listing of the project's folder (on ``sys.path`` under ``python -m mkdocs``),
    and a folder made there during the build changed that listing, so the first build of a fresh
    clone kept no page (each read is checked unchanged before a render is kept)."""
    from attention_workshop.experiment import cache

    def first_build(start) -> list[str]:
        project = tmp_path / f"project-{len(list(tmp_path.iterdir()))}"
        project.mkdir()
        monkeypatch.setenv("WORKSHOP_CACHE", str(project / ".cache" / "workshop"))
        site = project / "site"
        outside: set[tuple[str, str]] = set()
        reads = page_reads.recorder()
        try:
            start(outside, str(site))
            sorted(os.listdir(project))  # an import looks for a module there
            cache.enable(True)
            cache.store("test-kind", "key", 1)  # the build's first stored result
            site.mkdir(exist_ok=True)
            (site / "index.html").write_text("a page\n")
            kept = page_reads.inputs(reads, outside)
            assert ("dir", str(project)) in kept
            return page_reads.changed_while_read(reads, kept)
        finally:
            reads.seen = None
            cache.enable(False)

    assert first_build(page_reads.start) == []

    def recording_only(outside: set[tuple[str, str]], site_dir: str) -> None:
        page_reads.recorder().start(outside)  # as before: the folders made later

    assert first_build(recording_only) != []
