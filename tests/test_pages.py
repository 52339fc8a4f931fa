"""workshop_site/pages.py: the run of a build (once, claims verified, cached), where it came from, the capture stamp."""

from __future__ import annotations

import copy
import subprocess
from pathlib import Path

import pytest

from attention_workshop.experiment import runner as experiment
from workshop_site import pages
from workshop_site.claims import ClaimError

from .breaks import edit

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def counted_runs(monkeypatch, results):
    """An empty cache and an experiment that answers with the session's run, counting calls; the session's run is
    put back in the cache afterwards (other tests read it through ``served``)."""
    calls = []

    def run(sentence):
        calls.append(tuple(sentence))
        return results

    pages._run.cache_clear()
    monkeypatch.setattr(experiment, "run", run)
    yield calls
    pages._run.cache_clear()
    monkeypatch.setattr(experiment, "run", lambda sentence: results)
    pages.results()


def test_the_experiment_runs_once_and_is_cached(counted_runs, results):
    before = pages.RUNS
    assert (
        pages.results() is results
        and pages.results(("the", "river", "bank")) is results
    )
    assert counted_runs == [("the", "river", "bank")] and before + 1 == pages.RUNS


def test_a_false_claim_stops_the_build(monkeypatch, counted_runs, results):
    broken = copy.deepcopy(results)
    edit("order", "same", lambda s: False)(broken, monkeypatch)
    monkeypatch.setattr(experiment, "run", lambda sentence: broken)
    with pytest.raises(ClaimError, match=r"order\.blind"):
        pages.results()


def test_build_info_names_the_commit_and_the_tools():
    info = pages.build_info()
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    assert info["commit_full"] == head and info["commit"].startswith(head[:12])
    assert info["mkdocs"].startswith("1.6") and info["attention-workshop"] == "0.1.0"
    assert {
        "os",
        "python",
        "numpy",
        "torch",
        "matplotlib",
        "mkdocs-material",
        "markdown-exec",
    } <= set(info)


def test_capture_header_stamps_the_capture_and_says_it_matches(served):
    stamp = [
        line
        for line in (ROOT / "captures" / "results.log")
        .read_text(encoding="utf-8")
        .splitlines()
        if line.startswith("#")
    ]
    header = pages.capture_header()
    assert header.startswith("```text\n" + "\n".join(stamp) + "\n```\n")
    assert "**byte for byte identical**" in header


def test_capture_header_says_when_the_capture_differs_or_is_missing(
    served, monkeypatch, tmp_path
):
    stale = tmp_path / "results.log"
    stale.write_text(
        "# attention-workshop results.log\n# an older run\n", encoding="utf-8"
    )
    monkeypatch.setattr(pages, "CAPTURE", stale)
    header = pages.capture_header()
    assert (
        "# an older run" in header
        and "**differs** from the committed capture" in header
    )
    monkeypatch.setattr(pages, "CAPTURE", tmp_path / "missing.log")
    assert "No committed capture" in pages.capture_header()


def test_where_the_log_page_and_the_generated_files_live():
    assert (ROOT / "docs" / pages.LOG_PAGE).is_file() and pages.GENERATED == "generated"
