"""What Python files do, as a hash: their syntax trees, without docstrings or comments.

A computed result (the experiment's run, a figure) depends on what its code *does*, not on how
that code is explained: an edit to a docstring or a comment cannot change a number or a drawn
byte. :func:`files_digest` hashes each ``.py`` file as its syntax tree (``ast.dump``: names,
constants, annotations, structure; no comments, no line numbers) with every docstring left out,
so such an edit leaves a result's key (build/cache.py) as it was and the result is found again.

Unless something could read the text itself: when any of the files uses a way to reach Python
source or docstrings at run time (:data:`READS_SOURCE`: ``__doc__``, ``inspect``,
``linecache``, a code object's lines...), every file is hashed byte for byte, as before (the
keys' own code, :data:`KEY_CODE`, reads source to hash it and is not counted). Files
that are not Python (data the code reads) are always hashed byte for byte.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

__all__ = ["READS_SOURCE", "KEY_CODE", "code_text", "files_digest"]

#: Text of a module that may read source or docstrings when it runs: then no file is normalised.
READS_SOURCE = re.compile(
    rb"__doc__|\binspect\b|linecache|getsource|getdoc|__code__|co_firstlineno|f_lineno"
    rb"|\btraceback\b"
)
#: The files that read source (or name ways to) only to make keys (the keys' own code): never a reason not to normalise.
KEY_CODE = frozenset(
    {
        "attention_workshop/build/cache.py",
        "attention_workshop/build/code_digest.py",
        "attention_workshop/build/page_keys.py",
    }
)
#: What a normalised file is hashed as begins with this (never the first bytes of a source file).
_TREE = b"\0ast\0"


def _drop_docstrings(tree: ast.AST) -> ast.AST:
    """``tree`` with the docstring of the module and of every class and function removed."""
    for node in ast.walk(tree):
        if not isinstance(
            node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
        ):
            continue
        body = node.body
        if (
            body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            # a body is never empty: a function that was only a docstring does nothing
            node.body = body[1:] or [ast.Pass()]
    return tree


# one build asks for the same files under several keys (the run, each figure, the pages)
@functools.lru_cache(maxsize=1024)
def code_text(data: bytes) -> bytes:
    """What a Python file's code does, as bytes: its syntax tree without docstrings. A file that
    does not parse is its own bytes (running it fails whatever its key)."""
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return data
    return _TREE + ast.dump(_drop_docstrings(tree)).encode()


def files_digest(
    paths: Iterable[Path], base: Path, trusted: frozenset[str] = frozenset()
) -> str:
    """A sha256 of ``paths`` (named relative to ``base``): Python files by :func:`code_text`,
    unless one of them may read source text (:data:`READS_SOURCE`; :data:`KEY_CODE` and
    ``trusted`` not counted), other files byte for byte."""
    contents = {p: p.read_bytes() for p in sorted(paths)}
    normalise = not any(
        READS_SOURCE.search(data)
        for p, data in contents.items()
        if p.suffix == ".py"
        and p.relative_to(base).as_posix() not in KEY_CODE | trusted
    )
    h = hashlib.sha256()
    for path, data in contents.items():
        h.update(path.relative_to(base).as_posix().encode() + b"\0")
        if normalise and path.suffix == ".py":
            data = code_text(data)
        h.update(data + b"\0")
    return h.hexdigest()
