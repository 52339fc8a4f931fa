"""build/print_page: a page made ready for paper, on small pages written here by hand.

The whole print page is checked as a reader meets it in tests/test_browser_print.py; these tests pin
down each rule on a fragment small enough to state the expected HTML in full.
"""

from __future__ import annotations

from workshop_site import print_page as pp

SLUGS = {"module-0": "module-0", "module-1": "module-1"}

PAGE = (
    '<link rel="stylesheet" href="../assets/inside/inside.css">'
    '<h1 id="m">Module 1</h1><p>See <a href="#why">why</a> and '
    '<a href="../module-0/#softmax">softmax</a>, not <a href="../api/">the API</a>.</p>'
    '<script type="module" src="x.js"></script>'
    '<h2 id="why">Why</h2><details class="question">\n<summary>1. Is it <abbr title="t">so</abbr>?</summary>'
    '<p>Yes, <a href="#why">see</a>.</p></details>'
    '<details class="note"><summary>Reveal</summary><p>r</p></details>'
    '<h2 id="explorer">The explorer</h2><p class="screen-only">Use the buttons.</p>'
    '<div class="ins-app" data-src="x.json"><p class="ins-nojs">Needs JavaScript.</p></div>'
    "<p>A figure beside it.</p>"
    '<h2 id="form">The exam</h2><form><button>go</button></form>'
    '<link rel="stylesheet" href="../assets/inside/inside.css">'
    '<h2 id="end">End</h2><label for="tab-1">t</label>'
    '<img src="../generated/a.svg#only-light" alt="a" loading="lazy">\n'
    '<img src="../generated/a-dark.svg#only-dark" alt="a" loading="lazy">'
)


def test_a_page_for_paper():
    p = pp.for_paper(PAGE, "module-1", "Module 1", SLUGS)
    assert p.slug == "module-1" and p.title == "Module 1"
    assert p.html == (
        '<h1 id="module-1--m">Module 1</h1><p>See <a href="#module-1--why">why</a> and '
        '<a href="#module-0--softmax">softmax</a>, not <a href="../api/">the API</a>.</p>'
        '<h2 id="module-1--why">Why</h2>'
        '<p class="print-question"><strong>1. Is it <abbr title="t">so</abbr>?</strong></p>'
        '<details open class="note"><summary>Reveal</summary><p>r</p></details>'
        '<h2 id="module-1--explorer">The explorer</h2><p>A figure beside it.</p>'
        '<h2 id="module-1--end">End</h2><label for="module-1--tab-1">t</label>'
        '<img src="../generated/a.svg#only-light" alt="a">\n'
    ), (
        "scripts, the explorer and how to use it, and the form's section go; links stay, reveals "
        "open, images load at once, the dark drawing goes"
    )
    assert p.answers == (
        (
            '1. Is it <abbr title="t">so</abbr>?',
            '<p>Yes, <a href="#module-1--why">see</a>.</p>',
        ),
    )
    assert p.stylesheets == ("../assets/inside/inside.css",), "each stylesheet once"


def test_the_answers_come_last_page_by_page():
    first = pp.for_paper(PAGE, "module-1", "Module 1", SLUGS)
    plain = pp.for_paper("<h1>Module 0</h1>", "module-0", "Module 0", SLUGS)
    body = pp.body([plain, first])
    assert (
        body.index('id="module-0"')
        < body.index('id="module-1"')
        < body.index('id="answers"')
    )
    end = body[body.index('id="answers"') :]
    assert "<h2>Module 0</h2>" not in end, "a page without self-checks has no heading"
    assert (
        '<h2>Module 1</h2><div class="print-answer"><p><strong>1. Is it'
        in end.replace("\n", "")
    )


def test_the_table_of_contents_and_the_heads_links():
    p = pp.for_paper(PAGE, "module-1", "Module <1>", SLUGS)
    toc = pp.toc([p], {"module-1": [("why", "Why")]})
    assert toc[0] == {
        "level": 2,  # not 1: Material would list a first level-1 entry's children alone
        "id": "module-1",
        "name": "Module &lt;1&gt;",
        "children": [
            {"level": 3, "id": "module-1--why", "name": "Why", "children": []}
        ],
    }
    assert toc[-1]["id"] == "answers"
    assert pp.stylesheet_links([p, p], "../") == (
        '<link rel="stylesheet" href="../assets/inside/inside.css">\n'
        '<link rel="stylesheet" href="../assets/print.css">\n'
    )


def test_a_page_name_is_its_file_without_md():
    assert pp.slug("step-by-step.md") == "step-by-step"
    assert pp.slug("guide/setup.md") == "guide-setup"
