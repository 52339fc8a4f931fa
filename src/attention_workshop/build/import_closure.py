"""What a package module's code imports from the package, transitively (build/cache.py's keys).

:func:`closure` walks the syntax trees (never imports): a module, what it imports, and the
``__init__`` of every package on the way. ``if TYPE_CHECKING:`` blocks are left out: they do
not run.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

__all__ = ["closure"]

PACKAGE = "attention_workshop"


def _module_path(name: str, root: Path) -> Path | None:
    rel = Path(*name.split("."))
    for path in (root / rel / "__init__.py", root / f"{rel}.py"):
        if path.is_file():
            return path
    return None


class _Imports(ast.NodeVisitor):
    """The package modules a module imports when it runs (``if TYPE_CHECKING:`` blocks excluded)."""

    def __init__(self, name: str, is_package: bool, root: Path) -> None:
        self.root = root
        self.base = name.split(".") if is_package else name.split(".")[:-1]
        self.found: set[str] = set()

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", "")
        if name == "TYPE_CHECKING":
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        self.found.update(a.name for a in node.names)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            parts = self.base[: len(self.base) - node.level + 1]
            module = ".".join([*parts, *([node.module] if node.module else [])])
        else:
            module = node.module or ""
        subs = [f"{module}.{a.name}" for a in node.names]
        found = [s for s in subs if _module_path(s, self.root) is not None]
        # `from pkg import submodule` runs pkg's __init__ (its own text) and the submodule
        self.found.update(found)
        if len(found) < len(subs):
            self.found.add(module)
        else:
            self.found.add(f"{module}.__init__")


@functools.cache
def _direct(name: str, root: Path, stamp: tuple[int, int]) -> frozenset[str]:
    path = _module_path(name, root)
    assert path is not None
    visitor = _Imports(name, path.name == "__init__.py", root)
    visitor.visit(ast.parse(path.read_bytes()))
    return frozenset(m for m in visitor.found if m.split(".")[0] == PACKAGE)


def closure(module: str, root: Path) -> set[Path]:
    """The files whose text can change what ``module``'s code does: it, what it imports, transitively,
    and the ``__init__`` of every package on the way (their own text). ``root`` is the folder
    that holds the package (``src/``)."""
    seen: set[str] = set()
    files: set[Path] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        own_only = name.endswith(".__init__")
        name = name.removesuffix(".__init__")
        parts = name.split(".")
        for n in range(1, len(parts)):
            init = _module_path(".".join(parts[:n]), root)
            if init is not None:
                files.add(init)
        path = _module_path(name, root)
        if path is None:
            continue
        files.add(path)
        if own_only or name in seen:
            continue
        seen.add(name)
        stat = path.stat()
        todo.extend(_direct(name, root, (stat.st_mtime_ns, stat.st_size)))
    return files
