"""The workshop's experiment: every chapter's sections, in teaching order, written to results.log.

:func:`run` runs each section of :data:`attention_workshop.chapters.sections.SECTIONS` with a
:class:`RunContext` (the sentence, seed 0, the number formatter, the PyTorch references),
then draws the figures from the results. It is deterministic: no clocks, no randomness
that is not seeded, so the same environment writes the same bytes. :func:`write` puts
results.log, the figures and their CSVs on disk, all or nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..chapters import Section, may_differ
from ..chapters.sections import SECTIONS
from ..toy import SENT_RIVER, parse_sentence
from . import atomic, figures, fmt
from .results import Results, Span
from .torch_refs import TorchReferences, versions

__all__ = [
    "FIRST_LINE",
    "MAX_WORDS",
    "SEED",
    "Span",
    "Results",
    "RunContext",
    "check_keys",
    "check_sentence",
    "run",
    "write",
]

SEED = 0
#: The first line of every results.log.
FIRST_LINE = "# attention-workshop results.log"
#: The longest sentence the experiment takes. Its tables and heatmaps are read word by word;
#: past this they stop teaching, and the run's time and memory keep growing.
MAX_WORDS = 32


class RunContext:
    """What a section writes into (:class:`attention_workshop.chapters.Context`)."""

    fmt = fmt
    refs = TorchReferences()

    def __init__(self, results: Results, key: str, seed: int = SEED) -> None:
        self._r, self._key, self._seed = results, key, seed
        results.show[key] = {}

    @property
    def sentence(self) -> tuple[str, ...]:
        return self._r.sentence

    @property
    def seed(self) -> int:
        return self._seed

    def log(self, *lines: str) -> None:
        self._r.lines.extend(("  " + line).rstrip() for line in lines)

    def show(self, **values: str) -> None:
        self._r.show[self._key].update(values)


_KEY = re.compile(r"[a-z][a-z0-9_]*")


def check_keys(sections: Sequence[Section[Any]]) -> None:
    """Refuse section keys that cannot label results.log: each is unique, lower case, digits and ``_``."""
    seen: set[str] = set()
    for s in sections:
        if not _KEY.fullmatch(s.key):
            raise ValueError(
                f"section key {s.key!r} ({s.title!r}): use lower case letters, digits and _"
            )
        if s.key in seen:
            raise ValueError(
                f"two sections share the key {s.key!r}: each section's key is its label in results.log"
            )
        seen.add(s.key)


def check_sentence(sentence: Sequence[str] | str) -> tuple[str, ...]:
    """The sentence's words, lower-cased, once they are known to be fit for a run.

    Raises:
        ValueError: the sentence is empty, has more than :data:`MAX_WORDS` words, or has
            a word the toy vocabulary does not know; the message says what to change.
    """
    text = sentence if isinstance(sentence, str) else " ".join(sentence)
    count = len(text.split())
    if count > MAX_WORDS:
        raise ValueError(
            f"the sentence has {count} words; the experiment takes at most {MAX_WORDS}: shorten it"
        )
    return parse_sentence(text)


def run(sentence: Sequence[str] | str = SENT_RIVER) -> Results:
    """Run every section in order and return the results (nothing is written to disk).

    Args:
        sentence: words of the toy vocabulary (a list, or one string), at most
            :data:`MAX_WORDS` of them.

    Raises:
        ValueError: as :func:`check_sentence`, before any work.
    """
    words = parse_sentence(
        sentence if isinstance(sentence, str) else " ".join(sentence)
    )
    check_keys(SECTIONS)

    words = check_sentence(sentence)
    r = Results(sentence=words)
    v = r.versions = versions()
    r.lines.append(FIRST_LINE)
    r.lines.extend(f"# {name}: {v[name]}" for name in may_differ.STAMPS)
    r.lines.append(f'# seed: {SEED}; sentence: "{" ".join(words)}"')
    for s in SECTIONS:
        r.lines.append("")
        # The label is the section's key: adding a section changes only its own lines.
        start, label = len(r.lines) + 1, s.key
        r.lines.append(f"[{label}] {s.title}")
        ctx = RunContext(r, s.key)
        r.data[s.key] = s.run(ctx)
        r.sections[s.key] = Span(s.key, label, s.title, start, len(r.lines))
        r.show[s.key] = {"label": label, **r.show[s.key]}
    figures.draw(r)
    return r


def write(results: Results, out_dir: str | os.PathLike[str]) -> list[Path]:
    """Write results.log, the figures and their CSVs into ``out_dir``, all or nothing.

    The whole set appears at once (:func:`attention_workshop.experiment.atomic.write_all`): the
    folder holds the previous run's files until the new ones replace them in one rename.

    Raises:
        attention_workshop.experiment.atomic.OutDirError: ``out_dir`` holds files this run does
            not write (it is replaced as a whole), or a file stands in its way.
    """
    files = {"results.log": results.text, **results.figures, **results.tables}
    return atomic.write_all(files, out_dir)
