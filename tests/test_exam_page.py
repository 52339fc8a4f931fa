"""The final exam's page: a form without answers, the answers as JSON, and the rules line's values."""

from __future__ import annotations

import html as html_lib
import json
import re

import pytest

from workshop_site import exam_page, site

from .exam_sheets import PASS, N

QS = {q.qid: q for q in exam_page.questions()}
FORM = exam_page.form_html()


def test_site_files_hold_the_answers():
    files = exam_page.site_files()
    assert list(files) == ["generated/exam.json"]
    data = json.loads(files["generated/exam.json"])
    assert (
        data["pass_mark"] == 70
        and data["slack"] == 1e-9
        and len(data["questions"]) == N
    )
    assert [d["id"] for d in data["questions"]] == list(QS)
    for d in data["questions"]:
        q = QS[d["id"]]
        assert d["answer"] == (list(q.answer) if q.kind == "multiple" else q.answer), (
            q.qid
        )
        assert (d["kind"], d["tol"], d["explanation_html"], d["answer_html"]) == (
            q.kind, q.tol, exam_page.typeset(q.explanation),
            exam_page.typeset(q.answer_text())), q.qid  # fmt: skip
    assert data == exam_page.exam_data()
    assert by_id(data, "per-head")["answer_html"] == "147,456"
    assert by_id(data, "max-trick")["answer_html"].startswith(
        "It keeps exp from overflowing"
    )


@pytest.mark.parametrize(
    ("text", "html"),
    [
        (
            "no division by √d_k: as d_k grows",
            "no division by √<var>d</var><sub><var>k</var></sub>: as <var>d</var><sub><var>k</var></sub> grows",
        ),
        ("a few times 2^−52 (machine", "a few times 2<sup>−52</sup> (machine"),
        (
            "its W_Q, W_K and W_V",
            "its <var>W</var><sub><var>Q</var></sub>, <var>W</var><sub><var>K</var></sub> "
            "and <var>W</var><sub><var>V</var></sub>",
        ),
        ("maps d_model = 768", "maps <var>d</var><sub>model</sub> = 768"),
        (
            "e^x rounds to 0; e^2 + 1",
            "<var>e</var><sup><var>x</var></sup> rounds to 0; "
            "<var>e</var><sup>2</sup> + 1",
        ),
        ("calls it head_dim).", "calls it <code>head_dim</code>)."),
        (
            "F.scaled_dot_product_attention",
            "F.<code>scaled_dot_product_attention</code>",
        ),
        (
            "Hugging Face's <b> & d_k",
            "Hugging Face&#x27;s &lt;b&gt; &amp; <var>d</var><sub><var>k</var></sub>",
        ),
        (
            "x_1 y^2 ab_c",
            "<var>x</var><sub>1</sub> <var>y</var><sup>2</sup> <code>ab_c</code>",
        ),
        ("snake_case_2 2_000", "snake_case_2 2_000"),
    ],
)
def test_the_notation_is_set_as_the_pages_set_it(text, html):
    assert exam_page.typeset(text) == html


def test_every_exam_text_keeps_its_words_and_loses_its_underscores_and_carets():
    """Each text the page and exam.json show: the same characters once typeset (less the
    underscores and carets of its notation), only the elements the page's script copies, and no
    underscore or caret left outside <code>."""
    for q in QS.values():
        texts = [q.prompt, q.explanation, q.answer_text(), q.learn_text]
        for text in texts + [o.label for o in q.options]:
            out = exam_page.typeset(text)
            tags = set(re.findall(r"</?([a-z]+)", out))
            assert tags <= set(exam_page.TYPESET_TAGS), (q.qid, tags)
            shown = html_lib.unescape(re.sub(r"<[^>]+>", "", out))
            drop = str.maketrans("", "", "_^")
            assert shown.translate(drop) == text.translate(drop), (q.qid, text)
            assert not re.search(r"[_^]", re.sub(r"<code>.*?</code>", "", out)), out


def by_id(data: dict, qid: str) -> dict:
    return next(d for d in data["questions"] if d["id"] == qid)


def test_the_form_holds_no_answers():
    assert "checked" not in FORM and "data-answer" not in FORM
    assert FORM.count("<fieldset") == N and FORM.count("<legend>") == N
    for q in QS.values():
        own = re.search(
            rf'<fieldset[^>]* data-qid="{q.qid}".*?</fieldset>', FORM, re.DOTALL
        ).group(0)
        text = re.sub(r"Question \d+\.", "", re.sub(r"<[^>]*>", " ", own))
        if q.kind == "numeric":
            assert not re.search(rf"(?<![\d.,]){re.escape(q.display)}(?![\d,]|\.\d)", text), \
                f"{q.qid}: its answer {q.display} is in the markup"  # fmt: skip
        assert q.explanation not in FORM


def test_the_form_names_its_version_count_pass_mark_and_data():
    data_text = exam_page.site_files()["generated/exam.json"]
    assert re.fullmatch(r"[0-9a-f]{12}", exam_page.version())
    assert (
        f'data-version="{exam_page.version()}" data-count="{N}" data-pass-mark="70"'
        in FORM
    )
    assert '<a class="exam-data" href="generated/exam.json" hidden>answers</a>' in FORM
    import hashlib

    assert exam_page.version() == hashlib.sha256(data_text.encode()).hexdigest()[:12]


def test_only_the_grade_button_grades():
    assert (
        'type="submit"' not in FORM
    )  # no submit button: Enter in an answer box cannot grade
    assert re.search(
        r'<button type="button" class="[^"]*exam-grade[^"]*">Grade my answers</button>',
        FORM,
    )


def test_every_input_has_a_label():
    ids = re.findall(r'<input [^>]*id="([^"]+)"', FORM)
    assert len(ids) > N
    for i in ids:
        assert f'for="{i}"' in FORM, i


def test_the_prompts_are_escaped():
    assert "&quot;the river bank&quot;" in FORM and '"the river bank"' not in FORM


def test_same_bytes_twice():
    assert (
        exam_page.site_files() == exam_page.site_files()
        and exam_page.form_html() == FORM
    )


def test_the_rules_line_values():
    assert exam_page.values() == {
        "count": str(N),
        "pass_mark": "70",
        "pass_count": str(PASS),
    }
    ctx = site.context()
    assert (ctx["exam.count"], ctx["exam.pass_mark"], ctx["exam.pass_count"]) == (
        str(N),
        "70",
        str(PASS),
    )


@pytest.mark.site
def test_built_page_links_to_real_sections_and_hides_the_answers(built_site):
    page = (built_site / "final-exam" / "index.html").read_text(encoding="utf-8")
    assert page.count('<fieldset class="exam-q"') == N
    rules = (f'<p class="exam-rules"><strong>{N} questions.</strong> The pass mark is 70%: '
             f"{PASS} correct answers out of {N}.</p>")  # fmt: skip
    assert rules in page
    assert (
        json.loads((built_site / "generated" / "exam.json").read_text(encoding="utf-8"))
        == exam_page.exam_data()
    )
    for q in QS.values():
        assert q.explanation not in page, q.qid
        target, anchor = q.learn.split("#")
        html = (built_site / target.removesuffix(".md") / "index.html").read_text(
            encoding="utf-8"
        )
        assert f'id="{anchor}"' in html, (
            f"{q.qid} links to {q.learn}, which has no such section"
        )
        assert f'href="../{target.removesuffix(".md")}/#{anchor}"' in page, q.qid
