"""Deliberate breaks: rewrite the numbers a claim reads until the sentence it stands for is false,
then show that :func:`workshop_site.claims.verify` refuses the run and names the claim.

Each chapter's test module holds ``BREAKS``: ``{claim key: (break, ...)}``; a break is a
function ``(results, monkeypatch) -> None`` that changes a deep copy of the session's run.
:func:`edit` makes the usual kind: one field of a section's typed result, rebuilt along its path.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from workshop_site.claims import ClaimError, check, verify

Break = Callable[[Any, pytest.MonkeyPatch], None]


def _replaced(obj: Any, path: list[str], change: Callable[[Any], Any]) -> Any:
    """``obj`` with the value at ``path`` replaced by ``change(old)``; frozen dataclasses are rebuilt, dicts copied."""
    if not path:
        return change(obj)
    head, rest = path[0], path[1:]
    if isinstance(obj, dict):
        new = dict(obj)
        new[head] = _replaced(obj[head], rest, change)
        return new
    if dataclasses.is_dataclass(obj):
        return dataclasses.replace(
            obj, **{head: _replaced(getattr(obj, head), rest, change)}
        )
    raise TypeError(f"cannot step into {type(obj).__name__} at {head!r}")


def edit(section: str, path: str, change: Callable[[Any], Any]) -> Break:
    """A break that replaces ``results.data[section].<path>`` (dotted: fields or dict keys) by ``change(old)``."""

    def brk(r: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        r.data[section] = _replaced(r.data[section], path.split("."), change)

    brk.__doc__ = f"{section}.{path}"
    return brk


def row(w: np.ndarray, i: int, values: list[float]) -> np.ndarray:
    """A copy of ``w`` with row ``i`` replaced by ``values``."""
    w = np.array(w, dtype=float, copy=True)
    w[i] = values
    return w


def assert_break_fails(
    results: Any, monkeypatch: pytest.MonkeyPatch, key: str, brk: Break
) -> None:
    """Apply ``brk`` to a copy of ``results``: verify must raise a ClaimError that names ``key``."""
    r = copy.deepcopy(results)
    brk(r, monkeypatch)
    with pytest.raises(ClaimError) as err:
        verify(r)
    assert f"  - {key}: " in str(err.value), (
        f"the break did not make {key} fail:\n{err.value}"
    )
    assert_reported(str(err.value), key)


def assert_reported(message: str, key: str) -> None:
    """The ClaimError's lines for ``key`` show a measured value and the page(s) that state the claim."""
    block = message.split(f"  - {key}: ", 1)[1].split("\n  - ", 1)[0]
    measured = re.search(r"^      measured: (.+)$", block, re.M)
    assert measured and not measured.group(1).startswith("("), (
        f"{key}: no measured value in the report:\n{block}"
    )
    assert re.search(r"^      stated on: docs/[\w-]+\.md", block, re.M), (
        f"{key}: the report names no page that states the claim:\n{block}"
    )


def cases(breaks: dict[str, tuple[Break, ...]]) -> list[Any]:
    """``pytest.param(key, break)`` for every break, with ids ``claim-key-n``."""
    return [
        pytest.param(key, brk, id=f"{key}-{n}")
        for key in sorted(breaks)
        for n, brk in enumerate(breaks[key])
    ]


def claim_keys(sections: Any) -> set[str]:
    """The keys of every claim the given sections make."""
    return {c.key for s in sections for c in s.claims}


def assert_claims_hold(results: Any, sections: Any) -> None:
    """Every claim the given sections make holds for ``results``."""
    outcome = {c.key: ok for c, ok in check(results)}
    false = sorted(k for k in claim_keys(sections) if not outcome[k])
    assert not false, f"claims that do not hold: {false}"
