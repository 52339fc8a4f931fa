"""Shared fixtures: one run of the experiment and one strict build of the site per test session,
a local server, a browser.

The experiment runs once per session (:func:`results`); a test that changes what it gets
works on a ``copy.deepcopy``. Browser tests use Debian's Chromium (``/usr/bin/chromium``)
through Playwright; every page fixture records console errors and requests that leave the site.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from . import time_table

# The experiment's PyTorch cross-checks use the portable CPU kernels and MKL's reproducible code
# path (see experiment/torch_refs.py); set them before any test module imports torch, so tests see the
# numbers the build and the capture see.
os.environ.setdefault("ATEN_CPU_CAPABILITY", "default")
os.environ.setdefault("MKL_CBWR", "COMPATIBLE")

# Property tests draw the same examples on every run: deterministic, like everything else here.
from hypothesis import settings

settings.register_profile("workshop", derandomize=True, deadline=None)
settings.load_profile("workshop")

ROOT = Path(__file__).resolve().parent.parent
# Every build of the session, the project's and its copies', shares the project's cache
# (experiment/cache.py): a result is found only under the key of all it depends on, so a copy
# changed on purpose computes what its change touches and reads the rest.
os.environ.setdefault("WORKSHOP_CACHE", str(ROOT / ".cache" / "workshop"))

#: The file each site build of the session adds a line to (hooks/publish.py): counted at the end.
BUILD_LOG = "ATTENTION_WORKSHOP_BUILD_LOG"
#: A strict build of this very tree that a test made before it started this session (the
#: copy's ``make site`` in tests/test_contributing.py): :func:`built_site` is that site.
SESSION_SITE = "ATTENTION_WORKSHOP_SESSION_SITE"
#: The test of the outer session that started this session, if a test started it.
OUTER_TEST = "ATTENTION_WORKSHOP_OUTER_TEST"
#: A build that renders at most this many Markdown pages is a small project's (:func:`only_pages`);
#: any other build, whatever its project, counts as a full site build.
SMALL = 3
_BUILDS = pytest.StashKey[str]()

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-quic",
    "--no-first-run",
    "--disable-sync",
]


def pytest_configure(config):
    """The controller (or the only process) names the file every site build of the session adds
    a line to (hooks/publish.py); the workers and every build they start inherit it. A session
    that a test starts (tests/test_contributing.py runs pytest in a copy) adds its builds to the
    outer session's file, so they are counted too. The time table (tests/time_table.py) is
    registered here too."""
    time_table.register(config)
    if BUILD_LOG in os.environ and not hasattr(config, "workerinput"):
        # the outer session's test, while this session's tests run (hooks/publish.py names it)
        os.environ.setdefault(OUTER_TEST, os.environ.get("PYTEST_CURRENT_TEST", ""))
    if not hasattr(config, "workerinput") and BUILD_LOG not in os.environ:
        fd, path = tempfile.mkstemp(
            prefix="attention-workshop-builds-", suffix=".jsonl"
        )
        os.close(fd)
        os.environ[BUILD_LOG] = config.stash[_BUILDS] = path


def xdist_group_of(item) -> str | None:
    """The worker group of a test (``--dist loadgroup``): the tests that share something costly
    that a process computes once run on one worker, so the run computes it once, not once per
    worker.

    - ``smollm``: SmolLM2 loaded by the package (tests/test_causal*.py; ``load_smollm`` keeps it),
      and its measures (``causal_heads.facts``, the causal page's browser tests compare with them);
      its references in transformers too (tests/causal_reference.py keeps them): in a group of
      their own, they loaded SmolLM2 again in each dtype on the other worker (about 10 s);
    - ``reference``: all-MiniLM-L6-v2 loaded into transformers (tests/minilm_reference.py keeps
      it for its process);
    - ``results_other``: the experiment's run on another sentence (the session fixture);
    - ``sweep``: every page opened once per scheme and width for the checks that read it
      (tests/sweep.py); ``printed``: the print page under print media and ``search_page``: the
      searches typed in it (module fixtures);
    - ``numeric_own``: the experiment run once in the machine's own numeric environment
      (``own_environment_run``), which every numeric environment's test and the Source page's
      walk compare with;
    - ``notebook-<page>``: the tests of a page's notebook (tests/test_notebooks.py): its run on a
      fresh kernel (``fresh_run``) is made once per process, and two tests on two workers made
      it twice.
    """
    if item.path.name.startswith(("test_causal", "test_browser_causal")):
        return "smollm"
    if item.get_closest_marker("reference"):
        return "reference"
    if item.path.name == "test_notebooks.py":
        page = getattr(getattr(item, "callspec", None), "params", {}).get("page")
        if page is not None:
            return f"notebook-{page}"
    fixtures = getattr(item, "fixturenames", ())
    for group in ("results_other", "sweep", "printed", "search_page"):
        if group in fixtures:
            return group
    if "own_environment_run" in fixtures:
        return "numeric_own"
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Each test in its worker group (:func:`xdist_group_of`), before xdist reads the groups; the
    longest kinds of test first (:func:`_handed_out`). xdist hands out the groups first (the
    largest first), then the other tests one at a time in this order: a slow test handed out
    last kept one worker busy alone at the end of the run (test_sound: over two minutes), where
    the package's many short tests now fill the two workers' last minutes."""
    for item in items:
        group = xdist_group_of(item)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
    items.sort(key=_handed_out)  # stable: the file order within each kind


def _handed_out(item) -> int:
    """Where a test goes in the order xdist hands tests out: the ``slow`` ones, then the ones that
    build or read the site, then the browser's, then the package's own (a fraction of a second
    each). Before, only the slow ones went first: the reader's reproduction (47 s, a ``site``
    test) came after the package's tests in the file order, and one worker ran it alone for
    the run's last 41 s."""
    for rank, marker in enumerate(("slow", "site", "browser")):
        if item.get_closest_marker(marker):
            return rank
    return 3


def pytest_collection_finish(session):
    """A worker of ``--dist loadgroup`` refuses to run when xdist did not group its tests: xdist
    marks a grouped test by adding ``@group`` to its node id, which pytest 9.2 no longer lets it do
    (pytest-xdist#1386), and the groups are then silently ignored."""
    config = session.config
    if not (hasattr(config, "workerinput") and config.getvalue("loadgroup")):
        return
    lost = [
        i.nodeid
        for i in session.items
        if any(i.iter_markers("xdist_group")) and "@" not in i.nodeid
    ]
    if lost:
        say = (
            f"pytest-xdist did not group {len(lost)} tests (the first: {lost[0]}): pytest "
            f"{pytest.__version__} breaks --dist loadgroup (pytest-xdist#1386). Run make setup: "
            "it installs the pytest requirements.lock pins."
        )
        # xdist shows a worker's UsageError as an internal error, without its message
        print(say, file=sys.stderr)
        raise pytest.UsageError(say)


def site_builds(path: str) -> list[dict]:
    """The builds a session started, one ``{"test": ..., "project": ..., "pages": ...,
    "reused": ...}`` per build (``pages``: how many Markdown pages it renders; ``reused``: how
    many of their renders it reused, 0 for a build that did not reach its end)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    ends = {r["id"]: r["reused"] for r in rows if "reused" in r}
    builds = [r for r in rows if "reused" not in r]
    return [{**b, "reused": ends.get(b.get("id"), 0)} for b in builds]


def is_full(build: dict) -> bool:
    """Whether a build counts as a full site build: any that renders more than :data:`SMALL`
    pages (or does not say how many) and reuses too few of them to render :data:`SMALL` or
    fewer itself (hooks/page_reuse.py; a serve rebuild after one edit renders one page or two)."""
    pages = build.get("pages")
    if not isinstance(pages, int):
        return True
    return pages - int(build.get("reused") or 0) > SMALL


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """``site builds: N (full), M (small project)`` at the end of the session, with the tests
    that started them. Every build counts, in a subprocess or in the test's own process, each
    ``mkdocs serve`` rebuild too: hooks/publish.py writes the line as the build's first step."""
    path = config.stash.get(_BUILDS, None)
    if path is None or not Path(path).is_file():
        return
    builds = site_builds(path)
    by_test: dict[str, list[int]] = {}
    for b in builds:
        test = b["test"].removesuffix(" (call)").removesuffix(" (setup)") or "(no test)"
        if b.get(
            "outer"
        ):  # a build of a session a test started: counted under that test
            outer = b["outer"].removesuffix(" (call)").removesuffix(" (setup)")
            test = f"{outer} (its pytest's {test})"
        by_test.setdefault(test, [0, 0])[0 if is_full(b) else 1] += 1
    full = sum(map(is_full, builds))
    terminalreporter.write_sep(
        "-",
        f"site builds: {full} (full), {len(builds) - full} (small project, or "
        f"{SMALL} pages or fewer rendered, the others reused)",
    )
    for test, (f, s) in sorted(
        by_test.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0])
    ):
        terminalreporter.write_line(f"{f:3d} full {s:3d} other  {test}")


def pytest_unconfigure(config):
    path = config.stash.get(_BUILDS, None)
    if path is not None:
        Path(path).unlink(missing_ok=True)


def _through_the_cache(name: str, compute):
    """``compute()`` with the experiment's disk cache on, under a file lock ``name`` in the cache's
    folder: the first worker to ask computes and stores, the others wait and read the entry
    (keyed on the bytes of the code it runs and the environment, as the site build's entries: a
    later session with the same code reads it too). The cache is off again after."""
    import fcntl

    from attention_workshop.experiment import cache

    folder = cache.folder()
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        cache.enable(True)
        try:
            return compute()
        finally:
            cache.enable(False)


def _if_free(name: str, compute) -> None:
    """``compute()`` with the disk cache on, under the file lock ``name``, unless another worker
    holds that lock (it is computing the same: its entry will be read)."""
    import fcntl

    from attention_workshop.experiment import cache

    folder = cache.folder()
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{name}.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return
        cache.enable(True)
        try:
            compute()
        finally:
            cache.enable(False)


def session_results():
    """The site build's run of the experiment (its claims verified), once per worker and read by
    the other (:func:`_through_the_cache`): it was made twice, once by each worker, while they
    collected tests/test_final_exam.py. Its two costly parts are made at once, one by each
    worker while both collect (the run, and the causal model's measures its claims check: each
    kept on disk), then each worker waits for the part the other made and reads it."""
    from attention_workshop.experiment import cache, causal_page
    from attention_workshop.experiment import runner as experiment
    from workshop_site import pages

    parts = {
        "session-causal-facts": causal_page.facts,
        "session-run": lambda: cache.call(experiment.run, tuple(pages.SENT_RIVER)),
    }
    for name, part in parts.items():
        _if_free(name, part)
    for name, part in parts.items():
        _through_the_cache(name, part)
    return _through_the_cache("session-results", pages.results)


def causal_facts():
    """SmolLM2's measures on the causal page's sentences (``chapters.causal_heads.facts``), as the
    session's run measured them: from the disk cache (:func:`_through_the_cache`, keyed on the
    bytes of their code), where each worker measured them again before (about 15 s)."""
    from attention_workshop.experiment import causal_page

    return _through_the_cache("session-causal-facts", causal_page.facts)


@pytest.fixture()
def empty_cache(tmp_path, monkeypatch):
    """The disk cache on for one test, in an empty folder (``tmp_path / "cache"``), not
    ``FRESH``, no damaged entry listed yet; the test's ``tmp_path``."""
    from attention_workshop.experiment import cache

    monkeypatch.setenv("WORKSHOP_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("FRESH", raising=False)
    cache.enable()
    cache.DAMAGED.clear()
    yield tmp_path
    cache.enable(False)


@pytest.fixture()
def disk_cache():
    """The disk cache on for one test (``pytestmark = pytest.mark.usefixtures("disk_cache")``):
    the pages' subjects as a site build reads them, the trained models' measures where the
    session's run kept them (keyed on the bytes of their code), not measured again in each
    worker. For tests that break a run's data, never the code that measures."""
    from attention_workshop.experiment import cache

    cache.enable(True)
    yield
    cache.enable(False)


@pytest.fixture(scope="session")
def results():
    """The experiment on the workshop's sentence, run once per test session (do not mutate: deepcopy
    first): :func:`session_results`, which test modules that need the run while they are
    collected call too."""
    return session_results()


@pytest.fixture(scope="session")
def results_other():
    """The experiment on another sentence ("fish swam by the shore", no "bank"), run once per test
    session and kept in the disk cache (:func:`_through_the_cache`)."""
    from attention_workshop.experiment import cache
    from attention_workshop.experiment import runner as experiment

    return _through_the_cache(
        "results-other", lambda: cache.call(experiment.run, "fish swam by the shore")
    )


@pytest.fixture(scope="session")
def served(results):
    """The site API (:mod:`workshop_site.pages`) serving the session's run: its cache is primed with
    :func:`results`, so render, tables and site functions read it without running the experiment again."""
    from attention_workshop.experiment import runner as experiment
    from workshop_site import pages

    pages._run.cache_clear()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(experiment, "run", lambda sentence: results)
        served = pages.results()
    assert served is results
    return results


def run_section(section, sentence=("the", "river", "bank")):
    """Run one chapter section alone (no figures, no other sections): ``(typed result, Results)``."""
    from attention_workshop.experiment.results import Results
    from attention_workshop.experiment.runner import RunContext

    r = Results(sentence=tuple(sentence))
    r.data[section.key] = section.run(RunContext(r, section.key))
    return r.data[section.key], r


def table_after(lines, marker, rows):
    """The fixed-width table that follows the first line containing ``marker``: ``{row label: [cell texts]}``.

    Only the cells are read, never the layout, so a test can compare them with numbers it formatted itself.
    """
    at = next(n for n, line in enumerate(lines) if marker in line)
    # skip the marker line and the header of column names
    body = lines[at + 2 : at + 2 + rows]
    return {line.split()[0]: line.split()[1:] for line in body}


def cells(M, nd=3):
    """A matrix as the text cells a table prints: ``nd`` decimals, never ``-0.000``."""
    out = []
    for row in M:
        texts = [f"{float(x):.{nd}f}" for x in row]
        out.append([t[1:] if t.startswith("-") and float(t) == 0 else t for t in texts])
    return out


def build_site(
    dest: Path,
    project: Path = ROOT,
    check: bool = True,
    flags: tuple[str, ...] = ("--strict",),
    generator: str = "mkdocs",
    **extra_env: str | None,
) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` (or ``flags``) of ``project`` into ``dest``; returns the finished process.

    ``generator="properdocs"`` builds with ProperDocs (the maintained fork of MkDocs 1.6) instead.

    ``extra_env`` adds to the environment (``FRESH="1"``: nothing read from the cache); a value
    of None takes the variable out (``SOURCE_DATE_EPOCH=None``: the build dates the site itself).

    With ``check``, a build counts only if it exits 0 *and* wrote the completion marker
    (hooks/publish.py): a build that vanished half-way (``os._exit(0)``) fails the test.
    """
    marker = Path(dest).with_name(Path(dest).name + ".complete")
    marker.unlink(missing_ok=True)
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONHASHSEED": "0",
        "ATEN_CPU_CAPABILITY": "default",
        "ATTENTION_WORKSHOP_BUILD_MARKER": str(marker),
        **extra_env,
    }
    env.setdefault("SOURCE_DATE_EPOCH", "0")
    env = {k: v for k, v in env.items() if v is not None}
    # a copy of the project builds with its own package
    if Path(project).resolve() != ROOT:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(Path(project) / "src"), env.get("PYTHONPATH", "")]
        ).rstrip(os.pathsep)
    proc = subprocess.run(
        [sys.executable, "-m", generator, "build", *flags, "--site-dir", str(dest)],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"strict build failed:\n{proc.stdout}\n{proc.stderr}")
    if check and not marker.is_file():
        raise AssertionError(
            f"the build exited {proc.returncode} without reaching its end (no completion "
            f"marker):\n{proc.stdout}\n{proc.stderr}"
        )
    return proc


@pytest.fixture()
def package_copy(tmp_path, monkeypatch) -> Path:
    """The packages copied to ``tmp_path/src`` and experiment/cache.py's keys pointed at the copy:
    a test edits the copy's files and sees what the keys make of it."""
    from attention_workshop.experiment import cache

    src = tmp_path / "src"
    for package in ("attention_workshop", "workshop_site"):
        shutil.copytree(
            ROOT / "src" / package,
            src / package,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    monkeypatch.setattr(cache, "_PACKAGE_DIR", src / "attention_workshop")
    return src / "attention_workshop"


def copy_project(dest: Path) -> Path:
    """A copy of the project's sources (no .venv, site, .git or caches) at ``dest``, to change on purpose."""
    ignore = shutil.ignore_patterns(
        ".venv", "site", ".git", "__pycache__", ".pytest_cache", ".hypothesis", ".cache"
    )
    shutil.copytree(ROOT, dest, ignore=ignore)
    return dest


def load_hook(name: str):
    """hooks/<name>.py, loaded as MkDocs loads a hook at each build: by path, under the name
    mkdocs.yml gives it, with hooks/ on sys.path while it runs."""
    import importlib.util

    hooks = ROOT / "hooks"
    spec = importlib.util.spec_from_file_location(
        f"hooks/{name}.py", hooks / f"{name}.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(hooks))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(hooks))
    return module


def only_pages(project: Path, *pages: str) -> Path:
    """Make ``project`` (a copy) a small project: its build renders only ``pages`` (paths under
    docs/), with the same hooks, plugins, overrides and mkdocs.yml settings.

    Every other Markdown page is excluded with MkDocs' own ``exclude_docs`` (still on disk, so a
    claim's sentence is still found on its page; a link or a nav entry to it is only logged at
    INFO), and the hand-typed numbers allowed on those pages are dropped from the copy's
    hooks/handtyped_numbers.toml (the build would say its site has no such page). For a test of
    a mechanism (strictness, serve, a failed build, a rebuild) whose fault sits on these pages:
    such a build counts as a small project's (see :data:`SMALL`), not a full one.
    """
    docs = project / "docs"
    keep = set(pages)
    assert 0 < len(keep) <= SMALL and all((docs / p).is_file() for p in keep), pages
    others = sorted(
        p.relative_to(docs).as_posix()
        for p in docs.rglob("*.md")
        if p.relative_to(docs).as_posix() not in keep
    )
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    assert "\nexclude_docs:" not in text
    excluded = "".join(f"  /{p}\n" for p in others)
    config.write_text(
        f"{text.rstrip()}\n\n# tests/conftest.py only_pages(): a small project\nexclude_docs: |\n{excluded}",
        encoding="utf-8",
    )
    allow = project / "hooks" / "handtyped_numbers.toml"
    head, *entries = allow.read_text(encoding="utf-8").split("[[allow]]\n")
    kept = [e for e in entries if re.match(r'page = "([^"]+)"', e)[1] in keep]
    allow.write_text("[[allow]]\n".join([head, *kept]), encoding="utf-8")
    return project


@pytest.fixture(scope="session")
def own_environment_run(tmp_path_factory) -> Path:
    """tests/numeric_env_probe.py run once, in the machine's own numeric environment: the
    experiment's files in the returned folder, the package's modules it loaded in
    ``modules.txt`` beside it. Its tests share one worker (:func:`xdist_group_of`): each
    worker that ran one made it again (about 14 s)."""
    from .test_numeric_env import probe

    return probe(tmp_path_factory.mktemp("own") / "out", {})


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, worker_id) -> Path:
    """The site, built once per test run with --strict into a temporary folder: the first
    pytest-xdist worker to ask builds it, under a file lock; the others wait and read it.

    What the build printed is kept beside it, in ``build-output.txt``. In a session a test
    started after building the same tree strictly (:data:`SESSION_SITE`), that build is the site.
    """
    import fcntl

    if given := os.environ.get(SESSION_SITE):
        site = Path(given)
        assert (site / "index.html").is_file(), f"{SESSION_SITE}={given}: no site there"
        return site

    root = tmp_path_factory.getbasetemp()
    if worker_id != "master":  # each worker's basetemp is a folder of the run's
        root = root.parent
    dest, done = root / "session-site" / "site", root / "session-site" / "built"
    with open(root / "session-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_file():
            dest.mkdir(parents=True, exist_ok=True)
            proc = build_site(dest)
            (dest.parent / "build-output.txt").write_text(proc.stdout + proc.stderr)
            done.write_text("built\n")
    return dest


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test output readable
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # a page closed while a file was still on its way (the run box's 45 MB model file) is the
        # browser going away, not a fault of the site: no traceback in the test log (a CI log
        # showed a BrokenPipeError's); any other error is printed as socketserver prints it
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@pytest.fixture(scope="session")
def site_url(built_site) -> str:
    """Base URL (ending in /) of the built site, served on 127.0.0.1 by a thread."""
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium via Playwright (Debian's binary; Playwright's own download is not used)."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.fail(
            "Chromium is missing: run `make test` (it installs Debian's chromium) or apt-get install chromium"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def sweep(browser, site_url, built_site):
    """Every page of the site opened once per colour scheme and width, for the checks that only
    read a page (tests/sweep.py); the tests that use it share one worker (:func:`xdist_group_of`)."""
    from .sweep import Sweep

    return Sweep(browser, site_url, built_site)


class PageLog:
    """What a page did that a reader would not want: console errors and requests off the site."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.console_errors: list[str] = []
        self.foreign_requests: list[str] = []

    def on_console(self, msg) -> None:
        if msg.type == "error":
            self.console_errors.append(msg.text)

    def on_pageerror(self, err) -> None:
        self.console_errors.append(str(err))

    def on_request(self, req) -> None:
        if not req.url.startswith((self.base, "data:", "blob:", "about:")):
            self.foreign_requests.append(req.url)


@pytest.fixture()
def page_and_log(browser, site_url):
    """A fresh page (light scheme, 1280x900) and the PageLog that watches it."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, color_scheme="light"
    )
    page = context.new_page()
    log = PageLog(site_url)
    page.on("console", log.on_console)
    page.on("pageerror", log.on_pageerror)
    page.on("request", log.on_request)
    yield page, log
    context.close()
