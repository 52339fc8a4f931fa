"""Faults and hostile input (issue 11): nothing wrong can be published. One test per finding;
each failed on the code before the fix.

1. A snippet raising ``SystemExit`` (``main(["--help"])``) or ``KeyboardInterrupt`` ended the
   build with exit 0 and an empty site, and killed ``mkdocs serve``:
   :func:`test_every_problem_fails_the_strict_build_whatever_the_flags`,
   :func:`test_a_build_that_exits_0_without_its_marker_fails_the_suites_builds`,
   :func:`test_serve_answers_every_error_on_every_page_every_time_and_recovers`.
2. Unbounded sentence length (2 GB at 100 words, a label per heatmap cell):
   :func:`test_the_cli_states_and_enforces_a_maximum_sentence_length_before_any_work`,
   :func:`test_a_heatmap_past_the_readable_size_costs_no_more_per_word`. The CLI's peak memory
   at the limit is a figure of ``make bench`` (``bench.cli_memory_at_limit``), never asserted.
3. The experiment's write was atomic per file, not per run:
   :func:`test_a_process_killed_at_any_step_of_the_write_leaves_the_old_set_or_the_new`,
   :func:`test_a_write_that_fails_at_any_step_leaves_one_set_and_no_temporary_folder`,
   :func:`test_when_one_file_cannot_be_written_the_previous_run_stays_whole`,
   :func:`test_an_out_folder_with_other_files_is_refused_before_any_work`.
4. A failed build left ``site/`` complete-with-the-failure, untouched or empty:
   :func:`test_make_site_replaces_site_only_with_a_good_build`,
   :func:`test_every_problem_fails_the_strict_build_whatever_the_flags`; and
   :func:`test_a_good_build_shows_no_traceback_and_no_machine_path` greps the session's build.
5. Smaller:
   - serve showed a repeated error once: :func:`test_serve_answers_every_error_on_every_page_every_time_and_recovers`;
   - serve grew ~5 MB per rebuild: :func:`test_a_rebuild_in_the_same_process_sees_every_edit_and_keeps_no_old_page` (the
     growth itself is measured by ``python tools/serve_memory.py``);
   - ``captures/`` not watched: :func:`test_serve_watches_the_captures`;
   - a saved exam whose ``answers`` is null broke the page: (fixed on main)
     ``tests/test_browser_exam.py::test_unreadable_saved_progress_is_discarded_with_a_notice``
     and ``tests/js/grading.test.mjs`` ("discarded: ...");
   - two exam tabs overwrote each other: (fixed on main)
     ``tests/test_browser_exam.py::test_two_tabs_keep_each_others_answers`` and
     ``tests/js/grading.test.mjs`` ("two tabs: the later edit of each question wins ...");
   - an empty sentence's error named ``embed``: :func:`test_an_empty_sentence_names_no_internal_function`;
   - ``--out afile/sub`` refused only after the run: :func:`test_out_under_a_file_is_refused_before_any_work`;
   - the explorer's word check used ``in`` (``constructor`` passed): (fixed on main)
     ``tests/test_browser_inside.py::test_only_the_vocabularys_own_words_are_words`` and
     ``tests/js/model.test.mjs`` ("names every object has are not words ...").
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from attention_workshop.experiment import cli
from attention_workshop.experiment import runner as experiment

from .conftest import ROOT, build_site, only_pages
from .references import wired

PATTERNS = (
    ".venv",
    "site",
    ".git",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    ".tmp-*",
)


@pytest.fixture()
def project_copy(tmp_path):
    """A copy of the project (sources only) to break on purpose."""
    dest = tmp_path / "project"
    ignore = shutil.ignore_patterns(*PATTERNS)
    shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(".cache", *PATTERNS))
    # the build cache, as far as it holds still: other workers write and prune it meanwhile
    # (an entry missing from the copy is computed again)
    with contextlib.suppress(FileNotFoundError, shutil.Error):
        shutil.copytree(ROOT / ".cache", dest / ".cache", ignore=ignore)
    return dest


def add_fences(project: Path, page: str, fences: dict[str, str]) -> None:
    """Append exec fences to ``docs/<page>``, each including its own snippet file."""
    folder = project / "snippets" / "faults"
    folder.mkdir(exist_ok=True)
    text = ""
    for fence, code in fences.items():
        (folder / f"{fence}.py").write_text(code, encoding="utf-8")
        text += f'\n```python exec="1" id="{fence}"\n--8<-- "faults/{fence}.py"\n```\n'
    doc = project / "docs" / page
    doc.write_text(doc.read_text(encoding="utf-8") + text, encoding="utf-8")


def project_env(project: Path) -> dict[str, str]:
    return {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONHASHSEED": "0",
        "ATEN_CPU_CAPABILITY": "default",
        "SOURCE_DATE_EPOCH": "0",
        "PYTHONPATH": str(project / "src"),
    }


@pytest.fixture()
def session_run(monkeypatch, results):
    """``cli.run`` answers with the session's run; records the sentences it was asked for."""
    asked = []

    def run(sentence):
        asked.append(sentence)
        return results

    monkeypatch.setattr(cli, "run", run)
    return asked


def snapshot(folder: Path) -> dict[str, str] | None:
    """Every entry of ``folder`` with its text (None if the folder is missing)."""
    if not folder.exists():
        return None
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())}


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".tmp-"))


# ---------------------------------------------------------------- 1. snippets that end the build


def test_a_build_that_exits_0_without_its_marker_fails_the_suites_builds(tmp_path):
    """``os._exit(0)`` in a snippet ends the build at once with exit 0: no hook can report it, so
    the suite's builds (and ``make site``) require the completion marker a build writes last.
    That such a build writes no marker is shown by a real one, through ``make site``'s check
    (:func:`test_make_site_replaces_site_only_with_a_good_build`, its ``m1-vanish`` fence); here
    the suite's own check meets a generator that exits 0 at once, as such a build does, without
    building anything (issue 20 point 7: one site build fewer)."""
    (tmp_path / "vanishing_generator.py").write_text(
        "import os\nos._exit(0)\n", encoding="utf-8"
    )
    with pytest.raises(AssertionError, match="exited 0 without reaching its end"):
        build_site(
            tmp_path / "out", generator="vanishing_generator", PYTHONPATH=str(tmp_path)
        )


def _records(said: str, fence: str) -> list[str]:
    """The log records (one block each, to the next record) that name ``fence``; DEBUG ones
    (``-v``) left out."""
    blocks = re.split(r"(?m)^(?=(?:DEBUG|INFO|WARNING|ERROR)\b)", said)
    return [b for b in blocks if not b.startswith("DEBUG") and f"'{fence}'" in b]


@pytest.mark.site
def test_every_problem_fails_the_strict_build_whatever_the_flags(
    project_copy, tmp_path
):
    """One copy, every kind of problem, three strict builds (issue 20 point 7: one copy instead
    of three, three builds instead of four), of a small project: the three pages that hold the
    problems (:func:`tests.conftest.only_pages`):

    - a snippet raising ``SystemExit`` (``main(["--help"])``, ``sys.exit(3)``) or
      ``KeyboardInterrupt`` used to end the build with exit 0 and an empty site: each is
      reported with its page, fence id and cause;
    - a page showing a traceback or a path of this machine fails the build, naming them;
    - ``mkdocs build --strict -q`` used to publish a page with an unknown ``{{ value }}``, a
      snippet that raised and a link to an anchor that is not there (MkDocs' own warning): ``-q``
      drops warnings before MkDocs counts them (mkdocs#4126). The project counts its problems,
      and MkDocs' warnings, itself: ``--strict -q``, ``strict: true`` with ``-q`` and with ``-v``
      fail, naming the page, the fence's id and the line of each, and (under ``-q``) the missing
      anchor. (Under ``-v`` MkDocs 1.6.1 does not check that anchor at all: a gap of its own.)"""
    exits = {
        "m1-help": (
            "from attention_workshop.experiment.cli import main\nmain(['--help'])\n"
        ),
        "m1-exit": "import sys\nsys.exit(3)\n",
        "m1-interrupt": "raise KeyboardInterrupt\n",
    }
    add_fences(
        project_copy, "module-1.md", {**exits, "m1-boom": "raise ValueError('boom')\n"}
    )
    add_fences(
        project_copy,
        "module-2.md",
        {
            "m2-own-traceback": "import traceback\ntry:\n    1 / 0\n"
            "except ZeroDivisionError:\n    print('```\\n' + traceback.format_exc() + '```')\n",
            "m2-a-path": "from pathlib import Path\nprint(Path.cwd())\n",
        },
    )
    page = project_copy / "docs" / "module-3.md"
    # and a link MkDocs checks and warns about, and no hook of the project does
    page.write_text(
        page.read_text()
        + "\nA value: {{ nope.value }}.\n"
        + "\nSee [the scores](module-2.md#no-such-anchor).\n",
        encoding="utf-8",
    )
    only_pages(project_copy, "module-1.md", "module-2.md", "module-3.md")
    anchor = (
        "Doc file 'module-3.md' contains a link 'module-2.md#no-such-anchor', "
        "but the doc 'module-2.md' does not contain an anchor '#no-such-anchor'"
    )
    lines = page.read_text().split("\n")
    unknown = next(n for n, t in enumerate(lines, 1) if "nope.value" in t)
    lines = (project_copy / "docs" / "module-1.md").read_text().split("\n")
    fence = next(n for n, t in enumerate(lines, 1) if 'id="m1-boom"' in t)
    config = project_copy / "mkdocs.yml"
    for flags, strict_in_config in [
        (("--strict", "-q"), False),
        (("-q",), True),
        (("-v",), True),
    ]:
        if strict_in_config and "strict: true" not in config.read_text():
            config.write_text(config.read_text() + "\nstrict: true\n", encoding="utf-8")
        out = tmp_path / f"out-{'-'.join(flags)}"
        proc = build_site(out, project=project_copy, check=False, flags=flags)
        said = proc.stdout + proc.stderr
        assert proc.returncode != 0, (flags, said[-3000:])
        assert "problem(s), so the strict build fails" in said, said[-3000:]
        assert f"docs/module-3.md:{unknown}: unknown value {{{{ nope.value }}}}" in said
        assert (
            f"docs/module-1.md:{fence}: code block 'm1-boom' raised ValueError('boom')"
            in said
        )
        shown = re.findall(r"docs/module-2\.md: the page shows (.*?), which", said)
        assert shown and "Traceback (most recent call last)" in shown[0], said[-3000:]
        assert str(project_copy) in shown[0], said[-6000:]
        assert not (out.with_name(out.name + ".complete")).exists()
        # named in the failure's list, and only there: as quiet as before
        if "-q" in flags:
            failure = said[said.index("problem(s), so the strict build fails") :]
            assert f"mkdocs.structure.pages: {anchor}" in failure, (flags, failure)
            assert said.count(anchor) == 1, (flags, said[-3000:])
            continue
        # a build that prints its warnings (-v): each snippet that ended, reported twice
        for name, cause in [
            ("m1-help", "SystemExit(0)"),
            ("m1-exit", "SystemExit(3)"),
            ("m1-interrupt", "KeyboardInterrupt()"),
        ]:
            reports = _records(said, name)
            assert reports, f"{name} not reported: {said[-3000:]}"
            # markdown-exec's report, with the page in front (its traceback shows the cause)...
            exec_report = [
                r for r in reports if r.startswith("WARNING -  docs/module-1.md: ")
            ]
            assert exec_report and cause in exec_report[0], reports
            # ...and the project's problem, with the fence's line: counted whatever the log level
            problem = rf"WARNING -  docs/module-1\.md:\d+: code block '{name}' raised "
            assert any(re.match(problem + re.escape(cause), r) for r in reports), (
                reports
            )


def _fetch(url: str) -> str:
    """The page at ``url`` (a deadline, not a timing: a request that hangs fails the test)."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=300) as answer:
            return answer.read().decode("utf-8", errors="replace")
    except urllib.error.HTTPError as err:
        return err.read().decode("utf-8", errors="replace")


@pytest.mark.site
def test_serve_answers_every_error_on_every_page_every_time_and_recovers(
    project_copy, tmp_path
):
    """One ``mkdocs serve --strict`` session, six builds (issue 20 point 7: were two sessions,
    eight builds) of a small project (Module 1 and Module 3 alone), each fault kept:

    - a syntax error in core.py, then a false claim, used to leave every request hanging:
      each page now shows the error, and the save after it is picked up (the false claim shows,
      not the syntax error; then the good core.py brings the pages back);
    - a false claim fails the strict build with its measured value and its page;
    - a snippet raising SystemExit used to stop ``mkdocs serve``; a hook's error was shown once
      per session (MkDocs' duplicate filter), then only "Aborted with a BuildError!". Now every
      failed rebuild logs its error (hooks/serve.py), the same edit saved twice logs it twice."""
    only_pages(project_copy, "module-1.md", "module-3.md")
    (project_copy / "snippets" / "faults").mkdir()
    (project_copy / "snippets" / "faults" / "m1-exit.py").write_text(
        "import sys\nsys.exit(3)\n", encoding="utf-8"
    )
    log, port = tmp_path / "serve.log", _free_port()
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mkdocs",
                "serve",
                "--strict",
                "--dev-addr",
                f"127.0.0.1:{port}",
            ],
            cwd=project_copy,
            env=project_env(project_copy),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}/"
    core = project_copy / "src" / "attention_workshop" / "core.py"
    good = core.read_text(encoding="utf-8")
    claim = good.replace(
        "return np.triu(np.ones((T, T), dtype=bool), k=1)",
        "return np.zeros((T, T), dtype=bool)",
    )
    assert claim != good
    failed = r"The build failed; every page shows why"
    try:
        _wait_for(log, r"Serving on", 1, proc)
        assert "Module 3" in _fetch(base + "module-3/")
        # 1. fatal errors: every page shows each, the next save is read
        for n, (broken, says, gone) in enumerate(
            [
                (good + "\ndef broken(:\n", "SyntaxError", None),
                (claim, "causal.first_row_on_itself", "SyntaxError"),
            ],
            1,
        ):
            core.write_text(broken, encoding="utf-8")
            _wait_for(log, failed, n, proc)
            for page in ("module-3/", "", "no-such-page/"):
                text = _fetch(base + page)
                assert "The build failed" in text and says in text, (page, text[:2000])
                assert gone is None or gone not in text, (page, text[:2000])
        # the false claim's report (tests/test_site.py's strict build of it before, one build
        # fewer): its value, the first row the broken mask lets through (the wired head's
        # unmasked row, by PyTorch), and its page
        said = log.read_text(encoding="utf-8").split(failed)[2]
        report = said.split("  - causal.first_row_on_itself: ")[1].split("\n  - ")[0]
        m = re.search(r"measured: \[([^\]]*)\]", report)
        assert m, report
        shown = [float(x) for x in m.group(1).split(",")]
        assert np.allclose(
            shown, wired(("the", "river", "bank"))[3][0], rtol=0, atol=1e-12
        )
        assert "stated on: docs/module-3.md" in report, report
        core.write_text(good, encoding="utf-8")
        deadline = time.monotonic() + 600
        while "The build failed" in _fetch(base + "module-3/"):
            assert time.monotonic() < deadline and proc.poll() is None, log.read_text()
            time.sleep(0.5)
        assert "Module 3" in _fetch(base + "module-3/")
        # 2. a snippet that exits and an unknown value: logged at every failed rebuild
        start = len(log.read_text(encoding="utf-8"))
        # one write of one page with both breaks (its snippet was there from the start, on no
        # page): one rebuild sees both
        page = project_copy / "docs" / "module-1.md"
        page.write_text(
            page.read_text(encoding="utf-8")
            + '\n```python exec="1" id="m1-exit"\n--8<-- "faults/m1-exit.py"\n```\n'
            + "\n{{ nope.value }}\n",
            encoding="utf-8",
        )
        fence_line = (
            page.read_text(encoding="utf-8")
            .splitlines()
            .index('```python exec="1" id="m1-exit"')
            + 1
        )
        seen = 0
        for n in (1, 2):
            if n == 2:  # the same edit again
                page.write_text(page.read_text() + "\n", encoding="utf-8")
            builds = _failed_builds(log, start, seen + 1, proc)
            seen = len(builds)
            for build in builds:
                # each failed rebuild logs the snippet's page and line once, with one page in
                # front of markdown-exec's report (each build's hooks, not an earlier build's,
                # name the page: serve loads them again at each build), and counts it as a problem
                raised = f"docs/module-1.md:{fence_line}: code block 'm1-exit' raised SystemExit(3)"
                assert build.count(f"WARNING -  {raised}\n") == 1, build[-3000:]
                said = build.split(failed)[1]
                assert raised in said, said[:3000]
                exec_report = re.findall(
                    r"WARNING -  (.*)Execution of python code block 'm1-exit' (.*) exited",
                    build,
                )
                assert exec_report == [
                    (
                        "docs/module-1.md: markdown_exec: ",
                        f"(snippets/faults/m1-exit.py, fence at docs/module-1.md:{fence_line})",
                    )
                ], exec_report
                unknown = re.findall(
                    r"(?:ERROR|WARNING).*nope\.value", build.split(failed)[0]
                )
                assert len(unknown) == 1, build[-3000:]
        assert proc.poll() is None, "mkdocs serve ended"
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _failed_builds(
    log: Path, start: int, count: int, proc: subprocess.Popen
) -> list[str]:
    """The log of each rebuild after ``start`` that failed, once at least ``count`` have: each
    from its "Building documentation..." to its browsers' reload, its failure's report in full
    (a deadline, not a timing; a save seen twice may make one more)."""
    deadline = time.monotonic() + 600
    while True:
        text = log.read_text(encoding="utf-8", errors="replace")[start:]
        builds = [
            b.split("Reloading browsers")[0]
            for b in text.split("Building documentation...")[1:]
            if "The build failed" in b and "Reloading browsers" in b
        ]
        if len(builds) >= count:
            return builds
        if proc.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(
                f"no {count} failed rebuild(s) in the log:\n{text[-3000:]}"
            )
        time.sleep(0.5)


def _wait_for(log: Path, pattern: str, count: int, proc: subprocess.Popen) -> None:
    """Until ``pattern`` has appeared ``count`` times in the log (a deadline, not a timing)."""
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        text = log.read_text(encoding="utf-8", errors="replace")
        if len(re.findall(pattern, text)) >= count:
            return
        if proc.poll() is not None:
            raise AssertionError(
                f"mkdocs serve ended (exit {proc.returncode}):\n{text[-3000:]}"
            )
        time.sleep(0.5)
    raise AssertionError(f"no {count} x {pattern!r} in the log:\n{text[-3000:]}")


# ---------------------------------------------------------------- 2. bounded input


def test_the_cli_states_and_enforces_a_maximum_sentence_length_before_any_work(
    session_run, tmp_path, capsys
):
    from attention_workshop.experiment.runner import MAX_WORDS

    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert f"at most {MAX_WORDS}" in " ".join(capsys.readouterr().out.split())
    out = tmp_path / "out"
    too_long = " ".join(["bank"] * (MAX_WORDS + 1))
    with pytest.raises(SystemExit) as stop:
        cli.main(["--out", str(out), "--sentence", too_long])
    said = capsys.readouterr().err
    assert stop.value.code == 2 and f"{MAX_WORDS + 1} words" in said
    assert f"at most {MAX_WORDS}" in said and "Traceback" not in said
    assert session_run == [] and not out.exists(), "work was done"
    with pytest.raises(ValueError, match=f"at most {MAX_WORDS}"):
        experiment.run(too_long)
    at_limit = " ".join(["bank"] * MAX_WORDS)
    assert cli.main(["--out", str(out), "--sentence", at_limit]) == 0
    assert session_run == [at_limit]


def _heatmap(T: int) -> str:
    from attention_workshop.experiment.figures import heatmap_svg

    words = [f"w{i}" for i in range(T)]
    weights = np.random.default_rng(T).dirichlet(np.ones(T), size=T)  # rows sum to 1
    return heatmap_svg(weights, words, words, f"{T} words")


def test_a_heatmap_past_the_readable_size_costs_no_more_per_word():
    """Old heatmaps printed every cell (1,024 labels at 32 words) on a canvas that grew with
    the sentence: 2 GB and a 6 MB SVG at 100 words."""
    from attention_workshop.experiment.runner import MAX_WORDS

    sizes = {}
    for T in (16, MAX_WORDS):
        svg = _heatmap(T)
        # ticks (2 per word), title, axis labels: no text per cell
        assert svg.count("<text") <= 2 * T + 10, f"{T} words: a label per cell"
        sizes[T] = re.search(r'<svg[^>]*width="([\d.]+)pt" height="([\d.]+)pt"', svg)[0]
        desc = html.unescape(re.search(r"<desc>(.*)</desc>", svg, re.S)[1])
        assert len(re.findall(r"\d\.\d{3}", desc)) == T * T, (
            "every number stays in <desc>"
        )
    # past the readable size the canvas no longer grows
    w16, h16 = map(float, re.findall(r'"([\d.]+)pt"', sizes[16]))
    w, h = map(float, re.findall(r'"([\d.]+)pt"', sizes[MAX_WORDS]))
    assert w <= 1.2 * w16 and h <= 1.2 * h16, (sizes[16], sizes[MAX_WORDS])


def test_an_empty_sentence_names_no_internal_function(session_run, tmp_path, capsys):
    for sentence in ("", "   "):
        with pytest.raises(SystemExit) as stop:
            cli.main(["--out", str(tmp_path / "out"), "--sentence", sentence])
        said = capsys.readouterr().err
        assert stop.value.code == 2 and "the sentence is empty" in said
        assert "embed" not in said and "river" in said, said
    assert session_run == []


def test_out_under_a_file_is_refused_before_any_work(session_run, tmp_path, capsys):
    (tmp_path / "afile").write_text("keep me\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        cli.main(["--out", str(tmp_path / "afile" / "sub")])
    said = capsys.readouterr().err
    assert stop.value.code == 2 and f"{tmp_path / 'afile'} is a file" in said
    assert session_run == [], "the experiment ran before the folder was checked"
    assert (tmp_path / "afile").read_text(encoding="utf-8") == "keep me\n"


# ---------------------------------------------------------------- 3. all-or-nothing output

# atomic.py needs the standard library alone: loaded from its file, each of the test's hundred
# or so processes starts without the package's __init__ (NumPy: about 0.15 s a process)
KILL = """
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("atomic", sys.argv[5])
atomic = importlib.util.module_from_spec(spec)
spec.loader.exec_module(atomic)
out, step, exchange, names = sys.argv[1], sys.argv[2], sys.argv[3] == "1", json.loads(sys.argv[4])
atomic._use_exchange = exchange
atomic.after_step = lambda done: os._exit(9) if done == step else None
atomic.write_all({n: f"new {n}\\n" for n in names}, out)
"""


def _steps(tmp_path: Path, files: dict[str, str], monkeypatch) -> list[str]:
    """The steps of a write that replaces an earlier set, in order."""
    from attention_workshop.experiment import atomic

    rehearsal = tmp_path / "rehearsal"
    atomic.write_all(files, rehearsal)
    steps: list[str] = []
    monkeypatch.setattr(atomic, "after_step", steps.append)
    atomic.write_all(files, rehearsal)
    monkeypatch.setattr(atomic, "after_step", lambda step: None)
    shutil.rmtree(rehearsal)
    return steps


@pytest.mark.slow
@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "two-renames"])
def test_a_process_killed_at_any_step_of_the_write_leaves_the_old_set_or_the_new(
    results, tmp_path, monkeypatch, exchange
):
    from attention_workshop.experiment import atomic

    monkeypatch.setattr(atomic, "_use_exchange", exchange)
    names = ["results.log", *results.figures, *results.tables]
    old = {n: f"old {n}\n" for n in names}
    new = {n: f"new {n}\n" for n in names}
    steps = _steps(tmp_path, old, monkeypatch)
    assert len(steps) >= len(names) + 4 and "wrote results.log" in steps
    out = tmp_path / "out"
    for step in steps:
        atomic.write_all(old, out)  # also removes what the last killed write left
        assert temporaries(tmp_path) == []
        proc = subprocess.run(
            [
                sys.executable,
                "-c",
                KILL,
                str(out),
                step,
                str(int(exchange)),
                json.dumps(names),
                atomic.__file__,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 9, f"{step}: {proc.stderr}"
        if not out.exists():
            # two renames, killed between them: the next write first puts the old set back
            assert not exchange and step == "moved the previous set aside", step
            with pytest.raises(RuntimeError):
                monkeypatch.setattr(atomic, "after_step", _raise_at("cleaned"))
                atomic.write_all(new, out)
            monkeypatch.setattr(atomic, "after_step", lambda step: None)
        assert snapshot(out) in (old, new), f"killed after {step!r}: a mix"


def _raise_at(step: str):
    def fail(done: str) -> None:
        if done == step:
            raise RuntimeError(f"failed after {done}")

    return fail


@pytest.mark.slow
@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "two-renames"])
def test_a_write_that_fails_at_any_step_leaves_one_set_and_no_temporary_folder(
    results, tmp_path, monkeypatch, exchange
):
    from attention_workshop.experiment import atomic

    monkeypatch.setattr(atomic, "_use_exchange", exchange)
    names = ["results.log", *results.figures, *results.tables]
    old = {n: f"old {n}\n" for n in names}
    new = {n: f"new {n}\n" for n in names}
    out = tmp_path / "out"
    for step in _steps(tmp_path, old, monkeypatch):
        atomic.write_all(old, out)
        monkeypatch.setattr(atomic, "after_step", _raise_at(step))
        with pytest.raises(RuntimeError):
            atomic.write_all(new, out)
        monkeypatch.setattr(atomic, "after_step", lambda step: None)
        assert snapshot(out) in (old, new), f"failed after {step!r}: a mix"
        assert temporaries(tmp_path) == [], f"failed after {step!r}"


def test_when_one_file_cannot_be_written_the_previous_run_stays_whole(
    results, results_other, tmp_path
):
    """One of the seven files cannot be written (a folder has its name): before, results.log
    was already the new run's when the error came."""
    out = tmp_path / "out"
    experiment.write(results_other, out)
    (out / "wired-weights.svg").unlink()
    (out / "wired-weights.svg").mkdir()
    before = {
        p.name: p.is_dir() or p.read_text(encoding="utf-8") for p in out.iterdir()
    }
    with pytest.raises((ValueError, OSError)):
        experiment.write(results, out)
    after = {p.name: p.is_dir() or p.read_text(encoding="utf-8") for p in out.iterdir()}
    assert after == before
    assert temporaries(out) == [] and temporaries(tmp_path) == []


def test_an_out_folder_with_other_files_is_refused_before_any_work(
    session_run, tmp_path, monkeypatch, capsys
):
    """``--out .`` in a repository would have replaced it; now the folder must be new, empty,
    or one an earlier run wrote."""
    (tmp_path / "README.md").write_text("my project\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        cli.main(["--out", "."])
    assert stop.value.code == 2 and "holds other files" in capsys.readouterr().err
    assert session_run == [] and snapshot(tmp_path) == {"README.md": "my project\n"}
    # a folder of an earlier run, with one file the run does not write: refused at the write
    from attention_workshop.experiment import atomic

    (tmp_path / "results.log").write_text("an earlier run\n", encoding="utf-8")
    with pytest.raises(atomic.OutDirError, match=r"README\.md"):
        atomic.write_all({"results.log": "new\n"}, tmp_path)
    assert snapshot(tmp_path) == {
        "README.md": "my project\n",
        "results.log": "an earlier run\n",
    }


# ---------------------------------------------------------------- 4. what a build publishes


def _publish(project: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "workshop_site.publish", "site"],
        cwd=project,
        env=project_env(project),
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.mark.site
def test_make_site_replaces_site_only_with_a_good_build(project_copy, tmp_path):
    """Three FRESH=1 builds through ``make site``'s own command, each of its own copy of a small
    project (the home page and Module 1, which holds the faults) with the same last good build in
    its site/, side by side: two that fail (a fence that raises, one that ends the process with
    exit 0) keep that site and leave no temporary folder; the good one replaces it."""
    from concurrent.futures import ThreadPoolExecutor

    assert "-m workshop_site.publish site" in (ROOT / "Makefile").read_text()
    only_pages(project_copy, "index.md", "module-1.md")
    site = project_copy / "site"
    site.mkdir()
    (site / "index.html").write_text("the last good build\n", encoding="utf-8")
    faults = {
        "m1-raises": (
            "raise RuntimeError('deliberately broken')\n",
            "strict build failed",
        ),
        "m1-vanish": ("import os\nos._exit(0)\n", "stopped before its end"),
    }
    copies = {}
    for fence, (code, _) in faults.items():
        copies[fence] = tmp_path / fence  # FRESH=1 reads no cache: the copy needs none
        shutil.copytree(
            project_copy, copies[fence], ignore=shutil.ignore_patterns(".cache")
        )
        add_fences(copies[fence], "module-1.md", {fence: code})
    with ThreadPoolExecutor(max_workers=3) as pool:
        runs = {
            f: pool.submit(_publish, p) for f, p in {**copies, "": project_copy}.items()
        }
        procs = {fence: run.result() for fence, run in runs.items()}
    for fence, (_, says) in faults.items():
        proc = procs[fence]
        assert proc.returncode != 0 and says in proc.stderr, (
            fence,
            proc.stderr[-3000:],
        )
        assert snapshot(copies[fence] / "site") == {
            "index.html": "the last good build\n"
        }, fence
        assert temporaries(copies[fence]) == [], fence
    proc = procs[""]
    assert proc.returncode == 0, proc.stderr[-3000:]
    # what is published never comes from the cache
    assert "attention_workshop: cache FRESH: 0 result(s) read" in proc.stderr
    assert "Attention Workshop" in (site / "index.html").read_text(encoding="utf-8")
    assert (site / "module-1" / "index.html").is_file()
    assert temporaries(project_copy) == []


def machine_paths() -> list[str]:
    """This machine's folders (the checkout, the Python environment, home), as the hook lists them."""
    paths = {str(ROOT), sys.prefix, str(Path(sys.executable).parent)}
    home = str(Path.home())
    if home not in ("/", ""):
        paths.add(home + "/")
    return sorted(paths)


@pytest.mark.site
def test_a_good_build_shows_no_traceback_and_no_machine_path(built_site):
    problems = []
    for path in sorted(built_site.rglob("*")):
        if path.suffix not in (
            ".html",
            ".json",
            ".xml",
            ".txt",
            ".log",
            ".csv",
            ".svg",
        ):
            continue
        raw = path.read_text(encoding="utf-8", errors="replace")
        text = html.unescape(re.sub(r"<[^>]+>", "", raw))
        for needle in ["Traceback (most recent call last)", *machine_paths()]:
            if needle in raw or needle in text:
                problems.append(f"{path.relative_to(built_site)}: {needle}")
    assert problems == []


# ---------------------------------------------------------------- 5. serve that lasts

RELOAD = """
import json, sys
from pathlib import Path
from mkdocs.commands.build import build
from mkdocs.config import load_config

project, out = Path(sys.argv[1]), sys.argv[2]
def once():
    cfg = load_config(str(project / "mkdocs.yml"), site_dir=out, strict=False)  # as serve
    cfg.plugins.on_startup(command="serve", dirty=False)
    build(cfg, serve_url="http://127.0.0.1:8000/")
    return (Path(out) / "module-3" / "index.html").read_text(encoding="utf-8")

first = once()
chapter = project / "src" / "attention_workshop" / "chapters" / "module_3.py"
edited = chapter.read_text().replace("against PyTorch\\"", "against PyTorch, after an edit\\"")
chapter.write_text(edited)
snippet = project / "snippets" / "module-3" / "log_order.py"
snippet.write_text(snippet.read_text() + "print('A line added to the snippet while serving.')\\n")
second = once()
print("FIRST-HAS-EDIT" if "after an edit" in first else "FIRST-CLEAN")
print("SECOND-HAS-EDIT" if "after an edit" in second else "SECOND-STALE")
print("SECOND-HAS-SNIPPET" if "A line added to the snippet" in second else "SECOND-SNIPPET-STALE")
print("SECOND-SAYS-CAPTURES-STALE" if "make captures" in second else "SECOND-SILENT")
from griffe._internal.extensions import dataclasses as griffe_dataclasses
from markdown_exec._internal import rendering
from markdown_exec._internal.formatters import python as fences
from mkdocstrings_handlers.python._internal import rendering as templates
print(json.dumps({
    "markdown-exec headings": rendering._register_headings_processors.cache_info().currsize,
    "markdown-exec fences": len(fences._code_blocks) + len(fences._sessions_globals),
    "markdown-exec fence modules": sum(m.startswith("_code_block_") for m in sys.modules),
    "griffe dataclasses": griffe_dataclasses._dataclass_parameters.cache_info().currsize,
    "mkdocstrings templates": templates._test_existing_template.cache_info().currsize,
}))
"""


@pytest.mark.site
def test_a_rebuild_in_the_same_process_sees_every_edit_and_keeps_no_old_page(
    project_copy, tmp_path
):
    """What ``mkdocs serve`` does on a change: rebuild in the same process. Two builds of a small
    project (Module 3 alone), checked twice (issue 20 point 7: two tests of two builds each before):

    - no stale numbers: an edit to the package and to a snippet between the builds shows in the
      second, which also says captures/ is stale;
    - the upstream caches are empty after the second build: each kept every page of every
      earlier build alive, ~5 MB per ``mkdocs serve`` rebuild (hooks/serve.py clears them)."""
    only_pages(project_copy, "module-3.md")
    proc = subprocess.run(
        [sys.executable, "-c", RELOAD, str(project_copy), str(tmp_path / "out")],
        cwd=project_copy,
        env=project_env(project_copy),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    said = proc.stdout.splitlines()
    assert said[-5:-1] == [
        "FIRST-CLEAN",
        "SECOND-HAS-EDIT",
        "SECOND-HAS-SNIPPET",
        "SECOND-SAYS-CAPTURES-STALE",
    ], proc.stdout[-3000:]
    sizes = json.loads(said[-1])
    assert sizes == dict.fromkeys(sizes, 0)


def test_serve_watches_the_captures():
    from mkdocs.config import load_config

    cfg = load_config(str(ROOT / "mkdocs.yml"))
    assert str(ROOT / "captures") in [str(Path(w)) for w in cfg.watch]
