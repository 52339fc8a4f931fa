"""chapters/may_differ.py: every rounding-level figure of results.log is declared, with its claim's bound.

The session's run is the log; which result field each figure prints is written out here (from
the chapters' lines), and a claim is tried with that field set at the declared bound and just
past it, so a bound that is not the claim's own fails.
"""

from __future__ import annotations

import dataclasses
import re
import sys

import pytest

from attention_workshop.chapters.may_differ import (
    FIGURES,
    STAMPS,
    Figure,
    environment_line,
)
from attention_workshop.chapters.sections import SECTIONS

EPS = sys.float_info.epsilon
#: figure (section, the pattern's first words) -> the result's fields it prints, and their unit
FIELDS = {
    ("softmax", "naive"): (("naive_vs_stable_small",), 1.0),
    ("general_head", "max"): (("diff", "diff_causal"), 1.0),
    ("general_head", "machine"): (
        ("diff", "diff_causal"),
        EPS,
    ),  # printed in units of 2^-52
    ("order", r"\(largest"): (("diff",), 1.0),
    ("multi_head", "max"): (("diff",), 1.0),
}


def _key(fig: Figure) -> tuple[str, str]:
    return fig.section, fig.pattern.split(" ", 1)[0]


def _section_lines(results, key: str) -> list[str]:
    return results.excerpt(key)[1:]


def test_every_figure_names_its_section_and_a_claim_of_that_section():
    claims = {s.key: {c.key for c in s.claims} for s in SECTIONS}
    for fig in FIGURES:
        assert fig.claim in claims[fig.section], fig


def test_each_pattern_matches_lines_of_its_section_only(results):
    matched = {
        _key(fig): [
            ln
            for ln in _section_lines(results, fig.section)
            if fig.value(ln) is not None
        ]
        for fig in FIGURES
    }
    # ours vs PyTorch twice (without and with the mask), every other figure once
    assert {k: len(v) for k, v in matched.items()} == {
        ("softmax", "naive"): 1,
        ("general_head", "max"): 2,
        ("general_head", "machine"): 1,
        ("order", r"\(largest"): 1,
        ("multi_head", "max"): 1,
    }


def test_every_rounding_level_number_in_the_log_is_a_declared_figure(results):
    """Any number under 1e-10 written in results.log (a difference at rounding level) is declared."""
    key, undeclared = "", []
    for line in results.lines:
        key = line[1:].split("]", 1)[0] if line.startswith("[") else key
        tiny = [x for x in re.findall(r"\d\.\d+e-\d+", line) if float(x) < 1e-10]
        if tiny and not any(
            f.section == key and f.value(line) is not None for f in FIGURES
        ):
            undeclared.append(f"[{key}] {line.strip()}")
    assert not undeclared, undeclared


@pytest.mark.parametrize("fig", FIGURES, ids=lambda f: f"{f.section}-{_key(f)[1]}")
def test_each_bound_is_its_claims_bound(results, fig):
    (fields, unit), *_ = [v for k, v in FIELDS.items() if _key(fig) == k]
    claim = next(c for s in SECTIONS for c in s.claims if c.key == fig.claim)
    result = results.data[fig.section]
    at = dataclasses.replace(result, **dict.fromkeys(fields, fig.bound * unit))
    past = dataclasses.replace(result, **{fields[0]: fig.bound * unit * (1 + 1e-9)})
    assert claim.test(at), f"{fig.claim} fails at the declared bound {fig.bound}"
    assert not claim.test(past), (
        f"{fig.claim} still holds past the declared bound {fig.bound}"
    )


def test_the_version_stamps_are_the_environment_lines_at_the_top(results):
    head = results.lines[: results.lines.index("")]
    assert [ln.split(":")[0] for ln in head if environment_line(ln)] == [
        f"# {name}" for name in STAMPS
    ]
    assert STAMPS == ("os", "python", "numpy", "torch", "matplotlib")
    assert not environment_line(head[0]) and not environment_line(
        head[-1]
    )  # title, seed
