"""build/figures.py: the SVG figures and their CSV twins carry the numbers, computed here with PyTorch."""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pytest

from attention_workshop.build import figures
from attention_workshop.build.experiment import SEED
from attention_workshop.chapters import module_2
from attention_workshop.toy import SENT_RIVER

from .references import sqrt_dk, wired


def _csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_table_csv_writes_six_decimals_and_quotes_commas():
    assert (
        figures.table_csv(["a", "b, c"], [[1, 0.5], ["x", np.float64(1 / 3)]])
        == 'a,"b, c"\n1,0.500000\nx,0.333333\n'
    )


def test_heatmap_svg_states_every_value_in_text():
    w = np.array([[1.0, 0.0], [0.25, 0.75]])
    svg = figures.heatmap_svg(
        w,
        ["a", "b"],
        ["a", "b"],
        "Two words",
        masked=np.array([[False, True], [False, False]]),
    )
    assert svg.startswith("<?xml") and "<title>Two words</title>" in svg
    desc = re.search(r"<desc>(.*?)</desc>", svg, re.DOTALL).group(1)
    assert "row a: 1.000, 0.000; row b: 0.250, 0.750. Masked cells are 0." in desc
    assert "(masked)" in svg and "0.750" in svg
    assert "dc:date" not in svg and "Matplotlib" not in svg.split("<desc>")[0], (
        "no date, no creator stamp"
    )


def test_heatmap_svg_names_both_shapes_when_the_labels_do_not_fit():
    with pytest.raises(
        ValueError,
        match=r"weights has shape \(2, 2\) but there are 3 row and 2 column labels",
    ):
        figures.heatmap_svg(np.eye(2), ["a", "b", "c"], ["a", "b"], "t")


def test_lines_svg_states_every_point():
    svg = figures.lines_svg(
        [4, 16], {"raw": [0.5, 0.75], "scaled": [0.25, 0.3]}, "Title", "d_k", "weight"
    )
    desc = re.search(r"<desc>(.*?)</desc>", svg, re.DOTALL).group(1)
    assert (
        desc
        == "weight against d_k. raw: 4 -&gt; 0.500, 16 -&gt; 0.750; scaled: 4 -&gt; 0.250, 16 -&gt; 0.300"
    )


def test_draw_makes_the_runs_figures_from_its_numbers(results):
    # these three are tested here; a chapter's own figure is tested in its chapter's test file
    assert {"sqrt-dk.svg", "wired-weights-causal.svg", "wired-weights.svg"} <= set(
        results.figures
    )
    assert {f.replace(".svg", ".csv") for f in results.figures} == set(results.tables)
    for name, w in (
        ("wired-weights.csv", wired(SENT_RIVER)[3]),
        ("wired-weights-causal.csv", wired(SENT_RIVER, causal=True)[3]),
    ):
        rows = _csv(results.tables[name])
        assert rows[0] == ["query", *SENT_RIVER]
        assert [r[0] for r in rows[1:]] == list(SENT_RIVER)
        np.testing.assert_allclose(
            np.array([r[1:] for r in rows[1:]], dtype=float),
            w,
            rtol=0,
            atol=5e-7,
            err_msg=name,
        )
    rows = _csv(results.tables["sqrt-dk.csv"])
    assert rows[0] == [
        "d_k",
        "var_raw",
        "var_scaled",
        "max_weight_raw",
        "max_weight_scaled",
    ]
    ref = sqrt_dk(module_2.DK_VALUES, module_2.DK_KEYS, module_2.DK_TRIALS, SEED)
    assert [int(r[0]) for r in rows[1:]] == list(module_2.DK_VALUES)
    np.testing.assert_allclose(
        np.array([r[1:] for r in rows[1:]], dtype=float), ref, rtol=0, atol=5e-7
    )
    causal = results.figures["wired-weights-causal.svg"]
    assert causal.count("(masked)") == 3 and "Masked cells are 0." in causal
    assert (
        f"Largest softmax weight among {module_2.DK_KEYS} keys, averaged"
        in results.figures["sqrt-dk.svg"]
    )
