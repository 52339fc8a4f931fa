"""MkDocs hook: a claim's sentence says no more than the claim checks.

Every claim names the sentence of its page it backs and what its test checks (every element,
the mean, ...). Before the build, each sentence is looked for on its page; a sentence that is gone,
or that uses a stronger quantifier than its claims check ("each token" backed by a mean), is a
problem naming the page, the line and the claim (``workshop_site.claim_sentences``
has the rule). Problems fail the strict build; ``mkdocs serve`` shows them on the page.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import _workshop_common as common

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig


def on_pre_build(config: MkDocsConfig) -> None:
    docs = Path(config.docs_dir)

    def read(page: str) -> str:
        return (docs / page).read_text(encoding="utf-8")

    from workshop_site.page_reads import checking  # its reads are no page's

    with checking():  # what it finds reaches a page as a problem alone
        for page, message in common.pages().sentence_problems(read):
            common.problem(message, page=page)
