"""MkDocs hook: the math font the site serves holds only the glyphs its formulas use.

The full Latin Modern Math (``docs/assets/fonts/latinmodern-math.otf``, 734 KB) stays in docs/
and out of the site. After the build, every character of every ``<math>`` element in the site's
pages and JSON (the widgets draw formulas too) is gathered, and the font is cut to them and to
what OpenType reaches from them (the ``MATH`` table's stretchy variants included) as
``assets/fonts/latinmodern-math-subset.woff`` (``build.fonts``; kept by the build's cache),
which ``docs/assets/workshop.css`` names.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import _workshop_common as common
from mkdocs.exceptions import PluginError

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files


def on_files(files: Files, config: MkDocsConfig) -> Files:
    fonts = common.fonts()
    full = files.get_file_from_path(fonts.FONT)
    if full is None:
        raise PluginError(f"docs/{fonts.FONT} is missing: the formulas need it")
    # the site serves the subset written after the build, never the whole font
    files.remove(full)
    return files


def on_post_build(config: MkDocsConfig) -> None:
    fonts = common.fonts()
    site = Path(config.site_dir)
    chars: set[str] = set()
    for path in sorted([*site.rglob("*.html"), *site.rglob("*.json")]):
        chars |= fonts.math_text(path.read_text(encoding="utf-8", errors="replace"))
    font = Path(config.docs_dir, fonts.FONT).read_bytes()
    out = site / fonts.SUBSET
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(common.cache().call(fonts.subset, font, "".join(sorted(chars))))
