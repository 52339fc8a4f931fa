"""The take-home files: the package as a wheel, the exact lock, the pins for macOS and Windows.

A reader of the built site alone recreates this build's results.log with the Reproducing page's
commands (:mod:`.reproduce` writes them, and the scripts that run them): make a virtual
environment, install the wheel with the libraries it needs, install the trained model's wheel
by its SHA-256, and compare a run with the site's log.

- :func:`build_wheel` builds the package's wheel from a clean copy of its sources, with
  ``SOURCE_DATE_EPOCH`` setting every date inside: same commit, same bytes.
- :func:`experiment_lock` is the subset of ``requirements.lock`` the experiment and the trained
  model need (NumPy, PyTorch, Matplotlib, safetensors, tokenizers and everything they depend on),
  found by walking the installed packages' own requirements, so it never drifts from the lock
  the site is built with. :func:`pins` is the same five at the lock's versions, for the systems
  PyTorch's CPU build of the lock does not exist on.
- :data:`MODEL_LOCK` (``requirements-model.lock``) pins the model's wheel by its SHA-256; the site
  offers the file as it is.
"""

from __future__ import annotations

import concurrent.futures
import functools
import io
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from importlib.metadata import PackageNotFoundError, requires
from pathlib import Path

from attention_workshop.experiment import cache

__all__ = [
    "ROOTS",
    "LOCK_NAME",
    "PINS_NAME",
    "MODEL_LOCK_NAME",
    "LOCK",
    "MODEL_LOCK",
    "experiment_lock",
    "pins",
    "pin",
    "build_wheel",
    "prefetch_wheel",
    "wheel",
    "human_size",
]

#: What the experiment imports from outside the standard library (the maths needs NumPy alone),
#: then what the trained model reads its weights and its tokenizer with.
ROOTS = ("numpy", "torch", "matplotlib", "safetensors", "tokenizers")
#: File names of the take-home files: the exact lock (Linux), the pins (macOS, Windows), the model.
LOCK_NAME = "requirements-experiment.txt"
PINS_NAME = "requirements-macos-windows.txt"
MODEL_LOCK_NAME = "requirements-model.lock"

_PACKAGE_DIR = (
    Path(__file__).resolve().parents[1] / "attention_workshop"
)  # src/attention_workshop
_REPO_DIR = _PACKAGE_DIR.parent.parent
#: The lock the site is built with, the model's lock, and the files a wheel is built from.
LOCK = _REPO_DIR / "requirements.lock"
MODEL_LOCK = _REPO_DIR / MODEL_LOCK_NAME
_PROJECT_FILES = ("pyproject.toml", "README.md")


def _canonical(name: str) -> str:
    """A distribution name as pip compares them: ``typing_extensions`` == ``typing-extensions``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins(lock_text: str) -> dict[str, str]:
    """``{canonical name: "name==version" line}`` of a requirements lock."""
    pins = {}
    for line in lock_text.splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            pins[_canonical(line.split("==", 1)[0])] = line
    return pins


def _dependencies(name: str) -> list[str]:
    """The installed distribution's requirements that apply here (no extras, markers evaluated)."""
    from packaging.requirements import Requirement

    out = []
    for text in requires(name) or []:
        req = Requirement(text)
        if req.marker is None or req.marker.evaluate({"extra": ""}):
            out.append(req.name)
    return out


def experiment_lock(lock_text: str, roots: tuple[str, ...] = ROOTS) -> str:
    """The lines of ``lock_text`` the experiment needs: ``roots`` and all they depend on, sorted.

    Raises:
        ValueError: a package the experiment needs is not pinned in the lock, or not installed.
    """
    # the installed distributions' requirements are read once per environment (cache_key), and
    # in a site build kept on disk (experiment/cache.py: under this code, the lock and the roots)
    return cache.call(_experiment_lock, lock_text, tuple(roots), cache.environment())


@functools.lru_cache(maxsize=4)
def _experiment_lock(lock_text: str, roots: tuple[str, ...], _env: str) -> str:
    pins = _pins(lock_text)
    seen: set[str] = set()
    todo = [_canonical(r) for r in roots]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name not in pins:
            raise ValueError(
                f"the experiment needs {name!r}, which requirements.lock does not pin: run make lock"
            )
        seen.add(name)
        try:
            todo.extend(_canonical(d) for d in _dependencies(name))
        except PackageNotFoundError:
            raise ValueError(
                f"{name!r} is pinned but not installed here: run make setup"
            ) from None
    header = (
        "# The exact environment of the experiment and the trained model on Linux: NumPy, PyTorch (CPU),\n"
        "# Matplotlib, safetensors, tokenizers and their dependencies, pinned as in the lock this site\n"
        "# was built with. Install with pip install --no-deps -r, after PyTorch's CPU build.\n"
    )
    return header + "".join(f"{pins[n]}\n" for n in sorted(seen))


def pin(lock_text: str, name: str) -> str:
    """The lock's line for one package: ``torch==2.13.0+cpu``.

    Raises:
        ValueError: the lock does not pin it.
    """
    try:
        return _pins(lock_text)[_canonical(name)]
    except KeyError:
        raise ValueError(
            f"requirements.lock does not pin {name!r}: run make lock"
        ) from None


def pins(lock_text: str, roots: tuple[str, ...] = ROOTS) -> str:
    """``requirements-macos-windows.txt``: ``roots`` at the lock's versions, without a local build
    tag (``torch==2.13.0``, not ``+cpu``: PyPI's PyTorch for macOS and Windows is the CPU build)."""
    header = (
        "# macOS and Windows: NumPy, PyTorch, Matplotlib, safetensors and tokenizers at the versions\n"
        "# this site was built with, from PyPI; pip chooses their dependencies. Install with pip install -r.\n"
    )
    return header + "".join(f"{pin(lock_text, r).split('+', 1)[0]}\n" for r in roots)


def build_wheel(out_dir: Path) -> Path:
    """Build the package's wheel into ``out_dir`` and return its path.

    The wheel is built from a fresh copy of ``pyproject.toml``, ``README.md`` and the
    package's ``.py`` and ``.toml`` files (no caches, no stray files, fixed permissions),
    so two builds of one commit give the same bytes; the dates inside come from
    ``SOURCE_DATE_EPOCH`` (the last commit's time when the site build sets it).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="attention-workshop-wheel-") as tmp:
        project = Path(tmp)
        for name in _PROJECT_FILES:
            _copy(_REPO_DIR / name, project / name)
        for name in _wheel_files():
            _copy(_PACKAGE_DIR.parent / name, project / "src" / name)
        env = {
            **os.environ,
            "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", "0"),
        }
        run = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from setuptools import build_meta; print(build_meta.build_wheel(sys.argv[1]))",
                str(out_dir.resolve()),
            ],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if run.returncode != 0:
            raise RuntimeError(f"building the wheel failed:\n{run.stderr.strip()}")
    return out_dir / run.stdout.strip().splitlines()[-1]


def _wheel_files() -> dict[str, bytes]:
    """The package's files that go into the wheel, by their name in it."""
    return {
        path.relative_to(_PACKAGE_DIR.parent).as_posix(): path.read_bytes()
        for path in sorted(_PACKAGE_DIR.rglob("*"))
        if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts
    }


def _wheel_key() -> str:
    """The wheel's key: the bytes of every file it is built from, and ``SOURCE_DATE_EPOCH``."""
    project = [(name, (_REPO_DIR / name).read_bytes()) for name in _PROJECT_FILES]
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "0")
    return cache.key("wheel", project, sorted(_wheel_files().items()), epoch)


def _build() -> tuple[str, bytes]:
    with tempfile.TemporaryDirectory() as tmp:
        path = build_wheel(Path(tmp))
        return path.name, path.read_bytes()


def prefetch_wheel() -> None:
    """Start building the wheel in the background when the cache cannot give it: a site build
    asks for it later (:func:`wheel`), and setuptools' process runs meanwhile."""
    k = _wheel_key()
    if cache.holds("wheel", k):
        return
    _PENDING.clear()
    _PENDING[k] = concurrent.futures.ThreadPoolExecutor(max_workers=1).submit(_build)


#: The wheel being built in the background, by key (:func:`prefetch_wheel`).
_PENDING: dict[str, concurrent.futures.Future[tuple[str, bytes]]] = {}


def wheel() -> tuple[str, bytes]:
    """The wheel's file name and bytes, as setuptools builds them (:func:`build_wheel`).

    A site build keeps them on disk (:mod:`.cache`), keyed on the bytes of every file the wheel
    is built from, ``SOURCE_DATE_EPOCH`` (its dates) and the environment (setuptools' version
    among the distributions).
    """
    k = _wheel_key()
    pending = _PENDING.pop(k, None)
    return cache.get(
        "wheel", k, lambda: pending.result() if pending is not None else _build()
    )


def _copy(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(src.read_bytes())
    dest.chmod(0o644)


def human_size(n: int) -> str:
    """A file size as a download list prints it: ``812 bytes``, ``14.2 kB``, ``3.1 MB`` (powers of 1000)."""
    if n < 1000:
        return f"{n} bytes"
    if n < 1000**2:
        return f"{n / 1000:.1f} kB"
    return f"{n / 1000**2:.1f} MB"


def zip_files(members: dict[str, bytes]) -> bytes:
    """A zip of ``members`` in name order, every date ``SOURCE_DATE_EPOCH`` (same inputs, same bytes)."""
    import time

    epoch = max(
        int(os.environ.get("SOURCE_DATE_EPOCH", "0")), 315532800
    )  # zip dates start in 1980
    stamp = time.gmtime(epoch)[:6]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(members):
            info = zipfile.ZipInfo(f"attention-workshop/{name}", date_time=stamp)
            info.external_attr = (0o755 if name.endswith(".sh") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, members[name])
    return buf.getvalue()
