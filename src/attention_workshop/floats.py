"""Where a computer's numbers run out for softmax: ``exp`` overflowing, and ``exp`` rounding to 0.

Both limits are found by searching each floating-point type's own numbers with NumPy's ``exp``
in that type, not by a formula, so they are what a program really gets:

- :func:`exp_limit`: the largest ``x`` whose ``exp(x)`` is still finite (past it, ``inf``);
- :func:`zero_gap`: the smallest gap ``g`` with ``exp(-g) == 0``. In a softmax that subtracts
  the row's maximum, a score ``g`` or more below the maximum gets a weight of exactly 0.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["DTYPES", "exp_limit", "zero_gap"]

#: The floating-point types the limits are given for, widest first.
DTYPES: tuple[type[np.floating], ...] = (np.float64, np.float32, np.float16)

#: The unsigned integer of the same width as each type: its bit patterns, in order.
_BITS: dict[type[np.floating], type[np.unsignedinteger]] = {
    np.float64: np.uint64,
    np.float32: np.uint32,
    np.float16: np.uint16,
}


def _largest_where(
    dtype: type[np.floating], holds: Callable[[np.floating], bool]
) -> float:
    """The largest positive finite number of ``dtype`` for which ``holds`` is true.

    ``holds`` must be true at the smallest positive number and false at the largest finite
    one, and change once in between. Positive floats are ordered as their bit patterns, so
    this is a bisection over whole numbers: every number of ``dtype`` is a candidate.
    """
    bits = _BITS[dtype]
    lo = int(np.array(np.finfo(dtype).smallest_subnormal, dtype).view(bits))
    hi = int(np.array(np.finfo(dtype).max, dtype).view(bits))

    def at(n: int) -> np.floating:
        return dtype(np.array(n, bits).view(dtype)[()])

    if not holds(at(lo)) or holds(at(hi)):
        raise ValueError(
            f"the condition does not change over {np.dtype(dtype).name}'s range"
        )
    while hi - lo > 1:  # holds(at(lo)) and not holds(at(hi))
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if holds(at(mid)) else (lo, mid)
    return float(at(lo))


def exp_limit(dtype: type[np.floating] = np.float64) -> float:
    """The largest ``x`` of ``dtype`` whose ``exp(x)``, computed in ``dtype``, is finite.

    A score past it overflows before softmax can divide: hence the subtraction of the maximum.
    """
    with np.errstate(over="ignore"):
        return _largest_where(dtype, lambda x: bool(np.isfinite(np.exp(x))))


def zero_gap(dtype: type[np.floating] = np.float64) -> float:
    """The smallest ``g`` of ``dtype`` with ``exp(-g) == 0`` in ``dtype``.

    From there on, ``exp`` rounds to 0: the true value is below half the smallest positive
    number the type can hold (its smallest subnormal).
    """
    with np.errstate(under="ignore"):
        last_nonzero = _largest_where(dtype, lambda g: bool(np.exp(-g) > 0))
    return float(np.nextafter(dtype(last_nonzero), dtype(np.inf)))
