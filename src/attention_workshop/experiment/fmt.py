"""The one number formatter: how every number on the site and in results.log is written.

Each function turns numbers into text in one house style. Chapters receive this module
as their ``Fmt`` (see :mod:`attention_workshop.chapters._section`), so results.log, the
pages, the JSON of the interactive pages and the exam all write a number the same way.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

__all__ = [
    "fixed",
    "num",
    "sci",
    "sci_html",
    "count",
    "plural",
    "flops",
    "signed",
    "minus",
    "vec",
    "short_vec",
    "short",
    "table",
]

MINUS = "\u2212"  # a true minus sign, as pages print negative numbers


def fixed(x: float, nd: int = 3) -> str:
    """``nd`` decimals, never ``-0.000``; infinities spelled ``inf`` and ``-inf``."""
    s = f"{float(x):.{nd}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def num(x: float, nd: int = 3) -> str:
    """Whole numbers bare (``2``), others to ``nd`` decimals (``1.414``), ``-inf`` spelled out."""
    x = float(x)
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    if x == round(x) and abs(x) < 1e15:
        return str(round(x))
    return fixed(x, nd)


def sci(x: float) -> str:
    """Scientific notation with 3 significant digits, as results.log writes it: ``2.22e-16``."""
    return f"{float(x):.2e}"


def sci_html(x: float) -> str:
    """Scientific notation for prose: ``2.22 × 10<sup>−16</sup>`` (the log keeps ``2.22e-16``)."""
    mantissa, exponent = sci(x).split("e")
    return f"{mantissa} × 10<sup>{int(exponent)}</sup>".replace(
        "<sup>-", f"<sup>{MINUS}"
    )


def count(n: int) -> str:
    """A count with thousands separators: ``28,311,552``."""
    return f"{int(n):,}"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 token``, ``2 tokens``, ``1,024 tokens``."""
    return f"{count(n)} {word if n == 1 else (many or word + 's')}"


def flops(n: int) -> str:
    """A FLOP count for people: ``3538944`` -> ``3.5 MFLOPs (3,538,944)``, ``420`` -> ``420 FLOPs``."""
    for size, unit in ((1e9, "GFLOPs"), (1e6, "MFLOPs"), (1e3, "kFLOPs")):
        if n >= size:
            return f"{n / size:.1f} {unit} ({n:,})"
    return f"{n} FLOPs"


def signed(x: float, nd: int = 3) -> str:
    """``nd`` decimals with an explicit sign: ``+0.123``, ``-0.456``, ``0.000``."""
    s = fixed(x, nd)
    return s if s.startswith("-") or float(s) == 0 else "+" + s


def minus(s: str) -> str:
    """Text as a page displays it: hyphen-minus signs become true minus signs (U+2212)."""
    return s.replace("-", MINUS)


def vec(v: Iterable[float], nd: int = 3) -> str:
    """A vector with every entry to ``nd`` decimals: ``[0.248, 0.248, 0.503]``."""
    return "[" + ", ".join(fixed(x, nd) for x in v) + "]"


def short_vec(v: Iterable[float], nd: int = 3) -> str:
    """A vector as it was given: ``[1, 0.5]``; long entries to ``nd`` decimals, ``-inf`` spelled out."""
    out = []
    for x in v:
        short = f"{float(x):g}"
        out.append(num(x, nd) if math.isinf(float(x)) or len(short) > nd + 2 else short)
    return "[" + ", ".join(out) + "]"


def short(x: float) -> str:
    """A number as briefly as Python's ``:g`` writes it (6 significant digits): ``1e-12``, ``0.5``, ``2``."""
    return f"{float(x):g}"


def table(
    M: np.ndarray | Sequence[Sequence[float | str]],
    rows: Sequence[str],
    cols: Sequence[str],
    nd: int = 3,
    corner: str = "",
    width: int | None = None,
    label_width: int | None = None,
) -> list[str]:
    """A matrix as fixed-width text lines: a header of column names, then one labelled row each.

    Numbers are written to ``nd`` decimals (text cells as they are), right-aligned in columns of
    ``width`` characters (default: wide enough for the numbers and the names); row labels are
    left-aligned in ``label_width`` characters (default: the longest label plus 2).
    """
    w = width or max(7, nd + 4, *(len(c) + 1 for c in cols))
    lw = label_width or max(len(corner), *(len(r) for r in rows)) + 2
    out = [corner.ljust(lw) + "".join(c.rjust(w) for c in cols)]
    for r, vals in zip(rows, M):
        cells = (v if isinstance(v, str) else fixed(v, nd) for v in vals)
        out.append(r.ljust(lw) + "".join(c.rjust(w) for c in cells))
    return out
