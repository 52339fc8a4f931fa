"""What the hooks share: the package imported afresh at every build, from the bytes of its files.

MkDocs keeps one process for every rebuild of ``mkdocs serve``. :func:`forget` drops the
package's modules from ``sys.modules`` at the start of each build, so the next import runs its
files as they are now and no module state outlives a build (nothing to list, nothing to reset).

Python checks a default ``.pyc`` against its source's date and size: after a same-size edit
whose date was put back (``touch -r``, ``os.utime``) it would run the old code, even with
``FRESH=1``. :func:`checked_bytecode` gives every module of the package and of ``hooks/`` a
checked-hash ``.pyc`` instead (PEP 552), which Python checks against the source's bytes at
every import. (A hook is loaded before this runs: an edit to one is seen from the next build.)
Where Python writes no ``.pyc`` at all, ``_code_memo`` keeps each module's compiled code instead.
"""

from __future__ import annotations

import importlib.util
import py_compile
import sys
from pathlib import Path

from _code_memo import CodeMemo

HOOKS = Path(__file__).resolve().parent
# the flags of a checked hash-based .pyc (PEP 552), after the magic number
_CHECKED = importlib.util.MAGIC_NUMBER + (3).to_bytes(4, "little")


def forget(package: str) -> None:
    """Drop ``package``'s modules; its files and the hooks' get checked-hash bytecode (or, where
    Python writes none, their compiled code is kept in memory: ``_code_memo``)."""
    CodeMemo.install(package)
    for name in [m for m in sys.modules if m.split(".")[0] == package]:
        del sys.modules[name]
    spec = importlib.util.find_spec(package)
    folders = list(spec.submodule_search_locations or []) if spec else []
    for folder in [*folders, HOOKS]:
        checked_bytecode(Path(folder))


def checked_bytecode(folder: Path) -> None:
    """Each module under ``folder`` compiled to a checked-hash ``.pyc`` unless it has one
    (nothing when Python writes no ``.pyc``; a module that does not parse fails at its import)."""
    if sys.dont_write_bytecode:
        return
    for source in folder.rglob("*.py"):
        pyc = Path(importlib.util.cache_from_source(str(source)))
        try:
            with pyc.open("rb") as f:
                head = f.read(8)
        except OSError:
            head = b""
        if head != _CHECKED:
            mode = py_compile.PycInvalidationMode.CHECKED_HASH
            py_compile.compile(str(source), str(pyc), invalidation_mode=mode, quiet=2)
