"""MkDocs hook: the experiment, run once per build, and the files it writes into the site.

- Every build starts from a fresh import of the package (``mkdocs serve`` shows an edit to src/
  or snippets/ on the next reload), then runs the experiment once and verifies every claim the
  pages make: a false claim or a broken experiment fails the build, said plainly.
- results.log, the figures, the CSVs and the interactive pages' JSON become files of the site
  under ``generated/``.
- Reproducible by default: ``SOURCE_DATE_EPOCH`` (the sitemap's dates) is the last commit's time
  unless it is set.
"""

from __future__ import annotations

import logging
import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import _workshop_common as common
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files

log = logging.getLogger("mkdocs.hooks.experiment")


def _source_date_epoch(config: MkDocsConfig) -> str:
    """The last commit's time (seconds since 1970), or "0" outside a git checkout."""
    try:
        out = subprocess.run(
            ["git", "log", "-1", "--format=%ct"],
            cwd=Path(config.config_file_path).parent,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "0"
    return out if out.isdigit() else "0"


# the first thing a build does: every later step sees today's package
@event_priority(100)
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    # Sitemap dates come from SOURCE_DATE_EPOCH (else today): a plain `mkdocs build` is reproducible too.
    os.environ.setdefault("SOURCE_DATE_EPOCH", _source_date_epoch(config))
    common.fresh_pages()
    # the build keeps what is expensive and pure on disk, keyed on all it depends on (FRESH=1: recompute)
    common.cache().enable(build=True)
    common.pages().prehash_large_files()  # the model file's copy hashed as the build goes on
    return config


def on_pre_build(config: MkDocsConfig) -> None:
    pages = common.pages()
    try:
        r = pages.results()
    # a false claim or a broken experiment stops the build, said plainly
    except Exception as err:
        raise PluginError(
            f"attention_workshop: the experiment or its claims failed: {err}"
        ) from err
    runs = pages.runs()
    log.info(
        "attention_workshop: experiment ran %d time(s)%s; %d sections, %d log lines, claims verified",
        runs,
        "" if runs else " (its verified run read from the cache)",
        len(r.sections),
        len(r.lines),
    )


def on_files(files: Files, config: MkDocsConfig) -> Files:
    from workshop_site.linked import into_site, link_known

    site = common.pages()
    for path, text in site.generated_files(large=False).items():
        if into_site(config.site_dir, path, text):  # MkDocs' copy of it does nothing
            files.append(File.generated(config, path, abs_src_path=_in(config, path)))
        else:
            files.append(File.generated(config, path, content=text))
    # the model file: its copy in the cache linked when it has the bytes' hash (read once)
    for path, (sha256, make) in site.large_files().items():
        if link_known(config.site_dir, path, sha256, make):
            files.append(File.generated(config, path, abs_src_path=_in(config, path)))
        else:
            files.append(File.generated(config, path, content=make()))
    return files


def _in(config: MkDocsConfig, path: str) -> str:
    return os.path.join(config.site_dir, path)


# after every other post-build step: code run outside a build (a test, the CLI) never uses the cache
@event_priority(-100)
def on_post_build(config: MkDocsConfig) -> None:
    cache = common.cache()
    hits, misses = (sum(n[i] for n in cache.STATS.values()) for i in (0, 1))
    said = "attention_workshop: cache %s: %d result(s) read, %d computed"
    log.info(said, "FRESH" if cache.fresh() else cache.folder(), hits, misses)
    for entry in cache.DAMAGED:
        log.info(
            "attention_workshop: a damaged cache entry was computed again: %s", entry
        )
    log.debug("attention_workshop: cache by kind (read, computed): %s", cache.STATS)
    cache.enable(False)


def on_build_error(error: Exception) -> None:
    common.cache().enable(False)
