"""``make site``: a strict build that replaces ``site/`` only when it succeeded.

``python -m workshop_site.publish [SITE_DIR]`` runs ``mkdocs build --strict`` in a
child process, into a temporary folder beside ``SITE_DIR`` (default ``site``). That folder
replaces ``SITE_DIR`` in one rename (:func:`attention_workshop.experiment.atomic.replace_folder`)
only when the build exited 0 *and* wrote its completion marker, which hooks/publish.py writes
as a build's very last step: a build that vanished half-way (a snippet calling ``os._exit(0)``)
never counts. Otherwise ``SITE_DIR`` is left as it was, the last good build, and the
temporary folder is removed.

The build is ``FRESH=1``: every result is computed again, none is read from the build's cache
(:mod:`.cache`), so what is published (``make site``, the GitHub workflow) never comes from it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from attention_workshop.experiment.atomic import OutDirError, replace_folder

__all__ = ["MARKER", "BuildFailed", "build_into", "publish", "main"]

ROOT = Path(__file__).resolve().parents[2]
#: The environment variable that names the completion marker (read by hooks/publish.py).
MARKER = "ATTENTION_WORKSHOP_BUILD_MARKER"


class BuildFailed(RuntimeError):
    """The strict build failed, or stopped before its end."""


def build_into(dest: Path, project: Path = ROOT) -> None:
    """``FRESH=1 mkdocs build --strict`` of ``project`` into ``dest``; its output goes to this terminal.

    Raises:
        BuildFailed: the build exited non-zero, or exited without reaching its end.
    """
    with tempfile.TemporaryDirectory(prefix="attention-workshop-build-") as tmp:
        marker = Path(tmp) / "complete"
        env = {
            **os.environ,
            MARKER: str(marker),
            "NO_MKDOCS_2_WARNING": "1",
            "FRESH": "1",
        }
        # GENERATOR=properdocs: the same build by ProperDocs, the maintained fork of MkDocs 1.6
        generator = os.environ.get("GENERATOR") or "mkdocs"
        cmd = [sys.executable, "-m", generator, "build", "--strict"]
        proc = subprocess.run([*cmd, "--site-dir", str(dest)], cwd=project, env=env)
        if proc.returncode != 0:
            raise BuildFailed(f"the strict build failed (exit code {proc.returncode})")
        if not marker.is_file():
            raise BuildFailed(
                "the build stopped before its end without an error (a snippet that calls "
                "os._exit?): nothing it wrote counts"
            )


def publish(site_dir: Path = ROOT / "site", project: Path = ROOT) -> None:
    """Build the site and, only if that succeeded, put it at ``site_dir`` in one step.

    Raises:
        BuildFailed: as :func:`build_into`; ``site_dir`` is unchanged.
        OutDirError: ``site_dir`` holds files but no ``index.html`` (not a site).
    """
    site = Path(site_dir)
    if site.is_dir() and any(site.iterdir()) and not (site / "index.html").is_file():
        raise OutDirError(
            f"{site} holds files but no index.html, so it is not a built site; "
            "it would be replaced as a whole: name another folder"
        )
    replace_folder(site, lambda tmp: build_into(tmp, project))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    site = Path(args[0] if args else "site")
    try:
        publish(site)
    except (BuildFailed, OutDirError) as err:
        print(
            f"error: {err}; {site} is unchanged (the last good build)", file=sys.stderr
        )
        return 1
    print(f"published the strict build into {site}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
