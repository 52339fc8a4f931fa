"""What the site build asks of the package: the run of this build, cached, and where it came from.

Snippets in ``snippets/`` and the MkDocs hooks call :func:`results` (the experiment runs
once per build, its claims verified); :mod:`.render` and :mod:`.tables` turn the results
into Markdown; :mod:`.site` gathers the generated files and the prose's values.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from attention_workshop.experiment import cache
from attention_workshop.experiment import runner as experiment
from attention_workshop.experiment.results import Results
from attention_workshop.toy import SENT_RIVER

from . import claims

__all__ = [
    "RUNS",
    "LOG_PAGE",
    "GENERATED",
    "CAPTURE",
    "results",
    "build_info",
    "capture_header",
    "stale_captures",
    "results_key",
]

#: The results.log page (Markdown source path, for links) and the folder of generated files.
LOG_PAGE = "results-log.md"
GENERATED = "generated"

#: How many times the experiment has run in this process (the build runs it once).
RUNS = 0

_PACKAGE_DIR = (
    Path(__file__).resolve().parents[1] / "attention_workshop"
)  # src/attention_workshop
_REPO_DIR = _PACKAGE_DIR.parent.parent
#: The committed capture of the experiment.
CAPTURE = _REPO_DIR / "captures" / "results.log"


def _verified_run(sentence: tuple[str, ...]) -> Results:
    global RUNS
    RUNS += 1
    # kept on disk apart too (experiment/cache.py): a run whose claims are checked again later
    # (the tests' session run, a build after a claim's code changed) is read, not made again
    r = cache.call(experiment.run, sentence)
    claims.verify(r)
    return r


def results_key(sentence: Sequence[str] = SENT_RIVER) -> str:
    """The key the run of :func:`results` is kept under: the bytes of the code this module
    imports (the experiment and the claims), the package's data files and the environment."""
    return cache.key("experiment", tuple(sentence), cache.module_digest(__name__))


@lru_cache(maxsize=4)
def _run(sentence: tuple[str, ...]) -> Results:
    # On disk (experiment/cache.py), under results_key: a hit is a run whose claims held, and
    # imports neither PyTorch nor Matplotlib.
    return cache.get(
        "experiment", results_key(sentence), lambda: _verified_run(sentence)
    )


def results(sentence: Sequence[str] = SENT_RIVER) -> Results:
    """The experiment's results for this build: run once, claims verified, then kept.

    Kept in memory for this import of the package (each build imports it afresh,
    hooks/_workshop_common.py); in a site build also on disk, keyed on the bytes of the code it
    runs and the environment (:mod:`.cache`).
    """
    return _run(tuple(sentence))


def _git(*args: str) -> str:
    try:
        out = subprocess.run(
            ["git", *args],
            cwd=_REPO_DIR,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _commit() -> tuple[str, bool]:
    """The commit checked out, and whether tracked files differ from it (asked of git once per build:
    the hooks import the package afresh for each build)."""
    global _COMMIT
    if _COMMIT is None:
        commit = _git("rev-parse", "HEAD")
        _COMMIT = (commit, bool(_git("status", "--porcelain", "--untracked-files=no")))
    return _COMMIT


_COMMIT: tuple[str, bool] | None = None


def build_info() -> dict[str, str]:
    """Versions of the tools this site was built with, and the commit it was built from."""
    from importlib.metadata import version

    commit, dirty = _commit()
    # the versions the run stamped in results.log (a cached run has them without importing torch)
    info = dict(results().versions)
    info["commit"] = (
        (commit[:12] + (" with uncommitted changes" if dirty else ""))
        if commit
        else "unknown (not a git checkout)"
    )
    info["commit_full"] = commit or "unknown"
    for dist in ("mkdocs", "mkdocs-material", "markdown-exec", "attention-workshop"):
        info[dist] = version(dist)
    return info


def capture_header() -> str:
    """The committed capture's stamp (its ``#`` lines) and whether this build's log matches it byte for byte."""
    if not CAPTURE.exists():
        return (
            '!!! warning "No committed capture"\n'
            "    `captures/results.log` is missing: run `make captures` and commit it.\n"
        )
    text = CAPTURE.read_text(encoding="utf-8")
    stamp = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    same = text == results().text
    verdict = (
        "This build ran the experiment again and its log is **byte for byte identical** to the committed capture."
        if same
        else "This build's log **differs** from the committed capture: the code changed since the capture was "
        "made (run `make captures`), or this machine's versions differ from the lock."
    )
    return f"```text\n{stamp}\n```\n\n{verdict}\n"


def stale_captures() -> list[str]:
    """How the committed captures differ from this build's run, one line per file: a file that
    differs (results.log: from which line), one the run writes that captures/ lacks, one captures/
    holds that the run no longer writes. Empty when captures/ is this run, byte for byte."""
    r = results()
    built = {"results.log": r.text, **r.figures, **r.tables}
    folder = CAPTURE.parent
    have = {
        p.name: p.read_text(encoding="utf-8")
        for p in (sorted(folder.iterdir()) if folder.is_dir() else [])
        if p.is_file()
    }
    out = []
    for name, text in built.items():
        if name not in have:
            out.append(f"captures/{name} is missing")
        elif have[name] != text:
            old, new = have[name].split("\n"), text.split("\n")
            line = next(
                (n for n, (a, b) in enumerate(zip(old, new), 1) if a != b),
                min(len(old), len(new)) + 1,
            )
            out.append(f"captures/{name} differs from this build's from line {line}")
    out += [
        f"captures/{name} is no longer written by the experiment"
        for name in sorted(have.keys() - built.keys())
    ]
    return out
