"""What the hooks share: the package imported afresh for a build only when one of its files changed.

``mkdocs serve`` builds again in one process at every save. The package's modules are imported
again when one of its files changed or another copy of it comes first on ``sys.path``; else
they stay, caches and all. A leaf (it imports nothing from the package) whose file did not
change stays either way. ``build.site.forget`` then resets what one build may not inherit from
another (its ``PER_BUILD`` list; tests/test_site_state.py keeps it whole).
"""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import sys
from pathlib import Path

import _workshop_compiled

_workshop_compiled.remember()

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


def _leaf(own: tuple[str, int, int], package: str) -> bool:
    """Whether the module file ``own`` (path, date, size) imports nothing from ``package`` (nor is
    a package's __init__); asked once per file version."""
    if own not in _LEAVES:
        _LEAVES[own] = not own[0].endswith("__init__.py") and _imports_none(
            own[0], package
        )
    return _LEAVES[own]


_LEAVES: dict[tuple[str, int, int], bool] = {}


def _imports_none(path: str, package: str) -> bool:
    for node in ast.walk(ast.parse(Path(path).read_bytes())):
        if isinstance(node, ast.ImportFrom) and (
            node.level or (node.module or "").split(".")[0] == package
        ):
            return False
        if isinstance(node, ast.Import) and any(
            a.name.split(".")[0] == package for a in node.names
        ):
            return False
    return True


def refresh(package: str) -> None:
    """``package`` as a fresh import has it: imported again (unchanged leaves kept), or kept,
    then its per-build state reset."""
    stamp = _stamp(package)
    loaded = _own(sys.modules.get(package))
    same_copy = (
        stamp is not None
        and loaded is not None
        and loaded[0] == f"{stamp[0]}/__init__.py"
    )
    before = _IMPORTED.get("stamp")
    if not (same_copy and stamp == before):
        unchanged = set(stamp or ()) & set(before or ()) if same_copy else set()
        kept = []
        for name in [
            m for m in sys.modules if m == package or m.startswith(f"{package}.")
        ]:
            own = _own(sys.modules[name])
            if own is not None and own in unchanged and _leaf(own, package):
                kept.append(name)
                continue
            del sys.modules[name]
        _IMPORTED["stamp"] = stamp
        importlib.import_module(f"{package}.build.site")
        # a kept module is an attribute of its package's new module, as an import makes it
        for name in kept:
            parent, _, child = name.rpartition(".")
            if parent in sys.modules:
                setattr(sys.modules[parent], child, sys.modules[name])
    importlib.import_module(f"{package}.build.site").forget()


def _own(module: object) -> tuple[str, int, int] | None:
    """A module's file, date and size as :func:`_stamp` has them (None without a file)."""
    file = getattr(module, "__file__", None)
    if not file or not Path(file).is_file():
        return None
    st = Path(file).stat()
    return (str(Path(file).resolve()), st.st_mtime_ns, st.st_size)
