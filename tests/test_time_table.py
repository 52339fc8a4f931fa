"""The time table's sorting and sums (tests/time_table.py), on made-up reports."""

from __future__ import annotations

import json
from types import SimpleNamespace

from .time_table import GROUPS, TimeTable, group_of


def test_each_test_falls_in_the_first_group_whose_rule_it_meets():
    cases = {
        # a browser test is a browser test even if it also builds a site
        ("tests/test_browser_x.py::t", frozenset({"browser", "site"})): "browser",
        ("tests/test_site_reproduce.py::t", frozenset({"site"})): "reproduction",
        ("tests/test_contributing.py::t[a]", frozenset()): "recipes",
        (
            "tests/test_numeric_env.py::t",
            frozenset({"reference"}),
        ): "numeric environments",
        ("tests/test_causal_reads.py::t@reference", frozenset({"reference", "site"})): (
            "model references"
        ),
        ("tests/test_sound.py::t", frozenset({"site"})): "builds",
        ("tests/test_core.py::t", frozenset()): "package",
    }
    for (nodeid, marks), group in cases.items():
        assert group_of(nodeid, set(marks)) == group, nodeid
    assert set(cases.values()) == set(GROUPS), "every group has a case"


def test_the_rows_count_each_test_once_and_add_its_phases():
    table = TimeTable()
    reports = [
        ("tests/test_core.py::a", set(), 0.5),  # setup
        ("tests/test_core.py::a", set(), 2.0),  # call
        ("tests/test_core.py::a", set(), 0.25),  # teardown
        ("tests/test_core.py::b", set(), 1.0),
        ("tests/test_browser_x.py::c", {"browser"}, 4.0),
    ]
    for nodeid, marks, seconds in reports:
        table.pytest_runtest_logreport(
            SimpleNamespace(
                nodeid=nodeid, keywords=dict.fromkeys(marks), duration=seconds
            )  # type: ignore[arg-type]
        )
    assert table.rows() == [("browser", 1, 4.0), ("package", 2, 3.75)]


def test_a_build_that_reuses_all_but_a_few_pages_is_not_a_full_build(tmp_path):
    """The build log's two lines per build (hooks/publish.py): a build that did not reach its end
    counts by its pages; one that reused its renders of all but :data:`conftest.SMALL` pages or
    fewer does not count as a full build, nor does a small project's."""
    from .conftest import SMALL, is_full, site_builds

    log = tmp_path / "builds.jsonl"
    rows = [
        {"id": "a", "test": "t1", "project": "p", "pages": 17},
        {"id": "b", "test": "t2", "project": "p", "pages": 17},
        {"id": "c", "test": "t3", "project": "p", "pages": 17},
        {"id": "d", "test": "t4", "project": "p", "pages": 2},
        {"id": "a", "reused": 17 - SMALL},
        {"id": "b", "reused": 17 - SMALL - 1},
        {"test": "t5", "project": "p"},
    ]
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    builds = site_builds(str(log))
    assert [b["test"] for b in builds] == ["t1", "t2", "t3", "t4", "t5"]
    assert [is_full(b) for b in builds] == [False, True, True, False, True]
