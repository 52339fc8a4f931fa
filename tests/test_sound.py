"""Proven sound: after an edit to any kind of input, what ``mkdocs serve`` serves with the cache
is byte for byte a ``FRESH=1`` build, and a damaged cache entry is found and computed again,
never published.

One copy of the project starts from a copy of the session's cache, which the session's build
of the unedited project filled (so every kind of entry exists under the old inputs, stored by
another checkout), and is served. It then gets one edit per kind of input at once: a page title
another page prints (Module 0's, on the home and Reproducing pages and in the search index),
prose, a snippet, a line-range include and a block include of two files, each package layer
(the maths' core.py and toy.py, a chapter, a build module), a data file
(workshop_site/notation.toml), a hook, mkdocs.yml, the theme overrides, a widget's JavaScript and
CSS, the environment variables the pages show (SITE_URL, REPO_URL: the session's build had
none), same-size edits with the old mtime put back (toy.py, notation.toml), and the kinds a
reused page would miss (a file another page's snippet reads, a nav title, a D2 diagram, an
include from outside snippets/). Two more rounds follow, the code unchanged, so that pages are
reused (issue 28 point 4), with damaged cache entries: every entry of every kind but pages in
the second, every other kept page in the third. Every file
serve serves after each round must be the ``FRESH=1`` build's. It found that serve never ran an
edited hook (hooks/serve.py now reloads them).

Seven builds of the whole site in all (serve's first and one for each of its four rounds, as its
log shows, and two ``FRESH=1`` builds: the third round puts the first round's tree back). Each
``FRESH=1`` build starts as soon as its round's edit is made and runs while serve builds the
same tree (the test took 154 s alone on a 2-core machine with the two one after the other, 102
to 113 s side by side); it keeps what it computes in a cache folder of its own, so it never mends
an entry the test damaged before serve finds it. Before issue 29, twelve: a plain cached build
after every kind of edit, its ``FRESH=1`` build and a damaged one, then serve's first build,
rounds of two or three builds each (the capture's run made serve build mid-edit) and three
``FRESH=1`` builds.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from .conftest import build_site, copy_project

ENV = {
    "SITE_URL": "https://example.org/workshop/",
    "REPO_URL": "https://example.org/repo",
}
NEW_TITLE = "Module 0 — Words turned into vectors"
INCLUDES = """
```python exec="1" id="sound-lines"
--8<-- "sound/lines.py:1:2"
```

```python exec="1" id="sound-block"
--8<--
sound/first.py
sound/second.py
--8<--
```
"""


def _replace(path: Path, old: str, new: str, same_date: bool = False) -> None:
    """``old`` (which must be there) replaced by ``new`` in ``path``; with ``same_date`` the edit
    keeps the file's size and its modification time is put back."""
    text, st = path.read_text(encoding="utf-8"), path.stat()
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    if same_date:
        assert len(old.encode()) == len(new.encode())
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert (path.stat().st_size, path.stat().st_mtime_ns) == (
            st.st_size,
            st.st_mtime_ns,
        )


def _before(project: Path) -> None:
    """The includes the edits will change, there from the first build on."""
    folder = project / "snippets" / "sound"
    folder.mkdir()
    (folder / "lines.py").write_text(
        'print("Lines one")\nprint("and two.")\nprint("never")\n'
    )
    (folder / "first.py").write_text('print("First file.")\n')
    (folder / "second.py").write_text('print("Second file.")\n')
    page = project / "docs" / "module-2.md"
    page.write_text(page.read_text(encoding="utf-8") + INCLUDES, encoding="utf-8")


def _edit_everything(project: Path) -> None:
    src, docs = project / "src" / "attention_workshop", project / "docs"
    _replace(docs / "module-0.md", "# Module 0 — Words as vectors", f"# {NEW_TITLE}")
    page = docs / "module-1.md"
    page.write_text(page.read_text() + "\nA sentence the soundness test added.\n")
    snippet = project / "snippets" / "module-1" / "bank_moves.py"
    snippet.write_text(snippet.read_text() + 'print("\\nA snippet the test edited.")\n')
    _replace(project / "snippets" / "sound" / "lines.py", "Lines one", "Lines first")
    _replace(
        project / "snippets" / "sound" / "first.py", "First file.", "First, edited."
    )
    _replace(
        project / "snippets" / "sound" / "second.py", "Second file.", "Second, edited."
    )
    _replace(
        src / "core.py",
        "Turn scores into weights that",
        "Turn scores into the weights that",
    )
    _replace(src / "toy.py", "# the water side", "# the Water side", same_date=True)
    _replace(
        src / "chapters" / "module_0.py",
        "dot products (how much two words point the same way):",
        "dot products (how much two words point one way):",
    )
    _replace(
        src.parent / "workshop_site" / "downloads.py",
        "the package, as a wheel",
        "the package (a wheel)",
    )
    _replace(
        src.parent / "workshop_site" / "notation.toml",
        "The sentence as a matrix",
        "The sentence as a Matrix",
        same_date=True,
    )
    _replace(
        project / "hooks" / "tables.py", "f\"table: {', '.join", "f\"Table: {', '.join"
    )
    _replace(project / "mkdocs.yml", "from first principles,", "from the ground up,")
    search = project / "overrides" / "partials" / "search.html"
    _replace(search, 'role="dialog"', 'role="dialog" data-sound="edited"')
    widget = docs / "assets" / "inside" / "inside.js"
    widget.write_text(widget.read_text() + "\n// edited by the soundness test\n")
    # the chapter's edit changes results.log: the capture is made again, as make captures does
    subprocess.run(
        [sys.executable, "-m", "attention_workshop.experiment", "--out", "captures"],
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(project / "src"), "PYTHONHASHSEED": "0"},
        check=True,
        capture_output=True,
        timeout=600,
    )


def _tree(site: Path) -> dict[str, bytes]:
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


def _old_entries(dest: Path) -> Path:
    """A copy of the session's cache (every entry the session's build of the project read or
    stored; others' builds may add and prune entries meanwhile: each is written whole)."""
    session = Path(os.environ["WORKSHOP_CACHE"])
    assert session.is_dir(), (
        f"WORKSHOP_CACHE={session}: the session's cache is off or missing"
    )
    shutil.copytree(session, dest, ignore=shutil.ignore_patterns(".tmp-*"))
    return dest


# ---------------------------------------------------------------- the same, under mkdocs serve
# Issue 28 point 4: every edit above is made again inside a running ``mkdocs serve``, with the
# kinds a page's kept render would make dangerous, and each served file must be the same file of
# a ``FRESH=1`` build of the edited tree (its site_url is serve's own address, as serve sets it).
READS = """
```python exec="1" id="sound-reads"
--8<-- "sound/reads.py"
```

--8<-- "docs/assets/sound-note.txt"
"""
# MkDocs' livereload puts one script before a served page's last </body>; nothing else differs
_LIVERELOAD = re.compile(
    rb"<script>\nvar livereload = function\(epoch, requestId\) \{.*?</script>(?=</body>)",
    re.S,
)
# A build's start; its end, good or shown as failed ("Serving on" after the first build): not
# "Documentation built in N seconds", which MkDocs logs once for each N (its DuplicateFilter), so
# two builds of the same length to the hundredth of a second left a round waiting forever.
_STARTED, _ENDED, _FAILED = (
    "Building documentation...",
    ("Reloading browsers", "Serving on"),
    "The build failed",
)


def _before_serve(project: Path) -> None:
    """A snippet of Module 3 that reads a data file (no page includes the file itself)."""
    folder = project / "snippets" / "sound"
    (folder / "data.txt").write_text("Data as it was.\n")
    # an include of a file outside snippets/ (pymdownx.snippets' base_path has "." too)
    (project / "docs" / "assets" / "sound-note.txt").write_text("A note as it was.\n")
    (folder / "reads.py").write_text(
        "from pathlib import Path\n\n"
        'print(Path("snippets/sound/data.txt").read_text(encoding="utf-8").strip())\n'
    )
    page = project / "docs" / "module-3.md"
    page.write_text(page.read_text(encoding="utf-8") + READS, encoding="utf-8")


def _edit_for_reuse(project: Path) -> None:
    """The kinds of edit a reused page would miss: a file another page's snippet reads, a nav
    title (in every page's nav), a D2 diagram (two pages draw it), a widget's CSS."""
    _replace(
        project / "snippets" / "sound" / "data.txt", "Data as it was.", "Data, edited."
    )
    _replace(
        project / "mkdocs.yml", "- Notation: notation.md", "- The notation: notation.md"
    )
    _replace(
        project / "docs" / "diagrams" / "path.d2",
        'm1: "Module 1\\nattention, nothing learned"',
        'm1: "Module 1\\nattention, none learned"',
    )
    css = project / "docs" / "assets" / "inside" / "inside.css"
    css.write_text(css.read_text() + "\n/* edited by the soundness test */\n")


#: What :func:`_edit_again` changes, relative to the project: kept before it, put back after.
#: The diagram first: every page reads it, so a build that starts before the last file is put
#: back (serve may build twice for one burst of saves) already finds round 1's renders.
AGAIN = (
    "docs/diagrams/path.d2",
    "snippets/module-2/wired_matrices.py",
    "snippets/sound/data.txt",
    "docs/module-1.md",
    "docs/assets/inside/inside.css",
    "docs/assets/sound-note.txt",
)


def _edit_again(project: Path) -> None:
    """Edits that leave the package alone: prose, a snippet, a file another page's snippet reads,
    a widget's CSS, a same-size edit with the old date of an include outside snippets/, and a D2
    diagram (drawn before the pages render: an edit to one renders every page again)."""
    snippet = project / "snippets" / "module-2" / "wired_matrices.py"
    snippet.write_text(
        snippet.read_text() + 'print("\\nA snippet edited under serve.")\n'
    )
    data = project / "snippets" / "sound" / "data.txt"
    _replace(data, "Data, edited.", "Data, again.")
    page = project / "docs" / "module-1.md"
    page.write_text(
        page.read_text() + "\nA second sentence the soundness test added.\n"
    )
    css = project / "docs" / "assets" / "inside" / "inside.css"
    css.write_text(css.read_text() + "\n/* edited again */\n")
    note = project / "docs" / "assets" / "sound-note.txt"
    _replace(note, "A note as it was.", "A note as it WAS.", same_date=True)
    _replace(project / "docs" / "diagrams" / "path.d2", "none learned", "none trained")


def _staged(project: Path, side: Path, edit) -> list[str]:
    """``edit`` made to a copy of ``project`` at ``side`` (the experiment's capture it runs takes
    seconds), then every file it changed put into ``project`` at once, dates and all
    (``shutil.copy2``: a same-date edit keeps its old date): serve sees one burst of saves, so it
    builds once. Returns the files put in."""
    shutil.copytree(project, side, ignore=shutil.ignore_patterns("__pycache__"))
    edit(side)
    changed = []
    for p in sorted(side.rglob("*")):
        rel, there = p.relative_to(side).as_posix(), project / p.relative_to(side)
        if "__pycache__" in p.parts or not p.is_file():
            continue
        if not there.is_file() or there.read_bytes() != p.read_bytes():
            changed.append(rel)
    for rel in changed:
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(side / rel, project / rel)
    return changed


#: The kinds of entry of a page's kept renders (workshop_site/page_variants.py).
PAGE_KINDS = ("page", "page-index")


def _damage(cache: Path, pages: bool) -> list[Path]:
    """One byte flipped: with ``pages``, in every other kept render and every other page's index
    of renders (so that pages are still reused, each only if nothing it read changed); without,
    in every entry of every other kind. Returns the kinds damaged."""
    kinds = sorted(
        p for p in cache.iterdir() if p.is_dir() and (p.name in PAGE_KINDS) == pages
    )
    for kind in kinds:
        entries = sorted(kind.glob("*.pickle"))
        for entry in entries[::2] if pages else entries:
            data = bytearray(entry.read_bytes())
            data[len(data) // 2] ^= 0x01
            entry.write_bytes(bytes(data))
    return kinds


def _serve(project: Path, tmp: Path, port: int, env: dict[str, str]):
    """``mkdocs serve`` of ``project`` on ``port`` (as ``make serve`` runs it), its log in tmp/serve.log;
    its site folder is the one ``mkdocs_*`` folder in tmp/serve-tmp."""
    (tmp / "serve-tmp").mkdir()
    log = open(tmp / "serve.log", "w")  # noqa: SIM115 (closed by the test with the process)
    full_env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONHASHSEED": "0",
        "PYTHONUNBUFFERED": "1",
        "ATEN_CPU_CAPABILITY": "default",
        "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", "0"),
        "PYTHONPATH": str(project / "src"),
        "TMPDIR": str(tmp / "serve-tmp"),
        **env,
    }
    cmd = [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"]
    proc = subprocess.Popen(
        cmd, cwd=project, env=full_env, stdout=log, stderr=subprocess.STDOUT
    )
    return proc, log


def _settled(log: Path, since: int, proc, timeout: float = 900) -> str:
    """The serve log from offset ``since`` once a build started after it and every build started
    has ended, with nothing new for 3 s (MkDocs' watcher waits 0.1 s for saves to stop)."""
    t0, last, quiet_from = time.monotonic(), "", time.monotonic()
    while time.monotonic() - t0 < timeout:
        assert proc.poll() is None, log.read_text()[-3000:]
        text = log.read_text(errors="replace")[since:]
        if text != last:
            last, quiet_from = text, time.monotonic()
        started = text.count(_STARTED)
        ended = sum(text.count(end) for end in _ENDED)
        if started and started == ended and time.monotonic() - quiet_from > 3:
            return text
        time.sleep(0.5)
    raise TimeoutError(f"mkdocs serve did not settle: {last[-3000:]}")


def _served(base: str, names: list[str]) -> dict[str, bytes]:
    """Each file as the server answers it, the livereload script taken out of its pages."""
    import urllib.request

    out = {}
    for name in names:
        with urllib.request.urlopen(base + name, timeout=120) as response:
            body = response.read()
        out[name] = (
            _LIVERELOAD.sub(b"", body, count=1) if name.endswith(".html") else body
        )
    return out


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _assert_served_is_fresh(tmp: Path, base: str, fresh: Path) -> None:
    served_dir = next((tmp / "serve-tmp").glob("mkdocs_*"))
    want = _tree(fresh)
    on_disk = {
        p.relative_to(served_dir).as_posix()
        for p in served_dir.rglob("*")
        if p.is_file()
    }
    assert on_disk == set(want), (
        f"serve's site has {sorted(on_disk - set(want))[:10]} more, "
        f"{sorted(set(want) - on_disk)[:10]} fewer files than FRESH=1"
    )
    got = _served(base, sorted(want))
    differ = [n for n in sorted(want) if got[n] != want[n]]
    assert not differ, f"served pages differ from FRESH=1: {differ}"


PAGES_EDITED = ("module-0", "module-1", "module-2", "module-3", "reproducing", "source")
PAGES_EDITED += ("api", "final-exam")


def _assert_every_edit_shows(fresh: Path) -> None:
    """Each edit of :func:`_edit_everything` and :func:`_edit_for_reuse` is in ``fresh``, a
    ``FRESH=1`` build of the edited tree: the comparisons with it mean something."""
    text = {name: (fresh / name / "index.html").read_text() for name in PAGES_EDITED}
    home = (fresh / "index.html").read_text()
    assert NEW_TITLE in home and NEW_TITLE in text["reproducing"]
    assert NEW_TITLE in json.dumps(
        json.loads((fresh / "search" / "search_index.json").read_text()),
        ensure_ascii=False,
    )
    assert "the soundness test added" in text["module-1"]
    assert "A snippet the test edited." in text["module-1"]
    assert "Lines first" in text["module-2"] and "never" not in text["module-2"]
    assert (
        "First, edited." in text["module-2"] and "Second, edited." in text["module-2"]
    )
    assert "the package (a wheel)" in text["reproducing"]
    assert 'aria-label="Table: ' in text["reproducing"]
    assert "from the ground up" in home and 'data-sound="edited"' in home
    assert ENV["REPO_URL"] in home
    assert "point one way" in (fresh / "generated" / "results.log").read_text()
    assert "the Water side" in text["source"]
    assert "The sentence as a Matrix" in text["module-0"]
    assert "Turn scores into the weights that" in text["api"]
    inside = fresh / "assets" / "inside"
    assert "edited by the soundness test" in (inside / "inside.js").read_text()
    assert "edited by the soundness test" in (inside / "inside.css").read_text()
    assert "Data, edited." in text["module-3"] and "The notation" in text["module-3"]
    assert "none learned" in text["final-exam"]


def _round(log: Path, proc, edit) -> str:
    """``edit()`` made under the running serve; what serve printed for it once it settled, every
    build it made for it a good one. (watchdog hands each watched folder's saves on up to half a
    second apart, so a burst of saves may make serve build twice: the second renders the pages
    whose saves came late and reuses the rest.)"""
    since = log.stat().st_size
    edit()
    text = _settled(log, since, proc)
    assert _FAILED not in text, text[-3000:]
    return text


@pytest.mark.site
@pytest.mark.slow
def test_every_page_served_after_every_kind_of_edit_is_the_fresh_page(
    built_site, tmp_path
):
    """Rounds of edits under one running serve, each compared file by file with a ``FRESH=1``
    build of the same tree (its site_url is serve's address, as serve sets it; rounds 1 and 2
    make theirs while serve builds):

    1. every kind of edit at once (:func:`_edit_everything`, :func:`_edit_for_reuse`), on a cache
       that the session's build of the unedited project filled (another checkout's entries);
    2. prose, a snippet, a file another page's snippet reads, a widget's CSS, a same-date
       include and a D2 diagram, the code unchanged (:func:`_edit_again`), with a byte flipped
       in every cache entry of every kind but pages (the diagram renders every page again):
       the experiment's, the wheel's and the diagrams' are named and computed again;
    3. round 2 undone (the tree is round 1's again: its fresh build is the truth), with a byte
       flipped in every other kept render and index: those are named and rendered again, and
       the pages whose round-1 render is whole reuse it (a key keeps several renders);
    4. a page saved with the same bytes: serve builds the same tree again, and reuses pages.

    The test of a plain build with the cache after every kind of edit (three full builds)
    merged into this one: round 1 is that build, made by serve, and round 2 its damaged entries.
    Round 3 used to render all 17 pages (one render per key: round 2's renders had replaced
    round 1's under the same keys, and their reads no longer held); its first build must now
    reuse round 1's. Round 4 requires reuse of a build's own renders.
    """
    project = copy_project(tmp_path / "project")
    cache_dir = _old_entries(tmp_path / "cache")
    cache = {"WORKSHOP_CACHE": str(cache_dir)}
    kinds_before = {p.name for p in cache_dir.iterdir() if p.is_dir()}
    assert {"experiment", "wheel", "d2"} <= kinds_before, kinds_before
    _before(project)
    _before_serve(project)
    port = _free_port()
    base = f"http://127.0.0.1:{port}/workshop/"  # SITE_URL's path is serve's mount path
    serve_log = tmp_path / "serve.log"

    # a FRESH=1 build stores what it computes in a folder of its own (never in the entries the
    # test damages, nor in those serve stores while the two build side by side), and its
    # compiled modules outside the project (serve would take a new .pyc for an edit)
    alone = {
        "WORKSHOP_CACHE": str(tmp_path / "fresh-cache"),
        "PYTHONPYCACHEPREFIX": str(tmp_path / "fresh-pycache"),
    }

    def fresh_build(dest: Path) -> Path:
        build_site(
            dest, project=project, FRESH="1", **alone, **{**ENV, "SITE_URL": base}
        )
        return dest

    # each FRESH=1 build starts once its round's edit is made, while serve builds the same tree
    pool = ThreadPoolExecutor(max_workers=1)
    building: list[Future[Path]] = []

    def then_fresh(edit, dest: Path):
        def edit_then_build() -> None:
            edit()
            building.append(pool.submit(fresh_build, dest))

        return edit_then_build

    def everything(side: Path) -> None:
        _edit_everything(side)
        _edit_for_reuse(side)

    # the session's build had no SITE_URL or REPO_URL: serve's differ (a variable changed between builds)
    proc, log = _serve(project, tmp_path, port, {**cache, **ENV})
    try:
        _settled(serve_log, 0, proc)
        start = (
            time.time_ns()
        )  # the copied entries keep their dates: what serve stores is newer
        text = _round(
            serve_log,
            proc,
            then_fresh(
                lambda: _staged(project, tmp_path / "side", everything),
                tmp_path / "fresh",
            ),
        )
        assert re.search(r"cache .*: [1-9]\d* result\(s\) read", text), text[-3000:]
        stored = [
            k.name
            for k in cache_dir.iterdir()
            if k.is_dir()
            and any(e.stat().st_mtime_ns >= start for e in k.glob("*.pickle"))
        ]
        assert {"experiment", "wheel", "d2", "page"} <= set(stored), stored  # each kind
        first = building.pop().result()
        _assert_every_edit_shows(first)
        _assert_served_is_fresh(tmp_path, base, first)

        kept = tmp_path / "round-1"
        for rel in AGAIN:
            (kept / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(project / rel, kept / rel)

        def damaged_again() -> None:
            _damage(cache_dir, pages=False)
            _edit_again(project)

        text = _round(
            serve_log, proc, then_fresh(damaged_again, tmp_path / "fresh-again")
        )
        for kind in ("experiment", "wheel", "d2"):
            assert f"computed again: {kind}/" in text, (kind, text[-3000:])
        again = building.pop().result()
        m1, m2, m3 = (
            (again / name / "index.html").read_text()
            for name in ("module-1", "module-2", "module-3")
        )
        assert "A note as it WAS." in m3 and "Data, again." in m3
        assert "A second sentence" in m1 and "A snippet edited under serve." in m2
        assert "none trained" in (again / "final-exam" / "index.html").read_text()
        _assert_served_is_fresh(tmp_path, base, again)

        def undo() -> None:
            _damage(cache_dir, pages=True)
            for rel in (
                AGAIN
            ):  # the old bytes and dates (the note's edit was same-size, same-date)
                shutil.copy2(kept / rel, project / rel)

        text = _round(serve_log, proc, undo)
        assert "computed again: page" in text, text[-3000:]
        reused = re.findall(r"page_reuse: (\d+) page\(s\) reused, (\d+) rendered", text)
        # round 1's renders, found again by the round's first build
        assert reused and int(reused[0][0]) > 0, text[-3000:]
        _assert_served_is_fresh(tmp_path, base, first)

        def resave() -> None:  # the same bytes saved again: serve builds the same tree
            page = project / "docs" / "module-1.md"
            page.write_bytes(page.read_bytes())

        text = _round(serve_log, proc, resave)
        reused = re.findall(r"page_reuse: (\d+) page\(s\) reused, (\d+) rendered", text)
        assert reused and int(reused[-1][0]) > 0, text[-3000:]
        assert "page_reuse: the API page reused" in text, text[-3000:]
        # and Material's search kept the entries of unchanged pages (hooks/search_reuse.py)
        searched = re.findall(
            r"search_reuse: (\d+) page\(s\)' search entries reused", text
        )
        assert searched and int(searched[-1]) > 0, text[-3000:]
        # and the hooks' steps on unchanged pages were given back (workshop_site/page_steps.py)
        steps = re.findall(r"page_steps: (\d+) step\(s\) kept", text)
        assert steps and int(steps[-1]) > 0, text[-3000:]
        _assert_served_is_fresh(tmp_path, base, first)
    finally:
        pool.shutdown(cancel_futures=True)
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
