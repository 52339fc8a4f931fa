"""Proven sound: after an edit to any kind of input, a build with the cache is byte for byte a
``FRESH=1`` build, and a damaged cache entry is found and computed again, never published.

One copy of the project starts from a copy of the session's cache, which the session's build
of the unedited project filled (so every kind of entry exists under the old inputs, stored by
another checkout), then gets one edit per kind of input at once: a page title another page prints
(Module 0's, on the home and Reproducing pages and in the search index), prose, a snippet, a
line-range include and a block include of two files, each package layer (the maths' core.py and
toy.py, a chapter, a build module), a data file (workshop_site/notation.toml), a hook, mkdocs.yml, the
theme overrides, a widget's JavaScript, the environment variables the pages show (SITE_URL,
REPO_URL), and same-size edits with the old mtime put back (toy.py, notation.toml). It is then
built with the cache and with ``FRESH=1``: the two sites must be identical. Last, one byte is
flipped in every entry of every kind of the cache, and a build with the cache must again be the
``FRESH=1`` site, its log naming each kind's damaged entries. Three full builds in all (issue
20 point 7: four before, the first a build of the unedited copy, which the session's build is).

The same edits are then made inside a running ``mkdocs serve`` (issue 28 point 4), with the kinds a
reused page would miss (a file another page's snippet reads, a nav title, a D2 diagram, a widget's
CSS; the environment differs from the session's build), and every file it serves must be the
``FRESH=1`` build's. It found that serve never ran an edited hook (hooks/serve.py now reloads them).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
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


def _assert_same(cached: Path, fresh: Path, what: str) -> None:
    a, b = _tree(cached), _tree(fresh)
    differ = sorted(n for n in a.keys() | b.keys() if a.get(n) != b.get(n))
    assert not differ, f"{what}: the cached build differs from FRESH=1 in {differ[:20]}"


def _old_entries(dest: Path) -> Path:
    """A copy of the session's cache (every entry the session's build of the project read or
    stored; others' builds may add and prune entries meanwhile: each is written whole)."""
    session = Path(os.environ["WORKSHOP_CACHE"])
    assert session.is_dir(), (
        f"WORKSHOP_CACHE={session}: the session's cache is off or missing"
    )
    shutil.copytree(session, dest, ignore=shutil.ignore_patterns(".tmp-*"))
    return dest


@pytest.mark.slow
def test_a_cached_build_after_every_kind_of_edit_is_the_fresh_build(
    built_site, tmp_path
):
    project = copy_project(tmp_path / "project")
    cache = {"WORKSHOP_CACHE": str(_old_entries(tmp_path / "cache"))}
    kinds_before = {p.name for p in (tmp_path / "cache").iterdir() if p.is_dir()}
    assert {"experiment", "wheel", "d2"} <= kinds_before, kinds_before
    _before(project)
    _edit_everything(project)
    # the copied entries keep their dates: what these builds store is newer
    start = time.time_ns()
    cached = build_site(tmp_path / "cached", project=project, **cache, **ENV)
    assert re.search(r"cache .*: [1-9]\d* result\(s\) read", cached.stderr), (
        cached.stderr[-2000:]
    )
    build_site(tmp_path / "fresh", project=project, FRESH="1", **cache, **ENV)
    fresh = tmp_path / "fresh"
    # each edit shows in the truth, so the comparison below means something
    home = (fresh / "index.html").read_text()
    assert (
        NEW_TITLE in home
        and NEW_TITLE in (fresh / "reproducing" / "index.html").read_text()
    )
    assert NEW_TITLE in json.dumps(
        json.loads((fresh / "search" / "search_index.json").read_text()),
        ensure_ascii=False,
    )
    m1, m2 = (
        (fresh / "module-1" / "index.html").read_text(),
        (fresh / "module-2" / "index.html").read_text(),
    )
    assert "the soundness test added" in m1 and "A snippet the test edited." in m1
    assert "Lines first" in m2 and "never" not in m2
    assert "First, edited." in m2 and "Second, edited." in m2
    repro = (fresh / "reproducing" / "index.html").read_text()
    assert "the package (a wheel)" in repro and 'aria-label="Table: ' in repro
    assert "from the ground up" in home and 'data-sound="edited"' in home
    assert ENV["REPO_URL"] in home
    assert "point one way" in (fresh / "generated" / "results.log").read_text()
    assert "the Water side" in (fresh / "source" / "index.html").read_text()
    m0 = (fresh / "module-0" / "index.html").read_text()
    assert "The sentence as a Matrix" in m0
    assert (
        "Turn scores into the weights that"
        in (fresh / "api" / "index.html").read_text()
    )
    assert (
        "edited by the soundness test"
        in (fresh / "assets" / "inside" / "inside.js").read_text()
    )
    _assert_same(tmp_path / "cached", fresh, "after the edits")

    # one flipped byte in every entry of every kind: each is found, computed again, never used
    kinds = sorted(p for p in (tmp_path / "cache").iterdir() if p.is_dir())
    # the kinds these builds stored (the copy's cache may hold kinds another test's copy made)
    used = [
        k
        for k in kinds
        if any(e.stat().st_mtime_ns >= start for e in k.glob("*.pickle"))
    ]
    assert {"experiment", "wheel", "d2"} <= {k.name for k in used}, used
    for kind in kinds:
        for entry in kind.glob("*.pickle"):
            data = bytearray(entry.read_bytes())
            data[len(data) // 2] ^= 0x01
            entry.write_bytes(bytes(data))
    damaged = build_site(tmp_path / "damaged", project=project, **cache, **ENV).stderr
    for kind in used:
        assert f"computed again: {kind.name}/" in damaged, (kind.name, damaged[-3000:])
    _assert_same(tmp_path / "damaged", fresh, "after a byte of every entry flipped")


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
_STARTED, _BUILT, _FAILED = (
    "Building documentation...",
    "Documentation built in",
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


def _edit_again(project: Path, cache: Path) -> None:
    """Edits that leave the package alone, so the other pages' kept renders are used: prose, a
    snippet, a file another page's snippet reads, a widget's CSS, a same-size edit with the old
    date of an include outside snippets/; and one byte flipped in every other kept page (the
    others may be used). (A D2 diagram is drawn before the pages render, so an edit to one
    renders every page again: :func:`_edit_diagram`, a round of its own.)"""
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
    kept = sorted((cache / "page").glob("*.pickle"))
    assert kept, "no page was kept"
    for entry in kept[::2]:
        data = bytearray(entry.read_bytes())
        data[len(data) // 2] ^= 0x01
        entry.write_bytes(bytes(data))


def _edit_diagram(project: Path) -> None:
    """A D2 diagram alone, in a round where every page's kept render is otherwise current."""
    _replace(project / "docs" / "diagrams" / "path.d2", "none learned", "none trained")


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
        ended = text.count(_BUILT) + text.count(_FAILED)
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


@pytest.mark.slow
def test_every_page_served_after_every_kind_of_edit_is_the_fresh_page(
    built_site, tmp_path
):
    project = copy_project(tmp_path / "project")
    cache = {"WORKSHOP_CACHE": str(_old_entries(tmp_path / "cache"))}
    _before(project)
    _before_serve(project)
    port = _free_port()
    # the session's build had no SITE_URL or REPO_URL: serve's differ (a variable changed between builds)
    proc, log = _serve(project, tmp_path, port, {**cache, **ENV})
    try:
        _settled(tmp_path / "serve.log", 0, proc)
        since = (tmp_path / "serve.log").stat().st_size
        _edit_everything(project)
        _edit_for_reuse(project)
        text = _settled(tmp_path / "serve.log", since, proc)
        assert _FAILED not in text, text[-3000:]
        base = f"http://127.0.0.1:{port}/workshop/"  # SITE_URL's path is serve's mount path
        fresh = tmp_path / "fresh"
        build_site(
            fresh, project=project, FRESH="1", **cache, **{**ENV, "SITE_URL": base}
        )
        m3 = (fresh / "module-3" / "index.html").read_text()
        assert "Data, edited." in m3 and "The notation" in m3
        assert "none learned" in (fresh / "final-exam" / "index.html").read_text()
        inside_css = (fresh / "assets" / "inside" / "inside.css").read_text()
        assert "edited by the soundness test" in inside_css
        assert (
            "the soundness test added"
            in (fresh / "module-1" / "index.html").read_text()
        )
        _assert_served_is_fresh(tmp_path, base, fresh)
        # the code unchanged: pages are reused, each only if nothing it read changed
        since = (tmp_path / "serve.log").stat().st_size
        _edit_again(project, tmp_path / "cache")
        text = _settled(tmp_path / "serve.log", since, proc)
        assert _FAILED not in text, text[-3000:]
        assert "computed again: page/" in text, text[-3000:]
        reused = re.findall(r"page_reuse: (\d+) page\(s\) reused, (\d+) rendered", text)
        assert reused and int(reused[-1][0]) > 0, text[-3000:]
        again = tmp_path / "fresh-again"
        build_site(
            again, project=project, FRESH="1", **cache, **{**ENV, "SITE_URL": base}
        )
        m1 = (again / "module-1" / "index.html").read_text()
        m3 = (again / "module-3" / "index.html").read_text()
        assert "A note as it WAS." in m3 and "A second sentence" in m1
        assert "Data, again." in m3
        m2 = (again / "module-2" / "index.html").read_text()
        assert "A snippet edited under serve." in m2
        _assert_served_is_fresh(tmp_path, base, again)
        # a D2 diagram: every page drawn again, none reused from before the edit
        since = (tmp_path / "serve.log").stat().st_size
        _edit_diagram(project)
        text = _settled(tmp_path / "serve.log", since, proc)
        assert _FAILED not in text, text[-3000:]
        drawn = tmp_path / "fresh-diagram"
        build_site(
            drawn, project=project, FRESH="1", **cache, **{**ENV, "SITE_URL": base}
        )
        assert "none trained" in (drawn / "final-exam" / "index.html").read_text()
        _assert_served_is_fresh(tmp_path, base, drawn)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
