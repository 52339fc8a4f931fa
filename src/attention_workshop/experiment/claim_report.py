"""How a false claim is reported: its sentence, the value the build measured, and the pages that state it.

``verify`` (:mod:`.claims`) lists each false claim with :func:`describe`::

      - causal.first_row_on_itself: the first causal row puts all its weight on itself
          measured: [0.452, 0.274, 0.274]
          stated on: docs/module-3.md

The measured value is the claim's own ``measure`` when it has one; otherwise the fields of the
result that its test reads, found by letting the test read a recording stand-in of the result.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..chapters import Claim
from . import sources

__all__ = ["describe", "measured", "show"]

_LIMIT = 400  # characters of one measured value in a message


def show(value: object) -> str:
    """A value as a message prints it: arrays and floats to every digit that tells them apart, cut at 400 characters."""
    if isinstance(value, (float, np.floating)):
        text = repr(float(value))
    elif isinstance(value, (np.ndarray, list, tuple)) and _numeric(value):
        text = np.array2string(
            np.asarray(value),
            separator=", ",
            threshold=64,
            formatter={"float_kind": lambda x: repr(float(x))},
        )
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = (f.name for f in dataclasses.fields(value))
        text = ", ".join(f"{n}={show(getattr(value, n))}" for n in fields)
    else:
        text = repr(value)
    text = " ".join(text.split())
    return text if len(text) <= _LIMIT else text[: _LIMIT - 1] + "…"


def _numeric(value: Any) -> bool:
    try:
        return np.asarray(value).dtype.kind in "biuf"
    except (ValueError, TypeError):
        return False


class _Reads:
    """A stand-in for a result that notes each field (or item) a claim's test reads, in order."""

    def __init__(self, subject: Any) -> None:
        self._subject = subject
        self._read: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._subject, name)
        self._read.setdefault(name, value)
        return value

    def __getitem__(self, key: Any) -> Any:
        value = self._subject[key]
        self._read.setdefault(f"[{key!r}]", value)
        return value


def measured(claim: Claim[Any], subject: Any) -> str:
    """What the build measured for ``claim``: its ``measure``, else the fields its test reads."""
    try:
        if claim.measure is not None:
            return show(claim.measure(subject))
        reads = _Reads(subject)
        claim.test(reads)
    except Exception as err:  # the message must still be written: say what went wrong
        return f"(could not be measured: {type(err).__name__}: {err})"
    if not reads._read:
        return "(its test reads no field of the result; give the Claim a measure=)"
    return "; ".join(f"{name} = {show(v)}" for name, v in reads._read.items())


def describe(key: str, claim: Claim[Any], subject: Any) -> str:
    """The lines that report one false claim about subject ``key`` (a section key or a page subject)."""
    pages = sources.stated_on(key)
    where = ", ".join(f"docs/{p}" for p in pages) or "no page found (see the chapter)"
    return (
        f"  - {claim.key}: {claim.text}\n"
        f"      measured: {measured(claim, subject)}\n"
        f"      stated on: {where}"
    )
