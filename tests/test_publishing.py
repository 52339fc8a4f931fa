"""Publishing: the licence, the site's address and repository from the environment, the GitHub workflow
(checked by actionlint), and the Makefile's tiers and options."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from .conftest import ROOT, build_site, copy_project, only_pages

WORKFLOW = ROOT / ".github" / "workflows" / "site.yml"
ACTIONLINT = Path(sys.executable).parent / "actionlint"


def test_the_licence_is_the_mit_licence_pyproject_names():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Permission is hereby granted" in text
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == {"text": "MIT"}


def _config(monkeypatch, **env: str):
    """site_url and repo_url as mkdocs.yml gives them under ``env`` (MkDocs' own YAML loader, !ENV and all)."""
    from mkdocs import utils

    for name in ("SITE_URL", "REPO_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with open(ROOT / "mkdocs.yml", encoding="utf-8") as fh:
        cfg = utils.yaml_load(fh)
    return cfg["site_url"], cfg["repo_url"]


def test_site_and_repository_addresses_come_from_the_environment(monkeypatch):
    assert _config(monkeypatch) == (None, None), (
        "unset, the site claims no address and no repository"
    )
    assert _config(
        monkeypatch,
        SITE_URL="https://example.org/aw/",
        REPO_URL="https://github.com/o/aw",
    ) == ("https://example.org/aw/", "https://github.com/o/aw")


def _workflow() -> dict:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as True
    data["on"] = data.pop(True, data.get("on"))
    return data


def test_the_workflow_tests_with_make_test_and_deploys_main_to_pages():
    wf = _workflow()
    test, deploy = wf["jobs"]["test"], wf["jobs"]["deploy"]
    runs = [s.get("run", "") for s in test["steps"]]
    uses = [s.get("uses", "").split("@")[0] for j in (test, deploy) for s in j["steps"]]
    assert "make test" in runs and "make site" in runs
    assert "actions/upload-pages-artifact" in uses and "actions/deploy-pages" in uses
    assert deploy["needs"] == "test"
    main_only = "github.event_name == 'push' && github.ref == 'refs/heads/main'"
    assert deploy["if"] == main_only
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert wf["permissions"] == {"contents": "read"}
    build = next(s for s in test["steps"] if s.get("run") == "make site")
    assert build["if"] == main_only and set(build["env"]) == {"SITE_URL", "REPO_URL"}
    # the environment captures/ was made in (results.log stamps the OS and Python version)
    assert test["container"] == "python:3.11.7-bookworm"


def test_actionlint_passes_the_workflow_and_fails_a_broken_one(tmp_path):
    ok = subprocess.run(
        [str(ACTIONLINT), str(WORKFLOW)], capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    broken = tmp_path / ".github" / "workflows" / "broken.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text(
        WORKFLOW.read_text().replace("needs: test", "needs: no-such-job"),
        encoding="utf-8",
    )
    bad = subprocess.run(
        [str(ACTIONLINT), str(broken)], capture_output=True, text=True, cwd=tmp_path
    )
    assert bad.returncode != 0 and "no-such-job" in bad.stdout, bad.stdout


def _make(*args: str) -> str:
    """What make would run (``make -n``), every target considered out of date (``-B``)."""
    proc = subprocess.run(
        ["make", "-n", "-B", *args], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_make_serve_takes_a_port_and_is_not_strict():
    out = _make("serve", "PORT=8123")
    serve = next(line for line in out.splitlines() if "mkdocs serve" in line)
    assert "--dev-addr 127.0.0.1:8123" in serve and "--strict" not in serve
    assert "127.0.0.1:8000" in _make("serve")


def test_set_up_shows_what_pip_installs():
    pips = [line for line in _make("setup").splitlines() if "pip install" in line]
    lock = [line for line in pips if "requirements" in line]
    assert len(lock) == 2 and not any(re.search(r"\s-q+\b", line) for line in lock), (
        lock
    )


def test_the_three_test_tiers():
    # the fast tier on two workers, without the site, the browser, fresh interpreters or transformers;
    # the site tier on two workers too (the session site is built once for both)
    assert re.search(
        r'pytest -q -n 2 --dist loadgroup -m "not site and not browser and not slow and not reference"$',
        _make("test-fast"),
        re.M,
    )
    assert re.search(
        r'pytest -q -n 2 --dist loadgroup -m "site and not browser and not slow and not reference"$',
        _make("test-site"),
        re.M,
    )
    everything = _make("test")
    # everything, on two workers, listing the slowest tests
    assert (
        re.search(r"pytest -q -n 2 --dist loadgroup --durations=30$", everything, re.M)
        and "actionlint" in everything
    )


@pytest.mark.site
@pytest.mark.slow
def test_a_published_build_names_its_address_and_links_its_repository(
    tmp_path, monkeypatch
):
    """With SITE_URL and REPO_URL, as the workflow builds: canonical links and the sitemap use the
    address, and the repository link is a plain link (no request to the host's API). Built as
    anyone would type ``mkdocs build`` in a clone (no ``SOURCE_DATE_EPOCH``), the sitemap is
    dated with the last commit, not with the day it runs (tests/test_reproducible.py's builds
    had this check before issue 29)."""
    # a small project: Module 3 alone (the address and the link are on every page)
    project = only_pages(copy_project(tmp_path / "project"), "module-3.md")
    when = "2021-03-04T05:06:07+00:00"
    git = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    for args in (
        ["init", "-q"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "x"],
    ):
        subprocess.run(["git", *args], cwd=project, env=git, check=True, timeout=120)
    site_url, repo_url = "https://example.org/aw/", "https://github.com/o/aw"
    monkeypatch.setenv("SITE_URL", site_url)
    monkeypatch.setenv("REPO_URL", repo_url)
    build_site(tmp_path / "out", project=project, SOURCE_DATE_EPOCH=None)
    page = (tmp_path / "out" / "module-3" / "index.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{site_url}module-3/">' in page
    sitemap = (tmp_path / "out" / "sitemap.xml").read_text()
    assert f"<loc>{site_url}module-3/</loc>" in sitemap
    assert sitemap.count("<lastmod>2021-03-04</lastmod>") == sitemap.count("<loc>"), (
        "the sitemap is not dated with the last commit (2021-03-04)"
    )
    link = re.search(r'<a href="https://github\.com/o/aw"[^>]*>', page)
    assert link and 'class="md-source"' in link.group(0)
    assert 'data-md-component="source"' not in page
