"""The final exam as a reader meets it, in headless Chromium.

The exam is completed by keyboard alone (Tab, arrow keys, Space, typing, Enter); the
page's grading (docs/assets/exam/exam.js) is checked against the Python grader
(attention_workshop.chapters.final_exam.grading.grade) on the same answers, edge cases included.
"""

from __future__ import annotations

import functools
import html
import json
import re

import pytest

from attention_workshop.chapters import final_exam
from attention_workshop.chapters.final_exam import grading as final_exam_grading
from workshop_site import exam_page

from .exam_sheets import (
    PASS,
    N,
    answers_with,
    grading_sheets,
    label_sets,
    right,
    typed_numbers,
    wrong,
)

pytestmark = pytest.mark.browser


@functools.cache
def as_shown(markup: str) -> str:
    """The text a browser shows for exam.json's HTML: its tags taken out, its entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def qs() -> tuple:
    """The exam's questions with this build's answers: computed when a test first asks, not
    while the suite collects (the other tiers collect this file too, and skip it)."""
    questions = exam_page.questions()
    assert len(questions) == N, f"{len(questions)} questions, the data file holds {N}"
    return questions


def open_exam(page, site_url: str) -> None:
    page.goto(site_url + "final-exam/")
    page.wait_for_selector("#exam-form[data-ready]", state="attached")


def active_matches(page, selector: str) -> bool:
    return page.evaluate(
        "s => !!document.activeElement && document.activeElement.matches(s)", selector
    )


def tab_to(page, selector: str, limit: int = 400) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(limit):
        if active_matches(page, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def answer_by_keyboard(page, answers: dict) -> None:
    """Fill the whole exam with the keyboard only, question after question."""
    for q in qs():
        a = answers[q.qid]
        if q.kind == "single":
            tab_to(page, f'input[name="q-{q.qid}"]')
            for _ in range(
                len(q.options) + 1
            ):  # arrow keys move and select within the group
                if page.evaluate("() => document.activeElement.value") == a:
                    break
                page.keyboard.press("ArrowDown")
            page.keyboard.press("Space")
            assert page.is_checked(f"#q-{q.qid}-{a}"), q.qid
        elif q.kind == "multiple":
            for o in q.options:
                tab_to(page, f"#q-{q.qid}-{o.key}")
                if page.is_checked(f"#q-{q.qid}-{o.key}") != (o.key in a):
                    page.keyboard.press("Space")
        else:
            tab_to(page, f"#q-{q.qid}-input")
            page.keyboard.press("Control+A")
            page.keyboard.type(a)


def grade_by_keyboard(page) -> None:
    tab_to(page, "button.exam-grade")
    page.keyboard.press("Enter")
    page.wait_for_selector(".exam-result:not([hidden])")


def score_line(page) -> str:
    return " ".join(page.inner_text(".exam-score").split())


def assert_clean(log) -> None:
    assert log.console_errors == [], log.console_errors
    assert log.foreign_requests == [], log.foreign_requests


@pytest.mark.parametrize("n_right", [N, PASS, PASS - 1])
def test_keyboard_only_exam(page_and_log, site_url, n_right):
    page, log = page_and_log
    open_exam(page, site_url)
    body = page.content()
    assert all(
        q.explanation not in body and exam_page.typeset(q.explanation) not in body
        for q in qs()
    ), "explanations must not ship in the markup"
    answers = answers_with(n_right)
    answer_by_keyboard(page, answers)
    grade_by_keyboard(page)

    score, passed = final_exam_grading.grade(qs(), answers)
    assert (score, passed) == (n_right, n_right >= PASS)
    verdict = "PASS" if passed else "NOT YET"
    line = score_line(page)
    assert (
        f"{score}/{N}" in line and f"{final_exam_grading.percent(score, N)}%" in line
    ), line
    assert page.inner_text(".exam-verdict") == verdict
    status = page.inner_text(".exam-status")
    assert (
        f"{score} out of {N}" in status and verdict in status
    )  # the live region says it aloud
    shown = page.evaluate(
        """() => [...document.querySelectorAll('.exam-status, .exam-score')]
          .filter(e => e.getBoundingClientRect().width > 1 && e.getBoundingClientRect().height > 1)
          .filter(e => /\\d+(\\/| out of )\\d+/.test(e.textContent))
          .length"""
    )
    assert shown == 1, f"the score is on screen {shown} times (once: the result's line)"
    assert active_matches(page, "#exam-result-title"), "focus moves to the result"

    items = page.locator(".exam-review > li")
    assert items.count() == N
    for i, q in enumerate(qs()):
        item = items.nth(i)
        text = item.inner_text()
        assert ("Correct" in text) == (i < n_right), (q.qid, text)
        assert "Answer: " in text and as_shown(exam_page.typeset(q.explanation)) in text
        href = item.locator(".exam-where a").get_attribute("href")
        page_name, anchor = q.learn.split("#")
        assert href.endswith(f"{page_name.removesuffix('.md')}/#{anchor}"), (
            q.qid,
            href,
        )
    assert_clean(log)


def test_retake_resets_and_reload_keeps_progress(page_and_log, site_url):
    page, log = page_and_log
    open_exam(page, site_url)
    answers = answers_with(13)
    answer_by_keyboard(page, answers)
    page.reload()
    page.wait_for_selector("#exam-form[data-ready]", state="attached")
    for q in qs():  # every answer is back after the reload
        a = answers[q.qid]
        if q.kind == "numeric":
            assert page.input_value(f"#q-{q.qid}-input") == a
        else:
            for o in q.options:
                assert page.is_checked(f"#q-{q.qid}-{o.key}") == (
                    o.key in ([a] if isinstance(a, str) else a)
                )
    assert page.locator(".exam-result").is_hidden()

    grade_by_keyboard(page)
    first = score_line(page)
    page.reload()
    page.wait_for_selector(
        ".exam-result:not([hidden])"
    )  # a graded exam comes back graded
    assert score_line(page) == first and page.locator(".exam-review > li").count() == N

    assert (
        page.evaluate(
            "() => Object.keys(localStorage).filter(k => k.includes('final-exam')).length"
        )
        == 1
    )
    tab_to(page, "button.exam-retake")
    page.keyboard.press("Enter")
    assert page.locator(".exam-result").is_hidden()
    assert page.evaluate(
        "() => [...document.querySelectorAll('#exam-form input')].every(i => i.type === 'text' ? !i.value : !i.checked)"
    )
    assert (
        page.evaluate(
            "() => Object.keys(localStorage).filter(k => k.includes('final-exam'))"
        )
        == []
    )
    assert active_matches(page, "#exam-form input"), (
        "focus returns to the first question"
    )
    page.reload()
    page.wait_for_selector("#exam-form[data-ready]", state="attached")
    assert page.evaluate(
        "() => [...document.querySelectorAll('#exam-form input')].every(i => i.type === 'text' ? !i.value : !i.checked)"
    )

    page.check(
        f"#q-{qs()[0].qid}-{qs()[0].options[0].key}"
    )  # clear works before grading too
    page.click("button.exam-clear")
    page.reload()
    page.wait_for_selector("#exam-form[data-ready]", state="attached")
    assert not page.is_checked(f"#q-{qs()[0].qid}-{qs()[0].options[0].key}")
    assert_clean(log)


def grading_module(site_url: str) -> str:
    """The URL of the page's grading module, for ``await import(url)`` inside the page."""
    return site_url + "assets/exam/grading.js"


def test_page_and_python_grade_alike(page_and_log, site_url):
    page, log = page_and_log
    open_exam(page, site_url)
    data = page.evaluate(
        "async () => (await fetch(document.querySelector('a.exam-data').href)).json()"
    )
    assert data == json.loads(exam_page.site_files()["generated/exam.json"])

    cases = grading_sheets()
    theirs = page.evaluate(
        "async ([url, data, cases]) => { const { grade } = await import(url);"
        " return cases.map(c => { const g = grade(data, c);"
        " return [g.score, g.passed, g.percent, data.questions.map(q => g.correct[q.id])]; }); }",
        [grading_module(site_url), data, cases],
    )
    assert len(theirs) == len(cases) > 200
    for case, (score, passed, pct, per_q) in zip(cases, theirs):
        assert (score, passed) == final_exam_grading.grade(qs(), case), case
        assert pct == final_exam_grading.percent(score, N)
        assert per_q == [
            q.qid in case and final_exam_grading.is_correct(q, case[q.qid])
            for q in qs()
        ], case

    typed = typed_numbers()
    parsed = page.evaluate(
        "async ([url, ts]) => { const { parseNumber } = await import(url); return ts.map(parseNumber); }",
        [grading_module(site_url), typed],
    )
    assert parsed == [final_exam_grading.parse_number(t) for t in typed]
    assert (
        final_exam_grading.parse_number("１４７４５６") == 147456
        and final_exam_grading.parse_number("١٤٧٤٥٦") is None
    )

    sets = label_sets()
    joined = page.evaluate(
        "async ([url, ls]) => { const { joinLabels } = await import(url); return ls.map(joinLabels); }",
        [grading_module(site_url), sets],
    )
    assert joined == [final_exam.join_labels(ls) for ls in sets]
    assert_clean(log)


def test_mouse_graded_sheet_matches_python(page_and_log, site_url):
    page, log = page_and_log
    open_exam(page, site_url)
    sheet = {q.qid: (right(q) if i % 3 else wrong(q)) for i, q in enumerate(qs())}
    for q in qs():
        a = sheet[q.qid]
        if q.kind == "numeric":
            page.fill(f"#q-{q.qid}-input", a)
        else:
            for key in [a] if isinstance(a, str) else a:
                page.check(f"#q-{q.qid}-{key}")
    page.click("button.exam-grade")
    page.wait_for_selector(".exam-result:not([hidden])")
    score, passed = final_exam_grading.grade(qs(), sheet)
    assert f"{score}/{N}" in score_line(page)
    assert page.inner_text(".exam-verdict") == ("PASS" if passed else "NOT YET")
    page.fill(
        f"#q-{qs()[1].qid}-input", "1"
    )  # changing an answer withdraws the old score
    assert page.locator(".exam-result").is_hidden()
    assert_clean(log)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_narrow_screen_and_both_schemes(browser, site_url, scheme):
    context = browser.new_context(
        viewport={"width": 375, "height": 800}, color_scheme=scheme
    )
    page = context.new_page()
    try:
        open_exam(page, site_url)
        page.click("button.exam-grade")
        page.wait_for_selector(".exam-result:not([hidden])")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
        fg, bg = (
            page.evaluate("""() => { const v = document.querySelector('.exam-verdict');
            const s = getComputedStyle(v); return [s.color, s.backgroundColor]; }""")
        )
        assert fg != bg
        page.keyboard.press("Tab")  # focus is drawn: an outline on the focused control
        outline = page.evaluate(
            "() => getComputedStyle(document.activeElement).outlineStyle"
        )
        assert outline not in ("none", ""), outline
    finally:
        context.close()


def test_enter_in_an_answer_box_does_not_grade(page_and_log, site_url):
    page, log = page_and_log
    fetched = []
    page.on(
        "request",
        lambda req: fetched.append(req.url) if exam_page.DATA_PATH in req.url else None,
    )
    open_exam(page, site_url)
    url = page.url
    numeric = next(q for q in qs() if q.kind == "numeric")
    single = next(q for q in qs() if q.kind == "single")
    page.focus(f"#q-{numeric.qid}-input")
    page.keyboard.type("12")
    page.keyboard.press("Enter")
    page.focus(f"#q-{single.qid}-{single.options[0].key}")
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    page.wait_for_timeout(
        300
    )  # a grade, had it started, would fetch the answers and show the result
    assert page.locator(".exam-result").is_hidden()
    assert "score" not in page.inner_text(".exam-status").lower()
    assert page.url == url and fetched == []
    assert page.input_value(f"#q-{numeric.qid}-input") == "12"  # nothing reloaded
    page.click("button.exam-grade")  # the button still grades
    page.wait_for_selector(".exam-result:not([hidden])")
    assert fetched
    assert_clean(log)


def test_stale_progress_is_removed_on_load(page_and_log, site_url):
    page, log = page_and_log
    open_exam(page, site_url)
    current = "attention-workshop/final-exam/" + exam_page.version()
    page.evaluate("""() => {
        localStorage.setItem('attention-workshop/final-exam/000000000000', '{"answers": {}, "graded": true}');
        localStorage.setItem('attention-workshop/final-exam/old', 'not even JSON');
        localStorage.setItem('attention-workshop/inside-the-model', 'another page keeps its own');
    }""")
    page.check(
        f"#q-{qs()[0].qid}-{qs()[0].options[0].key}"
    )  # saves progress under the current version
    page.reload()
    page.wait_for_selector("#exam-form[data-ready]", state="attached")
    keys = page.evaluate(
        "() => Object.keys(localStorage).filter(k => k.startsWith('attention-workshop/')).sort()"
    )
    assert keys == sorted([current, "attention-workshop/inside-the-model"]), keys
    assert page.is_checked(f"#q-{qs()[0].qid}-{qs()[0].options[0].key}")
    assert_clean(log)


def test_review_reads_without_doubled_punctuation(page_and_log, site_url):
    page, log = page_and_log
    open_exam(page, site_url)
    for q in qs():  # tick every option of the multiple-choice questions: whole sentences in the review
        if q.kind == "multiple":
            for o in q.options:
                page.check(f"#q-{q.qid}-{o.key}")
    page.click("button.exam-grade")
    page.wait_for_selector(".exam-result:not([hidden])")
    text = page.inner_text(".exam-review")
    assert not re.search(r"[.!?][;,]", text), re.search(r".{40}[.!?][;,].{40}", text)
    assert_clean(log)


#: The text of every element of ``selector`` outside <code>: what a reader reads as prose.
PROSE_TEXT = """selector => [...document.querySelectorAll(selector)].map(root => {
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const out = [];
  for (let n = walk.nextNode(); n; n = walk.nextNode()) if (!n.parentElement.closest('code')) out.push(n.data);
  return out.join('');
}).join(' ')"""


def test_the_review_sets_the_notation_as_the_questions_do(page_and_log, site_url):
    """d_k shows as d with a subscript k, 2^−52 as a power, in the questions, in the options, in
    each review's answer, explanation and link, and in the reader's own answer: no underscore or
    caret is left in the text outside code (names from code, such as head_dim, keep theirs)."""
    page, log = page_and_log
    open_exam(page, site_url)
    raw = " ".join(
        " ".join([q.prompt, q.explanation, q.learn_text, *(o.label for o in q.options)])
        for q in qs()
    )
    assert "√d_k" in raw and "2^−52" in raw and "head_dim" in raw  # the cases are there
    picked = {  # the options whose labels hold notation
        (q.qid, o.key)
        for q in qs()
        for o in q.options
        if "_" in o.label or "^" in o.label
    }
    assert picked, "no option label holds notation"
    for qid, key in picked:
        page.check(f"#q-{qid}-{key}")
    assert not re.search(r"[_^]", page.evaluate(PROSE_TEXT, "form.exam fieldset"))
    assert "<code>head_dim</code>" in page.inner_html("form.exam")
    page.click("button.exam-grade")
    page.wait_for_selector(".exam-result:not([hidden])")
    assert not re.search(r"[_^]", page.evaluate(PROSE_TEXT, ".exam-review"))
    review = page.inner_html(".exam-review")
    for seen in ("√<var>d</var><sub><var>k</var></sub>", "2<sup>−52</sup>"):
        assert seen in review, seen
    for qid, _ in picked:  # the reader's own answer, as its label shows it
        item = page.locator(f".exam-review > li:has(a[href='#q-{qid}'])")
        assert re.search(r"Your answer: .*<(sub|sup)>", item.inner_html()), qid
    assert_clean(log)


def _luminance(rgb: tuple[float, float, float]) -> float:
    c = [x / 255 for x in rgb]
    c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def contrast(fg: str, bg: str) -> float:
    """WCAG contrast ratio of two opaque CSS colours given as rgb(...) strings."""
    parse = lambda s: tuple(float(v) for v in re.findall(r"[\d.]+", s)[:3])
    a, b = sorted((_luminance(parse(fg)), _luminance(parse(bg))))
    return (b + 0.05) / (a + 0.05)


BUTTONS = ("button.exam-grade", "button.exam-clear", "button.exam-retake")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_buttons_meet_aa_at_rest_hovered_and_focused(browser, site_url, scheme):
    """Every exam button, in every state, in both schemes: axe finds no contrast problem and the
    text-on-fill ratio is at least 4.5:1 (computed here from the page's own colours)."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    context = browser.new_context(
        viewport={"width": 1280, "height": 900},
        color_scheme=scheme,
        reduced_motion="reduce",
    )  # no colour transition half-way
    page = context.new_page()
    problems = []
    try:
        open_exam(page, site_url)
        page.click(
            "button.exam-grade"
        )  # shows the result, and with it the Retake button
        page.wait_for_selector(".exam-result:not([hidden])")
        want = "slate" if scheme == "dark" else "default"
        assert (
            page.evaluate("document.body.getAttribute('data-md-color-scheme')") == want
        )
        page_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
        for selector in BUTTONS:
            for state in ("rest", "hover", "focus", "focus+hover"):
                page.mouse.move(0, 0)
                page.evaluate(
                    "() => document.activeElement && document.activeElement.blur()"
                )
                if "focus" in state:
                    page.focus(selector)
                if "hover" in state:
                    page.hover(selector)
                page.wait_for_timeout(50)
                fg, bg = page.evaluate(
                    "s => { const c = getComputedStyle(document.querySelector(s));"
                    " return [c.color, c.backgroundColor]; }",
                    selector,
                )
                fill = page_bg if bg in ("rgba(0, 0, 0, 0)", "transparent") else bg
                ratio = contrast(fg, fill)
                if ratio < 4.5:
                    problems.append(
                        f"{selector} [{state}]: {fg} on {fill} is {ratio:.2f}:1"
                    )
                result = axe.run(
                    page,
                    context=".exam-actions, .exam-retake",
                    options={
                        "runOnly": ["color-contrast"],
                        "resultTypes": ["violations"],
                    },
                )
                for v in result.response["violations"]:
                    problems.append(
                        f"{selector} [{state}]: axe {v['id']} on {[n['target'] for n in v['nodes']]}"
                    )
    finally:
        context.close()
    assert not problems, "\n".join(problems)


STORAGE_KEY = "attention-workshop/final-exam/"


def no_answers(page) -> bool:
    return page.evaluate(
        "() => [...document.querySelectorAll('#exam-form input')].every(i => i.type === 'text' ? !i.value : !i.checked)"
    )


def _malformed() -> dict[str, str]:
    """Saved progress that must not come back, by what is wrong with it."""
    q = qs()[0]  # a choice question: its answer is an option key
    numeric = next(x for x in qs() if x.kind == "numeric")
    now = {"version": exam_page.version(), "answers": {}, "edited": {}, "gradedAt": 0}
    return {
        "answers null": json.dumps({"answers": None, "graded": True}),
        "answers null, new format": json.dumps({**now, "answers": None}),
        "not JSON": "not even JSON",
        "a list": "[1, 2]",
        "a number for a choice": json.dumps({"answers": {q.qid: 5}, "graded": False}),
        "a number for a typed answer": json.dumps(
            {**now, "answers": {numeric.qid: 0.5}}
        ),
        "an unknown question": json.dumps(
            {"answers": {"no-such-question": "a"}, "graded": False}
        ),
        "an option the question lacks": json.dumps(
            {"answers": {q.qid: "zz"}, "graded": False}
        ),
        "graded not a boolean": json.dumps({"answers": {}, "graded": "yes"}),
        "another version": json.dumps({**now, "version": "000000000000"}),
    }


# the cases' names, for the parametrize: _malformed() needs the exam's answers (the experiment), which
# the collection does not run
MALFORMED = (
    "answers null",
    "answers null, new format",
    "not JSON",
    "a list",
    "a number for a choice",
    "a number for a typed answer",
    "an unknown question",
    "an option the question lacks",
    "graded not a boolean",
    "another version",
)


@pytest.mark.parametrize("name", MALFORMED)
def test_unreadable_saved_progress_is_discarded_with_a_notice(
    page_and_log, site_url, name
):
    """Saved progress that does not validate never breaks the start: it is dropped, and the page says so."""
    assert sorted(_malformed()) == sorted(MALFORMED), "MALFORMED names every case"
    page, log = page_and_log
    open_exam(page, site_url)
    key = STORAGE_KEY + exam_page.version()
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, _malformed()[name]])
    page.reload()
    page.wait_for_selector("#exam-form[data-ready]", state="attached")
    assert "could not be read" in page.inner_text(".exam-status"), f"{name}: no notice"
    assert no_answers(page), f"{name}: an answer came back"
    assert page.locator(".exam-result").is_hidden()
    assert page.evaluate("k => localStorage.getItem(k)", key) is None, (
        f"{name}: the unreadable progress is kept"
    )
    page.check(
        f"#q-{qs()[0].qid}-{qs()[0].options[0].key}"
    )  # and the exam works as ever
    page.reload()
    page.wait_for_selector("#exam-form[data-ready]", state="attached")
    assert page.is_checked(f"#q-{qs()[0].qid}-{qs()[0].options[0].key}")
    assert "could not be read" not in page.inner_text(".exam-status")
    assert_clean(log)


def test_two_tabs_keep_each_others_answers(page_and_log, site_url):
    """Two open tabs of the exam: each keeps the other's answers; the later change of a question wins."""
    a, log = page_and_log
    b = a.context.new_page()
    b.on("console", log.on_console)
    b.on("pageerror", log.on_pageerror)
    open_exam(a, site_url)
    open_exam(b, site_url)
    q1, q2 = [q for q in qs() if q.kind == "single"][:2]
    numeric = next(q for q in qs() if q.kind == "numeric")
    a.check(f"#q-{q1.qid}-{q1.options[0].key}")
    b.check(f"#q-{q2.qid}-{q2.options[1].key}")
    b.fill(f"#q-{numeric.qid}-input", "0,5")
    b.wait_for_function(
        f"document.querySelector('#q-{q1.qid}-{q1.options[0].key}').checked"
    )  # tab A's answer shows in B
    a.wait_for_function(
        f"document.querySelector('#q-{numeric.qid}-input').value === '0,5'"
    )  # and B's in A
    for page in (a, b):
        page.reload()
        page.wait_for_selector("#exam-form[data-ready]", state="attached")
        assert page.is_checked(f"#q-{q1.qid}-{q1.options[0].key}"), (
            "tab A's answer was lost"
        )
        assert page.is_checked(f"#q-{q2.qid}-{q2.options[1].key}"), (
            "tab B's answer was lost"
        )
        assert page.input_value(f"#q-{numeric.qid}-input") == "0,5"
    b.check(f"#q-{q1.qid}-{q1.options[2].key}")  # B changes A's answer later: B's wins
    a.wait_for_function(
        f"document.querySelector('#q-{q1.qid}-{q1.options[2].key}').checked"
    )
    a.reload()
    a.wait_for_selector("#exam-form[data-ready]", state="attached")
    assert a.is_checked(f"#q-{q1.qid}-{q1.options[2].key}")
    a.click("button.exam-clear")  # clearing in one tab clears the other
    b.wait_for_function(
        "() => [...document.querySelectorAll('#exam-form input')].every(i => i.type === 'text' ? !i.value : !i.checked)"
    )
    assert "another tab" in b.inner_text(".exam-status")
    assert_clean(log)


def test_without_javascript_no_button_that_does_nothing(browser, site_url):
    """The questions are there to read, the note says grading needs JavaScript, and neither the
    Grade nor the Clear button shows (they would do nothing); with JavaScript both show."""
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + "final-exam/")
    assert page.locator("fieldset[data-qid]").count() == N
    # Playwright's text search skips <noscript>, so the note is found by its element
    note = page.locator("#exam-form noscript")
    assert note.is_visible() and "needs JavaScript" in note.inner_text()
    first = page.locator("fieldset[data-qid]").first.bounding_box()
    assert note.bounding_box()["y"] < first["y"], "the note comes before question 1"
    for name in ("Grade my answers", "Clear my answers"):
        assert not page.get_by_role("button", name=name).is_visible(), name
    context.close()
    context = browser.new_context()
    page = context.new_page()
    open_exam(page, site_url)
    for name in ("Grade my answers", "Clear my answers"):
        assert page.get_by_role("button", name=name).is_visible(), name
    context.close()
