"""MkDocs hook: the whole workshop on one page, to print (docs/print.md).

Every page of the nav's "Learn" section, in order, as this build rendered it (figures, tables,
formulas and diagrams included), except the pages in ``ONLINE_ONLY``. For paper:

- interactive widgets go (a section that holds one goes whole, its static tables stay when they
  sit in a section of their own), and so do the notebook download buttons and the pages' scripts;
- every "Reveal" opens; the self-check questions stay in place, their answers move to the end;
- each page's ids get the page's name in front (``module-0--softmax``), so the pages' anchors do
  not collide, and a link to a page or anchor that is on this page stays on this page.

The page's own Markdown marks where the pages go with ``<!-- workshop:print -->``.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from mkdocs.exceptions import PluginError
from mkdocs.structure.toc import get_toc

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page

PRINT_PAGE = "print.md"
MARKER = "<!-- workshop:print -->"
SECTION = "Learn"  # the nav section the print page holds
ONLINE_ONLY = {
    "final-exam.md"
}  # a graded form: nothing to print but its questions' boxes
STYLESHEET = "assets/print.css"

_WIDGET = re.compile(r'class="ins-app"|<form\b')
_H2 = re.compile(r"(?=<h2\b)")
_SELF_CHECK = re.compile(
    r'<details class="question">\s*<summary>(.*?)</summary>(.*?)</details>', re.S
)
_DROP = re.compile(
    r"<script\b.*?</script>|<link\b[^>]*>|<p>\s*<a class=\"md-button workshop-notebook-button\".*?</a>\s*</p>",
    re.S,
)


def _learn_pages(nav: Navigation) -> list[Page]:
    section = next((s for s in nav.items if s.title == SECTION), None)
    if section is None:
        raise PluginError(
            f"docs/{PRINT_PAGE}: the nav has no section {SECTION!r} to print"
        )
    return [
        p
        for p in section.children
        if p.is_page and p.file.src_uri not in ONLINE_ONLY  # type: ignore[attr-defined]
    ]  # type: ignore[misc]


def _slug(page: Page) -> str:
    return page.file.src_uri.removesuffix(".md").replace("/", "-")


def _local_links(content: str, slug: str, slugs: dict[str, str]) -> str:
    """Ids get ``<slug>--`` in front; links to them, and to other printed pages, stay on this page."""
    content = re.sub(r'\bid="([^"]+)"', rf'id="{slug}--\1"', content)
    # attributes that name ids: a tab's label, ARIA's references (lists of ids)
    content = re.sub(
        r'\b(for|aria-labelledby|aria-describedby|aria-controls)="([^"]+)"',
        lambda m: (
            f'{m.group(1)}="{" ".join(f"{slug}--{i}" for i in m.group(2).split())}"'
        ),
        content,
    )
    content = re.sub(r'((?:xlink:)?href="|url\()#([^")]+)', rf"\1#{slug}--\2", content)

    def other(m: re.Match) -> str:
        target, anchor = slugs.get(m.group(1)), m.group(2)
        if target is None:
            return m.group(0)
        return f'href="#{target}--{anchor}"' if anchor else f'href="#{target}"'

    # from a page one folder deep, as every printed page and this one are
    return re.sub(r'href="\.\./([\w-]+)/(?:#([^"]+))?"', other, content)


def _for_paper(page: Page) -> tuple[str, list[tuple[str, str]]]:
    """A page's HTML for paper, and its self-check questions with their answers (HTML)."""
    content = _DROP.sub("", page.content or "")
    parts = [p for p in _H2.split(content) if not _WIDGET.search(p)]
    answers: list[tuple[str, str]] = []

    def question(m: re.Match) -> str:
        answers.append((m.group(1), m.group(2)))
        return f'<p class="print-question"><strong>{m.group(1)}</strong></p>'

    content = _SELF_CHECK.sub(question, "".join(parts))
    content = re.sub(r"<details\b(?![^>]*\bopen\b)", "<details open", content)
    return content, answers


def on_page_context(
    context: dict, page: Page, config: MkDocsConfig, nav: Navigation
) -> dict:
    if page.file.src_uri != PRINT_PAGE:
        return context
    if MARKER not in (page.content or ""):
        raise PluginError(f"docs/{PRINT_PAGE}: the page lacks {MARKER}")
    pages = _learn_pages(nav)
    slugs = {_slug(p): _slug(p) for p in pages}
    body, toc, answers = [], [], []
    for p in pages:
        slug = _slug(p)
        content, qa = _for_paper(p)
        body.append(
            f'<section class="print-part" id="{slug}">{_local_links(content, slug, slugs)}</section>'
        )
        answers += [(p.title, q, _local_links(a, slug, slugs)) for q, a in qa]
        toc.append(
            {
                "level": 1,
                "id": slug,
                "name": html.escape(p.title or slug),
                "children": [
                    {
                        "level": 2,
                        "id": f"{slug}--{a.id}",
                        "name": a.title,
                        "children": [],
                    }
                    for item in p.toc
                    for a in item.children
                ],
            }
        )
    end = [
        '<section class="print-part print-answers" id="answers">',
        '<h1 id="answers-title">Answers to the self-checks</h1>',
    ]
    for title in dict.fromkeys(t for t, _, _ in answers):
        end.append(f"<h2>{html.escape(title or '')}</h2>")
        end += [
            f'<div class="print-answer"><p><strong>{q}</strong></p>{a}</div>'
            for t, q, a in answers
            if t == title
        ]
    end.append("</section>")
    toc.append(
        {
            "level": 1,
            "id": "answers",
            "name": "Answers to the self-checks",
            "children": [],
        }
    )
    page.content = page.content.replace(MARKER, "\n".join(body + end))  # type: ignore[union-attr]
    page.toc = get_toc(toc)  # type: ignore[arg-type]
    return context


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    """The print page alone loads the print stylesheet."""
    if page.file.src_uri != PRINT_PAGE:
        return output
    href = "../" * page.file.url.count("/") + STYLESHEET
    return output.replace(
        "</head>", f'<link rel="stylesheet" href="{href}">\n</head>', 1
    )


def on_files(files: Files, config: MkDocsConfig) -> Files:
    if files.get_file_from_path(STYLESHEET) is None:
        raise PluginError(f"docs/{STYLESHEET} is missing: the print page needs it")
    return files
