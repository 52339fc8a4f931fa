"""experiment/cache.py: a result is found again only under the key of everything it depends on.

Speed is never asserted here (``make bench`` measures it); what is tested is that the cache
cannot serve a wrong result: a key changes with the bytes of the code a result's function
imports, its inputs and the environment (never a date or size), ``FRESH=1`` recomputes, a
damaged entry (one flipped byte) is found by its checksum and computed again, a hit
imports neither PyTorch nor Matplotlib, and a cached build is byte for byte a fresh one
(tests/test_reproducible.py).
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from attention_workshop.experiment import cache, charts, figure_files, grids

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def store(tmp_path, monkeypatch):
    """An enabled cache in an empty folder, not fresh."""
    monkeypatch.setenv("WORKSHOP_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("FRESH", raising=False)
    cache.enable()
    yield tmp_path / "cache"
    cache.enable(False)


def counting(value):
    calls = []

    def compute():
        calls.append(1)
        return value

    return compute, calls


def test_a_result_is_computed_once_then_found(store):
    compute, calls = counting({"x": [1, 2]})
    k = cache.key("kind", "inputs")
    assert cache.get("kind", k, compute) == {"x": [1, 2]}
    assert cache.get("kind", k, compute) == {"x": [1, 2]}
    assert len(calls) == 1 and len(list((store / "kind").glob("*.pickle"))) == 1


def test_other_inputs_other_key(store):
    compute, calls = counting(1)
    cache.get("kind", cache.key("kind", "a"), compute)
    cache.get("kind", cache.key("kind", "b"), compute)
    cache.get("kind", cache.key("other", "a"), compute)
    assert len(calls) == 3


def test_fresh_recomputes_and_stores(store, monkeypatch):
    k = cache.key("kind", 1)
    cache.get("kind", k, lambda: "old")
    monkeypatch.setenv("FRESH", "1")
    assert cache.get("kind", k, lambda: "new") == "new"
    monkeypatch.delenv("FRESH")
    assert cache.get("kind", k, lambda: "never") == "new"


def test_a_damaged_entry_is_computed_again(store):
    k = cache.key("kind", 2)
    cache.get("kind", k, lambda: "good")
    entry = next((store / "kind").glob("*.pickle"))
    entry.write_bytes(entry.read_bytes()[:5])
    assert cache.get("kind", k, lambda: "again") == "again"
    assert cache.DAMAGED and cache.DAMAGED[0].startswith(f"kind/{k}:")


@pytest.mark.parametrize("at", [0, 20, 40, -1])
def test_a_flipped_byte_anywhere_in_an_entry_is_found_and_computed_again(store, at):
    """Every entry carries the sha256 of its bytes: one flipped bit is never read as a result
    (a pickle may well load after a flip, with another value)."""
    k = cache.key("kind", "flip", at)
    cache.get("kind", k, lambda: {"value": list(range(50))})
    entry = next((store / "kind").glob("*.pickle"))
    data = bytearray(entry.read_bytes())
    data[at] ^= 0x01
    entry.write_bytes(bytes(data))
    assert cache.get("kind", k, lambda: "recomputed") == "recomputed"
    assert len(cache.DAMAGED) == 1, cache.DAMAGED


def test_a_result_keep_refuses_is_not_stored(store):
    k = cache.key("kind", 3)
    cache.get("kind", k, lambda: -1, keep=lambda v: v >= 0)
    assert cache.get("kind", k, lambda: 7, keep=lambda v: v >= 0) == 7


def test_outside_a_build_nothing_is_stored(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKSHOP_CACHE", str(tmp_path / "cache"))
    cache.enable(False)
    compute, calls = counting(1)
    cache.get("kind", "k", compute)
    cache.get("kind", "k", compute)
    assert len(calls) == 2 and not (tmp_path / "cache").exists()


def test_a_drawings_key_follows_the_bytes_of_the_code_it_imports_and_nothing_else(
    package_copy,
):
    first = cache.module_digest("attention_workshop.experiment.charts")
    # charts imports plotting: an edit there is an edit to the drawing
    plotting = package_copy / "experiment" / "plotting.py"
    plotting.write_text(plotting.read_text() + "\nLINE_WIDTH = 2\n")
    second = cache.module_digest("attention_workshop.experiment.charts")
    assert second != first
    # the command line is not imported by the drawing code
    cli = package_copy / "experiment" / "cli.py"
    cli.write_text(cli.read_text() + "\n\ndef added():\n    return 1\n")
    assert cache.module_digest("attention_workshop.experiment.charts") == second
    # the maths is: importing the package runs its __init__, which imports core.py
    core = package_copy / "core.py"
    core.write_text(core.read_text() + "\nAGAIN = 2\n")
    assert cache.module_digest("attention_workshop.experiment.charts") != second
    before = cache.module_digest("attention_workshop.chapters.real_heads.facts")
    core.write_text(core.read_text() + "\nONCE_MORE = 3\n")
    assert cache.module_digest("attention_workshop.chapters.real_heads.facts") != before


def test_a_chapters_edit_changes_the_key_of_what_imports_it_and_of_nothing_else(
    package_copy,
):
    """A chapter is imported by the experiment's run (its sections write results.log), not by
    the drawings (which import the chapters' types only under ``if TYPE_CHECKING:``, never run),
    nor by another page's chapter (the chapters package's own module imports no chapter)."""
    others = (
        "attention_workshop.experiment.charts",
        "attention_workshop.experiment.causal_page",
        "attention_workshop.experiment.real_heads_page",
        "attention_workshop.chapters.causal_heads.facts",
        "attention_workshop.chapters.real_heads.facts",
    )
    importers = ("workshop_site.pages", "attention_workshop.experiment.runner")
    before = {name: cache.module_digest(name) for name in others + importers}
    chapter = package_copy / "chapters" / "module_1" / "__init__.py"
    text = chapter.read_text()
    chapter.write_text(text.replace('"""', '"""The chapter, said anew. ', 1))
    after = {name: cache.module_digest(name) for name in others + importers}
    assert [n for n in importers if after[n] == before[n]] == []
    assert [n for n in others if after[n] != before[n]] == []


def test_the_experiments_key_is_every_byte_even_a_docstrings(package_copy):
    """Keys are bytes: a docstring edit may change what a page shows (the API reference), and
    nothing decides which bytes "do nothing"."""
    name = "workshop_site.pages"
    first = cache.module_digest(name)
    core = package_copy / "core.py"
    text = core.read_text()
    core.write_text(text.replace('"""', '"""The module, said anew. ', 1))
    assert cache.module_digest(name) != first
    core.write_text(text)
    assert cache.module_digest(name) == first


def test_a_same_size_edit_with_the_old_date_put_back_changes_the_key(package_copy):
    """Keys never hold a date or a size: ``touch -r`` after an edit of the same length is seen."""
    name = "workshop_site.pages"
    first = cache.module_digest(name)
    toy = package_copy / "toy.py"
    text, st = toy.read_bytes(), toy.stat()
    at = text.index(b"0.")
    toy.write_bytes(text[:at] + b"1." + text[at + 2 :])
    os.utime(toy, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert toy.stat().st_size == st.st_size and toy.stat().st_mtime_ns == st.st_mtime_ns
    assert cache.module_digest(name) != first


def test_data_files_are_part_of_every_code_key(package_copy):
    before = cache.module_digest("attention_workshop.experiment.charts")
    exam = package_copy / "chapters" / "final_exam" / "questions.toml"
    exam.write_text(exam.read_text() + "\n# an edit\n")
    assert cache.module_digest("attention_workshop.experiment.charts") != before


def test_a_readers_figure_is_drawn_unchecked_and_never_stored(store):
    """``themed(strict=False)`` (a reader's own sentence) draws without the overlap check and
    keeps nothing: the cache holds checked drawings only, which the site's strict figures read."""
    words = ["a", "b"]
    draw = functools.partial(
        grids.heatmap_svg, [[1.0, 0.0], [0.5, 0.5]], words, words, "t"
    )
    loose = figure_files.themed("t.svg", draw, strict=False)
    assert list(store.rglob("*.pickle")) == []
    checked = figure_files.themed("t.svg", draw)
    assert checked == loose and list(store.rglob("*heatmap_svg/*.pickle"))


def test_call_keys_on_the_function_and_its_arguments(store):
    words = ["a", "b"]
    light = cache.call(
        functools.partial(
            grids.heatmap_svg, [[1.0, 0.0], [0.5, 0.5]], words, words, "t"
        )
    )
    again = cache.call(
        functools.partial(
            grids.heatmap_svg, [[1.0, 0.0], [0.5, 0.5]], words, words, "t"
        )
    )
    other = cache.call(
        functools.partial(
            grids.heatmap_svg, [[1.0, 0.0], [0.4, 0.6]], words, words, "t"
        )
    )
    assert light == again != other
    assert "0.400" in other and "0.400" not in light
    assert cache.STATS["experiment.grids.heatmap_svg"][0] >= 1
    # a lambda cannot be pickled: computed, never stored
    assert cache.call(lambda: charts.fmt.short(0.5)) == charts.fmt.short(0.5)


def test_call_caches_a_function_of_the_sites_build_package_too(store):
    """The math font's subset and the causal page's figures are functions of ``workshop_site``:
    kept like the workshop's own (they were computed at every build when only
    ``attention_workshop`` counted)."""
    from workshop_site import fonts

    formula = "<math><mi>x</mi><mo>=</mo><msqrt><mi>y</mi></msqrt></math>"
    first = cache.call(fonts.math_text, formula)
    again = cache.call(fonts.math_text, formula)
    assert first == again == fonts.math_text(formula) and "\u221a" in first
    assert cache.STATS["workshop_site.fonts.math_text"] == [1, 1]
    assert list((store / "workshop_site.fonts.math_text").glob("*.pickle"))
    # a function from outside src/ is computed each time, never stored
    assert cache.call(functools.reduce, max, [3, 1, 2]) == 3
    assert not any("reduce" in p.name for p in store.iterdir())


HIT = """
import sys
from attention_workshop.experiment import cache
from workshop_site import pages
cache.enable()
pages.results()
cache.enable(False)
print(cache.STATS["experiment"], "torch" in sys.modules, "matplotlib" in sys.modules)
"""


@pytest.mark.site
def test_a_hit_imports_neither_pytorch_nor_matplotlib(built_site, tmp_path):
    """The run the session's build stored (another process, through MkDocs) is read by a plain
    process, which imports neither PyTorch nor Matplotlib. (This test used to store the run
    itself first: the whole experiment and every claim computed again, 25 s.)"""
    import shutil

    session = Path(os.environ["WORKSHOP_CACHE"]) / "experiment"
    # other workers' builds may add and prune entries meanwhile: each is written whole
    shutil.copytree(
        session,
        tmp_path / "cache" / "experiment",
        ignore=shutil.ignore_patterns(".tmp-*"),
    )
    env = {
        **os.environ,
        "WORKSHOP_CACHE": str(tmp_path / "cache"),
        "ATEN_CPU_CAPABILITY": "default",
        "PYTHONHASHSEED": "0",
    }
    env.pop("FRESH", None)
    hit = subprocess.run(
        [sys.executable, "-c", HIT], env=env, capture_output=True, text=True, check=True
    )
    assert hit.stdout.split() == ["[1,", "0]", "False", "False"], hit.stdout
