"""The one import walker: which modules under ``src/`` a module imports, transitively, read from their files.

:func:`modules` walks the syntax trees (it never imports): a module, every package module it
imports anywhere in its text (inside functions too: more than runs, never less; not in the body
of an ``if TYPE_CHECKING:``, which never runs), and the ``__init__`` of every package on the way. It follows every
module found under the folder it is given (``src/``: the workshop, and the site's build for a
result the site caches), and nothing installed elsewhere. The Source page
shows the experiment's modules with it (:mod:`.source_page`); the cache keys a result on the
bytes of its function's modules with it (:mod:`.cache`).
"""

from __future__ import annotations

import ast
import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

__all__ = ["PACKAGE", "module_path", "modules", "files", "table", "seed"]

PACKAGE = "attention_workshop"
#: The names a file's text imports, by the sha256 of its bytes, its module's name and whether it
#: is a package's ``__init__`` (pure: kept, and a site build keeps them on disk, :func:`table`).
_DIRECT: dict[tuple[bytes, str, bool], frozenset[str]] = {}
_GREW: list[bool] = []


def module_path(name: str, root: Path) -> Path | None:
    """The file of a package module (``__init__.py`` for a subpackage), or None if there is none.
    ``root`` is the folder that holds the package (``src/``)."""
    # os.path, not pathlib: a build asks this thousands of times (every name every module imports)
    base = os.path.join(root, *name.split("."))
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return Path(path)
    return None


def _names(data: bytes, module: str, init: bool) -> frozenset[str]:
    """Every name one module's text imports (``from . import figures`` the module, ``from .core
    import softmax`` the module ``core`` and ``core.softmax``), package or not."""
    key = (hashlib.sha256(data).digest(), module, init)
    if key in _DIRECT:
        return _DIRECT[key]
    here = module if init else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _runs(ast.parse(data)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            if node.level == 0:
                base = node.module or ""
            elif node.module:
                base = f"{base}.{node.module}"
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    _DIRECT[key] = frozenset(found)
    _GREW[:] = [True]
    return _DIRECT[key]


def _typing_only(tree: ast.Module) -> Callable[[ast.expr], bool]:
    """Whether an ``if``'s test is typing's ``TYPE_CHECKING`` (False whenever code runs): the
    name imported from typing as is, or ``typing.TYPE_CHECKING``."""
    imported = any(
        isinstance(node, ast.ImportFrom)
        and node.module == "typing"
        and any(a.name == "TYPE_CHECKING" and a.asname is None for a in node.names)
        for node in tree.body
    )

    def test(expr: ast.expr) -> bool:
        if isinstance(expr, ast.Name):
            return imported and expr.id == "TYPE_CHECKING"
        return (
            isinstance(expr, ast.Attribute)
            and expr.attr == "TYPE_CHECKING"
            and isinstance(expr.value, ast.Name)
            and expr.value.id == "typing"
        )

    return test


def _runs(tree: ast.Module) -> Iterator[ast.AST]:
    """Every node of ``tree`` but those in the body of an ``if TYPE_CHECKING:`` (its ``else``
    runs, and is walked)."""
    typing_only = _typing_only(tree)
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and typing_only(node.test):
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))


def _direct(module: str, path: Path, root: Path) -> frozenset[str]:
    """The package modules one module's text imports."""
    found = _names(path.read_bytes(), module, path.name == "__init__.py")
    return frozenset(m for m in found if module_path(m, root) is not None)


def table() -> tuple[dict[tuple[bytes, str, bool], frozenset[str]], bool]:
    """The names each file read so far imports (by its bytes' hash), and whether any was new."""
    grew = bool(_GREW)
    _GREW.clear()
    return dict(_DIRECT), grew


def seed(known: dict[tuple[bytes, str, bool], frozenset[str]]) -> None:
    """What an earlier process found (each entry is keyed on its file's bytes, so always true)."""
    for key, names in known.items():
        _DIRECT.setdefault(key, frozenset(names))


def modules(entry: str, root: Path, memo: dict | None = None) -> set[str]:
    """``entry`` and every package module it imports, transitively, with the packages on the way
    (importing ``a.b.c`` runs ``a/__init__.py`` and ``a/b/__init__.py`` first). ``memo``: where
    each module's file and imports are kept once found (a site build's, whose files are the same
    from its start to its end)."""
    memo = {} if memo is None else memo
    seen: set[str] = set()
    todo = [entry]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        parts = module.split(".")
        todo.extend(".".join(parts[:n]) for n in range(1, len(parts)))
        if module not in memo:
            path = module_path(module, root)
            if path is None:
                raise ValueError(f"{module} is not a module of {root}")
            memo[module] = (path, _direct(module, path, root))
        todo.extend(memo[module][1])
    return seen


def files(entries: tuple[str, ...], root: Path, memo: dict | None = None) -> set[Path]:
    """The files of ``entries`` and of every package module they import."""
    memo = {} if memo is None else memo
    return {memo[m][0] for entry in entries for m in modules(entry, root, memo)}
