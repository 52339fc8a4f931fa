"""The print page (``docs/print.md``): the whole workshop on one page, to print.

Every page of the nav's "Learn" section, in order, as the build rendered it (figures, tables,
formulas and diagrams included), except the pages in :data:`ONLINE_ONLY`. For paper:

- interactive widgets go: an explorer's mount (its "needs JavaScript" note with it) and the
  paragraphs the page marks :data:`SCREEN_ONLY` (how to use it), while the rest of its section
  stays; a section that holds a form goes whole; so do the notebook download buttons and the
  pages' scripts;
- the pages' own stylesheets stay (once each): their static tables keep their colours and their
  scroll boxes on screen;
- every image loads with the page (none waits, lazily, to be scrolled to: a printer does not scroll);
- each figure keeps its light drawing only, the one paper prints (its dark twin goes, which keeps
  the page under :data:`~workshop_site.page_weight.BUDGET`); on screen in the dark scheme
  ``print.css`` shows that drawing on a white card, as on paper;
- every "Reveal" opens; the self-check questions stay in place, their answers move to the end;
- each page's ids get the page's name in front (``module-0--softmax``), so the pages' anchors do
  not collide, and a link to a page or anchor that is on this page stays on this page.

The page's own Markdown marks where the pages go with :data:`MARKER`; ``hooks/print_page.py``
hands this module each page's rendered HTML and puts the result in its place.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "PRINT_PAGE",
    "MARKER",
    "SECTION",
    "ONLINE_ONLY",
    "STYLESHEET",
    "SCREEN_ONLY",
    "Printed",
    "slug",
    "local_links",
    "for_paper",
    "body",
    "toc",
    "stylesheet_links",
]

PRINT_PAGE = "print.md"
MARKER = "<!-- workshop:print -->"
#: The nav section the print page holds.
SECTION = "Learn"
#: A graded form: nothing to print but its questions' boxes.
ONLINE_ONLY = frozenset({"final-exam.md"})
#: The print page's own stylesheet (docs/assets/print.css).
STYLESHEET = "assets/print.css"

#: The class of a paragraph that speaks of an interactive widget (``{ .screen-only }`` in Markdown).
SCREEN_ONLY = "screen-only"

_WIDGET = re.compile(r"<form\b")
#: An explorer's mount: JavaScript fills it; without it, it holds one paragraph (no inner div).
_MOUNT = re.compile(r'<div class="(?:ins|rh)-app"[^>]*>(?:(?!<div\b).)*?</div>', re.S)
_SCREEN = re.compile(rf'<p class="{SCREEN_ONLY}">.*?</p>', re.S)
_H2 = re.compile(r"(?=<h2\b)")
_SELF_CHECK = re.compile(
    r'<details class="question">\s*<summary>(.*?)</summary>(.*?)</details>', re.S
)
_DROP = re.compile(
    r"<script\b.*?</script>|<p>\s*<a class=\"md-button workshop-notebook-button\".*?</a>\s*</p>",
    re.S,
)
_LINK = re.compile(r"<link\b[^>]*>")
#: A figure's dark drawing: Material shows it in the dark scheme only.
_DARK_TWIN = re.compile(r'<img\b[^>]*\bsrc="[^"]*#only-dark"[^>]*>\n?')
_HREF = re.compile(r'\bhref="([^"]+)"')


@dataclass(frozen=True)
class Printed:
    """One page made ready for paper.

    Attributes:
        slug: the page's name (``module-0``), the id of its part and the prefix of its ids.
        title: the page's title.
        html: its content for paper, ids prefixed, links kept on the print page.
        answers: its self-checks, ``(question, answer)`` as HTML, in page order.
        stylesheets: the hrefs of the page's own stylesheets, in page order.
    """

    slug: str
    title: str
    html: str
    answers: tuple[tuple[str, str], ...]
    stylesheets: tuple[str, ...]


def slug(src_uri: str) -> str:
    """A page's name on the print page: ``step-by-step.md`` -> ``step-by-step``."""
    return src_uri.removesuffix(".md").replace("/", "-")


def local_links(content: str, name: str, slugs: Mapping[str, str]) -> str:
    """Ids get ``<name>--`` in front; links to them, and to other printed pages, stay on this page."""
    content = re.sub(r'\bid="([^"]+)"', rf'id="{name}--\1"', content)
    # attributes that name ids: a tab's label, ARIA's references (lists of ids)
    content = re.sub(
        r'\b(for|aria-labelledby|aria-describedby|aria-controls)="([^"]+)"',
        lambda m: (
            f'{m.group(1)}="{" ".join(f"{name}--{i}" for i in m.group(2).split())}"'
        ),
        content,
    )
    content = re.sub(r'((?:xlink:)?href="|url\()#([^")]+)', rf"\1#{name}--\2", content)

    def other(m: re.Match[str]) -> str:
        target, anchor = slugs.get(m.group(1)), m.group(2)
        if target is None:
            return m.group(0)
        return f'href="#{target}--{anchor}"' if anchor else f'href="#{target}"'

    # from a page one folder deep, as every printed page and this one are
    return re.sub(r'href="\.\./([\w-]+)/(?:#([^"]+))?"', other, content)


def for_paper(content: str, name: str, title: str, slugs: Mapping[str, str]) -> Printed:
    """A page's rendered HTML made ready for paper (see the module's docstring); made once per
    page's HTML (``mkdocs serve`` makes the print page again at every rebuild)."""
    return _for_paper(content, name, title, tuple(sorted(slugs.items())))


@functools.lru_cache(maxsize=32)
def _for_paper(
    content: str, name: str, title: str, slug_items: tuple[tuple[str, str], ...]
) -> Printed:
    slugs = dict(slug_items)
    content = _SCREEN.sub("", _MOUNT.sub("", _DROP.sub("", content)))
    content = _DARK_TWIN.sub("", content)
    stylesheets = tuple(
        dict.fromkeys(
            href
            for tag in _LINK.findall(content)
            if 'rel="stylesheet"' in tag
            for href in _HREF.findall(tag)
        )
    )
    content = _LINK.sub("", content)
    parts = [p for p in _H2.split(content) if not _WIDGET.search(p)]
    answers: list[tuple[str, str]] = []

    def question(m: re.Match[str]) -> str:
        answers.append((m.group(1), local_links(m.group(2), name, slugs)))
        return f'<p class="print-question"><strong>{m.group(1)}</strong></p>'

    content = _SELF_CHECK.sub(question, "".join(parts))
    content = re.sub(r"<details\b(?![^>]*\bopen\b)", "<details open", content)
    content = re.sub(r'(<img\b[^>]*?) loading="lazy"', r"\1", content)
    return Printed(
        name, title, local_links(content, name, slugs), tuple(answers), stylesheets
    )


def _answers(printed: Sequence[Printed]) -> list[str]:
    """The self-checks' answers, page by page, at the end of the print page."""
    end = [
        '<section class="print-part print-answers" id="answers">',
        '<h1 id="answers-title">Answers to the self-checks</h1>',
    ]
    for p in printed:
        if p.answers:
            end.append(f"<h2>{html.escape(p.title)}</h2>")
            end += [
                f'<div class="print-answer"><p><strong>{q}</strong></p>{a}</div>'
                for q, a in p.answers
            ]
    end.append("</section>")
    return end


def body(printed: Sequence[Printed]) -> str:
    """What replaces :data:`MARKER`: every page in its part, then the answers."""
    parts = [
        f'<section class="print-part" id="{p.slug}">{p.html}</section>' for p in printed
    ]
    return "\n".join(parts + _answers(printed))


def toc(
    printed: Sequence[Printed], headings: Mapping[str, Sequence[tuple[str, str]]]
) -> list[dict[str, object]]:
    """The print page's table of contents: each page, its ``(id, title)`` headings, the answers.

    Each page is an entry of level 2 and its headings of level 3: Material takes a first entry of
    level 1 for the page's own title and lists only its children (with a level-1 Module 0, the
    table listed Module 0's sections alone).
    """
    entries: list[dict[str, object]] = [
        {
            "level": 2,
            "id": p.slug,
            "name": html.escape(p.title),
            "children": [
                {"level": 3, "id": f"{p.slug}--{i}", "name": t, "children": []}
                for i, t in headings.get(p.slug, ())
                # a section paper leaves out (a form's, heading and all) has no entry
                if f'id="{p.slug}--{i}"' in p.html
            ],
        }
        for p in printed
    ]
    entries.append(
        {
            "level": 2,
            "id": "answers",
            "name": "Answers to the self-checks",
            "children": [],
        }
    )
    return entries


def stylesheet_links(printed: Sequence[Printed], root: str) -> str:
    """The ``<link>`` tags of the print page's head: the pages' own stylesheets (once each, hrefs as
    the pages wrote them: every printed page is one folder deep, as the print page is), then
    :data:`STYLESHEET` at ``root`` (the site's root, relative to the print page)."""
    hrefs = dict.fromkeys(h for p in printed for h in p.stylesheets)
    hrefs[root + STYLESHEET] = None
    return "".join(f'<link rel="stylesheet" href="{h}">\n' for h in hrefs)
