"""What the hooks share: a source file compiled once per process, when no ``.pyc`` is written.

With ``PYTHONDONTWRITEBYTECODE`` set (or ``sys.dont_write_bytecode``), Python compiles a module's
source at every import. Under ``mkdocs serve`` that is every rebuild: MkDocs loads the hooks
again, and hooks/_workshop_imports.py imports the package's changed modules again. Compiling is
pure (the same bytes and path give the same code object), so :func:`remember` keeps each
source's code object in memory (the 4,096 most recent). With ``.pyc`` files nothing changes.
"""

from __future__ import annotations

import importlib.machinery
import sys
from typing import Any


def remember() -> None:
    """Without ``.pyc`` files (``PYTHONDONTWRITEBYTECODE``) each rebuild compiled the package and
    the hooks again: a source's code object is kept in memory (compiling is pure)."""
    loader = importlib.machinery.SourceFileLoader
    if not sys.dont_write_bytecode or hasattr(loader.source_to_code, "kept"):
        return
    compile_source = loader.source_to_code
    kept: dict[tuple[object, bytes, int], object] = {}

    def source_to_code(self: Any, data: Any, path: Any, *, _optimize: int = -1) -> Any:
        key = (path, bytes(data), _optimize)
        if key not in kept:
            if len(kept) > 4096:
                kept.clear()
            kept[key] = compile_source(self, data, path, _optimize=_optimize)
        return kept[key]

    source_to_code.kept = kept  # type: ignore[attr-defined]
    loader.source_to_code = source_to_code  # type: ignore[method-assign,assignment]
