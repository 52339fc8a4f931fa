"""The chapters' pages as a reader meets them: their sections and self-checks, the numbers they show, the
practice code they run, and how they behave in a browser (Modules 0 to 3 and Step by step).

Expected numbers come from outside the package: the vocabulary's tuples in plain Python, seed 003's
hand calculation, and PyTorch in float64 (tests/references.py).
"""

from __future__ import annotations

import contextlib
import io
import math
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from attention_workshop.chapters import module_2, step_by_step
from attention_workshop.experiment.runner import SEED
from attention_workshop.toy import SENT_MONEY, SENT_RIVER, VOCAB

from . import test_browser_pages  # noqa: F401  (registers the probe "widths" read here)
from .references import simple, sqrt_dk, torch_attention, wired

ROOT = Path(__file__).resolve().parent.parent
Q3, K3, V3 = (
    [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
    [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
    [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]],
)


def _html(site: Path, page: str) -> str:
    return (site / page / "index.html").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- what the pages run and say


def test_practice_snippets_print_what_pytorch_computes(results):
    """Run the page's practice code as markdown-exec does (one shared session) and check each result."""
    ns: dict = {}
    printed = {}
    snippets = ROOT / "snippets" / "step-by-step"
    for name in (
        "practice_function",
        "practice_start",
        "practice_1",
        "practice_2",
        "practice_3",
        "practice_4",
    ):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(
                compile(
                    (snippets / f"{name}.py").read_text(encoding="utf-8"), name, "exec"
                ),
                ns,
            )
        printed[name] = buf.getvalue()
        expected = {
            "practice_start": torch_attention(Q3, K3, V3, True)[1],
            "practice_1": torch_attention(Q3, K3, V3, False)[1],
            "practice_3": torch_attention(np.array(Q3) * 10, K3, V3, True, scale=1.0)[
                1
            ],
        }.get(name)
        if expected is not None:
            np.testing.assert_allclose(
                ns["w"], expected, rtol=0, atol=1e-15, err_msg=name
            )
    assert (
        "[0.330 0.670 0.000]" in printed["practice_start"]
        and "[0.500 0.500]" in printed["practice_start"]
    )
    assert "[0.248 0.248 0.503]" in printed["practice_start"]
    assert "[0.493 0.014 0.493]" in printed["practice_2"]
    assert "out: (3, 4)  weights: (3, 3)" in printed["practice_4"]
    V4 = np.random.default_rng(SEED).standard_normal((3, 4))
    np.testing.assert_allclose(
        ns["out"], torch_attention(Q3, K3, V4, True)[0], rtol=0, atol=1e-15
    )
    # the log's V
    np.testing.assert_array_equal(
        ns["V4"], results[step_by_step.PRACTICE].runs["random_v4"].V
    )
    for name, arr in (("Q", Q3), ("K", K3), ("V", V3)):
        np.testing.assert_array_equal(
            ns[name], arr, err_msg=f"the page's {name} is seed 003's"
        )


def _readers_attention():
    """The practice's own function, loaded as a reader who pastes it into Python gets it."""
    import ast

    source = (ROOT / "snippets" / "step-by-step" / "practice_function.py").read_text(
        encoding="utf-8"
    )
    tree = ast.parse(source)
    imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert [ast.unparse(n) for n in imports] == ["import numpy as np"], (
        "self-contained: NumPy and nothing else, not the package"
    )
    (fn,) = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    body = [
        ln for ln in ast.get_source_segment(source, fn).splitlines()[1:] if ln.strip()
    ]
    assert len(body) <= 12, f"about ten lines, not {len(body)}"
    ns: dict = {}
    exec(compile(source, "practice_function", "exec"), ns)
    return ns["attention"]


def test_the_readers_attention_equals_the_package():
    """The function the practice asks the reader to copy gives the package's numbers: on seed 003's
    inputs, on random ones of many shapes, with and without the mask and the scaling."""
    from attention_workshop.core import scaled_dot_product_attention
    from attention_workshop.handcalc import attend

    readers = _readers_attention()
    rng = np.random.default_rng(11)
    cases = [(np.array(Q3), np.array(K3), np.array(V3))]
    for T, d_k, d_v in ((1, 1, 1), (2, 3, 1), (5, 4, 6), (8, 2, 3)):
        cases.append(
            tuple(rng.normal(0, 2, size=s) for s in ((T, d_k), (T, d_k), (T, d_v)))
        )
    for Q, K, V in cases:
        for causal in (True, False):
            for scaled in (True, False):
                ours = readers(Q, K, V, causal=causal, scaled=scaled)
                theirs = attend(Q, K, V, causal=causal, scaled=scaled)
                for a, b, what in zip(ours, theirs, ("out", "weights")):
                    np.testing.assert_allclose(
                        a,
                        b,
                        rtol=0,
                        atol=1e-12,
                        err_msg=f"{what} {Q.shape} {causal} {scaled}",
                    )
            out, w = scaled_dot_product_attention(Q, K, V, causal=causal)
            np.testing.assert_allclose(
                readers(Q, K, V, causal=causal)[1], w, rtol=0, atol=1e-12
            )
    # and against PyTorch on the chapter's own inputs
    for causal in (True, False):
        out, w = torch_attention(Q3, K3, V3, causal)
        got = readers(np.array(Q3), np.array(K3), np.array(V3), causal=causal)
        np.testing.assert_allclose(got[1], w, rtol=0, atol=1e-15)
        np.testing.assert_allclose(got[0], out, rtol=0, atol=1e-15)


def test_module_2_prose_takes_its_inputs_from_the_experiment():
    text = (ROOT / "docs" / "module-2.md").read_text(encoding="utf-8")
    prose = re.sub(r"\{\{[^}]*\}\}", "", text)
    for typed in (
        "seed 0",
        "400",
        "8 keys",
        " eight ",
        "five sizes",
        "by 16",
        "256",
        "1024",
    ):
        assert typed not in prose, f"module-2.md types {typed!r} by hand"
    snippet = (ROOT / "snippets" / "module-2" / "sqrt_dk_figure.py").read_text(
        encoding="utf-8"
    )
    assert "DK_KEYS" in snippet and "DK_TRIALS" in snippet and "400" not in snippet


# --------------------------------------------------------------------------- the built pages

ANCHORS = {
    "module-0": ("vocabulary", "dot-product", "softmax", "max-trick", "self-check"),
    "module-1": ("simple-attention", "two-senses", "limits", "self-check"),
    "module-2": ("queries-keys-values", "wired-head", "sqrt-dk", "self-check"),
    "module-3": ("self-check",),
}


@pytest.mark.site
def test_pages_have_their_sections_and_two_to_four_self_checks(built_site):
    for page, anchors in ANCHORS.items():
        html = _html(built_site, page)
        for a in anchors:
            assert f'id="{a}"' in html, f"{page}#{a}"
        after = html.split('id="self-check"', 1)[1]
        n = len(re.findall(r'<details class="question"', after))
        assert 2 <= n <= 4, f"{page}: {n} self-check questions"


@pytest.mark.site
def test_nav_order_and_module_3_back_references(built_site):
    html = (built_site / "index.html").read_text(encoding="utf-8")
    nav = re.findall(r'href="(?:\./|\.\./)?(module-[0-3]|step-by-step)/"', html)
    assert list(dict.fromkeys(nav))[:5] == [
        "module-0",
        "module-1",
        "module-2",
        "module-3",
        "step-by-step",
    ], nav
    m3 = _html(built_site, "module-3")
    for target in (
        "../module-2/#wired-head",
        "../module-0/#softmax",
        "../module-1/#simple-attention",
        "../module-2/#queries-keys-values",
        "../module-0/#vocabulary",
    ):
        assert f'href="{target}"' in m3, target


@pytest.mark.site
def test_module_3_ends_by_leading_to_the_final_exam(built_site):
    """As seed 000 ends: the whole mechanism, then the final exam ("18 questions, 70 to pass")."""
    last = _html(built_site, "module-3").split('id="next"', 1)[1]
    assert 'href="../final-exam/"' in last
    text = re.sub(r"<[^>]+>", "", last)
    assert "18 questions" in text and "70% to pass" in text, text[:400]


@pytest.mark.site
def test_pages_show_the_numbers(built_site):
    m0, m1, m2 = (_html(built_site, p) for p in ("module-0", "module-1", "module-2"))
    river_bank = sum(a * b for a, b in zip(VOCAB["river"], VOCAB["bank"]))
    assert f"<strong>{river_bank:.2f}</strong>" in m0
    assert f"{math.log(sys.float_info.max):.2f}" in m0
    lean_r, lean_m = (simple(s)[2][-1] for s in (SENT_RIVER, SENT_MONEY))
    assert (
        f"{lean_r[0] - lean_r[1]:+.3f}" in m1
        and f"{abs(lean_m[0] - lean_m[1]):.3f}" in m1
    )
    w = wired(SENT_RIVER)[3]
    assert f"{w[0, 2]:.3f}" in m2 and f"{w[2, 1]:.3f}" in m2
    ref = sqrt_dk(module_2.DK_VALUES, module_2.DK_KEYS, module_2.DK_TRIALS, SEED)
    assert f"{ref[-1, 2]:.3f}" in m2 and f"{ref[-1, 1]:.3f}" in m2
    assert 'src="../generated/sqrt-dk.svg#only-light"' in m2
    assert 'src="../generated/sqrt-dk-dark.svg#only-dark"' in m2


@pytest.mark.site
def test_step_by_step_page_shows_the_hand_calculation(built_site):
    html = _html(built_site, "step-by-step")
    for anchor in (
        "step-1-score",
        "step-2-scale",
        "step-3-softmax",
        "step-4-weighted-sum",
        "step-5-causal-mask",
        "practice",
        "notes",
    ):
        assert f'id="{anchor}"' in html, anchor
    for s in (
        "exp(0.707) = 2.028",
        "sum = 8.169",
        "[0.248, 0.248, 0.503]",
        "weights = [0.330, 0.670, 0.000]",
        "add up to 0.999, not 1",
        "[0.500, 0.500]",
        "[0.493 0.014 0.493]",
    ):
        assert s in html, s


# --------------------------------------------------------------------------- in a browser


@pytest.mark.browser
@pytest.mark.parametrize(
    "page_name", ["module-0", "module-1", "module-2", "step-by-step"]
)
def test_pages_fit_a_375px_screen(sweep, page_name):
    """The page opened at 375 x 800 (tests/test_browser_pages.py's probe of the widths)."""
    (visit,) = [
        v for v in sweep.visits("widths", "light", 375) if v.url == page_name + "/"
    ]
    width, wide = visit["widths"]["width"], visit["widths"]["wideFormulas"]
    assert width <= 375, f"{page_name} scrolls sideways at 375px ({width}px)"
    assert wide == 0, f"{page_name}: {wide} formula(s) wider than the column at 375px"


@pytest.mark.browser
def test_a_self_check_reveals_its_answer(page_and_log, site_url):
    page, log = page_and_log
    page.goto(site_url + "module-0/")
    q = page.locator("#self-check ~ details.question").nth(1)
    answer = q.locator("p").first
    assert not answer.is_visible()
    q.locator("summary").click()
    assert answer.is_visible()
    assert f"{1 / 3:.3f} each" in answer.inner_text()
    assert not log.console_errors and not log.foreign_requests
