"""What one run of the experiment produced: results.log's lines, where each section stands,
the sections' typed results, the values the prose quotes, and the figures."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..chapters import Section

__all__ = ["Span", "Results"]

R = TypeVar("R")


@dataclass(frozen=True)
class Span:
    """Where a section stands in results.log: lines ``start`` to ``end`` (1-based, inclusive)."""

    key: str
    label: str
    title: str
    start: int
    end: int


@dataclass
class Results:
    """Everything one run produced: the log's lines, where each section stands, its typed results,
    the values the prose quotes, and the figures."""

    sentence: tuple[str, ...]
    lines: list[str] = field(default_factory=list)
    sections: dict[str, Span] = field(default_factory=dict)
    # section key -> that section's typed result
    data: dict[str, Any] = field(default_factory=dict)
    show: dict[str, dict[str, str]] = field(default_factory=dict)
    figures: dict[str, str] = field(default_factory=dict)  # file name -> SVG text
    tables: dict[str, str] = field(default_factory=dict)  # file name -> CSV text
    # the versions stamped at the top of results.log (os, python, numpy, torch, matplotlib)
    versions: dict[str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The whole results.log, as written to disk."""
        return "\n".join(self.lines) + "\n"

    def __getitem__(self, section: Section[R]) -> R:
        """The typed result of a section: ``results[module_3.CAUSAL].weights``."""
        result: R = self.data[section.key]
        return result

    def section(self, key: str) -> Span:
        """Where the section with this key stands; a ``KeyError`` names the keys there are."""
        try:
            return self.sections[key]
        except KeyError:
            raise KeyError(
                f"no section {key!r} in results.log; sections: {', '.join(self.sections)}"
            ) from None

    def excerpt(self, key: str) -> list[str]:
        """The lines of one section, exactly as they stand in results.log."""
        s = self.section(key)
        return self.lines[s.start - 1 : s.end]
