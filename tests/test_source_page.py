"""workshop_site/source_page.py: the modules the experiment imports, found by walking its imports."""

from __future__ import annotations

import pytest

from workshop_site import source_page


@pytest.mark.slow
def test_the_walk_finds_exactly_what_python_imports_when_the_experiment_runs(
    own_environment_run,
):
    """The package's modules Python loaded in a fresh interpreter that ran the command
    (tests/numeric_env_probe.py lists them, before it imports anything else)."""
    out = (own_environment_run.parent / "modules.txt").read_text().split()
    assert "attention_workshop.experiment.cli" in out and len(out) > 10, out
    # the command's own module runs as __main__ under `python -m`, not under its name
    assert sorted(source_page.experiment_modules()) == sorted([*out, source_page.ENTRY])


def test_the_layers_and_the_order():
    modules = source_page.experiment_modules()
    layers = [source_page.layer_of(m) for m in modules]
    assert layers == sorted(layers, key=source_page.LAYERS.index)
    assert (
        "attention_workshop.core" in modules
        and "attention_workshop.chapters.module_3" in modules
    )
    # the command opens the experiment's tabs; nothing the experiment does not run is shown
    assert (
        modules[layers.index("experiment")] == "attention_workshop.experiment.__main__"
    )
    assert "attention_workshop.trained" not in modules
    assert "workshop_site.render" not in modules


def test_each_module_is_a_tab_holding_its_file():
    text = source_page.source_tabs("maths")
    assert text.count('=== "') == sum(
        source_page.layer_of(m) == "maths" for m in source_page.experiment_modules()
    )
    assert '=== "core.py"' in text and '=== "\\_\\_init\\_\\_.py"' in text
    assert 'title="src/attention_workshop/core.py"' in text
    with pytest.raises(ValueError, match="layers: maths, chapters, experiment"):
        source_page.source_tabs("hooks")


def _page(blocks: dict[str, str]) -> str:
    """A Source page as the build writes it: per module a titled, numbered code block."""
    return "".join(
        f'<span class="filename">{path}</span><table><tr><td class="linenos">1</td>'
        f'<td class="code"><pre><code><span class="n">{code.replace("&", "&amp;").replace("<", "&lt;")}</span>'
        f"</code></pre></td></tr></table>"
        for path, code in blocks.items()
    )


def test_the_check_names_a_module_missing_or_stale():
    from pathlib import Path

    root = Path(source_page.__file__).resolve().parents[2]
    files = {
        source_page.relative(m): (root / source_page.relative(m)).read_text(
            encoding="utf-8"
        )
        for m in source_page.experiment_modules()
    }
    assert source_page.missing(_page(files)) == []
    gone = dict(files)
    del gone["src/attention_workshop/toy.py"]
    assert source_page.missing(_page(gone)) == ["src/attention_workshop/toy.py"]
    stale = dict(files)
    stale["src/attention_workshop/core.py"] += "# an edit the page did not get\n"
    assert source_page.missing(_page(stale)) == ["src/attention_workshop/core.py"]


@pytest.mark.site
def test_search_leaves_out_the_source_and_print_pages(built_site):
    """docs/source.md and docs/print.md say ``search: exclude: true``: Material's search skips them
    before it reads their HTML, so no entry of the index is theirs; a lesson and the API page,
    which ask nothing, keep theirs (the API page with its code)."""
    import json

    docs = json.loads((built_site / "search" / "search_index.json").read_text("utf-8"))
    pages = {d["location"].split("#")[0] for d in docs["docs"]}
    assert "source/" not in pages and "print/" not in pages, sorted(pages)
    assert {"module-0/", "api/"} <= pages, sorted(pages)
    api = " ".join(d["text"] for d in docs["docs"] if d["location"].startswith("api/"))
    assert "softmax" in api


def _tabs(*groups: list[str]) -> str:
    """A Source page's groups of tabs as the build writes them, each tab one listing of ``code``."""
    out = ['<p>before</p>\n<div class="workshop-source-tabs">\n']
    for group in groups:
        out.append('<div class="tabbed-set"><div class="tabbed-content">\n')
        for code in group:
            out.append(
                '<div class="tabbed-block">\n<div class="language-python highlight" tabindex="0">'
                f'<table class="highlighttable"><tr><td class="code"><pre><code>{code}'
                "</code></pre></td></tr></table></div>\n</div>\n"
            )
        out.append("</div></div>\n")
    return "".join(out) + "</div>\n"


def test_every_listing_but_the_first_of_each_group_waits_for_its_tab():
    """Each group's first listing stays markup; the others go inside ``<noscript>`` with their
    bytes untouched; doing it again changes nothing; a page without tabs is left as it is."""
    page = _tabs(["a = 1", "b = 2", "c = 3"], ["d = 4", "e = 5"])
    done = source_page.deferred(page)
    waiting = source_page.WAITING
    assert done.count(waiting) == 3 and done.count("</noscript>") == 3
    for code in ("a = 1", "b = 2", "c = 3", "d = 4", "e = 5"):
        block = done.split(code)[0].rsplit('<div class="tabbed-block">', 1)[1]
        held = block.startswith(f'\n{waiting}<div class="language-python highlight"')
        assert held == (code not in ("a = 1", "d = 4")), (code, block)
    assert done.replace(waiting, "").replace("</noscript>", "") == page
    assert source_page.deferred(done) == done
    assert source_page.deferred("<p>no tabs</p>") == "<p>no tabs</p>"
