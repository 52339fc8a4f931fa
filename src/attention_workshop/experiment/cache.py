"""A content-addressed cache of what the site build computes that is expensive and pure.

Pages are rendered by MkDocs at every build; only pure results are kept here: the experiment's
verified run, the figures, the trained model's measures, the diagrams, the math font's subset
and the take-home wheel. A result is stored under the hash of everything it reads (its
**key**): the **bytes** of the package modules its code imports (:func:`module_digest`: the
module and what it imports, found by the one import walker, :mod:`.import_closure`) and of
the package's data files, its inputs, and the environment (:func:`environment`: Python, the
OS and processor, every installed distribution's version, the lock files' bytes, and the
settings that change numbers, such as ``ATEN_CPU_CAPABILITY``; made in :mod:`.cache_key`).
No key holds a date or a size. Change any byte and the key changes: a stale entry is never
found.

- Each entry is written as its sha256 and its bytes; a read checks the sha256 first. A
  damaged or unreadable entry is removed, computed again and listed in :data:`DAMAGED` (the
  build's log says so, hooks/experiment.py): it is never used.
- Where: ``.cache/workshop/`` in the project (git-ignored), or ``WORKSHOP_CACHE`` if set.
- Who: the site build alone (the hooks :func:`enable` it for the length of a build). The
  experiment's command line, ``make captures`` and code a test calls run without it.
- ``FRESH=1``: every result is computed again (and stored), none is read. ``make site`` and
  the GitHub workflow's build set it: what is published never comes from the cache.
  A hit imports neither PyTorch nor Matplotlib: versions are read from metadata.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from . import import_closure
from .cache_key import canonical, digest, environment, key
from .import_closure import files as module_files
from .import_closure import module_path

__all__ = [
    "PACKAGE",
    "enable",
    "enabled",
    "fresh",
    "folder",
    "environment",
    "digest",
    "module_digest",
    "key",
    "holds",
    "lookup",
    "store",
    "get",
    "call",
    "STATS",
    "DAMAGED",
]

T = TypeVar("T")

PACKAGE = "attention_workshop"
_PACKAGE_DIR = Path(__file__).resolve().parent.parent
_ROOT = _PACKAGE_DIR.parent.parent
#: Entries kept per kind of result; older ones are removed when a new one is stored.
KEEP = 100
#: What the cache did in this build: kind -> [hits, misses].
STATS: dict[str, list[int]] = {}
#: The entries of this build found damaged or unreadable (computed again), as "kind/key: why".
DAMAGED: list[str] = []
_ENABLED = False
#: While a site build runs (:func:`enable` with ``build``): each module's digest and each
#: entry's checked bytes, found once. The package was imported at the build's start, so its
#: files are the same for the whole build; an edit made meanwhile is the next build's.
_BUILD: dict[tuple[str, Any], Any] | None = None
#: The key of the table of what the package's files import (:mod:`.import_closure`), once read.
_IMPORTS: list[str] = []
#: What an entry's file begins with; then the sha256 of the rest, then the pickled result.
_MAGIC = b"workshop-cache-1\n"


def enable(on: bool = True, build: bool = False) -> None:
    """Use the cache (the site build's hooks turn it on at a build's start, off at its end;
    ``build``: for the length of one build, see :data:`_BUILD`)."""
    global _ENABLED, _BUILD
    _ENABLED = on
    _BUILD = {} if on and build else None
    if on:
        STATS.clear()
        DAMAGED.clear()


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


def _data_files(package: Path) -> list[Path]:
    """Every file but the ``.py`` ones under a package's folder (none if it is no package),
    ``__pycache__`` aside (os.walk, not pathlib's rglob: a build asks at every cached call)."""
    if not (package / "__init__.py").is_file():
        return []
    out = []
    for folder, subfolders, names in os.walk(package):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        out += [
            Path(folder, n)
            for n in names
            if os.path.splitext(n)[1] != ".py"
            and os.path.isfile(os.path.join(folder, n))
        ]
    return out


def module_digest(*modules: str) -> str:
    """A hash of the bytes of ``modules``, of every module under ``src/`` they import (by name and
    bytes), and of the data files (``.toml``..., which code may read) of every package there."""
    if _BUILD is not None and ("digest", modules) in _BUILD:
        return str(_BUILD[("digest", modules)])
    base = _PACKAGE_DIR.parent
    # once a build: what the files import, by their bytes (and the walker's: what it counts)
    if enabled() and not _IMPORTS:
        _IMPORTS.append(key("imports", Path(import_closure.__file__).read_bytes()))
        known = lookup("imports", _IMPORTS[0])
        if isinstance(known, dict):
            import_closure.seed(known)
    build = {} if _BUILD is None else _BUILD  # what one build finds once
    code = module_files(modules, base, build.setdefault(("closure", None), {}))
    found, grew = import_closure.table()
    if grew and _IMPORTS:
        store("imports", _IMPORTS[0], found)
    if ("data", None) not in build:
        build["data", None] = {p for pkg in base.iterdir() for p in _data_files(pkg)}
    read = build.setdefault(("bytes", None), {})
    for p in code | build["data", None]:
        if p not in read:
            read[p] = p.read_bytes()
    everything = sorted(code | build["data", None])
    made = digest([(p.relative_to(base).as_posix(), read[p]) for p in everything])
    if _BUILD is not None:
        _BUILD[("digest", modules)] = made
    return made


# ------------------------------------------------------------------ storing and finding


def _entry(kind: str, k: str) -> Path:
    return folder() / kind / f"{k}.pickle"


def _store(path: Path, value: object) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pickle")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(_MAGIC + hashlib.sha256(data).digest() + data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _prune(path.parent)


def _prune(kind: Path) -> None:
    """Keep the :data:`KEEP` newest entries of a kind (the date decides only what to remove,
    never what is found). Another process may be writing (its ``.tmp-`` file is not an entry)
    or pruning (an entry may vanish under us) at the same time."""

    def written(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except FileNotFoundError:
            return 0.0

    entries = [p for p in kind.glob("*.pickle") if not p.name.startswith(".tmp-")]
    for old in sorted(entries, key=written, reverse=True)[KEEP:]:
        old.unlink(missing_ok=True)


def _read(path: Path) -> Any:
    """The result an entry holds; ValueError when its checksum or its pickle is wrong."""
    if _BUILD is not None and ("entry", path) in _BUILD:
        return pickle.loads(_BUILD[("entry", path)])
    data = path.read_bytes()
    n = len(_MAGIC)
    # a view, not a copy: an entry can be tens of megabytes (the run box's model file)
    body = memoryview(data)[n + 32 :]
    if data[:n] != _MAGIC or hashlib.sha256(body).digest() != data[n : n + 32]:
        raise ValueError("its checksum does not match its bytes")
    value = pickle.loads(body)
    if _BUILD is not None:
        _BUILD[("entry", path)] = body
    return value


def holds(kind: str, k: str) -> bool:
    """Whether :func:`lookup` would find a stored result (read nothing, count nothing)."""
    return enabled() and not fresh() and _entry(kind, k).is_file()


def lookup(kind: str, k: str) -> Any | None:
    """The stored result of ``kind`` under key ``k``; None when there is none (or the cache is off,
    or ``FRESH=1``). A damaged entry is removed and listed in :data:`DAMAGED`."""
    path = _entry(kind, k)
    if not enabled() or fresh() or not path.is_file():
        STATS.setdefault(kind, [0, 0])[1] += 1
        return None
    try:
        value = _read(path)
    # a damaged or unreadable entry is computed again, and the build says so
    except Exception as err:
        path.unlink(missing_ok=True)
        DAMAGED.append(f"{kind}/{k}: {err}")
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
    """``fn(*args, **kwargs)``, cached on the bytes of ``fn``'s module and what it imports
    (:func:`module_digest`) and on its arguments. ``fn`` may be a ``functools.partial``, of a
    function of any module under ``src/`` (the workshop's, or the site build's: the math font's
    subset, the causal page's figures); arguments that cannot be pickled skip the cache, and so
    does a function from anywhere else (a test's, an installed library's)."""
    target, all_args, all_kwargs = fn, args, kwargs
    while isinstance(target, functools.partial):
        all_args = (*target.args, *all_args)
        all_kwargs = {**target.keywords, **all_kwargs}
        target = target.func
    module = getattr(target, "__module__", "") or ""
    if not enabled() or module_path(module, _PACKAGE_DIR.parent) is None:
        return fn(*args, **kwargs)
    try:
        inputs = canonical((all_args, all_kwargs))
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return fn(*args, **kwargs)
    name = f"{module}.{target.__qualname__}"
    k = key("call", name, module_digest(module), inputs)
    return get(name.removeprefix(f"{PACKAGE}."), k, lambda: fn(*args, **kwargs))
