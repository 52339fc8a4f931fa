"""The Real heads page's run box in headless Chromium: a reader's own sentence, run in the browser.

A sentence the site never built is typed and run; the weights' CSV (a download the page offers)
is read back and compared with the package: its pass over the same float16 weights
(:func:`attention_workshop.trained.browser.half_model`) to 1e-5, and the full float32 model to
the bound the page states (``real_heads.HALF_BOUND``); the grid's CSV is the page's own grid CSV
of those heads. A second sentence runs offline. Bad input and a failed or cut download each get
one line, a retry, and nothing half-drawn. No request leaves the site. How long the first figure
takes is measured by ``make bench`` (tools/bench_runbox.py), not asserted here.
"""

from __future__ import annotations

import csv
import io
import os

import numpy as np
import pytest

from attention_workshop.chapters import real_heads as rh
from attention_workshop.experiment import real_heads_page
from attention_workshop.trained import load_minilm
from attention_workshop.trained.browser import half_model

pytestmark = pytest.mark.browser

PAGE = "real-heads/"
#: A sentence none of the page's sentences is, 12 tokens with [CLS] and [SEP].
SENTENCE = "Grandma hid the spare key under a flowerpot."
#: Where the screenshots go (make them with SHOTS=folder; none are written otherwise).
SHOTS = os.environ.get("SHOTS")


def open_box(page, site_url):
    page.goto(site_url + PAGE)
    page.wait_for_selector("#minilm-run[data-ready]", state="attached")
    return page


def run(page, text, done=1):
    page.fill("#mm-text", text)
    page.click(".mm-run")
    page.wait_for_function(
        f"(document.querySelector('#minilm-run').dataset.done|0) >= {done} "
        "|| document.querySelector('.mm-error').textContent !== ''",
        timeout=120_000,
    )
    return page.text_content(".mm-error")


def download(page, key: str) -> str:
    """The text of one of the result's downloads (``key``: csv, every weight; classes, the grid)."""
    return page.evaluate(
        f"async () => (await fetch(document.querySelector('.mm-out').dataset.{key})).text()"
    )


def grid_csv(page) -> tuple[list[str], np.ndarray]:
    """The weights' CSV as the page offers it: its tokens and weights, (L, H, T, T)."""
    rows = list(csv.reader(io.StringIO(download(page, "csv"))))
    tokens = rows[0][3:]
    T = len(tokens)
    w = np.array([[float(x) for x in r[3:]] for r in rows[1:]])
    return tokens, w.reshape(-1, 12, T, T)


def classes_rows(text: str) -> tuple[list[list[str]], np.ndarray]:
    """A grid CSV's words (header, layer, head, class, score_is) and its numbers (72, 7)."""
    rows = list(csv.reader(io.StringIO(text)))
    words = [rows[0], *([r[0], r[1], r[2], r[-1]] for r in rows[1:])]
    return words, np.array([[float(x) for x in r[3:-1]] for r in rows[1:]])


def test_a_new_sentence_is_run_in_the_browser_and_equals_the_package(
    page_and_log, site_url
):
    page, log = page_and_log
    open_box(page, site_url)
    assert (
        page.text_content(".mm-size").count("MB") == 1
    )  # the size said before any download
    assert run(page, SENTENCE) == ""
    assert SENTENCE not in {s.text for s in rh.SENTENCES}
    tokens, got = grid_csv(page)
    half = half_model()(SENTENCE)
    assert tokens == list(half.tokens) and len(tokens) == 12
    # six decimals in the CSV: half a millionth more than the forward pass's own 1e-5
    assert np.abs(got - half.attentions).max() <= 1e-5 + 5e-7
    full = load_minilm(np.float32)(SENTENCE).attentions
    assert np.abs(got - full).max() <= rh.HALF_BOUND + 5e-7
    # the grid's CSV is the page's own grid CSV (its columns, classes and measures) of the package's heads
    scores = rh.head_scores(half.attentions.astype(np.float64))
    want = real_heads_page.classes_table(*rh.classify(scores), scores)
    (words, numbers), (want_words, want_numbers) = (
        classes_rows(download(page, "classes")),
        classes_rows(want),
    )
    assert words == want_words
    assert np.abs(numbers - want_numbers).max() <= 2e-5
    assert page.locator(".mm-figure svg").count() == 2
    # a second sentence, offline: the model is not downloaded again and nothing is asked of the site
    models = []
    page.on("request", lambda r: models.append(r.url))
    page.context.set_offline(True)
    assert run(page, "Short one.", done=2) == ""
    page.context.set_offline(False)
    assert models == []
    n = len(half_model()("Short one.").tokens)
    assert page.text_content(".mm-tokens").startswith(f"{n} tokens:")
    assert log.foreign_requests == [] and log.console_errors == []


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "the box is empty"),
        ("   \n\t ", "the box is empty"),
        ("a bell\x07 rang", "control character (U+0007) at character 7"),
        ("word " * 200, "the model reads at most 128"),
        ("\u0378\u0378", None),  # an unknown character: one [UNK] token, and it runs
    ],
)
def test_bad_input_gets_one_line(page_and_log, site_url, text, says):
    page, _ = page_and_log
    open_box(page, site_url)
    error = run(page, text)
    if says is None:
        assert error == ""
        return
    assert says in error and "\n" not in error
    assert page.locator(".mm-figure").count() == 0
    assert page.is_enabled(".mm-run")


@pytest.mark.parametrize("how", ["fails", "cut short"])
def test_a_failed_download_is_said_and_run_again(page_and_log, site_url, how):
    page, _ = page_and_log
    open_box(page, site_url)

    def broken(route):
        if how == "fails":
            route.abort()
        else:
            route.fulfill(status=200, body=b"AWMINILM" + b"\0" * 5000)

    page.route("**/*.bin", broken)
    error = run(page, SENTENCE)
    assert "Press Run to try again." in error, error
    assert page.locator(".mm-figure").count() == 0
    page.unroute("**/*.bin")
    assert run(page, SENTENCE) == ""
    assert page.locator(".mm-figure svg").count() == 2


def test_screenshots_of_the_box_and_a_result(browser, site_url):
    """Only with SHOTS=folder: the run box and a drawn result at 375 and 1280 px, light and dark."""
    if not SHOTS:
        pytest.skip("SHOTS=folder makes the screenshots")
    for scheme in ("light", "dark"):
        for width in (375, 1280):
            context = browser.new_context(
                viewport={"width": width, "height": 900}, color_scheme=scheme
            )
            page = context.new_page()
            open_box(page, site_url)
            box = page.locator("#minilm-run")
            box.scroll_into_view_if_needed()
            box.screenshot(path=f"{SHOTS}/box-{scheme}-{width}.png")
            run(page, SENTENCE)
            box.screenshot(path=f"{SHOTS}/result-{scheme}-{width}.png")
            context.close()
