"""What the hooks put on MkDocs' log: one filter of each kind, this build's.

``mkdocs serve`` runs every hook's file again at each build (hooks/serve.py's ``forget_hooks``),
so each build's copy of a hook has its own classes and its own state, such as the page being
rendered. MkDocs' log handlers outlive the builds: a filter that an earlier build's copy put there
still reads that copy's state, which no longer changes (it named the wrong page, and each build
added one more prefix to the same message). :func:`install` takes it away first.
"""

from __future__ import annotations

import logging


def _kind(f: object) -> tuple[str, str]:
    return type(f).__module__, type(f).__qualname__


def install(new: logging.Filter, logger: str = "mkdocs") -> None:
    """Put ``new`` on every handler of ``logger`` in place of any filter of its kind (its class's
    module and name) that an earlier build's copy of the same hook put there."""
    for handler in logging.getLogger(logger).handlers:
        for old in [f for f in handler.filters if _kind(f) == _kind(new)]:
            handler.removeFilter(old)
        handler.addFilter(new)
