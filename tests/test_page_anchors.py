"""workshop_site/page_anchors.py: the anchors a render registered with autorefs, found by public
calls alone, are the ones autorefs holds for the page.

A small MkDocs project (Material, mkdocstrings) documents a two-module package whose function is
re-exported by the package (so mkdocstrings registers an alias too) next to an ordinary page. A
hook of the test's own, after each page's render, asks ``page_anchors.anchors`` and reads
autorefs' private maps, the oracle a test may read and the site's build may not: the two must be
the same anchors, with the same titles, primary or not.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

PACKAGE = {
    "__init__.py": '''
        """A tiny package."""
        from .core import softmax

        __all__ = ["softmax", "norm"]

        def norm(x: float) -> float:
            """The size of ``x``."""
            return abs(x)
        ''',
    "core.py": '''
        """The maths."""

        def softmax(x: float) -> float:
            """Weights from ``x``: :func:`norm` is near."""
            return x
        ''',
}
CONFIG = """
site_name: anchors
theme:
  name: material
plugins:
  - mkdocstrings:
      handlers:
        python:
          paths: [src]
          options:
            show_root_heading: true
            heading_level: 2
hooks:
  - probe.py
markdown_extensions:
  - toc:
      permalink: true
"""
PROBE = """
import json
from mkdocs.plugins import event_priority
from workshop_site import page_anchors

SEEN = {}


@event_priority(-100)
def on_page_content(html, page, config, files):
    autorefs = config.plugins["autorefs"]
    docs = config.plugins["mkdocstrings"]
    found = page_anchors.anchors(autorefs, docs.handlers, page)
    held = []
    for primary, urls in ((True, autorefs._primary_url_map), (False, autorefs._secondary_url_map)):
        for identifier, where in urls.items():
            for url in where:
                if url.startswith(page.url + "#"):
                    title = autorefs._title_map.get(url) if primary else None
                    held.append([identifier, url.split("#", 1)[1], title, primary])
    SEEN[page.url] = {"found": found, "held": held}
    return html


def on_post_build(config):
    with open(config.site_dir + "/../probe.json", "w") as f:
        json.dump(SEEN, f)
"""


def _project(root: Path) -> Path:
    (root / "src" / "tiny").mkdir(parents=True)
    for name, text in PACKAGE.items():
        (root / "src" / "tiny" / name).write_text(textwrap.dedent(text))
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# Home\n\n## A heading\n\nProse.\n")
    (root / "docs" / "api.md").write_text(
        "# API\n\n## The package\n\n::: tiny\n\n::: tiny.core\n"
    )
    (root / "mkdocs.yml").write_text(CONFIG)
    (root / "probe.py").write_text(PROBE)
    return root


def test_the_anchors_found_by_public_calls_are_the_ones_autorefs_holds(tmp_path):
    import json
    import os

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    root = _project(tmp_path / "project")
    cwd = os.getcwd()
    os.chdir(root)
    try:
        config = load_config(str(root / "mkdocs.yml"), site_dir=str(root / "site"))
        config.plugins.on_startup(command="build", dirty=False)
        build(config)
    finally:
        os.chdir(cwd)
    seen = json.loads((root / "probe.json").read_text())
    api, home = seen["api/"], seen[""]
    # an ordinary page registers nothing (mkdocstrings' autorefs scans no headings)
    assert home == {"found": [], "held": []}
    held = {tuple(a) for a in api["held"]}
    assert {tuple(a) for a in api["found"]} == held, api
    assert len(api["found"]) == len(held), "an anchor found twice"
    # what the oracle holds is what mkdocstrings registers: objects, and the alias of one
    names = {a[0] for a in held}
    assert {"tiny", "tiny.norm", "tiny.core", "tiny.core.softmax"} <= names, names
    assert ("tiny.softmax", "tiny.core.softmax", None, False) in held or (
        "tiny.core.softmax",
        "tiny.softmax",
        None,
        False,
    ) in held, held
    assert all(a[2] for a in held if a[3]), "a primary anchor without its title"
