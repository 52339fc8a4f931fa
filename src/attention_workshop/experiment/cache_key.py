"""What a key of the build's cache (:mod:`.cache`) is made of: parts hashed canonically, and the
environment every result depends on besides its own code and inputs.

:func:`environment` hashes Python, the OS and processor, every installed distribution's version
read with ``importlib.metadata`` (a hit imports neither PyTorch nor Matplotlib), the lock files,
and the settings that change numbers, such as ``ATEN_CPU_CAPABILITY``. :func:`key` puts it in
every key: change any of them and no stale entry is found.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import os
import pickle
import platform
import sys
from importlib import metadata
from pathlib import Path

__all__ = ["canonical", "digest", "environment", "key"]

_ROOT = Path(__file__).resolve().parent.parent.parent.parent
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
#: The tools whose versions the results stamp.
_TOOLS = ("numpy", "torch", "matplotlib", "mkdocs", "mkdocs-material", "fonttools")
_LOCKS = ("requirements.lock", "requirements-model.lock")


def canonical(value: object) -> bytes:
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
        data = part if isinstance(part, bytes) else canonical(part)
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _machine() -> tuple[str, str]:
    """The OS release file and the processor's model names and flags ("" where unreadable)."""
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
    return os_name, cpu


def _distributions() -> tuple[list[str], dict[str, str]]:
    """Every installed distribution, by the name-version of its metadata folder (what
    importlib.metadata reads), and the versions of :data:`_TOOLS` ("" for one not installed)."""
    dists = sorted(
        p.name
        for entry in sys.path
        if Path(entry or ".").is_dir()
        for p in Path(entry or ".").iterdir()
        if p.suffix in (".dist-info", ".egg-info")
    )
    tools = {}
    for name in _TOOLS:
        try:
            tools[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            tools[name] = ""
    return dists, tools


def _settings() -> list[tuple[str, str]]:
    """The environment variables that change numbers, sorted; torch_refs asks for the portable
    kernels when nothing is set, so an unset ``ATEN_CPU_CAPABILITY`` counts as ``default`` (and
    ``MKL_CBWR`` as ``COMPATIBLE``)."""
    return sorted(
        (
            {"ATEN_CPU_CAPABILITY": "default", "MKL_CBWR": "COMPATIBLE"}
            | {k: v for k, v in os.environ.items() if k.startswith(_NUMERIC_ENV)}
        ).items()
    )


@functools.lru_cache(maxsize=1)
def _environment() -> str:
    os_name, cpu = _machine()
    dists, tools = _distributions()
    locks = {
        name: (_ROOT / name).read_bytes() for name in _LOCKS if (_ROOT / name).is_file()
    }
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
        _settings(),
    )


def environment() -> str:
    """A hash of what every result depends on besides its own code and inputs: Python, the OS,
    the processor, every installed distribution's version, the lock files, and the settings
    that change numbers (``ATEN_CPU_CAPABILITY``, BLAS threads, Matplotlib's rc...)."""
    return _environment()


def key(kind: str, *parts: object) -> str:
    """The key of a result of ``kind`` that depends on ``parts`` (and always on :func:`environment`)."""
    return digest(kind, environment(), *parts)
