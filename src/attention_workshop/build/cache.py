"""A content-addressed cache of what the site build computes that is expensive and pure.

A result is stored under the hash of everything it depends on (its **key**): the source of
the package modules its code imports (:func:`module_digest`, here), its inputs, and the
environment (:func:`environment`: Python, the OS and processor, every installed distribution's
version read with ``importlib.metadata``, the lock files, and the settings that change numbers,
such as ``ATEN_CPU_CAPABILITY``; made in :mod:`.cache_key`). Change any of them and the key
changes: a stale entry is never found, so it can never serve a wrong number. When in doubt, a
key includes it.

- Where: ``.cache/workshop/`` in the project (git-ignored), or ``WORKSHOP_CACHE`` if set.
- Who: the site build alone (the hooks :func:`enable` it for the length of a build). The
  experiment's command line, ``make captures`` and code a test calls run without it.
- ``FRESH=1``: every result is computed again (and stored); ``make site`` on a release and CI
  use it. A hit imports neither PyTorch nor Matplotlib: versions are read from metadata.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from .cache_key import canonical, digest, environment, key
from .code_digest import files_digest as code_files_digest
from .import_closure import closure

__all__ = [
    "PACKAGE",
    "enable",
    "enabled",
    "fresh",
    "folder",
    "environment",
    "digest",
    "package_digest",
    "module_digest",
    "code_digest",
    "key",
    "holds",
    "lookup",
    "store",
    "get",
    "call",
    "STATS",
    "per_package",
]

T = TypeVar("T")

PACKAGE = "attention_workshop"
_PACKAGE_DIR = Path(__file__).resolve().parent.parent
_ROOT = _PACKAGE_DIR.parent.parent
#: Entries kept per kind of result; older ones are removed when a new one is stored.
KEEP = 100
#: What the cache did in this process: kind -> [hits, misses].
STATS: dict[str, list[int]] = {}
_ENABLED = False


def enable(on: bool = True) -> None:
    """Use the cache (the site build's hooks turn it on at a build's start, off at its end)."""
    global _ENABLED
    _ENABLED = on
    _BUILD_STAMP.clear()


def enabled() -> bool:
    """Whether results are looked up and stored (``WORKSHOP_CACHE=off`` turns it off everywhere)."""
    return _ENABLED and os.environ.get("WORKSHOP_CACHE", "") != "off"


def fresh() -> bool:
    """``FRESH=1``: compute everything again (and store it), never read an entry."""
    return os.environ.get("FRESH", "") not in ("", "0")


def folder() -> Path:
    """Where the entries are: ``$WORKSHOP_CACHE`` or the project's ``.cache/workshop/``."""
    where = os.environ.get("WORKSHOP_CACHE", "")
    return Path(where) if where not in ("", "off") else _ROOT / ".cache" / "workshop"


def _files_digest(paths: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(path.relative_to(_PACKAGE_DIR.parent).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def _package_files() -> list[Path]:
    return [
        p
        for p in _PACKAGE_DIR.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    ]


def _stamp() -> tuple[object, ...]:
    """Each file of the package with its size and date: the digests below change only if this does.
    Taken once per build (the package's modules are imported once per build too)."""
    if _ENABLED and _BUILD_STAMP:
        return _BUILD_STAMP[0]
    stamp = (
        _PACKAGE_DIR,
        *sorted(
            (str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in _package_files()
        ),
    )
    if _ENABLED:
        _BUILD_STAMP.append(stamp)
    return stamp


_BUILD_STAMP: list[tuple[object, ...]] = []


_DIGESTS: dict[tuple[object, ...], Any] = {}


def _memo(name: tuple[str, ...], make: Callable[[], T], kind: type = str) -> T:
    """``make()``, once per set of file dates and sizes: in this process, and (cache on) on disk,
    where the next build finds it (``mkdocs serve`` imports the package afresh for each build).
    A value read back that is not a ``kind`` is made again."""
    stamp = (name, _stamp())
    if stamp in _DIGESTS:
        found: T = _DIGESTS[stamp]
        return found
    path = _entry("digest", digest("digest", stamp))
    value = None
    if enabled() and not fresh() and path.is_file():
        # an unreadable entry is made again
        with contextlib.suppress(Exception), path.open("rb") as f:
            value = pickle.load(f)
    if not isinstance(value, kind):
        value = make()
        if enabled():
            _store(path, value)
    _DIGESTS[stamp] = value
    return value  # type: ignore[return-value]


def per_package(name: str, make: Callable[[], T], kind: type) -> T:
    """``make()``, a pure function of the package's files alone (what its modules import...),
    made again only when one of the files changes (date or size), kept as :func:`package_digest`."""
    return _memo(("per_package", name), make, kind)


def package_digest() -> str:
    """A hash of every file of the package (code and data)."""
    return _memo(("package",), lambda: _files_digest(_package_files()))


def module_digest(*modules: str) -> str:
    """A hash of the code of ``modules`` and of everything they import from the package
    (with the package's data files, which code may read). Code is hashed as what it does
    (build/code_digest.py): a docstring or comment edit leaves the key as it was."""
    return _memo(("code", *modules), lambda: _module_digest(modules))


def code_digest(*readers: str) -> str:
    """:func:`package_digest` with the Python files hashed as what they do (build/code_digest.py);
    ``readers`` (paths such as ``attention_workshop/build/render.py``) are modules whose reading
    of source the caller has ruled out, and do not keep the files from being normalised."""
    return _memo(
        ("code", "", *readers),
        lambda: code_files_digest(
            _package_files(), _PACKAGE_DIR.parent, trusted=frozenset(readers)
        ),
    )


def _module_digest(modules: tuple[str, ...]) -> str:
    files: set[Path] = set()
    for m in modules:
        files |= closure(m, _PACKAGE_DIR.parent)
    data = {p for p in _package_files() if p.suffix not in (".py", ".pyc")}
    return code_files_digest(files | data, _PACKAGE_DIR.parent)


# ------------------------------------------------------------------ storing and finding


def _entry(kind: str, k: str) -> Path:
    return folder() / kind / f"{k}.pickle"


def _store(path: Path, value: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pickle")
    try:
        with os.fdopen(fd, "wb") as out:
            pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _prune(path.parent)


def _prune(kind: Path) -> None:
    """Keep the :data:`KEEP` newest entries of a kind. Another process may be writing (its
    ``.tmp-`` file is not an entry) or pruning (an entry may vanish under us) at the same time."""

    def mtime(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except FileNotFoundError:
            return 0.0

    entries = [p for p in kind.glob("*.pickle") if not p.name.startswith(".tmp-")]
    for old in sorted(entries, key=mtime, reverse=True)[KEEP:]:
        old.unlink(missing_ok=True)


def holds(kind: str, k: str) -> bool:
    """Whether :func:`lookup` would find a stored result (read nothing, count nothing)."""
    return enabled() and not fresh() and _entry(kind, k).is_file()


def lookup(kind: str, k: str) -> Any | None:
    """The stored result of ``kind`` under key ``k``; None when there is none (or the cache is off,
    or ``FRESH=1``). A damaged entry is removed."""
    path = _entry(kind, k)
    if not enabled() or fresh() or not path.is_file():
        STATS.setdefault(kind, [0, 0])[1] += 1
        return None
    try:
        with path.open("rb") as f:
            value = pickle.load(f)
    # a damaged or unreadable entry is computed again
    except Exception:
        path.unlink(missing_ok=True)
        STATS.setdefault(kind, [0, 0])[1] += 1
        return None
    STATS.setdefault(kind, [0, 0])[0] += 1
    return value


def store(kind: str, k: str, value: object) -> None:
    """Keep ``value`` as the result of ``kind`` under key ``k`` (when the cache is on)."""
    if enabled():
        _store(_entry(kind, k), value)


def get(
    kind: str, k: str, compute: Callable[[], T], keep: Callable[[T], bool] | None = None
) -> T:
    """The stored result of ``kind`` under key ``k``, or ``compute()``, stored (when enabled and,
    with ``keep``, when ``keep(result)`` says so: a failed command is never stored)."""
    found = lookup(kind, k)
    if found is not None:
        cached: T = found
        return cached
    value = compute()
    if keep is None or keep(value):
        store(kind, k, value)
    return value


def call(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``, cached on ``fn``'s code (:func:`module_digest` of its module) and its
    arguments. ``fn`` may be a ``functools.partial``; arguments that cannot be pickled skip the cache."""
    target, all_args, all_kwargs = fn, args, kwargs
    while isinstance(target, functools.partial):
        all_args = (*target.args, *all_args)
        all_kwargs = {**target.keywords, **all_kwargs}
        target = target.func
    module = getattr(target, "__module__", "") or ""
    if not enabled() or not module.startswith(PACKAGE):
        return fn(*args, **kwargs)
    try:
        inputs = canonical((all_args, all_kwargs))
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return fn(*args, **kwargs)
    name = f"{module}.{target.__qualname__}"
    k = key("call", name, module_digest(module), inputs)
    return get(name.removeprefix(f"{PACKAGE}."), k, lambda: fn(*args, **kwargs))
