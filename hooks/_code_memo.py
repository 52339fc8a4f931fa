"""Where Python writes no ``.pyc`` (``PYTHONDONTWRITEBYTECODE``, set on some machines), every
build would compile each module of the package from its source again: about 140, a tenth of a
second of every ``mkdocs serve`` rebuild. :class:`CodeMemo`, a finder on ``sys.meta_path``
(Python's documented way to take part in imports) for the named packages alone, keeps each
module's compiled code for the process, keyed on the bytes of its source: a module still runs
afresh at every import, from code compiled from exactly the bytes it has now. Where Python
writes ``.pyc`` files, none is added: the checked-hash ``.pyc`` (``_workshop_fresh``) does this.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import sys
from types import CodeType
from typing import Any


class _MemoLoader(importlib.machinery.SourceFileLoader):
    """A module's source loader whose compiling is looked up first in ``codes``."""

    def __init__(self, name: str, path: str, codes: dict[tuple[Any, ...], CodeType]):
        super().__init__(name, path)
        self.codes = codes

    def source_to_code(self, data: Any, path: Any, *, _optimize: int = -1) -> CodeType:
        key = (
            path,
            hashlib.sha256(bytes(data)).digest(),
            _optimize,
            sys.flags.optimize,
        )
        code = self.codes.get(key)
        if code is None:
            code = super().source_to_code(data, path, _optimize=_optimize)
            self.codes[key] = code
        return code


class CodeMemo:
    """A finder for the named packages' modules: found as Python's own path finder finds them,
    loaded by :class:`_MemoLoader` (the compiled code of each source's bytes, kept for the
    process). Only where no ``.pyc`` is written: elsewhere the checked-hash ``.pyc`` does this."""

    #: How the one instance of the process is recognised (this module is loaded again by each build).
    MARK = "attention-workshop code memo"

    def __init__(self) -> None:
        self.mark = self.MARK
        self.packages: set[str] = set()
        self.codes: dict[tuple[Any, ...], CodeType] = {}

    @classmethod
    def install(cls, package: str) -> None:
        """The process's memo (added first on ``sys.meta_path`` once) covers ``package`` too."""
        if not sys.dont_write_bytecode:
            return
        memo = next(
            (f for f in sys.meta_path if getattr(f, "mark", None) == cls.MARK), None
        )
        if memo is None:
            memo = cls()
            sys.meta_path.insert(0, memo)
        memo.packages.add(package)

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name.split(".")[0] not in self.packages:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if (
            spec is None
            or type(spec.loader) is not importlib.machinery.SourceFileLoader
        ):
            return spec
        spec.loader = _MemoLoader(spec.name, str(spec.origin), self.codes)
        return spec

    def invalidate_caches(self) -> None:
        """Nothing to forget: a code is found by its source's bytes."""
