"""workshop_site/page_steps.py: a hook's step on a page kept in memory between builds (issue 28).

Each test makes builds as hooks/page_reuse.py does (a new :class:`page_steps.Steps` per build,
the process's recorder shared) and counts how often the step really ran. The expected values
are the step's own output computed here from the file's bytes, never read from the memo:

- a later build with the same site key, arguments and files gives the step's result without
  running it; a file it read, or one the build read before its pages, edited with the same size
  runs it again and gives the new result;
- another site key, other arguments, a step that raised, a lambda: the step runs;
- a memo an earlier step filled is forgotten first, so the step records the file behind it;
- without a build that may reuse pages, the step runs every time;
- a build keeps only the steps the build before it used.
"""

from __future__ import annotations

import functools
import sys
import types
from pathlib import Path

import pytest

from workshop_site import page_reads, page_steps

RUNS: list[str] = []


def shout(path: Path, suffix: str) -> str:
    """The step: the file's text in capitals (it reads the file)."""
    RUNS.append(suffix)
    return path.read_text().upper() + suffix


#: The module whose memo steps one and two share (test_a_memo_an_earlier_step_filled_is_read_again).
MODULE: dict[str, types.ModuleType] = {}


def one(n: int) -> str:
    RUNS.append("one")
    return MODULE["memo"].read() * n  # type: ignore[no-any-return]


def two(n: int) -> str:
    RUNS.append("two")
    return MODULE["memo"].read().upper() * n  # type: ignore[no-any-return]


def broken(path: Path) -> str:
    RUNS.append("broken")
    raise ValueError(f"cannot read {path.name}")


class Build:
    """What :class:`page_steps.Steps` takes from hooks/page_reuse.py's build."""

    def __init__(self, site: str, outside: set[tuple[str, str]] | None = None):
        self.reads = page_reads.recorder()
        self.reads.status.clear()  # a new build: page_reads.start
        self.reads.written.clear()
        self.site, self.outside, self.known = site, outside or set(), {}
        self.gap = page_reads.memos()
        self.steps = page_steps.Steps(self)


@pytest.fixture()
def build(monkeypatch):
    """A function making the next build: the keeper is it, and no step of another test is kept."""
    reads = page_reads.recorder()
    monkeypatch.delitem(vars(reads), "steps", raising=False)
    RUNS.clear()

    def make(site: str = "site", outside: set[tuple[str, str]] | None = None) -> Build:
        b = Build(site, outside)
        monkeypatch.setattr(page_reads, "KEEPER", [b])
        monkeypatch.setattr(page_steps, "KEEPER", [b])
        return b

    yield make
    vars(reads).pop("steps", None)


def test_a_step_is_given_back_while_what_it_read_is_unchanged(tmp_path, build):
    page = tmp_path / "page.html"
    page.write_text("attention")
    build()
    assert page_steps.same(shout, page, "!") == "ATTENTION!"
    assert RUNS == ["!"]
    build()
    assert page_steps.same(shout, page, "!") == "ATTENTION!"
    assert RUNS == ["!"]  # not run again
    page.write_text("attentiox")  # the same size
    build()
    assert page_steps.same(shout, page, "!") == "ATTENTIOX!"
    assert RUNS == ["!", "!"]


def test_a_file_read_before_the_pages_runs_the_step_again(tmp_path, build):
    page, data = tmp_path / "page.html", tmp_path / "results.log"
    page.write_text("softmax")
    data.write_text("one")
    outside = {("file", str(data))}
    build(outside=outside)
    assert page_steps.same(shout, page, "?") == "SOFTMAX?"
    build(outside=outside)
    assert page_steps.same(shout, page, "?") == "SOFTMAX?"
    assert RUNS == ["?"]
    data.write_text("two")
    build(outside=outside)
    assert page_steps.same(shout, page, "?") == "SOFTMAX?"
    assert RUNS == ["?", "?"]


def test_other_keys_arguments_failures_and_lambdas_run(tmp_path, build):
    page = tmp_path / "page.html"
    page.write_text("query")
    build("one")
    assert page_steps.same(shout, page, ".") == "QUERY."
    build("two")  # another site key: the project's code changed
    assert page_steps.same(shout, page, ".") == "QUERY."
    assert page_steps.same(shout, page, ",") == "QUERY,"
    assert RUNS == [".", ".", ","]
    for _ in range(2):
        build("two")
        with pytest.raises(ValueError, match=r"cannot read page\.html"):
            page_steps.same(broken, page)
        assert page_steps.same(lambda: len(RUNS)) == len(RUNS)
    assert RUNS.count("broken") == 2


def test_a_memo_an_earlier_step_filled_is_read_again(tmp_path, build, monkeypatch):
    """A memo of the package reading ``words``, filled by step one or by a hook's own call before
    step two uses it: two's entry holds ``words`` all the same, and an edit to it runs two again."""
    words = tmp_path / "words.txt"
    words.write_text("key")
    module = types.ModuleType("workshop_site._test_steps")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    module.read = functools.lru_cache(maxsize=None)(words.read_text)  # type: ignore[attr-defined]
    monkeypatch.setitem(MODULE, "memo", module)

    for _ in range(2):
        build()
        assert page_steps.same(one, 1) == "key"
        assert page_steps.same(two, 2) == "KEYKEY"
    assert RUNS == ["one", "two"]
    words.write_text("val")
    build()
    assert module.read() == "val"  # a hook's own call, no step, fills the memo
    assert page_steps.same(two, 2) == "VALVAL"
    words.write_text("ton")
    build()
    module.read()
    assert page_steps.same(two, 2) == "TONTON"
    assert RUNS == ["one", "two", "two", "two"]


def test_without_a_reusing_build_the_step_runs(tmp_path, monkeypatch):
    monkeypatch.setattr(page_steps, "KEEPER", [])
    page = tmp_path / "page.html"
    page.write_text("value")
    RUNS.clear()
    assert [page_steps.same(shout, page, "") for _ in range(2)] == ["VALUE", "VALUE"]
    assert RUNS == ["", ""]


def test_a_build_keeps_only_the_steps_the_build_before_it_used(tmp_path, build):
    a, b = tmp_path / "a.html", tmp_path / "b.html"
    a.write_text("a")
    b.write_text("b")
    build()
    page_steps.same(shout, a, "")
    page_steps.same(shout, b, "")
    build()
    page_steps.same(shout, a, "")  # b's step unused by this build
    build()
    entries = vars(page_reads.recorder())["steps"]["entries"]
    assert len(entries) == 1
    page_steps.same(shout, b, "")
    assert RUNS == ["", "", ""]
