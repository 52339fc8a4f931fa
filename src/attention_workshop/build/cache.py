"""A content-addressed cache of what the site build computes that is expensive and pure.

A result is stored under the hash of everything it depends on (its **key**): the source of
the package modules its code imports, its inputs, and the environment (:func:`environment`:
Python, the OS and processor, every installed distribution's version read with
``importlib.metadata``, the lock files, and the settings that change numbers, such as
``ATEN_CPU_CAPABILITY``). Change any of them and the key changes: a stale entry is never
found, so it can never serve a wrong number. When in doubt, a key includes it.

- Where: ``.cache/workshop/`` in the project (git-ignored), or ``WORKSHOP_CACHE`` if set.
- Who: the site build alone (the hooks :func:`enable` it for the length of a build). The
  experiment's command line, ``make captures`` and code a test calls run without it.
- ``FRESH=1``: every result is computed again (and stored); ``make site`` on a release and CI
  use it. A hit imports neither PyTorch nor Matplotlib: versions are read from metadata.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import io
import os
import pickle
import platform
import sys
import tempfile
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

from .code_digest import files_digest as code_files_digest

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
#: Environment variables whose value can change a computed number or a drawn byte.
_NUMERIC_ENV = (
    "ATEN_",
    "OMP_",
    "OPENBLAS_",
    "MKL_",
    "KMP_",
    "NPY_",
    "MPL",
    "MATPLOTLIB",
    "TORCH_",
    "PYTHONHASHSEED",
)
#: Entries kept per kind of result; older ones are removed when a new one is stored.
KEEP = 100
#: What the cache did in this process: kind -> [hits, misses].
STATS: dict[str, list[int]] = {}
_ENABLED = False


def enable(on: bool = True) -> None:
    """Use the cache (the site build's hooks turn it on at a build's start, off at its end)."""
    global _ENABLED
    _ENABLED = on


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


def _canonical(value: object) -> bytes:
    """``value`` pickled without the memo: equal values give equal bytes, however their parts
    are shared (a pickle writes a repeated object as a reference to its first copy)."""
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf, protocol=4)
    pickler.fast = True  # no memo (the values keyed here hold no cycles)
    pickler.dump(value)
    return buf.getvalue()


def digest(*parts: object) -> str:
    """A sha256 of ``parts`` (bytes as they are, anything else pickled canonically)."""
    h = hashlib.sha256()
    for part in parts:
        data = part if isinstance(part, bytes) else _canonical(part)
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


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


@functools.lru_cache(maxsize=1)
def _environment() -> str:
    os_name = ""
    with contextlib.suppress(OSError):
        os_name = Path("/etc/os-release").read_text(encoding="utf-8")
    cpu = ""
    with contextlib.suppress(OSError):
        cpu = "\n".join(
            line
            for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines()
            if line.startswith(("model name", "flags"))
        )[:4000]
    # every installed distribution, by the name-version of its metadata folder (what
    # importlib.metadata reads), and the tools whose versions the results stamp
    dists = sorted(
        p.name
        for entry in sys.path
        if Path(entry or ".").is_dir()
        for p in Path(entry or ".").iterdir()
        if p.suffix in (".dist-info", ".egg-info")
    )
    tools = {}
    for name in (
        "numpy",
        "torch",
        "matplotlib",
        "mkdocs",
        "mkdocs-material",
        "fonttools",
    ):
        try:
            tools[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            tools[name] = ""
    locks = {
        name: (_ROOT / name).read_bytes()
        for name in ("requirements.lock", "requirements-model.lock")
        if (_ROOT / name).is_file()
    }
    # torch_refs asks for the portable kernels when nothing is set
    settings = sorted(
        (
            {"ATEN_CPU_CAPABILITY": "default"}
            | {k: v for k, v in os.environ.items() if k.startswith(_NUMERIC_ENV)}
        ).items()
    )
    return digest(
        sys.version,
        sys.implementation.name,
        platform.platform(),
        platform.machine(),
        os_name,
        cpu,
        dists,
        tools,
        locks,
        settings,
    )


def environment() -> str:
    """A hash of what every result depends on besides its own code and inputs: Python, the OS,
    the processor, every installed distribution's version, the lock files, and the settings
    that change numbers (``ATEN_CPU_CAPABILITY``, BLAS threads, Matplotlib's rc...)."""
    return _environment()


def _stamp() -> tuple[object, ...]:
    """Each file of the package with its size and date: the digests below change only if this does."""
    return (
        _PACKAGE_DIR,
        *sorted(
            (str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in _package_files()
        ),
    )


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


# ------------------------------------------------------------------ what a module's code imports


def _module_path(name: str) -> Path | None:
    rel = Path(*name.split("."))
    for path in (
        _PACKAGE_DIR.parent / rel / "__init__.py",
        _PACKAGE_DIR.parent / f"{rel}.py",
    ):
        if path.is_file():
            return path
    return None


class _Imports(ast.NodeVisitor):
    """The package modules a module imports when it runs (``if TYPE_CHECKING:`` blocks excluded)."""

    def __init__(self, name: str, is_package: bool) -> None:
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
        found = [s for s in subs if _module_path(s) is not None]
        # `from pkg import submodule` runs pkg's __init__ (its own text) and the submodule
        self.found.update(found)
        if len(found) < len(subs):
            self.found.add(module)
        else:
            self.found.add(f"{module}.__init__")


@functools.cache
def _direct(name: str, stamp: tuple[int, int]) -> frozenset[str]:
    path = _module_path(name)
    assert path is not None
    visitor = _Imports(name, path.name == "__init__.py")
    visitor.visit(ast.parse(path.read_bytes()))
    return frozenset(m for m in visitor.found if m.split(".")[0] == PACKAGE)


def _closure(module: str) -> set[Path]:
    """The files whose text can change what ``module``'s code does: it, what it imports, transitively,
    and the ``__init__`` of every package on the way (their own text)."""
    seen: set[str] = set()
    files: set[Path] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        own_only = name.endswith(".__init__")
        name = name.removesuffix(".__init__")
        parts = name.split(".")
        for n in range(1, len(parts)):
            init = _module_path(".".join(parts[:n]))
            if init is not None:
                files.add(init)
        path = _module_path(name)
        if path is None:
            continue
        files.add(path)
        if own_only or name in seen:
            continue
        seen.add(name)
        stat = path.stat()
        todo.extend(_direct(name, (stat.st_mtime_ns, stat.st_size)))
    return files


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
        files |= _closure(m)
    data = {p for p in _package_files() if p.suffix not in (".py", ".pyc")}
    return code_files_digest(files | data, _PACKAGE_DIR.parent)


# ------------------------------------------------------------------ storing and finding


def key(kind: str, *parts: object) -> str:
    """The key of a result of ``kind`` that depends on ``parts`` (and always on :func:`environment`)."""
    return digest(kind, environment(), *parts)


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
    entries = sorted(
        path.parent.glob("*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True
    )
    for old in entries[KEEP:]:
        old.unlink(missing_ok=True)


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
        inputs = _canonical((all_args, all_kwargs))
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return fn(*args, **kwargs)
    name = f"{module}.{target.__qualname__}"
    k = key("call", name, module_digest(module), inputs)
    return get(name.removeprefix(f"{PACKAGE}."), k, lambda: fn(*args, **kwargs))
