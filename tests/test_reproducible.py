"""Same commit, same bytes: the session's build, a fresh one and a cached plain one are
byte-identical.

Two builds into temporary folders beside the session's: a fresh one under another machine's
numeric environment and another hash seed, and a plain ProperDocs build that reads the cache.
Every file of the trees is compared; the first difference is reported with its first differing
line, so a date, a random id or an unordered dict names itself. (A build without
``SOURCE_DATE_EPOCH`` dates its sitemap with the last commit: tests/test_publishing.py.)
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


@pytest.mark.site
@pytest.mark.slow
def test_fresh_cached_and_other_builds_are_byte_identical(built_site, tmp_path):
    """The session's strict build (this machine's numeric environment, hash seed 0, its results
    its own or read from the cache), one with FRESH=1 (nothing read from the cache, everything
    stored) under another numeric environment (OpenBLAS's plain SSE3 kernel, MKL without AVX, one
    thread: what an older or smaller processor runs) and hash seed 1, and a plain build (not
    strict, as anyone would type it) by ProperDocs, MkDocs' maintained fork, in that environment
    and with that seed (the keys hold both), which reads every result from the cache: the same bytes, all three, but for
    the tag ProperDocs names itself with (tests/test_properdocs.py). Any unordered set, any
    number that depends on the processor or any cached result that differs from its computation
    shows. (Three builds of their own before, and ProperDocs' a fourth; now two.)"""
    import importlib.util

    from .conftest import build_site
    from .test_properdocs import differences

    assert importlib.util.find_spec("properdocs"), (
        "ProperDocs is missing: make setup installs it (requirements.lock pins properdocs==1.6.7)"
    )
    fresh, cached = tmp_path / "fresh", tmp_path / "cached"
    out = build_site(fresh, FRESH="1", PYTHONHASHSEED="1", **OTHER_MACHINE).stderr
    assert re.search(r"cache FRESH: 0 result\(s\) read, [1-9]\d* computed", out), out
    files = tree(fresh)
    assert len(files) > 20 and "search/search_index.json" in files
    diff = first_difference(built_site, fresh)
    assert diff is None, (
        "the session's build and a fresh build under OpenBLAS Prescott, MKL SSE4_2, 1 thread, "
        f"hash seed 1 differ: {diff}"
    )
    out = build_site(
        cached, flags=(), generator="properdocs", PYTHONHASHSEED="1", **OTHER_MACHINE
    ).stderr
    assert re.search(r"cache .*: [1-9]\d* result\(s\) read, 0 computed", out), out
    assert "its verified run read from the cache" in out
    tag_only, other = differences(fresh, cached)
    assert other == [], (
        f"a plain ProperDocs build reading the cache differs beyond the generator tag in {other[:20]}"
    )
    pages = sorted(p for p in files if p.endswith(".html"))
    # the tag is in every page, so every page differs by it and by nothing else
    assert tag_only == pages, sorted(set(pages) ^ set(tag_only))
    assert b"ProperDocs 1.6.7" in (cached / "index.html").read_bytes()
