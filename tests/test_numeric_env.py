"""Same numbers on every machine: the experiment and the Real heads page under every numeric
environment this machine can imitate (issue 19).

Each setting runs ``tests/numeric_env_probe.py`` in a fresh process: the experiment's
results.log, figures and CSVs are compared byte for byte with the committed ``captures/``, and
the Real heads page's files and quoted values, and the sha256 of the run box's float16 model
file, with those of the machine's own environment. A difference names the setting, the file and
its first differing line.

The settings are the ones a reader's machine may choose for itself: which OpenBLAS kernel
NumPy's BLAS runs (``OPENBLAS_CORETYPE``), which of NumPy's own SIMD loops it dispatches to
(``NPY_DISABLE_CPU_FEATURES``), which instruction set PyTorch's MKL uses
(``MKL_ENABLE_INSTRUCTIONS``), and how many threads each of them has. The package's own settings
(``ATEN_CPU_CAPABILITY``, ``MKL_CBWR``) are taken out of the environment: the package must set
them itself, as it does on a reader's machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CAPTURES = ROOT / "captures"
PROBE = Path(__file__).with_name("numeric_env_probe.py")

#: Each setting runs the whole experiment in a fresh process: make test runs them, make test-fast does not.
pytestmark = pytest.mark.slow

#: Variables a machine, a workplace or a reader may set, that change how numbers are computed.
NUMERIC_PREFIXES = (
    "OPENBLAS_",
    "MKL_",
    "OMP_",
    "NPY_",
    "ATEN_",
    "KMP_",
    "GOTO",
    "BLIS_",
)
#: The package's own settings: taken out, so the runs prove that it sets them itself.
PACKAGE_SETTINGS = ("ATEN_CPU_CAPABILITY", "MKL_CBWR")


def _cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def _threads(n: int) -> dict[str, str]:
    return {
        name: str(n)
        for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
    }


def settings() -> dict[str, dict[str, str]]:
    """``{name: variables}``: every numeric environment this machine can run."""
    avx512 = "avx512f" in _cpu_flags()
    out: dict[str, dict[str, str]] = {
        f"OPENBLAS_CORETYPE={core}": {"OPENBLAS_CORETYPE": core}
        for core in ("Prescott", "Haswell", "Zen", *(("SkylakeX",) if avx512 else ()))
    }
    # NumPy 2.4's dispatch targets: X86_V4 and the AVX512_* groups hold every AVX-512 loop,
    # X86_V3 the AVX2/FMA3 ones; with all of them off NumPy runs its baseline loops.
    no_avx512 = "X86_V4 AVX512_ICL AVX512_SPR"
    out[f"NPY_DISABLE_CPU_FEATURES={no_avx512}"] = {
        "NPY_DISABLE_CPU_FEATURES": no_avx512
    }
    out["NPY_DISABLE_CPU_FEATURES=X86_V3 ..."] = {
        "NPY_DISABLE_CPU_FEATURES": f"X86_V3 {no_avx512}"
    }
    for isa in ("SSE4_2", "AVX2", "AVX512"):
        out[f"MKL_ENABLE_INSTRUCTIONS={isa}"] = {"MKL_ENABLE_INSTRUCTIONS": isa}
    out["1 thread"] = _threads(1)
    out["2 threads"] = _threads(2)
    out["Prescott, MKL SSE4_2, 1 thread"] = {
        "OPENBLAS_CORETYPE": "Prescott",
        "MKL_ENABLE_INSTRUCTIONS": "SSE4_2",
        **_threads(1),
    }
    return out


SETTINGS = settings()


def environment(variables: dict[str, str]) -> dict[str, str]:
    """This process's environment, the package's own settings taken out, ``variables`` added."""
    env = {k: v for k, v in os.environ.items() if k not in PACKAGE_SETTINGS}
    if variables:
        # a setting replaces whatever the machine set for the same library
        env = {k: v for k, v in env.items() if not k.startswith(NUMERIC_PREFIXES)}
    return {**env, "PYTHONHASHSEED": "0", **variables}


def probe(out: Path, variables: dict[str, str], *args: str) -> Path:
    """Run the probe into ``out`` under ``variables``; fail with its output if it fails."""
    cmd = [sys.executable, str(PROBE), *args, str(out)]
    done = subprocess.run(
        cmd, env=environment(variables), capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, (
        f"the probe failed under {variables}:\n{done.stderr[-3000:]}"
    )
    return out


def differences(expected: Path, got: Path, setting: str) -> list[str]:
    """Each file of ``expected`` that ``got`` lacks or holds other bytes in, with its first
    differing line and the setting that made it."""
    found = []
    for path in sorted(p for p in expected.rglob("*") if p.is_file()):
        rel = path.relative_to(expected)
        other = got / rel
        if not other.is_file():
            found.append(f"{setting}: {rel} was not written")
            continue
        a, b = path.read_bytes(), other.read_bytes()
        if a == b:
            continue
        la, lb = a.splitlines(), b.splitlines()
        where = next(
            (n for n, (x, y) in enumerate(zip(la, lb), 1) if x != y),
            min(len(la), len(lb)) + 1,
        )
        x = la[where - 1][:200] if where <= len(la) else b"(no line)"
        y = lb[where - 1][:200] if where <= len(lb) else b"(no line)"
        found.append(
            f"{setting}: {rel} differs at line {where}:\n"
            f"    expected {x.decode(errors='replace')!r}\n"
            f"    got      {y.decode(errors='replace')!r}"
        )
    return found


@pytest.fixture()
def own(own_environment_run) -> Path:
    """The probe in the machine's own environment (whatever OPENBLAS_CORETYPE it sets, or
    none): made once per run (tests/conftest.py), its tests all on one worker."""
    return own_environment_run


def test_the_machines_own_environment_gives_the_capture(own):
    """The experiment in this machine's own environment writes exactly the committed capture."""
    found = differences(CAPTURES, own, "this machine's own environment")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_every_numeric_environment_gives_the_same_bytes(name, own, tmp_path):
    """results.log, every figure and CSV as captured; the Real heads page's files and values, and
    the run box's model file (its sha256), as in the machine's own environment."""
    got = probe(tmp_path / "out", SETTINGS[name])
    found = differences(CAPTURES, got, name)
    found += differences(own / "real-heads", got / "real-heads", name)
    assert not found, "\n".join(found)


def test_the_matrix_catches_a_kernel_dependent_product(tmp_path):
    """The deliberate break: NumPy's BLAS product printed at full precision differs between the
    processor's widest OpenBLAS kernel and Prescott's, and the comparison names the setting and
    the line. (Not the machine's own environment: it may itself set Prescott.)"""
    flags = _cpu_flags()
    widest = (
        "SkylakeX" if "avx512f" in flags else "Haswell" if "avx2" in flags else None
    )
    if widest is None:
        pytest.skip("this processor runs no OpenBLAS kernel wider than Prescott's")
    a = probe(tmp_path / "own", {"OPENBLAS_CORETYPE": widest}, "--product")
    b = probe(tmp_path / "prescott", {"OPENBLAS_CORETYPE": "Prescott"}, "--product")
    found = differences(a, b, "OPENBLAS_CORETYPE=Prescott")
    assert found, (
        "the BLAS product came out the same under Prescott: the break shows nothing"
    )
    assert found[0].startswith(
        "OPENBLAS_CORETYPE=Prescott: product.txt differs at line "
    )


def test_settings_cover_the_issues_matrix():
    """The matrix holds every setting the issue names that this machine can run."""
    names = set(SETTINGS)
    for core in ("Prescott", "Haswell", "Zen"):
        assert f"OPENBLAS_CORETYPE={core}" in names
    assert ("OPENBLAS_CORETYPE=SkylakeX" in names) == ("avx512f" in _cpu_flags())
    for isa in ("SSE4_2", "AVX2", "AVX512"):
        assert f"MKL_ENABLE_INSTRUCTIONS={isa}" in names
    assert {"1 thread", "2 threads"} <= names
    assert any("NPY_DISABLE_CPU_FEATURES" in n for n in names)
