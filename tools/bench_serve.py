"""``make bench``'s preview figures: how long ``mkdocs serve`` takes to show an edit.

A copy of the project is served (``mkdocs serve``, as ``make serve`` runs it, with the
project's cache); each kind of edit is made to the copy's file several times, and the clock
runs from the moment the file is written until the served page holds the edit (polled every
20 ms over HTTP). The first edit of each kind is a warm-up, not counted.

Each edit waits a pause drawn at random (seeded: the same pauses every run) before it is
written: the server looks for changes at a fixed interval, and edits written at once one after
another fall at the same moment of that interval every time (the build's length decides which),
so that a median measured so could be the best case or the worst, never the average.

A floor may be timed beside the edits (``beside``: bare Material's build of the same Markdown,
run once after each edit is shown, while the server waits): a ratio of the two medians is then
taken from the same minutes, and a machine that slows down over the run moves both.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Edit", "EDITS", "copy_project", "serve_latency"]

_POLL, _TIMEOUT = 0.02, 60.0
#: The longest pause before an edit (s): longer than MkDocs' interval between looks (0.5 s).
_PAUSE = 1.0


@dataclass(frozen=True)
class Edit:
    """One kind of edit: the file changed, the page that shows it, and the change (text, n) -> text."""

    name: str
    file: str
    page: str
    change: Callable[[str, int], str]
    #: how many times ``runs`` it is measured: an edit served in about a second is measured more
    #: often (its median is set beside a bound, issue 28's 2x); a package edit takes far longer
    times: int = 3


def _prose(text: str, n: int) -> str:
    return text + f"\n\nBench edit {n}.\n"


def _snippet(text: str, n: int) -> str:
    return text + f'\nprint("\\n\\nBench edit {n}.")\n'


def _package(text: str, n: int) -> str:
    # a sentence added to softmax's docstring: core.py changes, and the API page shows it
    return re.sub(
        r'(def softmax\(.*?"""[^\n]*)',
        rf"\1 Bench edit {n}.",
        text,
        count=1,
        flags=re.S,
    )


def _chapter(text: str, n: int) -> str:
    # a sentence added to the chapter's docstring: only what imports the chapter is computed
    # again (the experiment's run), and the Source page shows the file
    return text.replace('"""', f'"""Bench edit {n}. ', 1)


#: The three kinds of edit the issue names: prose, a snippet, the package (twice: the maths,
#: which every result imports, and one chapter, which the experiment's run alone imports).
EDITS = (
    Edit("prose edit (docs/module-1.md)", "docs/module-1.md", "module-1/", _prose),
    Edit(
        "snippet edit (snippets/module-3/log_order.py)",
        "snippets/module-3/log_order.py",
        "module-3/",
        _snippet,
    ),
    Edit(
        "package edit (src/attention_workshop/core.py)",
        "src/attention_workshop/core.py",
        "api/",
        _package,
        times=1,
    ),
    Edit(
        "package edit, a chapter (src/attention_workshop/chapters/module_1/__init__.py)",
        "src/attention_workshop/chapters/module_1/__init__.py",
        "source/",
        _chapter,
        times=1,
    ),
)


def copy_project(root: Path, dest: Path) -> Path:
    """The project's sources copied to ``dest`` (no .venv, site, .git or caches)."""
    ignore = shutil.ignore_patterns(
        ".venv", "site", ".git", "__pycache__", ".pytest_cache", ".hypothesis", ".cache"
    )
    shutil.copytree(root, dest, ignore=ignore)
    return dest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return str(r.read().decode("utf-8", errors="replace"))
    except OSError:
        return ""


def _wait_for(url: str, marker: str, timeout: float = _TIMEOUT) -> float:
    """Poll ``url`` until its page holds ``marker``; the time it took (raises after ``timeout``)."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        if marker in _get(url):
            return time.perf_counter() - t0
        time.sleep(_POLL)
    raise TimeoutError(f"{url} did not show {marker!r} within {timeout:g} s")


def _wait_gone(url: str, marker: str, timeout: float = _TIMEOUT) -> None:
    """Poll ``url`` until its page no longer holds ``marker`` (raises after ``timeout``)."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        page = _get(url)
        if page and marker not in page:
            return
        time.sleep(_POLL)
    raise TimeoutError(f"{url} still showed {marker!r} after {timeout:g} s")


def _served(
    edit: Edit,
    project: Path,
    base: str,
    runs: int,
    pauses: random.Random,
    beside: Callable[[], float] | None,
) -> tuple[list[float], list[float]]:
    """One kind of edit made ``runs * edit.times`` times (after a warm-up, not counted): the
    seconds each took to be served, and ``beside()``'s after each (none without it)."""
    path = project / edit.file
    original = path.read_text(encoding="utf-8")
    times, floors = [], []
    for n in range(runs * edit.times + 1):
        changed = edit.change(original, n)
        assert changed != original, f"{edit.name}: the edit changed nothing"
        time.sleep(pauses.uniform(0.0, _PAUSE))
        path.write_text(changed, encoding="utf-8")
        times.append(_wait_for(base + edit.page, f"Bench edit {n}."))
        if beside is not None and n:
            floors.append(beside())
    # the next kind starts once serve shows the file as it was: a build still under way when
    # the next kind's first edit is written would read that edit mid-build
    path.write_text(original, encoding="utf-8")
    _wait_for(base + edit.page, "</html>")
    _wait_gone(base + edit.page, f"Bench edit {runs * edit.times}.")
    return times[1:], floors  # the first is a warm-up


def serve_latency(
    root: Path,
    env: dict[str, str],
    runs: int,
    beside: Callable[[], float] | None = None,
) -> dict[str, list[float]]:
    """Seconds from saving each kind of edit to the served page showing it, ``runs`` times each
    (times its :attr:`Edit.times`). With ``beside``, it is also run after each counted edit and
    its seconds are kept under ``"<edit's name> beside"``."""
    out: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        project = copy_project(root, Path(tmp) / "project")
        port = _free_port()
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mkdocs",
                "serve",
                "--dev-addr",
                f"127.0.0.1:{port}",
            ],
            cwd=project,
            env={**env, "PYTHONPATH": str(project / "src")},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}/"
        try:
            _wait_for(base, "</html>", timeout=300)
            pauses = random.Random(28)
            for edit in EDITS:
                times, floors = _served(edit, project, base, runs, pauses, beside)
                out[edit.name] = times
                if beside is not None:
                    out[f"{edit.name} beside"] = floors
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    return out


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path.cwd()
    for name, times in serve_latency(root, dict(os.environ), 3).items():
        print(f"{name}: " + ", ".join(f"{t:.2f}" for t in times))
