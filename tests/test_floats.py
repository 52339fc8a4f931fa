"""floats.py: where exp overflows and where it rounds to 0, against formulas and PyTorch.

The package finds both limits by searching each type's numbers with NumPy's ``exp``. The
expected values come from elsewhere: the logarithm of the largest finite number and of the
smallest subnormal (``numpy.finfo``), taken with mpmath to 50 digits, and PyTorch's ``exp``.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import torch

from attention_workshop.floats import DTYPES, exp_limit, zero_gap

TORCH = {
    np.float64: torch.float64,
    np.float32: torch.float32,
    np.float16: torch.float16,
}


def torch_exp(x: float, dtype) -> float:
    return float(torch.exp(torch.tensor(x, dtype=TORCH[dtype])))


def step(x: float, dtype, toward: float) -> float:
    """The number of ``dtype`` next to ``x`` in the direction of ``toward``."""
    return float(np.nextafter(dtype(x), dtype(toward)))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: np.dtype(t).name)
def test_exp_limit_is_the_last_finite_exp(dtype):
    x = exp_limit(dtype)
    assert math.isfinite(torch_exp(x, dtype)), "PyTorch: exp(limit) is finite"
    assert torch_exp(step(x, dtype, math.inf), dtype) == math.inf, (
        "and the next number overflows"
    )
    # exp(x) overflows when it rounds past the largest number: x is about log(max)
    # (the true limit is log(max + half a step), a hair above log(max))
    with mpmath.workdps(50):
        biggest = mpmath.mpf(float(np.finfo(dtype).max))
        half_step = (biggest - mpmath.mpf(step(np.finfo(dtype).max, dtype, 0.0))) / 2
        limit = mpmath.log(biggest + half_step)
        assert mpmath.mpf(x) < limit < mpmath.mpf(step(x, dtype, math.inf)), (x, limit)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: np.dtype(t).name)
def test_zero_gap_is_the_first_exact_zero(dtype):
    g = zero_gap(dtype)
    assert torch_exp(-g, dtype) == 0.0, "PyTorch: exp(-gap) is exactly 0"
    assert torch_exp(-step(g, dtype, 0.0), dtype) > 0, "one number less far, it is not"
    # exp(-g) rounds to 0 once it is below half the smallest subnormal s: g > log(2 / s)
    with mpmath.workdps(50):
        s = mpmath.mpf(float(np.finfo(dtype).smallest_subnormal))
        threshold = mpmath.log(2 / s)
        assert mpmath.mpf(step(g, dtype, 0.0)) < threshold < mpmath.mpf(g), (
            g,
            threshold,
        )


def test_smaller_types_run_out_sooner():
    limits = [exp_limit(t) for t in DTYPES]
    gaps = [zero_gap(t) for t in DTYPES]
    assert limits == sorted(limits, reverse=True) and gaps == sorted(gaps, reverse=True)
    assert all(g > x for g, x in zip(gaps, limits)), (
        "subnormals reach further than the maximum"
    )


def test_a_condition_that_never_changes_is_refused():
    from attention_workshop.floats import _largest_where

    with pytest.raises(ValueError, match="float32"):
        _largest_where(np.float32, lambda x: True)
