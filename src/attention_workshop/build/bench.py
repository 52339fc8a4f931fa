"""``make bench``: timing figures for the package, the experiment and the site build.

Speed is measured here and printed, never asserted by tests. Targets (met on the
project's 2-core CPU machine; each line says whether it was met this time):

- the experiment runs in under 10 s;
- a full strict site build runs in under 60 s;
- one attention head on 1,024 tokens of width 64 takes under 1 s;
- loading all-MiniLM-L6-v2 and every forward pass of the Real heads page adds under 3 s;
- the experiment's command line on its longest sentence (``MAX_WORDS`` words) peaks
  under 500 MB of memory.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

from ..core import attention, multi_head_attention
from ..toy import SENT_RIVER
from .experiment import MAX_WORDS, run

ROOT = Path(__file__).resolve().parents[3]


def _best(fn: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def _row(name: str, seconds: float, target: float | None = None) -> str:
    verdict = (
        ""
        if target is None
        else f"  target < {target:g} s: {'met' if seconds < target else 'NOT MET'}"
    )
    return f"{name:<52} {seconds * 1000:10.1f} ms{verdict}"


# Timed in a fresh process: the model and the page's measurements are cached once loaded.
_REAL_HEADS = """
import time
import numpy, attention_workshop.trained
t0 = time.perf_counter()
from attention_workshop.chapters import real_heads
real_heads.facts()
t1 = time.perf_counter()
from attention_workshop.build import real_heads_page
real_heads_page.site_files()
print(t1 - t0, time.perf_counter() - t1)
"""


def real_heads_rows() -> list[str]:
    """The Real heads page's cost in a cold process: the model and its forward passes, then its files."""
    runs = []
    for _ in range(3):
        out = subprocess.run(
            [sys.executable, "-c", _REAL_HEADS],
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append([float(x) for x in out.stdout.split()])
    model, files = min(r[0] for r in runs), min(r[1] for r in runs)
    return [
        _row("Real heads: load the model, every forward pass (cold)", model, 3),
        _row("Real heads: figures and JSON (after the passes)", files),
    ]


def cli_memory_at_limit() -> str:
    """The experiment's command line on a sentence of ``MAX_WORDS`` words: its peak memory."""
    words = [SENT_RIVER[n % len(SENT_RIVER)] for n in range(MAX_WORDS)]
    name = f"experiment CLI, {MAX_WORDS} words (the limit), peak memory"
    if not hasattr(os, "wait4"):
        return f"{name:<52} (needs os.wait4: not measured here)"
    with tempfile.TemporaryDirectory() as out:
        cmd = ["-m", "attention_workshop.experiment", "--out", f"{out}/run"]
        proc = subprocess.Popen(
            [sys.executable, *cmd, "--sentence", " ".join(words)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # the child's own resource usage (ru_maxrss: KB on Linux)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        return f"{name:<52} FAILED (exit code {proc.returncode})"
    mb = usage.ru_maxrss / 1024
    return (
        f"{name:<52} {mb:10.1f} MB  target < 500 MB: {'met' if mb < 500 else 'NOT MET'}"
    )


def main() -> int:
    rng = np.random.default_rng(0)
    print(
        f"attention-workshop bench (best of 3; {os.cpu_count()} CPUs; numpy {np.__version__})"
    )
    print(_row("experiment.run() (every section, torch checks)", _best(run), 10))
    for T in (64, 256, 1024):
        X = rng.standard_normal((T, 64))
        W = [rng.standard_normal((64, 64)) for _ in range(3)]
        print(
            _row(
                f"attention(), T = {T}, d_model = d_k = 64, causal",
                _best(partial(attention, X, W[0], W[1], W[2], causal=True)),
                1 if T == 1024 else None,
            )
        )
    C, nh, T = 768, 12, 256
    x = rng.standard_normal((T, C))
    params = (
        rng.standard_normal((C, 3 * C)),
        rng.standard_normal(3 * C),
        rng.standard_normal((C, C)),
        rng.standard_normal(C),
    )
    print(
        _row(
            f"multi_head_attention(), GPT-2 sizes, T = {T}",
            _best(lambda: multi_head_attention(x, *params, n_head=nh)),
        )
    )
    for line in real_heads_rows():
        print(line)
    print(cli_memory_at_limit())
    with tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        cmd = [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--quiet",
            "--site-dir",
            out,
        ]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
    if proc.returncode:
        print(f"site build failed:\n{proc.stderr[-2000:]}")
        return 1
    print(_row("mkdocs build --strict (whole site, one run)", seconds, 60))
    return 0


if __name__ == "__main__":
    sys.exit(main())
