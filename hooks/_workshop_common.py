"""What the hooks share: the package's build-facing modules, and the plain text of an HTML fragment.

MkDocs loads every hook by path and puts ``hooks/`` on ``sys.path`` while it runs the hook's module,
so a hook imports this module by name (``_workshop_common``, a name no installed package uses).
The package is imported here and nowhere else in ``hooks/``: when its modules move, this file changes.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Callable
from types import ModuleType

PACKAGE = "attention_workshop"
_TAGS = re.compile(r"<[^>]+>")


def fresh_pages() -> ModuleType:
    """Forget every imported module of the package, then import its pages API anew.

    Under ``mkdocs serve`` an edit to src/ or snippets/ then shows up on the next reload.
    """
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
        del sys.modules[name]
    return pages()


def pages() -> ModuleType:
    """What the hooks call in the package (``results``, ``runs``, ``context``, ``generated_files``, ``GENERATED``)."""
    import attention_workshop.build.site as module

    return module


def notation() -> ModuleType:
    """The site's one notation: ``attention_workshop.build.notation`` (``check``, ``abbreviations``...)."""
    import attention_workshop.build.notation as module

    return module


def check_sizes() -> Callable[..., list[tuple[str, int]]]:
    """``check_sizes(text, name)``: the GPT-2 sizes a diagram's text states; ``ValueError`` if one is wrong."""
    from attention_workshop.build.diagrams import check_sizes as check

    return check


def plain_text(fragment: str) -> str:
    """An HTML fragment as a reader hears it: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(_TAGS.sub(" ", fragment)).split())
