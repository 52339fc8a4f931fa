"""experiment/results.py: what a run holds, and how a page reads a section of it."""

from __future__ import annotations

import pytest

from attention_workshop.chapters import module_3
from attention_workshop.experiment.results import Results, Span


def _small() -> Results:
    r = Results(
        sentence=("the", "bank"),
        lines=["# head", "", "[one] One", "  a", "", "[two] Two", "  b", "  c"],
    )
    r.sections = {
        "one": Span("one", "one", "One", 3, 4),
        "two": Span("two", "two", "Two", 6, 8),
    }
    return r


def test_text_is_the_lines_with_one_final_newline():
    assert _small().text == "# head\n\n[one] One\n  a\n\n[two] Two\n  b\n  c\n"


def test_excerpt_is_the_sections_lines():
    r = _small()
    assert r.excerpt("one") == ["[one] One", "  a"] and r.excerpt("two") == [
        "[two] Two",
        "  b",
        "  c",
    ]


def test_an_unknown_section_names_the_sections_there_are():
    with pytest.raises(
        KeyError, match=r"no section 'three' in results.log; sections: one, two"
    ):
        _small().section("three")


def test_a_section_object_reads_its_typed_result(results):
    assert results[module_3.CAUSAL] is results.data["causal"]
    assert type(results[module_3.PRICE]).__name__ == "Price"
