"""build/cache.py: a result is found again only under the key of everything it depends on.

Speed is never asserted here (``make bench`` measures it); what is tested is that the cache
cannot serve a wrong result: a key changes with the code a result's function imports, its
inputs and the environment, ``FRESH=1`` recomputes, a damaged entry is computed again, a hit
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

from attention_workshop.build import cache, charts, grids

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


def test_a_drawings_key_follows_the_code_it_imports_and_nothing_else(package_copy):
    first = cache.module_digest("attention_workshop.build.charts")
    # charts imports plotting: an edit there is an edit to the drawing
    plotting = package_copy / "build" / "plotting.py"
    plotting.write_text(plotting.read_text() + "\nLINE_WIDTH = 2\n")
    second = cache.module_digest("attention_workshop.build.charts")
    assert second != first
    # the maths is not imported by the drawing code (the chapters' types are TYPE_CHECKING only)
    core = package_copy / "core.py"
    core.write_text(core.read_text() + "\n\ndef added():\n    return 1\n")
    assert cache.module_digest("attention_workshop.build.charts") == second
    # ...but it is by the chapters figures.py reads, and by the trained model
    before = cache.module_digest("attention_workshop.build.figures")
    core.write_text(core.read_text() + "\nAGAIN = 2\n")
    assert cache.module_digest("attention_workshop.build.figures") != before
    before = cache.module_digest("attention_workshop.chapters.real_heads.facts")
    core.write_text(core.read_text() + "\nONCE_MORE = 3\n")
    assert cache.module_digest("attention_workshop.chapters.real_heads.facts") != before


def test_the_experiments_key_follows_its_code_and_not_its_docstrings(package_copy):
    """A docstring or comment edit to the maths finds the run again; a code edit runs it anew."""
    name = "attention_workshop.build.pages"
    first = cache.module_digest(name)
    core = package_copy / "core.py"
    text = core.read_text()
    first_line = '"""Turn scores into weights'
    assert first_line in text
    documented = text.replace("def softmax(", "# a comment\ndef softmax(", 1)
    documented = documented.replace(first_line, first_line + " (a new word)", 1)
    documented = documented.replace('"""', '"""The module, said anew. ', 1)
    core.write_text(documented)
    assert cache.module_digest(name) == first
    # the same edit, and one number of the code changed
    core.write_text(documented + "\nEPSILON = 1e-9\n")
    assert cache.module_digest(name) != first


def test_data_files_are_part_of_every_code_key(package_copy):
    before = cache.module_digest("attention_workshop.build.charts")
    exam = package_copy / "chapters" / "final_exam" / "questions.toml"
    exam.write_text(exam.read_text() + "\n# an edit\n")
    assert cache.module_digest("attention_workshop.build.charts") != before


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
    assert cache.STATS["build.grids.heatmap_svg"][0] >= 1
    # a lambda cannot be pickled: computed, never stored
    assert cache.call(lambda: charts.fmt.short(0.5)) == charts.fmt.short(0.5)


HIT = """
import sys
from attention_workshop.build import cache, pages
cache.enable()
pages.results()
cache.enable(False)
print(cache.STATS["experiment"], "torch" in sys.modules, "matplotlib" in sys.modules)
"""


@pytest.mark.site
def test_a_hit_imports_neither_pytorch_nor_matplotlib(tmp_path):
    env = {
        **os.environ,
        "WORKSHOP_CACHE": str(tmp_path / "cache"),
        "ATEN_CPU_CAPABILITY": "default",
        "PYTHONHASHSEED": "0",
    }
    env.pop("FRESH", None)
    first = subprocess.run(
        [sys.executable, "-c", HIT], env=env, capture_output=True, text=True, check=True
    )
    assert first.stdout.split() == ["[0,", "1]", "True", "True"], first.stdout
    second = subprocess.run(
        [sys.executable, "-c", HIT], env=env, capture_output=True, text=True, check=True
    )
    assert second.stdout.split() == ["[1,", "0]", "False", "False"], second.stdout
