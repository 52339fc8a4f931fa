"""attention_workshop/experiment/notebook.py: what a notebook's cells show, as Jupyter's formatter sees it.

Expected values come from the committed capture (``captures/``: results.log and the figures, as
the experiment wrote them) and from IPython's own DisplayFormatter, the one a kernel uses.
"""

from __future__ import annotations

import pytest
from IPython.core.formatters import DisplayFormatter

from attention_workshop.experiment import md_tables
from attention_workshop.experiment import notebook as nb

from .conftest import ROOT

CAPTURES = ROOT / "captures"


def bundle(obj: object) -> dict:
    data, _ = DisplayFormatter().format(obj)
    return data


@pytest.fixture(scope="module")
def run(results):
    """The session's run of the experiment, handed to the notebook module (not run again)."""
    nb._KEPT.setdefault(f"run:{' '.join(results.sentence)}", results)
    return nb.results()


def test_a_figure_is_its_svg_on_a_white_ground_and_its_text_alternative(run):
    data = bundle(nb.figure("softmax.svg", "Four bar charts.", "Softmax."))
    assert set(data) == {"image/svg+xml", "text/plain"}
    assert data["text/plain"] == "Four bar charts."
    svg = (CAPTURES / "softmax.svg").read_text(encoding="utf-8")
    assert data["image/svg+xml"] == svg.replace("<svg", f"<svg{nb.WHITE}", 1)
    with pytest.raises(KeyError, match=r"no figure 'nope\.svg'"):
        nb.figure("nope.svg", "", "")


def test_a_table_is_markdown_and_its_markdown_is_the_plain_text():
    data = bundle(nb.vocab_table())
    assert set(data) == {"text/markdown", "text/plain"}
    assert data["text/markdown"] == md_tables.vocab_table().strip("\n")
    assert data["text/plain"] == data["text/markdown"]


def test_static_html_is_html_and_its_visible_text_the_plain_text():
    from attention_workshop.experiment import inside_html

    data = bundle(nb.static_step("softmax"))
    assert set(data) == {"text/html", "text/plain"}
    assert data["text/html"] == inside_html.static_step("softmax").strip("\n")
    text = data["text/plain"]
    assert (
        "<" not in text and "−∞" not in text
    )  # no tag; softmax's weights are all shown
    assert "every row sums to 1" in text  # the matrix's caption, a reader's words
    code = bundle(nb.static_code())["text/plain"]
    assert "def forward(self, x):" in code and "ins-line" not in code


def test_a_log_quote_is_plain_text_numbered_as_in_results_log(run):
    log = (CAPTURES / "results.log").read_text(encoding="utf-8").split("\n")
    text = bundle(nb.log_excerpt("softmax"))["text/plain"]
    span = run.section("softmax")
    lines = text.split("\n")
    assert len(lines) == span.end - span.start + 1
    for line in lines:
        n, _, rest = line.strip().partition("  ")
        assert log[int(n) - 1].rstrip() == rest.rstrip() or rest == "", line


def test_a_function_s_source_is_a_python_code_block():
    from attention_workshop import softmax

    md = bundle(nb.python_source(softmax))["text/markdown"]
    assert md.startswith("```python\ndef softmax(") and md.endswith("\n```")


def test_reuse_hands_over_a_run_without_running_again(run):
    class Stand:
        sentence = ("a", "b")

    nb.reuse(Stand(), {"generated/real-heads/x.svg": "<svg/>"})
    assert nb.results(("a", "b")) is not None and nb.results(("a", "b")).sentence == (
        "a",
        "b",
    )
    assert nb._real_heads_svg("generated/real-heads/x.svg") == "<svg/>"
    nb._KEPT.pop("real-heads")
