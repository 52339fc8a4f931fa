"""Two results.log texts compared line by line, allowing only what may differ between computers.

:func:`differences` lists every line that differs, and says of each whether it may: an
environment line at the top (a version stamp), or a rounding-level figure within the bound
its claim checks, both declared in :mod:`attention_workshop.chapters.may_differ`. Any other
difference is one the run must not have. :func:`report` writes what the command line prints:
``identical``, or each differing line (its number, the expected line and the line got) and a
verdict, with the exit status (0 unless a line differs that may not).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..chapters.may_differ import FIGURES, STAMPS, environment_line
from .fmt import plural, sci
from .runner import FIRST_LINE

__all__ = [
    "ENVIRONMENT",
    "ROUNDING",
    "PAST_BOUND",
    "Difference",
    "declared",
    "differences",
    "bound_text",
    "read_log",
    "report",
]

#: What a differing line is: a version stamp, a figure within its bound, a figure past it.
ENVIRONMENT, ROUNDING, PAST_BOUND = "environment", "rounding", "past bound"
#: The most differing lines :func:`report` lists one by one.
SHOWN = 20

_LABEL = re.compile(r"\[([a-z][a-z0-9_]*)\] ")


@dataclass(frozen=True)
class Difference:
    """One line that differs: ``line`` (1-based) of section ``[section]`` ("" above the first).

    ``expected`` or ``got`` is None where that text has no such line. ``kind`` is
    :data:`ENVIRONMENT`, :data:`ROUNDING` or :data:`PAST_BOUND` for a declared line, ""
    for any other; ``bound`` is a figure's bound.
    """

    line: int
    section: str
    expected: str | None
    got: str | None
    kind: str = ""
    bound: float | None = None

    @property
    def allowed(self) -> bool:
        """True when the line may differ: a version stamp, or a figure within its bound."""
        return self.kind in (ENVIRONMENT, ROUNDING)


def _sections(lines: list[str]) -> list[str]:
    """The key of the section each line stands in ("" for the lines above the first)."""
    out, key = [], ""
    for line in lines:
        m = _LABEL.match(line)
        key = m.group(1) if m else key
        out.append(key)
    return out


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _classify(n: int, section: str, expected: str, got: str) -> Difference:
    """Why the two versions of line ``n`` may differ, or that they may not."""
    same_stamp = expected.split(":", 1)[0] == got.split(":", 1)[0]
    if (
        section == ""
        and environment_line(expected)
        and environment_line(got)
        and same_stamp
    ):
        return Difference(n, section, expected, got, ENVIRONMENT)
    for fig in FIGURES:
        if fig.section != section or _indent(expected) != _indent(got):
            continue
        e, g = fig.value(expected), fig.value(got)
        if e is not None and g is not None:
            within = e <= fig.bound and g <= fig.bound
            kind = ROUNDING if within else PAST_BOUND
            return Difference(n, section, expected, got, kind, fig.bound)
    return Difference(n, section, expected, got)


def differences(expected: str, got: str) -> list[Difference]:
    """Every line of ``got`` that differs from the same line of ``expected``, classified."""
    a, b = expected.split("\n"), got.split("\n")
    keys = _sections(a if len(a) >= len(b) else b)
    out = []
    for i in range(max(len(a), len(b))):
        e = a[i] if i < len(a) else None
        g = b[i] if i < len(b) else None
        if e == g:
            continue
        if e is None or g is None:
            out.append(Difference(i + 1, keys[i], e, g))
        else:
            out.append(_classify(i + 1, keys[i], e, g))
    return out


def declared(text: str) -> list[tuple[int, str, str, float | None]]:
    """Every line of ``text`` that may differ on another computer: its number, its section, the
    line, and its bound (None for a version stamp)."""
    lines = text.split("\n")
    out: list[tuple[int, str, str, float | None]] = []
    for n, (line, key) in enumerate(zip(lines, _sections(lines)), 1):
        if key == "" and environment_line(line):
            out.append((n, key, line, None))
        out += [
            (n, key, line, f.bound)
            for f in FIGURES
            if f.section == key and f.value(line) is not None
        ]
    return out


def _shown(line: str | None) -> str:
    """A line as the report prints it: control characters escaped, a missing line said."""
    if line is None:
        return "(no such line: the text ends before it)"
    return (
        line.encode("unicode_escape").decode("ascii")
        if not line.isprintable()
        else line
    )


def bound_text(bound: float) -> str:
    """A figure's bound as the report and the pages write it: ``8.88e-16``, ``4``."""
    return sci(bound) if bound < 0.01 else f"{bound:g}"


def _why(d: Difference) -> str:
    if d.kind == ENVIRONMENT:
        return "a version stamp: may differ on another system"
    bound = bound_text(d.bound or 0.0)
    if d.kind == ROUNDING:
        return f"a rounding-level figure, within its bound {bound}"
    if d.kind == PAST_BOUND:
        return f"a rounding-level figure PAST its bound {bound}"
    return "may not differ"


def report(diffs: list[Difference], expected: str, got: str) -> tuple[str, int]:
    """What the command prints for ``diffs`` between the texts named ``expected`` and ``got``,
    and its exit status: 0 when every differing line may differ, 1 otherwise."""
    if not diffs:
        return "identical", 0
    lines = [f"{got} differs from {expected} in {plural(len(diffs), 'line')}:"]
    for d in diffs[:SHOWN]:
        section = f" [{d.section}]" if d.section else ""
        lines += [
            f"line {d.line}{section}: {_why(d)}",
            f"  expected: {_shown(d.expected)}",
            f"  got:      {_shown(d.got)}",
        ]
    if len(diffs) > SHOWN:
        lines.append(f"... and {plural(len(diffs) - SHOWN, 'more line')}")
    wrong = [d for d in diffs if not d.allowed]
    if wrong:
        seed = [d for d in wrong if (d.expected or "").startswith("# seed: ")]
        if seed:
            lines.append(
                f"(line {seed[0].line}: another seed or sentence; "
                "for a log of another sentence, run with --sentence too)"
            )
        lines.append(
            f"{len(wrong)} of them may not differ: {got} does not reproduce {expected}"
        )
        return "\n".join(lines), 1
    stamps = ", ".join(STAMPS)
    lines.append(
        f"every difference is a version stamp ({stamps}) or a rounding-level figure "
        f"within its bound: every other line of {expected} is reproduced"
    )
    return "\n".join(lines), 0


def read_log(path: str | Path) -> str:
    """The text of the results.log at ``path``.

    Raises:
        ValueError: the file cannot be read, is not UTF-8 text, or is not a results.log;
            the message names the file.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise ValueError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a results.log: it is not UTF-8 text") from None
    if text.split("\n", 1)[0].rstrip("\r") != FIRST_LINE:
        raise ValueError(
            f"{path} is not a results.log: its first line is not {FIRST_LINE!r}"
        )
    return text
