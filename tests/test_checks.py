"""workshop_site/checks.py: the names closest to an unknown value, and the values a finished page left unfilled."""

from __future__ import annotations

from workshop_site.checks import PLACEHOLDER, closest, unfilled

NAMES = [
    "general_head.diff",
    "general_head.diff_causal",
    "general_head.eps",
    "causal.last_row",
    "causal.w_0_0",
    "price.per_head",
    "gpt2.n_head",
]


def test_closest_names_come_from_the_same_section_first():
    assert closest("general_head.diff_casual", NAMES)[0] == "general_head.diff_causal"
    assert set(closest("general_head.nothing", NAMES)) == {
        "general_head.diff",
        "general_head.diff_causal",
        "general_head.eps",
    }


def test_a_typo_in_the_section_searches_every_name_and_gives_at_most_five():
    assert closest("genral_head.diff", NAMES)[0] == "general_head.diff"
    assert len(closest("x", NAMES)) == 5


def test_the_placeholder_syntax():
    assert PLACEHOLDER.findall("{{ causal.last_row }} {{x}} {{ 3 }} {{ a b }}") == [
        "causal.last_row",
        "x",
    ]


def test_unfilled_values_are_found_in_prose_tables_attributes_and_code_blocks():
    page = (
        "<p>The toy has {{ positions.T }} positions.</p>"
        "<table><tr><td>{{ a.b }}</td></tr></table>"
        '<img alt="{{ figure.alt }}" src="x.svg">'
        '<pre><code><span class="p">{{</span> <span class="n">log.x</span> }}</code></pre>'
        "<p>{{ 3 }}</p>"
    )
    assert unfilled(page) == [
        "{{ positions.T }}",
        "{{ a.b }}",
        "{{ figure.alt }}",
        "{{ log.x }}",
        "{{ 3 }}",
    ]


def test_inline_code_may_show_the_syntax_itself():
    """The API page documents ``{{ section.name }}``: inline code is the syntax, not a value left out."""
    assert unfilled("<p>Write <code>{{ section.name }}</code> in prose.</p>") == []
    assert unfilled("<p>&#123;&#123; not.code &#125;&#125;</p>") == ["{{ not.code }}"]


def test_a_file_shown_verbatim_under_its_title_is_not_searched():
    """The Source page shows the package's files, whose docstrings write the placeholder syntax."""
    shown = (
        '<div class="language-python highlight"><span class="filename">src/x.py</span>'
        '<table class="highlighttable"><tr><td class="code"><div><pre><code>'
        '"""Quote a value as {{ section.name }}."""</code></pre></div></td></tr></table></div>'
    )
    assert unfilled(shown) == []
    untitled = (
        '<div class="highlight"><pre><code>out: {{ section.name }}</code></pre></div>'
    )
    assert unfilled(shown + untitled) == ["{{ section.name }}"], (
        "an untitled block is searched"
    )
