"""workshop_site/site.py, what the MkDocs hooks call: the values prose may quote, and the files the build adds.

(The built site itself is tested in test_site.py.) Values are checked against the committed
capture read from disk and GPT-2 small's published sizes, typed here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from attention_workshop.experiment import inside_page
from workshop_site import exam_page, site

ROOT = Path(__file__).resolve().parent.parent
CAPTURES = ROOT / "captures"


def test_context_holds_every_shown_value_and_where_each_section_stands(served):
    ctx = site.context()
    lines = (CAPTURES / "results.log").read_text(encoding="utf-8").split("\n")
    starts = {
        m.group(1): n
        for n, line in enumerate(lines, 1)
        if (m := re.match(r"\[([a-z][a-z0-9_]*)\] ", line))
    }
    for key, values in served.show.items():
        for name, text in values.items():
            assert ctx[f"{key}.{name}"] == text
        label = values["label"]
        # the blank line after the section (the log ends with a newline)
        end = lines.index("", starts[label])
        assert ctx[f"{key}.lines"] == f"{starts[label]}–{end}", key
    assert ctx["causal.label"] == "causal" and ctx["price.attention"] == "28,311,552"


def test_context_states_gpt2_small_and_the_build():
    ctx = site.context()
    sizes = {
        k: ctx[f"gpt2.{k}"]
        for k in ("n_layer", "n_head", "n_embd", "head_size", "n_ctx", "vocab_size")
    }
    assert sizes == {
        "n_layer": "12",
        "n_head": "12",
        "n_embd": "768",
        "head_size": "64",
        "n_ctx": "1024",
        "vocab_size": "50257",
    }
    assert re.fullmatch(
        r"[0-9a-f]{12}( with uncommitted changes)?", ctx["build.commit"]
    )


def test_generated_files_are_the_capture_and_the_interactive_pages_json(served):
    files = site.generated_files()
    assert files["generated/results.log"] == (CAPTURES / "results.log").read_text(
        encoding="utf-8"
    )
    for name in (
        "wired-weights.svg",
        "sqrt-dk.svg",
        "wired-weights-causal.svg",
        "wired-weights.csv",
        "sqrt-dk.csv",
        "wired-weights-causal.csv",
    ):
        assert files[f"generated/{name}"] == (CAPTURES / name).read_text(
            encoding="utf-8"
        ), name
    assert {"generated/inside-the-model.json", "generated/exam.json"} <= set(files)


def test_a_file_written_twice_is_refused(served, monkeypatch):
    monkeypatch.setattr(
        inside_page, "site_files", lambda: {"generated/results.log": "another log"}
    )
    monkeypatch.setattr(exam_page, "site_files", dict)
    with pytest.raises(
        ValueError, match=r"'generated/results\.log' is written twice by the build"
    ):
        site.generated_files()


@pytest.mark.site
def test_the_api_page_shows_a_docstrings_sphinx_roles_as_the_code_they_name(built_site):
    """hooks/docstrings.py: ":func:`run`" in a docstring is the code ``run`` on the page, never
    the text ":func:" before it (the docstrings of workshop_site/site.py and experiment/runner.py use roles)."""
    page = (built_site / "api" / "index.html").read_text("utf-8")
    assert not re.search(r":(func|data|mod|class|meth|attr|exc|obj):<code>", page)
    assert "<code>generated_files</code>" in page
    source = Path(site.__file__).read_text("utf-8")
    assert ":func:`generated_files`" in source
