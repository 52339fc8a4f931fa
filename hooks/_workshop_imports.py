"""What the hooks share: the package imported afresh for a build only when one of its files changed.

``mkdocs serve`` builds again in the same process at every save. The package's modules are
dropped and imported again when a file of the package changed, or when another copy of it now
comes first on ``sys.path``; otherwise they stay (compiled code and pure caches survive), and
``build.site.forget`` resets the state one build may not inherit from another (its
``PER_BUILD`` list; tests/test_site_state.py keeps the list whole).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
from pathlib import Path

#: The stamp of the package's files when its modules were last imported.
_IMPORTED: dict[str, object] = {}


def _stamp(package: str) -> tuple[object, ...] | None:
    """Where ``package`` would be imported from now, and each of its files' date and size."""
    spec = importlib.machinery.PathFinder.find_spec(package)
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).resolve().parent
    files = []
    for path in folder.rglob("*"):
        if "__pycache__" not in path.parts and path.is_file():
            st = path.stat()
            files.append((str(path), st.st_mtime_ns, st.st_size))
    return (str(folder), *sorted(files))


def refresh(package: str) -> None:
    """``package`` as a fresh import has it: imported again, or kept and its state reset."""
    stamp = _stamp(package)
    loaded = getattr(sys.modules.get(package), "__file__", None)
    same_copy = (
        stamp is not None
        and loaded is not None
        and str(Path(loaded).resolve().parent) == stamp[0]
    )
    if same_copy and stamp == _IMPORTED.get("stamp"):
        importlib.import_module(f"{package}.build.site").forget()
        return
    for name in [m for m in sys.modules if m == package or m.startswith(f"{package}.")]:
        del sys.modules[name]
    _IMPORTED["stamp"] = stamp
