"""experiment/fmt.py, the one number formatter: every function against the text it must write, typed here."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_workshop.experiment import fmt

MINUS = "\u2212"


@pytest.mark.parametrize(
    ("x", "nd", "text"),
    [
        (0.70710678, 3, "0.707"),
        (2.0, 3, "2.000"),
        (-0.0004, 3, "0.000"),
        (-0.0, 2, "0.00"),
        (-0.3041, 3, "-0.304"),
        (1025.64, 1, "1025.6"),
        (math.inf, 3, "inf"),
        (-math.inf, 3, "-inf"),
        (0.5, 0, "0"),
    ],
)
def test_fixed(x, nd, text):
    assert fmt.fixed(x, nd) == text


@pytest.mark.parametrize(
    ("x", "text"),
    [
        (2.0, "2"),
        (0.70710678, "0.707"),
        (-math.inf, "-inf"),
        (math.inf, "inf"),
        (-1.0, "-1"),
        (8.16901, "8.169"),
        (1e15, "1000000000000000.000"),
    ],
)
def test_num(x, text):
    assert fmt.num(x) == text


def test_sci_and_sci_html():
    assert (
        fmt.sci(2**-52) == "2.22e-16"
        and fmt.sci(6.66e-16) == "6.66e-16"
        and fmt.sci(12345.0) == "1.23e+04"
    )
    assert fmt.sci_html(2**-52) == f"2.22 × 10<sup>{MINUS}16</sup>"
    assert fmt.sci_html(12345.0) == "1.23 × 10<sup>4</sup>"


def test_count_plural_and_flops():
    assert (
        fmt.count(28311552) == "28,311,552" and fmt.count(np.int64(147456)) == "147,456"
    )
    assert (
        fmt.plural(1, "token") == "1 token"
        and fmt.plural(1024, "token") == "1,024 tokens"
    )
    assert fmt.plural(2, "query", "queries") == "2 queries"
    assert (
        fmt.flops(3538944) == "3.5 MFLOPs (3,538,944)" and fmt.flops(420) == "420 FLOPs"
    )
    assert (
        fmt.flops(2_500_000_000) == "2.5 GFLOPs (2,500,000,000)"
        and fmt.flops(1000) == "1.0 kFLOPs (1,000)"
    )


def test_signed_and_minus():
    assert fmt.signed(0.3261) == "+0.326" and fmt.signed(-0.3041) == "-0.304"
    assert fmt.signed(-0.0001) == "0.000" and fmt.signed(0.0) == "0.000"
    assert (
        fmt.minus("-0.304") == f"{MINUS}0.304"
        and fmt.minus("[-1, -2]") == f"[{MINUS}1, {MINUS}2]"
    )


def test_vec_and_short_vec():
    assert fmt.vec([0.24826, 0.24826, 0.50348]) == "[0.248, 0.248, 0.503]"
    assert (
        fmt.vec([0.24826, -1e-9]) == "[0.248, 0.000]"
        and fmt.vec([1.0, 2.0], 1) == "[1.0, 2.0]"
    )
    assert fmt.vec(np.array([np.nan, np.nan])) == "[nan, nan]"
    assert (
        fmt.short_vec([1.0, 0.5]) == "[1, 0.5]"
        and fmt.short_vec([0.0, 1.0]) == "[0, 1]"
    )
    assert fmt.short_vec([0.0, 0.70710678, -math.inf]) == "[0, 0.707, -inf]"
    assert fmt.short_vec([5.0, 0.0]) == "[5, 0]"


def test_table_aligns_numbers_and_text():
    M = np.array([[1.0, 0.0], [0.3, 0.7]])
    # labels in 5 + 2, columns of 7
    assert fmt.table(M, ["the", "river"], ["the", "river"]) == [
        "           the  river",
        "the      1.000  0.000",
        "river    0.300  0.700",
    ]
    assert fmt.table(
        [["X", "."], ["X", "X"]], ["the", "cat"], ["the", "cat"], width=5, label_width=8
    ) == ["          the  cat", "the         X    .", "cat         X    X"]
    assert fmt.table([[2.0]], ["bank"], ["topic"], nd=1, corner="word") == [
        "word    topic",
        "bank      2.0",
    ]
