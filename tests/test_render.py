"""workshop_site/render.py: Markdown tables, results.log excerpts and page, figures with their text, package source.

Excerpts are checked against the committed capture read from disk; figure summaries against
PyTorch's numbers; the rendering itself against Markdown and HTML typed here.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from attention_workshop.chapters import module_2
from attention_workshop.experiment.runner import SEED
from attention_workshop.toy import SENT_RIVER
from workshop_site import render

from .references import sqrt_dk, wired

ROOT = Path(__file__).resolve().parent.parent
CAPTURE = (ROOT / "captures" / "results.log").read_text(encoding="utf-8").split("\n")
MINUS = "\u2212"


def test_md_table_aligns_text_left_and_numbers_right():
    assert (
        render.md_table(["word", "x"], [["the", 1], ["bank", 2.5]])
        == "| word | x |\n|:--|--:|\n| the | 1 |\n| bank | 2.5 |\n"
    )
    assert (
        render.md_table(["a", "b", "c"], [[1, 2, 3]], align="lcr")
        == "| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n"
    )


def test_matrix_table_labels_rows_in_bold():
    assert (
        render.matrix_table(np.array([[0.5, -0.0004]]), ["the"], ["x", "y"], corner="w")
        == "| w | x | y |\n|:--|--:|--:|\n| **the** | 0.500 | 0.000 |\n"
    )


def test_matrix_table_writes_a_true_minus_sign_as_the_rest_of_the_site():
    """A negative cell reads −0.250 (U+2212), as fmt.signed and the prose write it; a rounded zero stays 0.000."""
    md = render.matrix_table(np.array([[-0.25, -0.0004]]), ["the"], ["x", "y"])
    assert md.splitlines()[-1] == "| **the** | \u22120.250 | 0.000 |"
    assert "-" not in md.splitlines()[-1]


def test_log_excerpt_quotes_the_capture_with_its_line_numbers(served):
    start = CAPTURE.index("[causal] Module 3: the causal mask on the wired head") + 1
    end = CAPTURE.index("", start)
    md = render.log_excerpt("causal")
    body = "\n".join(CAPTURE[start - 1 : end])
    assert md == (
        '<section class="log-excerpt" data-search-exclude markdown="1">\n\n'
        f'```text linenums="{start}"\n{body}\n```\n\n'
        f"<small>Quoted from [results.log lines {start}–{end}](results-log.md#L{start}), "
        "section [causal] of this build.</small>\n\n</section>\n"
    )
    with pytest.raises(KeyError, match="no section 'nothing'"):
        render.log_excerpt("nothing")


def test_log_page_numbers_every_line_and_escapes_it(served):
    page = render.log_page()
    spans = re.findall(
        r'<span class="log-line" id="L(\d+)"><a class="ln" href="#L\1" data-n="\1" tabindex="-1" '
        r'aria-label="line \1"></a>(.*?)</span>',
        page,
    )
    lines = CAPTURE[:-1]  # the capture ends with a newline
    assert [int(n) for n, _ in spans] == list(range(1, len(lines) + 1))
    assert [t for _, t in spans] == [
        (
            line.replace("&", "&amp;")
            .replace("<", "&lt;")
            .replace(">", "&gt;")
            .replace('"', "&quot;")
            .replace("'", "&#x27;")
            or " "
        )
        for line in lines
    ]
    assert page.startswith(
        '<pre class="results-log" tabindex="0"><code>'
    ) and page.endswith("</code></pre>\n")


def test_figure_summary_of_a_weight_table_names_every_weight(served):
    w = wired(SENT_RIVER)[3]
    cells = "; ".join(
        f"{q}: " + ", ".join(f"{k} {v:.3f}" for k, v in zip(SENT_RIVER, row))
        for q, row in zip(SENT_RIVER, w)
    )
    assert (
        render.figure_summary("wired-weights.svg")
        == f"Every weight, row by row (the query, then each key it looks at): {cells}."
    )


def test_figure_summary_of_the_sqrt_dk_curve(served):
    ref = sqrt_dk(module_2.DK_VALUES, module_2.DK_KEYS, module_2.DK_TRIALS, SEED)
    raw, scaled = ref[:, 2], ref[:, 3]
    assert np.all(np.diff(raw) > 0)
    assert render.figure_summary("sqrt-dk.svg") == (
        f"Without scaling, the mean largest weight rises from {raw[0]:.3f} at d_k = 4 to {raw[-1]:.3f} at "
        f"d_k = 1024; divided by the square root of d_k it stays between {scaled.min():.3f} and {scaled.max():.3f}."
    )
    assert render.figure_summary("no-such.svg") == ""


def test_figure_has_its_text_alternative_and_download_links(served):
    html = render.figure("wired-weights.svg", "Heatmap [3 x 3].", "The wired head.")
    light = re.search(r"!\[(.*?)\]\(generated/wired-weights.svg#only-light\)", html)
    dark = re.search(r"!\[(.*?)\]\(generated/wired-weights-dark.svg#only-dark\)", html)
    assert light and dark and light.group(1) == dark.group(1), (
        "one image per scheme, the same text alternative"
    )
    alt = light.group(1)
    assert (
        alt.startswith("Heatmap (3 x 3). Every weight, row by row") and "[" not in alt
    )
    assert '<a href="generated/wired-weights.svg" download>Download SVG</a>' in html
    assert '<a href="generated/wired-weights.csv" download>numbers as CSV</a>' in html
    assert html.startswith('<figure class="workshop-figure" markdown="span">')
    with pytest.raises(KeyError, match=r"no figure 'nope\.svg'; figures: "):
        render.figure("nope.svg", "", "")


def test_figure_summary_of_any_other_figure_lists_every_number(served):
    """A figure that is neither a weight table nor the sqrt(d_k) curve: every row of its CSV, in words."""
    summary = render.figure_summary("gpt2-blocks.svg")
    assert summary.startswith("Its numbers (matrix, rows, columns, numbers): ")
    assert "GPT-2 c_attn (W_Q, W_K, W_V), 768, 2,304, 1,769,472" in summary
    assert "toy c_proj, 8, 8, 64." in summary


def test_python_source_shows_the_file_as_it_is():
    from attention_workshop import toy

    md = render.python_source(toy.lean)
    source = (ROOT / "src" / "attention_workshop" / "toy.py").read_text(
        encoding="utf-8"
    )
    block = re.search(r"```python\n(.*)\n```", md, re.S).group(1)
    assert block.startswith("def lean(") and block in source
    assert md.startswith(
        '<div class="package-source" markdown="block">'
    ) and md.endswith("</div>\n")
