"""Same commit, same bytes: a fresh, a cached and a plain build are byte-identical.

Three builds into three temporary folders, as anyone would type ``mkdocs build`` (no
``SOURCE_DATE_EPOCH``): a fresh one under another machine's numeric environment, a cached one,
and one in this machine's environment with another hash seed. Every file of the trees is
compared; the first difference is reported with its first differing line, so a date, a random
id or an unordered dict names itself.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

#: The numeric environment of another machine, as far as this one can imitate it.
OTHER_MACHINE = {
    "OPENBLAS_CORETYPE": "Prescott",
    "MKL_ENABLE_INSTRUCTIONS": "SSE4_2",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


def tree(site: Path) -> dict[str, str]:
    """``{relative path: sha256}`` of every file under ``site``."""
    return {
        p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


def first_difference(a: Path, b: Path) -> str | None:
    """The first file (in path order) that differs between the trees ``a`` and ``b``, explained; None if identical."""
    ta, tb = tree(a), tree(b)
    for path in sorted(set(ta) | set(tb)):
        if path not in ta or path not in tb:
            return f"{path} exists only in the {'second' if path not in ta else 'first'} build"
        if ta[path] != tb[path]:
            la, lb = (
                (a / path).read_bytes().splitlines(),
                (b / path).read_bytes().splitlines(),
            )
            for n, (x, y) in enumerate(zip(la, lb), 1):
                if x != y:
                    return f"{path} differs first at line {n}:\n  {x[:300]!r}\n  {y[:300]!r}"
            return f"{path} differs in length ({len(la)} vs {len(lb)} lines)"
    return None


def test_first_difference_names_the_file(tmp_path):
    for d, body in (("a", "same\nold 2026-01-01\n"), ("b", "same\nnew 2026-01-02\n")):
        (tmp_path / d / "x").mkdir(parents=True)
        (tmp_path / d / "x" / "page.html").write_text(body)
        (tmp_path / d / "same.txt").write_text("1")
    msg = first_difference(tmp_path / "a", tmp_path / "b")
    assert msg is not None and msg.startswith("x/page.html differs first at line 2")
    (tmp_path / "b" / "extra.txt").write_text("")
    assert first_difference(tmp_path / "a", tmp_path / "b").startswith(
        "extra.txt exists only in the second"
    )


def plain_build(dest: Path, hash_seed: str, **extra_env: str) -> str:
    """``mkdocs build`` as anyone would type it: no SOURCE_DATE_EPOCH, no --strict, a given
    PYTHONHASHSEED, and an address, as the published build has (without one the sitemap lists,
    and dates, no page). Returns what it printed."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    env |= {
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONHASHSEED": hash_seed,
        "SITE_URL": "https://example.org/attention-workshop/",
        **extra_env,
    }
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(dest)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, f"mkdocs build failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stderr


@pytest.mark.site
@pytest.mark.slow
def test_fresh_cached_and_plain_builds_are_byte_identical(tmp_path):
    """Three plain builds (no SOURCE_DATE_EPOCH, not strict: hooks/experiment.py dates the sitemap
    with the last commit's time): one with FRESH=1 (nothing read from the cache, everything
    stored) under another numeric environment (OpenBLAS's plain SSE3 kernel, MKL without AVX, one
    thread: what an older or smaller processor runs), one in the same environment that reads
    every result from the cache, and one in this machine's own environment with another hash
    seed (so any unordered set shows), whose results are its own: the same bytes, all
    three, whatever day they run. (Two tests before, four builds; now three.)"""
    import datetime
    import subprocess

    fresh, cached, own = tmp_path / "fresh", tmp_path / "cached", tmp_path / "own"
    out = plain_build(fresh, "1", FRESH="1", **OTHER_MACHINE)
    assert re.search(r"cache FRESH: 0 result\(s\) read, [1-9]\d* computed", out), out
    out = plain_build(cached, "1", **OTHER_MACHINE)
    assert re.search(r"cache .*: [1-9]\d* result\(s\) read, 0 computed", out), out
    assert "its verified run read from the cache" in out
    plain_build(
        own, "2"
    )  # its results are keyed on its own environment: none is the fresh one's
    files = tree(fresh)
    assert (
        len(files) > 20
        and "sitemap.xml" in files
        and "search/search_index.json" in files
    )
    for other, name in (
        (cached, "a cached build"),
        (own, "a build in this machine's environment, another hash seed"),
    ):
        diff = first_difference(fresh, other)
        assert diff is None, (
            f"a fresh build under OpenBLAS Prescott, MKL SSE4_2, 1 thread and {name} differ: {diff}"
        )
    commit_time = subprocess.run(
        ["git", "log", "-1", "--format=%ct"],
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    day = (
        datetime.datetime.fromtimestamp(int(commit_time), tz=datetime.UTC)
        .date()
        .isoformat()
    )
    sitemap = (fresh / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<lastmod>{day}</lastmod>" in sitemap, (
        f"the sitemap is not dated with the last commit ({day})"
    )
