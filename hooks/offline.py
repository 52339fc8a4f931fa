"""MkDocs hook: nothing from elsewhere. markdown-exec's pyodide files never reach the site.

Its pyodide stylesheet ``@import``s a stylesheet from a CDN. No page here runs pyodide (mkdocs.yml
leaves the language out of markdown-exec's list), so this is a second guard: the assets leave every
page's ``<head>`` and the files leave the site.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from jinja2 import Environment
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files

_PYODIDE = ("_markdown_exec_pyodide.css", "_markdown_exec_pyodide.js")


# after markdown-exec's on_env, which adds its assets to every page
@event_priority(-100)
def on_env(env: Environment, config: MkDocsConfig, files: Files) -> Environment:
    for kind in ("extra_css", "extra_javascript"):
        config[kind][:] = [
            a for a in config[kind] if "_markdown_exec_pyodide" not in str(a)
        ]
    return env


def on_post_build(config: MkDocsConfig) -> None:
    for name in _PYODIDE:
        (Path(config.site_dir) / "assets" / name).unlink(missing_ok=True)
