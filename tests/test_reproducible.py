"""Same commit, same bytes: a fresh and a cached strict build are byte-identical to the session's build.

The session's ``built_site`` and two more builds, into two different temporary folders
(``tests/conftest.build_site`` sets ``SOURCE_DATE_EPOCH`` and ``PYTHONHASHSEED``): a fresh one
under another machine's numeric environment, and a cached one. Every file of the trees is
compared; the first difference is reported with its first differing line, so a date, a random
id or an unordered dict names itself.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from .conftest import build_site

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


@pytest.mark.site
@pytest.mark.slow
def test_a_fresh_build_and_a_cached_build_are_byte_identical(built_site, tmp_path):
    """The session's build, one with FRESH=1 (nothing read from the cache, everything stored)
    under another numeric environment (OpenBLAS's plain SSE3 kernel, MKL without AVX, one
    thread: what an older or smaller processor runs), then one in the same environment that reads
    every result from the cache: the same bytes, all three."""
    fresh, cached = tmp_path / "site-fresh", tmp_path / "site-cached"
    out = build_site(fresh, FRESH="1", **OTHER_MACHINE).stderr
    assert re.search(r"cache FRESH: 0 result\(s\) read, [1-9]\d* computed", out), out
    out = build_site(cached, **OTHER_MACHINE).stderr
    assert re.search(r"cache .*: [1-9]\d* result\(s\) read, 0 computed", out), out
    assert "its verified run read from the cache" in out
    files = tree(built_site)
    assert (
        len(files) > 20
        and "sitemap.xml" in files
        and "search/search_index.json" in files
    )
    for other, name in (
        (fresh, "a fresh build under OpenBLAS Prescott, MKL SSE4_2, 1 thread"),
        (cached, "a cached build"),
    ):
        diff = first_difference(built_site, other)
        assert diff is None, f"the session's build and {name} differ: {diff}"


def plain_build(dest: Path, hash_seed: str) -> None:
    """``mkdocs build`` as anyone would type it: no SOURCE_DATE_EPOCH, no --strict, a given PYTHONHASHSEED."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    # an address, as the published build has: without one the sitemap lists (and dates) no page
    env |= {
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONHASHSEED": hash_seed,
        "SITE_URL": "https://example.org/attention-workshop/",
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


@pytest.mark.site
@pytest.mark.slow
def test_a_plain_build_is_reproducible_too(tmp_path):
    """Without SOURCE_DATE_EPOCH in the environment, hooks/experiment.py dates the sitemap with the
    last commit's time: two plain builds (different hash seeds, so any unordered set shows) are
    byte-identical, whatever day they run."""
    import datetime
    import subprocess

    a, b = tmp_path / "a", tmp_path / "b"
    plain_build(a, "1")
    plain_build(b, "2")
    diff = first_difference(a, b)
    assert diff is None, f"two plain builds of the same commit differ: {diff}"
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
    sitemap = (a / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<lastmod>{day}</lastmod>" in sitemap, (
        f"the sitemap is not dated with the last commit ({day})"
    )
