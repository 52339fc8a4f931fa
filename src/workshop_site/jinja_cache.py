"""The theme's templates compiled once for the builds that may reuse pages (hooks/page_reuse.py):
``mkdocs serve`` compiles every template again at each build otherwise."""

from __future__ import annotations

import hashlib
import sys
from typing import Any

from attention_workshop.experiment import cache

__all__ = ["templates"]


def templates(env: Any) -> None:
    """The theme's templates compiled once for the builds that may reuse (``mkdocs serve``
    compiles every template again at each build): Jinja's own bytecode cache, which uses a
    template's kept code only when the bytes of its source are the same (a checksum of the
    source), in a folder of the cache named by Jinja's and Python's versions and every setting
    of the environment that changes what a template compiles to."""
    import jinja2

    settings = (
        jinja2.__version__,
        sys.version,
        sorted(env.extensions),
        repr(env.autoescape),
        env.block_start_string,
        env.block_end_string,
        env.variable_start_string,
        env.variable_end_string,
        env.comment_start_string,
        env.comment_end_string,
        env.line_statement_prefix,
        env.line_comment_prefix,
        env.trim_blocks,
        env.lstrip_blocks,
        env.newline_sequence,
        env.keep_trailing_newline,
        env.optimized,
    )
    name = hashlib.sha256(repr(settings).encode()).hexdigest()[:16]
    where = cache.folder() / "templates" / name
    where.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = jinja2.FileSystemBytecodeCache(str(where))
