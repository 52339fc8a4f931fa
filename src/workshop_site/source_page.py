"""The Source page: every module the experiment runs, found by walking its imports.

:func:`experiment_modules` starts at ``attention_workshop.experiment`` (what
``python -m attention_workshop.experiment`` runs) and follows every import inside the
package, so a module the experiment starts to import shows up on the page by itself.
:func:`source_tabs` writes one tab per module, its text read from the file; :func:`missing`
is the build's check that the built page shows each of them, byte for byte; :func:`deferred`
puts every listing but the first of each group inside ``<noscript>``, so that the page opens
light (docs/assets/source.js puts a listing in its tab when the tab is first shown).
"""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path

from attention_workshop.experiment.import_closure import PACKAGE, module_path, modules

__all__ = [
    "ENTRY",
    "LAYERS",
    "experiment_modules",
    "layer_of",
    "source_tabs",
    "missing",
    "deferred",
]

#: Where the walk starts: the module ``python -m attention_workshop.experiment`` runs.
ENTRY = f"{PACKAGE}.experiment.__main__"
#: The page's three groups of tabs, in the order the layers build on each other.
LAYERS = ("maths", "chapters", "experiment")

_PACKAGE_DIR = (
    Path(__file__).resolve().parents[1] / "attention_workshop"
)  # src/attention_workshop
_SRC_DIR = _PACKAGE_DIR.parent


def _path(module: str) -> Path | None:
    """The file of a package module (``__init__.py`` for a subpackage), or None if there is none."""
    return module_path(module, _SRC_DIR)


def experiment_modules() -> list[str]:
    """Every package module the experiment's command line imports, its packages' ``__init__`` included,
    ordered by layer (maths, chapters, experiment; the command first in its layer), then by file path
    (found by the one import walker, :mod:`.import_closure`)."""
    seen = modules(ENTRY, _SRC_DIR)
    # the command comes first in its layer: it is where the program starts
    return sorted(
        seen, key=lambda m: (LAYERS.index(layer_of(m)), m != ENTRY, str(_path(m)))
    )


def layer_of(module: str) -> str:
    """``maths``, ``chapters`` or ``experiment``: the group a module's tab is in."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in ("chapters", "experiment"):
        return parts[1]
    return "maths"


def relative(module: str) -> str:
    """A module's file as the page names it: ``src/attention_workshop/chapters/module_0.py``."""
    path = _path(module)
    assert path is not None, module
    return path.relative_to(_SRC_DIR.parent).as_posix()


def source_tabs(layer: str) -> str:
    """Markdown: one tab per module of ``layer``, each the module's file in a numbered code block."""
    if layer not in LAYERS:
        raise ValueError(f"no layer {layer!r}; layers: {', '.join(LAYERS)}")
    out = []
    for module in experiment_modules():
        if layer_of(module) != layer:
            continue
        path = relative(module)
        # a tab's label is Markdown: __init__ would turn bold
        label = path.removeprefix(f"src/{PACKAGE}/").replace("_", "\\_")
        code = (_SRC_DIR.parent / path).read_text(encoding="utf-8").rstrip("\n")
        body = "\n".join(f"    {line}" if line else "" for line in code.split("\n"))
        out.append(
            f'=== "{label}"\n\n    ```python title="{path}" linenums="1"\n{body}\n    ```\n'
        )
    # the tabs' labels wrap instead of scrolling sideways (workshop.css): every file's name in view
    return (
        '<div class="workshop-source-tabs" markdown="1">\n\n'
        + "\n".join(out)
        + "\n</div>\n"
    )


_BLOCK = re.compile(
    r'<span class="filename">(?P<title>[^<]+)</span>.*?<td class="code">(?P<code>.*?)</td>',
    re.S,
)


# the page's HTML is the same from one serve rebuild to the next unless the package changed
@functools.lru_cache(maxsize=2)
def _shown(page_html: str) -> dict[str, str]:
    """Each code block's title and text."""
    return {
        html.unescape(m.group("title")).strip(): html.unescape(
            re.sub(r"<[^>]+>", "", m.group("code"))
        )
        for m in _BLOCK.finditer(page_html)
    }


def missing(page_html: str) -> list[str]:
    """The experiment's modules the built Source page does not show exactly as their files are.

    A module counts as shown when a code block titled with its path holds its file's text.
    """
    shown = _shown(page_html)
    out = []
    for module in experiment_modules():
        path = relative(module)
        text = (_SRC_DIR.parent / path).read_text(encoding="utf-8")
        if shown.get(path, "").rstrip("\n") != text.rstrip("\n"):
            out.append(path)
    return out


#: A tab's listing: the whole code block hooks/tables.py named, up to the end of its table.
_TAB = re.compile(
    r'(<div class="tabbed-block">\n)(<div class="language-python highlight".*?</table></div>)',
    re.S,
)
#: What wraps a listing that waits for its tab (docs/assets/source.js looks for the class).
WAITING = '<noscript class="workshop-listing">'


def deferred(page_html: str) -> str:
    """The Source page with every listing but the first of each group of tabs inside
    ``<noscript class="workshop-listing">``.

    A browser that runs scripts keeps a ``<noscript>``'s content as one piece of text, not as
    elements: the page opens with 3 listings in its document instead of every module's (57,795
    elements in all, nearly all of them Pygments' spans in tabs nobody had opened), and
    docs/assets/source.js makes a listing elements the first time its tab is shown. A browser
    without scripts reads the ``<noscript>`` as the page's own markup: every tab holds its
    listing, as before. The page's text is the same either way (:func:`missing` reads it).
    """
    head, sep, rest = page_html.partition('<div class="workshop-source-tabs">')
    if not sep:
        return page_html
    groups = rest.split('<div class="tabbed-content">')
    for n, group in enumerate(groups[1:], 1):
        first = _TAB.search(group)
        if first is None:
            continue
        later = _TAB.sub(rf"\1{WAITING}\2</noscript>", group[first.end() :])
        groups[n] = group[: first.end()] + later
    return head + sep + '<div class="tabbed-content">'.join(groups)
