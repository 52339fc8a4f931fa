"""The "Inside the model" page as a reader meets it, in headless Chromium.

The numbers the page shows and the numbers its JavaScript recomputes are compared with
the package (``inside_the_model.compute``), whose own correctness tests/test_inside_the_model.py checks
against PyTorch. Every test also asserts no console error and no request off the site.
"""

from __future__ import annotations

import numpy as np
import pytest

from attention_workshop.chapters import inside_the_model as inside
from attention_workshop.experiment import inside_page

pytestmark = pytest.mark.browser

PAGE = "inside-the-model/"
STEPS = [
    "Projections",
    "Scores",
    "Scale",
    "Causal mask",
    "Softmax",
    "Weighted sum",
    "Output projection",
]
IDS = [
    "projections",
    "scores",
    "scale",
    "causal-mask",
    "softmax",
    "weighted-sum",
    "output-projection",
]


def open_page(page, site_url, hash_: str = ""):
    page.goto(site_url + PAGE + hash_)
    page.wait_for_selector("#inside-explorer[data-ready]", state="attached")
    return page


def shown(page, selector: str) -> np.ndarray:
    """The numbers printed in a grid's cells (the minus sign is U+2212 on the page)."""
    rows = page.eval_on_selector_all(
        f"{selector} tbody tr",
        "trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent))",
    )
    return np.array(
        [
            [float(t.replace("−∞", "-inf").replace("−", "-")) for t in row]
            for row in rows
        ]
    )


def exact(page, name: str) -> np.ndarray:
    """Every digit of a grid of the explorer: each cell's data-v (-inf for a masked score)."""
    rows = page.eval_on_selector_all(
        f'.ins-grids table[data-name="{name}"] tbody tr',
        "trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.dataset.v))",
    )
    return np.array([[float(v) for v in row] for row in rows])


def step(page) -> int:
    """The step the explorer shows (its current step button)."""
    return int(
        page.locator('.ins-stepbtn[aria-current="step"]').get_attribute("data-step")
    )


def selected_row(page) -> int:
    """The selected token (0-based): the one the nudge buttons edit."""
    return int(
        page.locator(".ins-word.ins-selected select").get_attribute("data-token")
    )


def words(page) -> list[str]:
    return page.eval_on_selector_all(".ins-words select", "ss => ss.map(s => s.value)")


def wait_for_step(page, n: int) -> None:
    page.wait_for_function(
        f"document.querySelector('.ins-stepbtn[aria-current=step]')?.dataset.step === '{n}'"
    )


def title(page) -> str:
    return page.locator(".ins-title").inner_text()


def clean(log) -> None:
    assert log.console_errors == [], f"console errors: {log.console_errors}"
    assert log.foreign_requests == [], f"requests off the site: {log.foreign_requests}"


#: The grids of each step, by name, and the key of inside.compute each one shows (of the head shown).
GRIDS = {
    1: {"x": "x", "q": "q", "k": "k", "v": "v"},
    2: {"scores": "scores"},
    3: {"scaled": "scaled"},
    4: {"masked": "masked"},
    5: {"weights": "weights"},
    6: {"heads": "heads"},
    7: {"concat": "concat", "y": "y"},
}


def assert_matches_package(page, label: str, nudge=None) -> None:
    """Every grid of every step, for both heads, as the page shows it (every digit), equals inside.compute
    on the words the page shows and ``nudge``. The page is left at the step and head it was on."""
    at, head_at = (
        step(page),
        int(page.locator('.ins-head[aria-pressed="true"]').get_attribute("data-head")),
    )
    ref = inside.compute(words(page), None if nudge is None else np.array(nudge))
    for head in (0, 1):
        page.click(f'.ins-head[data-head="{head}"]')
        for n, grids in GRIDS.items():
            page.click(f'.ins-stepbtn[data-step="{n}"]')
            for name, key in grids.items():
                want = (
                    getattr(ref, key)
                    if key in ("x", "concat", "y")
                    else getattr(ref, key)[head]
                )
                np.testing.assert_allclose(
                    exact(page, name),
                    want,
                    rtol=0,
                    atol=1e-9,
                    err_msg=f"{label}: {name}, head {head + 1}",
                )
    page.click(f'.ins-head[data-head="{head_at}"]')
    page.click(f'.ins-stepbtn[data-step="{at}"]')


def test_seven_steps_by_mouse_and_by_keyboard(page_and_log, site_url):
    page, log = page_and_log
    open_page(page, site_url)
    assert title(page) == "Step 1 of 7: Projections"
    for n, name in enumerate(STEPS, 1):
        page.click(f'.ins-stepbtn[data-step="{n}"]')
        assert title(page) == f"Step {n} of 7: {name}"
        assert page.evaluate("location.hash") == f"#step={n}"
        current = page.eval_on_selector_all(
            ".ins-line.ins-current", "ls => ls.map(l => l.dataset.steps)"
        )
        assert current and all(str(n) in c.split() for c in current), (
            f"step {n}: code lines {current}"
        )
        # the explanation is the static section's own paragraph
        static = page.locator(f"#{IDS[n - 1]} + p").inner_text()
        assert page.locator(".ins-text p").first.inner_text() == static
    page.click(".ins-prev")
    assert title(page).startswith("Step 6 of 7")
    page.click(".ins-next")
    assert page.locator(".ins-next").is_disabled()

    page.locator(".ins-stepbtn[data-step='7']").focus()
    for n in range(6, 0, -1):
        page.keyboard.press("ArrowLeft")
        assert title(page) == f"Step {n} of 7: {STEPS[n - 1]}"
    page.keyboard.press("ArrowLeft")  # already at the first step: stays
    assert step(page) == 1
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert (
        title(page) == "Step 3 of 7: Scale"
        and page.evaluate("location.hash") == "#step=3"
    )
    # Tab reaches the controls, and focus is visible
    page.keyboard.press("Tab")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "keyboard focus must be visible"
    clean(log)


def test_a_step_can_be_linked(page_and_log, site_url):
    page, log = page_and_log
    open_page(page, site_url, "#step=5")
    assert title(page) == "Step 5 of 7: Softmax"
    page.evaluate("location.hash = '#step=2'")
    page.wait_for_function(
        "document.querySelector('.ins-title').textContent.startsWith('Step 2')"
    )
    clean(log)


def test_scale_and_head_switch_show_the_packages_numbers(page_and_log, site_url):
    page, log = page_and_log
    open_page(page, site_url, "#step=5")
    ref = inside.compute()
    np.testing.assert_allclose(
        shown(page, '.ins-grids table[data-name="weights"]'),
        ref.weights[0],
        atol=0.005 + 1e-12,
    )
    page.click('.ins-head[data-head="1"]')
    assert "head 2" in page.locator(".ins-grids caption").inner_text()
    np.testing.assert_allclose(
        shown(page, '.ins-grids table[data-name="weights"]'),
        ref.weights[1],
        atol=0.005 + 1e-12,
    )

    page.click('.ins-scale[data-scale="gpt2"]')
    text = page.locator("#inside-explorer").inner_text()
    assert "768" in text and "2304" in text
    assert (
        page.locator(".ins-grids table").count() == 0
    )  # GPT-2 shows shapes and costs, not numbers
    assert (
        "12 × [1024×1024]" in page.locator(".ins-op").inner_text()
    )  # shapes: plain digits
    assert "(1, 12, 1024, 64)" in page.locator(".ins-code").inner_text()
    page.click('.ins-stepbtn[data-step="1"]')
    assert "3.5 MFLOPs per token" in page.locator(".ins-op").inner_text()
    page.click('.ins-stepbtn[data-step="7"]')
    assert "1.2 MFLOPs per token" in page.locator(".ins-op").inner_text()
    page.click('.ins-scale[data-scale="toy"]')
    np.testing.assert_allclose(
        shown(page, '.ins-grids table[data-name="y"]'), ref.y, atol=0.005 + 1e-12
    )
    assert "(1, 2, 5, 4)" in page.locator(".ins-code").inner_text()
    clean(log)


def test_row_breakdown_by_click_hover_and_keys(page_and_log, site_url):
    page, log = page_and_log
    open_page(page, site_url, "#step=6")
    ref = inside.compute()
    page.click('.ins-grids .ins-rowbtn[data-row="2"]')
    assert "3 by" in page.locator(".ins-rowpanel h4").inner_text()
    weights = page.eval_on_selector_all(
        ".ins-breakdown tbody tr:not(.ins-sum) td:nth-child(3)",
        "tds => tds.map(t => t.textContent)",
    )
    np.testing.assert_allclose(
        [float(w) for w in weights], ref.weights[0, 2], atol=0.005 + 1e-12
    )
    out = (
        page.locator(".ins-breakdown .ins-out")
        .inner_text()
        .strip("[]")
        .replace("−", "-")
    )
    np.testing.assert_allclose(
        [float(v) for v in out.split(",")], ref.heads[0, 2], atol=0.0005 + 1e-12
    )
    assert (
        page.locator(".ins-breakdown .ins-future").count() == 2
    )  # tokens 4 and 5 are hidden from token 3

    # hovering another row does not select it
    page.hover('.ins-grids tr[data-row="0"]')
    assert (
        selected_row(page) == 2
        and "3 by" in page.locator(".ins-rowpanel h4").inner_text()
    )

    page.locator('.ins-grids .ins-rowbtn[data-row="0"]').focus()
    page.keyboard.press("ArrowDown")
    assert selected_row(page) == 1
    assert page.evaluate("document.activeElement.dataset.row") == "1"
    clean(log)


def test_hover_does_not_change_which_token_a_nudge_edits(page_and_log, site_url):
    """the pointer passing over "5 bank" on its way to a nudge button must not select it."""
    page, log = page_and_log
    open_page(page, site_url, "#step=1")
    before = exact(page, "x")
    page.click(
        '.ins-grids table[data-name="x"] .ins-rowbtn[data-row="1"]'
    )  # select "2 boat"
    page.hover(
        '.ins-grids table[data-name="x"] tr[data-row="4"]'
    )  # the pointer crosses another row
    assert selected_row(page) == 1, "hovering a row selected it"
    page.click('.ins-plus[data-feature="0"]')
    assert 'Nudge token 2 ("boat")' in page.locator(".ins-nudges p").inner_text()
    changed = np.argwhere(exact(page, "x") != before).tolist()
    assert changed == [[1, 0]], (
        f"the nudge changed x at {changed}, not token 2's first number"
    )
    clean(log)


def test_arrow_keys_move_from_the_focused_row(page_and_log, site_url):
    """ArrowDown on a row button selects the row under it, wherever the selection was."""
    page, log = page_and_log
    open_page(page, site_url, "#step=5")
    page.click('.ins-grids .ins-rowbtn[data-row="3"]')
    page.locator('.ins-grids .ins-rowbtn[data-row="0"]').focus()
    page.keyboard.press("ArrowDown")
    assert selected_row(page) == 1, (
        "ArrowDown moved from the selected row, not the focused one"
    )
    assert page.evaluate("document.activeElement.dataset.row") == "1"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # already the first row: stays
    assert (
        selected_row(page) == 0
        and page.evaluate("document.activeElement.dataset.row") == "0"
    )
    clean(log)


def test_live_edits_equal_the_package(page_and_log, site_url):
    page, log = page_and_log
    open_page(page, site_url, "#step=7")
    assert_matches_package(page, "the page's own input")

    # 1. pick other words
    page.select_option('select[data-token="1"]', "money")
    page.select_option('select[data-token="4"]', "vault")
    assert words(page) == ["the", "money", "by", "the", "vault"]
    assert_matches_package(page, "words picked")
    ref = inside.compute(["the", "money", "by", "the", "vault"])
    np.testing.assert_allclose(
        shown(page, '.ins-grids table[data-name="y"]'), ref.y, atol=0.005 + 1e-12
    )

    # 2. nudge the selected token's numbers (the page adds 0.1 at a time: so does the expected nudge)
    page.click('.ins-grids .ins-rowbtn[data-row="2"]')
    nudge = np.zeros((5, inside.TOY.n_embd))
    for _ in range(3):
        page.click('.ins-plus[data-feature="1"]')
        nudge[2, 1] += 0.1
    page.click('.ins-minus[data-feature="5"]')
    nudge[2, 5] += -0.1
    assert_matches_package(page, "nudged", nudge)

    # 3. more tokens, up to 8, and the grid grows
    for _ in range(3):
        page.click(".ins-more")
    assert (
        len(words(page)) == inside.MAX_TOKENS
        and page.locator(".ins-more").is_disabled()
    )
    page.click('.ins-stepbtn[data-step="2"]')
    assert shown(page, '.ins-grids table[data-name="scores"]').shape == (8, 8)
    assert (
        "64 score cells" in page.locator(".ins-growth").inner_text()
        and "×4" in page.locator(".ins-growth").inner_text()
    )
    assert_matches_package(
        page, "8 tokens", np.vstack([nudge, np.zeros((3, inside.TOY.n_embd))])
    )

    # 4. down to one token: all its weight on itself
    for _ in range(7):
        page.click(".ins-fewer")
    assert len(words(page)) == 1
    assert_matches_package(page, "1 token")
    page.click('.ins-stepbtn[data-step="5"]')
    for head in (1, 0):
        page.click(f'.ins-head[data-head="{head}"]')
        assert exact(page, "weights").tolist() == [[1.0]]
    clean(log)


def test_without_javascript_every_step_is_static(browser, site_url):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + PAGE)
    for sid, name in zip(IDS, STEPS):
        assert name in page.locator(f"#{sid}").inner_text()
    assert page.locator(".ins-static").count() == 7
    assert page.locator(".ins-nojs").is_visible()
    ref = inside.compute()
    np.testing.assert_allclose(
        shown(page, '.ins-static[data-step="5"] table.ins-grid'),
        ref.weights[0],
        atol=0.005 + 1e-12,
    )
    context.close()


def test_narrow_dark_and_reduced_motion(browser, site_url):
    context = browser.new_context(
        viewport={"width": 375, "height": 800},
        color_scheme="dark",
        reduced_motion="reduce",
    )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_page(page, site_url, "#step=5")
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    assert page.evaluate("document.documentElement.scrollWidth") <= 376, (
        "the page must not scroll sideways at 375px"
    )
    box = page.locator(".ins-next").bounding_box()
    assert box and box["x"] + box["width"] <= 375
    # light text on the dark scheme's cells
    rgb = page.eval_on_selector(
        ".ins-grids td.ins-pos", "td => getComputedStyle(td).color"
    )
    r, g, b = (int(v) for v in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    assert (r + g + b) / 3 > 150, f"cell text {rgb} is too dark for the slate scheme"
    assert (
        page.eval_on_selector(
            ".ins-next", "b => getComputedStyle(b).transitionDuration"
        )
        == "0s"
    )
    assert errors == []
    context.close()


def active(page) -> str:
    """What has the keyboard: a short description of document.activeElement."""
    return page.evaluate(
        "(() => { const a = document.activeElement; return a === document.body || !a ? 'BODY' : "
        "a.tagName + '.' + a.className + (a.dataset.fkey ? '#' + a.dataset.fkey : ''); })()"
    )


def test_arrow_keys_belong_to_the_explorer_only(page_and_log, site_url):
    page, log = page_and_log
    page.set_viewport_size({"width": 1280, "height": 800})
    open_page(page, site_url, "#step=3")
    # the code box scrolls with the keyboard and keeps its arrows
    code = page.locator(".ins-code")
    assert code.get_attribute("tabindex") == "0"
    code.focus()
    for key in ("ArrowRight", "ArrowLeft"):
        page.keyboard.press(key)
        assert step(page) == 3, f"{key} in the code box must not change the step"
    # a word dropdown keeps its arrows too
    page.locator('select[data-token="0"]').focus()
    page.keyboard.press("ArrowRight")
    assert step(page) == 3
    # a control of the explorer: the arrows move the steps
    page.locator('.ins-head[data-head="0"]').focus()
    page.keyboard.press("ArrowRight")
    assert step(page) == 4
    # nothing focused, explorer in view: they still do
    page.evaluate(
        "document.activeElement.blur(); document.getElementById('inside-explorer').scrollIntoView()"
    )
    page.keyboard.press("ArrowLeft")
    assert step(page) == 3
    # reading far below the explorer: they do not
    page.evaluate(
        "document.activeElement.blur(); document.getElementById('code').scrollIntoView()"
    )
    page.keyboard.press("ArrowRight")
    assert step(page) == 3, (
        "a key pressed far below the explorer must not change its step"
    )
    # a wide table of the static steps that scrolls sideways keeps its arrows
    page.set_viewport_size({"width": 375, "height": 800})
    page.evaluate("document.getElementById('inside-explorer').scrollIntoView()")
    wide = page.evaluate("""(() => {
        for (const m of document.querySelectorAll('#inside-explorer .ins-matrix'))
            if (m.scrollWidth > m.clientWidth + 1) { m.querySelector('.ins-rowbtn').focus(); return true; }
        return false; })()""")
    assert wide, "at 375px some grid of step 3 should scroll sideways"
    page.keyboard.press("ArrowRight")
    assert step(page) == 3, "a grid that scrolls sideways keeps its arrow keys"
    clean(log)


def test_code_box_fits_at_1280_at_both_scales(page_and_log, site_url):
    page, log = page_and_log
    page.set_viewport_size({"width": 1280, "height": 800})
    open_page(page, site_url, "#step=1")
    fits = "(p => p.scrollWidth <= p.clientWidth + 1)"
    assert page.eval_on_selector(".ins-code", fits), (
        "toy scale: the code box overflows at 1280px"
    )
    page.click('.ins-scale[data-scale="gpt2"]')
    assert page.eval_on_selector(".ins-code", fits), (
        "GPT-2 scale: the code box overflows at 1280px"
    )
    assert "(1, 12, 1024, 64)" in page.locator(".ins-code").inner_text()
    clean(log)


def test_focus_survives_every_re_render(page_and_log, site_url):
    page, log = page_and_log
    open_page(page, site_url, "#step=6")
    # a word changed with the keyboard in its dropdown
    page.locator('select[data-token="1"]').focus()
    page.keyboard.press("ArrowDown")
    assert words(page)[1] != "boat", "the keyboard changed the word"
    assert (
        active(page) != "BODY"
        and page.evaluate("document.activeElement.dataset.token") == "1"
    )
    # right on a row button: the next step, focus on the same row of the new grid
    page.locator('.ins-grids .ins-rowbtn[data-row="2"]').click()
    page.keyboard.press("ArrowRight")
    assert step(page) == 7 and active(page) != "BODY"
    assert page.evaluate("document.activeElement.dataset.row") == "2", active(page)
    # Enter on Next at step 6: Next becomes disabled, focus goes to a sensible control
    page.click('.ins-stepbtn[data-step="6"]')
    page.locator(".ins-next").focus()
    page.keyboard.press("Enter")
    assert step(page) == 7 and page.locator(".ins-next").is_disabled()
    assert active(page) != "BODY", "focus fell to <body> after Next at step 6"
    page.keyboard.press("ArrowLeft")  # and the keyboard still works from there
    assert step(page) == 6
    # Reset the input
    page.locator(".ins-reset").focus()
    page.keyboard.press("Enter")
    assert words(page) == list(inside.WORDS) and "ins-reset" in active(page)
    # a nudge keeps its button
    page.locator('.ins-plus[data-feature="2"]').focus()
    page.keyboard.press("Enter")
    assert "plus-2" in active(page)
    # "−" down to one token: the button becomes disabled, focus moves to "+"
    page.locator(".ins-fewer").focus()
    for _ in range(len(inside.WORDS) - 1):
        page.keyboard.press("Enter")
    assert len(words(page)) == 1 and page.locator(".ins-fewer").is_disabled()
    assert "ins-more" in active(page), active(page)
    clean(log)


def test_sum_row_prints_the_computed_sum(page_and_log, site_url):
    page, log = page_and_log
    open_page(page, site_url, "#step=6")
    for row in range(len(inside.WORDS)):
        page.click(f'.ins-grids .ins-rowbtn[data-row="{row}"]')
        total = float(page.locator(".ins-breakdown .ins-total").get_attribute("data-v"))
        assert total == pytest.approx(inside.compute().weights[0, row].sum(), abs=1e-12)
        assert abs(total - 1.0) < 1e-12
        weights = page.eval_on_selector_all(
            ".ins-breakdown tbody tr:not(.ins-sum) td:nth-child(3)",
            "tds => tds.map(t => t.dataset.v)",
        )
        assert total == sum(float(w) for w in weights), (
            "the sum row is not the sum of the weights above it"
        )
    clean(log)


def test_one_token_is_singular(page_and_log, site_url):
    page, log = page_and_log
    open_page(page, site_url, "#step=2")
    for _ in range(len(inside.WORDS) - 1):
        page.click(".ins-fewer")
    text = page.locator("#inside-explorer").inner_text()
    for wrong in ("1 tokens", "1 score cells", "1 cells"):
        assert wrong not in text, f"{wrong!r} at one token"
    assert "1 token:" in text and "1 score cell per head" in text
    page.click('.ins-stepbtn[data-step="4"]')
    assert "0 of 1 cell per head" in page.locator(".ins-op").inner_text()
    clean(log)


def test_gpt2_view_shows_only_what_applies(page_and_log, site_url):
    page, log = page_and_log
    open_page(page, site_url, "#step=2")
    page.click('.ins-scale[data-scale="gpt2"]')
    op = page.locator(".ins-op code").inner_text()
    assert page.locator("#inside-explorer").inner_text().count(op) == 1, (
        "the operation is printed twice"
    )
    assert page.locator(".ins-head").evaluate_all("bs => bs.every(b => b.disabled)")
    assert (
        page.locator(".ins-fewer").is_disabled()
        and page.locator(".ins-more").is_disabled()
    )
    assert page.locator(".ins-tokens").inner_text() == "1,024"
    assert (
        not page.locator(".ins-input").is_visible()
        and page.locator(".ins-toynote").is_visible()
    )
    page.click('.ins-scale[data-scale="toy"]')
    assert (
        page.locator(".ins-tokens").inner_text() == "5"
        and page.locator(".ins-input").is_visible()
    )
    assert not page.locator(".ins-head").evaluate_all("bs => bs.some(b => b.disabled)")
    clean(log)


def test_the_address_follows_the_step_shown(page_and_log, site_url):
    page, log = page_and_log
    open_page(page, site_url, "#step=99")
    assert step(page) == 7 and page.evaluate("location.hash") == "#step=7"
    page.evaluate("location.hash = '#step=0'")
    wait_for_step(page, 1)
    assert page.evaluate("location.hash") == "#step=1"
    page.evaluate("location.hash = '#step=4'")
    wait_for_step(page, 4)
    page.evaluate("location.hash = '#scores'")  # a section's anchor is left alone
    assert step(page) == 4 and page.evaluate("location.hash") == "#scores"
    clean(log)


def test_no_null_or_undefined_text_at_any_step(page_and_log, site_url):
    """step 4's cost read "cells are overwrittennull". No step, at either scale, shows such text."""
    page, log = page_and_log
    open_page(page, site_url, "#step=1")
    problems = []
    for scale in ("toy", "gpt2"):
        page.click(f'.ins-scale[data-scale="{scale}"]')
        for n in range(1, len(STEPS) + 1):
            page.click(f'.ins-stepbtn[data-step="{n}"]')
            text = page.locator("#inside-explorer").inner_text()
            problems += [
                f"{scale}, step {n}: {word!r} in {text[max(0, text.index(word) - 50) : text.index(word) + 10]!r}"
                for word in ("null", "undefined", "NaN", "[object")
                if word in text
            ]
    assert problems == [], "\n".join(problems)
    page.click('.ins-scale[data-scale="toy"]')
    page.click('.ins-stepbtn[data-step="4"]')
    assert (
        page.locator(".ins-op strong").inner_text()
        == inside_page.step_texts(len(inside.WORDS))[3]["cost"]
    )
    clean(log)


@pytest.mark.parametrize("name", ["constructor", "__proto__", "toString"])
def test_only_the_vocabularys_own_words_are_words(page_and_log, site_url, name):
    """the word check used `in`, so names every object has passed as words and broke the page.
    A word picker given such a name (here added to its options by the test) keeps its word."""
    page, log = page_and_log
    open_page(page, site_url, "#step=7")
    before = exact(page, "y")
    page.evaluate(
        """name => { const s = document.querySelector('select[data-token="1"]');
        s.add(new Option(name, name)); s.value = name; s.dispatchEvent(new Event('change', { bubbles: true })); }""",
        name,
    )
    assert words(page) == list(inside.WORDS), f"{name!r} was taken as a word"
    assert (exact(page, "y") == before).all()
    clean(log)


def _rgb(css: str) -> list[int]:
    return [int(v) for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3]]


def _blend(weights) -> list[float]:
    """The tokens' colours averaged by ``weights``, worked out here (not by model.js)."""
    palette = [
        [int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in inside_page.TOKEN_COLOURS
    ]
    return list(np.array(weights) @ np.array(palette[: len(weights)]))


def test_token_colours_show_where_information_moved(page_and_log, site_url):
    """Each token has the data's colour; each output row of the weighted sum shows the blend of the
    tokens' colours by its weights (the first row, which sees only itself, keeps its own)."""
    page, log = page_and_log
    open_page(page, site_url, "#step=6")
    own = page.eval_on_selector_all(
        ".ins-words .ins-swatch",
        "ss => ss.map(s => getComputedStyle(s).backgroundColor)",
    )
    assert [_rgb(c) for c in own] == [
        [int(c[i : i + 2], 16) for i in (1, 3, 5)]
        for c in inside_page.TOKEN_COLOURS[: len(inside.WORDS)]
    ]
    rows = page.eval_on_selector_all(
        '.ins-grids table[data-name="heads"] .ins-rowbtn .ins-swatch',
        "ss => ss.map(s => getComputedStyle(s).backgroundColor)",
    )
    weights = inside.compute().weights[0]  # head 1
    for i, css in enumerate(rows):
        np.testing.assert_allclose(
            _rgb(css), _blend(weights[i]), atol=0.5 + 1e-9, err_msg=f"row {i + 1}"
        )
    assert rows[0] == own[0], "the first token draws only from itself"
    # the breakdown's sum row carries the selected row's blend
    page.click('.ins-grids .ins-rowbtn[data-row="3"]')
    total = page.eval_on_selector(
        ".ins-breakdown .ins-sum .ins-swatch",
        "s => getComputedStyle(s).backgroundColor",
    )
    np.testing.assert_allclose(_rgb(total), _blend(weights[3]), atol=0.5 + 1e-9)
    clean(log)


def test_gpt2_scale_draws_the_matrices_and_the_flops(page_and_log, site_url):
    """At GPT-2 scale the explorer shows the matrices to scale and the FLOPs per step (the page's own
    figures, in the page's scheme), not two sentences saying they are too many to draw."""
    page, log = page_and_log
    open_page(page, site_url, "#step=1")
    page.click('.ins-scale[data-scale="gpt2"]')
    box = page.locator(".ins-gpt2")
    shown = box.locator("img:visible").evaluate_all(
        "is => is.map(i => i.getAttribute('src'))"
    )
    assert [s.rsplit("/", 1)[-1] for s in shown] == [
        "gpt2-blocks.svg#only-light",
        "gpt2-flops.svg#only-light",
    ]
    assert "too many to draw" not in box.inner_text()
    page.click('.ins-stepbtn[data-step="2"]')  # re-drawn: still one copy of each
    assert box.locator("figure").count() == 2
    clean(log)


def test_the_static_steps_wait_for_readers_without_javascript(browser, site_url):
    """With the explorer running, the static copy of every matrix is hidden (it was about 10,500 px
    of page); without JavaScript all seven steps are there, thousands of pixels of them."""
    static = {}
    for js in (True, False):
        context = browser.new_context(
            java_script_enabled=js, viewport={"width": 1280, "height": 900}
        )
        page = context.new_page()
        page.goto(site_url + PAGE, wait_until="networkidle")
        if js:
            page.wait_for_selector("#inside-explorer[data-ready]", state="attached")
        static[js] = page.eval_on_selector_all(
            ".ins-static", "ss => ss.map(s => s.getBoundingClientRect().height)"
        )
        context.close()
    assert static[True] == [0] * 7, "the static steps show beside the explorer"
    assert len(static[False]) == 7 and sum(static[False]) > 3000, static[False]


#: Where the explorer's parts are on the page: (left, top, right, bottom) of each, in page pixels.
_LAYOUT = """() => Object.fromEntries(['.ins-grids', '.ins-input', '.ins-rowpanel', '.ins-codebox'].map(s => {
  const b = document.querySelector(s).getBoundingClientRect();
  return [s, [b.left, b.top + scrollY, b.right, b.bottom + scrollY]];
}))"""


def layout_problems(page, width: int) -> list[str]:
    """What is out of place in the explorer (open at step 1) at this width: at 1280 px the input
    starts within a screen's height of the grids it changes and sits beside them, with the row
    breakdown beside the grids too; on a phone they stack, under the grids. The code panel's text is
    at least 13 px at every width."""
    at = page.evaluate(_LAYOUT)
    grids, inputs, row = at[".ins-grids"], at[".ins-input"], at[".ins-rowpanel"]
    screen = page.viewport_size["height"]
    problems = []
    if width >= 1280:
        if abs(inputs[1] - grids[1]) > screen:
            problems.append(
                f"the input starts {inputs[1] - grids[1]:.0f} px below the grids"
            )
        for name, box in (("input", inputs), ("row breakdown", row)):
            if box[0] < grids[2] or box[1] > grids[3]:
                problems.append(f"the {name} {box} is not beside the grids {grids}")
    elif not (inputs[1] >= grids[3] and row[1] >= grids[3]):
        problems.append(
            f"on a phone the input {inputs} and row breakdown {row} are not under the grids {grids}"
        )
    size = page.eval_on_selector(
        "pre.ins-code", "p => parseFloat(getComputedStyle(p).fontSize)"
    )
    if size < 13:
        problems.append(f"the code panel's text is {size} px")
    return problems


@pytest.mark.parametrize("width", [1280, 375])
def test_the_input_and_the_row_breakdown_sit_beside_the_grids(browser, site_url, width):
    """Seed 004's layout at 1280 px (the inputs used to start about 1,400 px below the matrices they
    change, the breakdown under the grid), stacked on a phone; code in a readable size (it was 12.4 px)."""
    context = browser.new_context(
        viewport={"width": width, "height": 900 if width > 400 else 800}
    )
    page = context.new_page()
    open_page(page, site_url, "#step=1")
    assert layout_problems(page, width) == []
    context.close()


def test_the_layout_check_can_fail(browser, site_url):
    """The explorer laid out as it was (one column, the input last, the code at 12.4 px) fails the check."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    open_page(page, site_url, "#step=1")
    page.add_style_tag(
        content=".md-typeset .ins-main { display: block !important; }"
        ".md-typeset .ins-side { display: flex !important; flex-direction: column-reverse; }"
        ".md-typeset pre.ins-code { font-size: .62rem !important; }"
    )
    page.evaluate(
        "document.querySelector('.ins-ui').append(document.querySelector('.ins-input'))"
    )
    problems = layout_problems(page, 1280)
    context.close()
    assert any("below the grids" in p for p in problems), problems
    assert any("row breakdown" in p and "not beside" in p for p in problems), problems
    assert any("code panel" in p for p in problems), problems
