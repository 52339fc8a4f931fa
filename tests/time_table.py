"""Where the suite's time goes: a table at the end of every run, one row per group of tests.

Each test falls in the first group whose rule it meets (:func:`group_of`): the browser tests,
the reader's reproduction, the recipes of CONTRIBUTING.md, the numeric environments, the model
references (transformers), the site builds, and the package's own tests. A row gives the group's
count of tests and its worker-seconds: setup, call and teardown added up over every worker (with
two workers the wall time is about half). It is a reading, like ``--durations``; no test asserts a
time (``make bench`` is the place for speed figures).
"""

from __future__ import annotations

from collections import defaultdict

import pytest

#: The groups, in the order the table prints them and :func:`group_of` tries them.
GROUPS = (
    "browser",
    "reproduction",
    "recipes",
    "numeric environments",
    "model references",
    "builds",
    "package",
)
# a test file's name -> its group, for the groups that are one file each
_BY_FILE = {
    "test_site_reproduce.py": "reproduction",
    "test_contributing.py": "recipes",
    "test_numeric_env.py": "numeric environments",
}


def group_of(nodeid: str, marks: set[str]) -> str:
    """The group of the test ``nodeid`` carrying the markers ``marks``."""
    if "browser" in marks:
        return "browser"
    file = nodeid.split("::", 1)[0].rsplit("/", 1)[-1]
    if file in _BY_FILE:
        return _BY_FILE[file]
    if "reference" in marks:
        return "model references"
    if "site" in marks:
        return "builds"
    return "package"


class TimeTable:
    """Collects each test's time from its reports (the workers' too, under xdist)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.group: dict[str, str] = {}

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.group.setdefault(
            report.nodeid, group_of(report.nodeid, set(report.keywords))
        )
        self.seconds[report.nodeid] += report.duration

    def rows(self) -> list[tuple[str, int, float]]:
        """``(group, tests, worker-seconds)`` for each group that ran a test, in :data:`GROUPS` order."""
        count: dict[str, int] = defaultdict(int)
        total: dict[str, float] = defaultdict(float)
        for nodeid, group in self.group.items():
            count[group] += 1
            total[group] += self.seconds[nodeid]
        return [(g, count[g], total[g]) for g in GROUPS if count[g]]

    @pytest.hookimpl(trylast=True)
    def pytest_terminal_summary(self, terminalreporter) -> None:
        rows = self.rows()
        if not rows:
            return
        terminalreporter.write_sep("-", "where the time went (worker-seconds)")
        terminalreporter.write_line(
            f"{'group':<22} {'tests':>6} {'seconds':>9} {'share':>6}"
        )
        whole = sum(s for _, _, s in rows) or 1.0
        for group, n, s in rows:
            terminalreporter.write_line(
                f"{group:<22} {n:>6} {s:>9.1f} {s / whole:>6.0%}"
            )
        tests = sum(n for _, n, _ in rows)
        terminalreporter.write_line(f"{'all':<22} {tests:>6} {whole:>9.1f}")


def register(config: pytest.Config) -> None:
    """The table for this session, from conftest's ``pytest_configure``: the controller (or the
    only process) prints it; a worker only sends its reports."""
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(TimeTable(), "workshop-time-table")
