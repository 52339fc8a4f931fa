"""MkDocs hook: ``{{ section.name }}`` in a page's Markdown becomes the value this build computed.

The names are the keys of the package's ``site.context()`` (``section.name``, ``section.lines``,
``gpt2.*``, ``build.*``, ``inside.*``, ``exam.*``; list them with
``.venv/bin/python -m workshop_site.site``), and ``downloads.MARKDOWN_VALUES``, a table as Markdown
(``{{ downloads.table }}``). Two problems, each reported with the file
and line to edit (the strict build fails; ``mkdocs serve`` shows them on the page):

- an unknown name, with the five known names closest to it;
- anything still in double braces in the finished page: a snippet that printed a placeholder
  (placeholders are filled in Markdown only; a snippet prints the value itself), or a name the
  placeholder syntax does not accept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import _workshop_common as common
from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

# placeholders already reported as unknown, by page: not reported again as unfilled
_reported: dict[str, set[str]] = {}


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    src = page.file.src_uri
    _reported[src] = set()
    if "{{" not in markdown:
        return markdown
    ctx, checks, sources = common.pages().context(), common.checks(), common.sources()
    tables = common.downloads().MARKDOWN_VALUES
    source = page.file.content_string
    offset = len(source) - len(markdown) if source.endswith(markdown) else 0

    def value(m):
        key = m.group(1)
        if key in ctx:
            return ctx[key]
        # Markdown put in the page's Markdown: its key holds the text, so not what making it read
        if key in tables:
            from workshop_site.page_reads import checking
            from workshop_site.page_steps import same

            with checking():
                return same(tables[key])
        line = sources.line_of(source, offset + m.start())
        known = [*ctx, *tables]
        names = ", ".join(f"{{{{ {n} }}}}" for n in checks.closest(key, known))
        common.problem(
            f"docs/{src}:{line}: unknown value {{{{ {key} }}}}; the closest known: {names} "
            "(every name: .venv/bin/python -m workshop_site.site)",
            page=src,
        )
        _reported[src].add(m.group(0))
        return m.group(0)

    return checks.PLACEHOLDER.sub(value, markdown)


# after the other hooks have changed the page (links, MathML, tables): this is what a reader gets
@event_priority(-90)
def on_page_content(output: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    src = page.file.src_uri
    from workshop_site.page_steps import same  # kept between serve's builds

    for text in dict.fromkeys(same(common.checks().unfilled, output)):
        if text in _reported.get(src, ()):
            continue
        message = f"{text} is left unfilled on the page. Values are filled in a page's Markdown "
        message += "only; a snippet prints the value itself (workshop_site.site.context()[name])."
        common.problem(message, page=src, at=(page.file.content_string, text))
    return output
