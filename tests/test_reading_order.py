"""One reading order (issue 31, point 3): the nav's lessons, the home page's path diagram and its table,
the exam's list of pages and the footer's next and previous links name the same pages in the same order,
and each lesson's first paragraph links only to pages before it.

The order each list is held to is the nav's (mkdocs.yml, read here with PyYAML, not by MkDocs); the
other lists are read from the pages' Markdown and the diagram's D2 source, and the footer from the
built site.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
_LINK = re.compile(r"\]\(([a-z0-9-]+)\.md(?:#[^)]*)?\)")


class _Loader(yaml.SafeLoader):
    """mkdocs.yml with its !ENV tags read as nothing (they are not part of the nav)."""


_Loader.add_constructor("!ENV", lambda *a: None)


def lessons() -> list[tuple[str, str]]:
    """(title, page without .md) of the nav's Learn section, in order."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), _Loader)
    learn = next(v for item in config["nav"] for k, v in item.items() if k == "Learn")
    return [
        (title, page.removesuffix(".md"))
        for item in learn
        for title, page in item.items()
    ]


LESSONS = lessons()
ORDER = [page for _, page in LESSONS]


def test_the_nav_has_the_path_in_its_order():
    """The nav itself, against the order the pages' own openings assume (typed here): Real heads
    before A causal model, whose first sentence builds on it."""
    assert ORDER == [
        "module-0",
        "module-1",
        "module-2",
        "module-3",
        "step-by-step",
        "inside-the-model",
        "real-heads",
        "causal-heads",
        "final-exam",
    ]


def _path_diagram() -> list[str]:
    """The stops of docs/diagrams/path.d2 in the order its one chain of arrows joins them, as pages."""
    text = (DOCS / "diagrams" / "path.d2").read_text(encoding="utf-8")
    labels = dict(re.findall(r'^(\w+): "([^"\\]+)\\n', text, re.M))
    chains = [line for line in text.splitlines() if "->" in line]
    assert len(chains) == 1, f"path.d2: one chain of arrows, found {chains}"
    pages = []
    for node in (n.strip() for n in chains[0].split("->")):
        title = labels[node]
        found = [p for t, p in LESSONS if t.split(" — ")[0] == title]
        assert found, (
            f"path.d2: the stop {title!r} is no page of the nav's Learn section"
        )
        pages.append(found[0])
    return pages


def test_the_home_pages_path_diagram_follows_the_nav():
    assert _path_diagram() == ORDER


def _table_pages(markdown: str) -> list[str]:
    rows = [line for line in markdown.splitlines() if line.startswith("| [")]
    return [_LINK.search(row)[1] for row in rows]


def test_the_home_pages_table_follows_the_nav():
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    assert _table_pages(home) == ORDER


def _alt_stops(markdown: str) -> list[str]:
    """The stops the path figure's alt text names, in order ("...: Module 0, words...; Module 1, ...")."""
    alt = re.search(
        r"!\[The workshop's path[^:]*: (.*?)\]\(diagrams/path\.d2\)", markdown, re.S
    )
    assert alt, "the path figure with its alt text"
    return [
        s.split(",")[0].strip().removeprefix("the ").rstrip(".")
        for s in alt[1].split(";")
    ]


@pytest.mark.parametrize("page", ["index.md", "final-exam.md"])
def test_the_path_figures_alt_text_follows_the_nav(page):
    stops = _alt_stops((DOCS / page).read_text(encoding="utf-8"))
    titles = [t.split(" — ")[0] for t, _ in LESSONS]
    assert [s.lower() for s in stops] == [t.lower() for t in titles], page


def _first_paragraph(markdown: str) -> str:
    """The first paragraph of prose after the page's title (raw HTML lines such as <link> skipped)."""
    body = markdown.split("\n# ", 1)[-1].split("\n", 1)[1]
    paragraph: list[str] = []
    for line in body.splitlines():
        if line.strip() and not line.startswith("<"):
            paragraph.append(line)
        elif paragraph:
            break
    return " ".join(paragraph)


def test_the_exams_list_of_pages_follows_the_nav():
    exam = (DOCS / "final-exam.md").read_text(encoding="utf-8")
    listed = list(dict.fromkeys(_LINK.findall(_first_paragraph(exam))))
    assert listed == ORDER[:-1]


@pytest.mark.parametrize("page", ORDER)
def test_a_lessons_first_paragraph_builds_only_on_pages_before_it(page):
    first = _first_paragraph((DOCS / f"{page}.md").read_text(encoding="utf-8"))
    assert first, f"{page}.md: no first paragraph found"
    before = ORDER[: ORDER.index(page)]
    later = [p for p in _LINK.findall(first) if p not in before]
    assert later == [], (
        f"{page}.md's first paragraph links to pages not yet read: {later}"
    )


def test_a_page_linked_later_is_found():
    """The checks above can fail: a first paragraph naming a later page, a table in another order."""
    assert _LINK.findall(
        _first_paragraph("# T\n\n<link>\n\nSee [x](causal-heads.md#a).\n")
    ) == ["causal-heads"]
    table = "| [B](module-1.md) | b |\n| [A](module-0.md) | a |\n"
    assert _table_pages(table) != ORDER[:2]


@pytest.mark.site
def test_the_footers_next_and_previous_links_follow_the_nav(built_site):
    """Material draws the footer from the nav: each lesson's next link is the next lesson, its
    previous link the one before (the home page before Module 0, Reproducing after the exam)."""
    chain = ["", *ORDER, "reproducing"]
    for before, page, after in zip(chain, chain[1:], chain[2:]):
        html = (built_site / page / "index.html").read_text(encoding="utf-8")
        found = re.findall(
            r'<a href="([^"]*)" class="md-footer__link md-footer__link--(prev|next)"',
            html,
        )
        links = {kind: href for href, kind in found}
        want_prev = ".." if before == "" else f"../{before}/"
        assert links.get("prev") == want_prev, f"{page}: previous {links.get('prev')}"
        assert links.get("next") == f"../{after}/", f"{page}: next {links.get('next')}"


@pytest.mark.site
def test_the_print_pages_table_of_contents_lists_every_lesson(built_site):
    """Issue 31, point 6: the print page's on-screen table of contents listed Module 0's sections
    alone; it lists every lesson (each as its link in the secondary nav), then the answers."""
    html = (built_site / "print" / "index.html").read_text(encoding="utf-8")
    toc = html.split("md-sidebar--secondary", 1)[1].split('class="md-content"', 1)[0]
    listed = re.findall(r'href="#([a-z0-9-]+)"', toc)
    # every lesson but the exam, which is graded in the browser and not printed
    assert [p for p in listed if "--" not in p] == [*ORDER[:-1], "answers"], listed
    assert any(p.startswith("causal-heads--") for p in listed), (
        "a later lesson's sections"
    )
