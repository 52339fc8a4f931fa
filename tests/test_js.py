"""The widgets' pure JavaScript modules, tested with Node's own runner against the package.

``docs/assets/inside/model.js`` (the explorer's recompute and rules), ``docs/assets/exam/grading.js``
(the exam's grading and saved progress) and ``docs/assets/real-heads/model.js`` (the grid's rules)
need no page: ``tests/js/*.test.mjs`` test them with ``node --test``. This file hands those tests
the package's numbers without building the site: it writes the JSON files the build writes, plus
cases the package works out (the toy block on other inputs, the Python grader's verdicts on about
250 sheets, each Real heads sentence's labels and float64 weights), into a folder, and runs Node with
``ATTENTION_WORKSHOP_JS_DATA`` naming that folder. Node's output is the failure message.

``node --test tests/js/`` also runs on its own: the tests then call ``python -m tests.test_js DIR``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from attention_workshop.chapters import final_exam, real_heads
from attention_workshop.chapters import inside_the_model as inside
from attention_workshop.chapters.final_exam import grading as final_exam_grading

# The package's modules, imported in this one place (their paths may move).
from attention_workshop.experiment import (
    causal_page,
    figures,
    inside_page,
    real_heads_page,
)
from workshop_site import exam_page

from .conftest import causal_facts
from .exam_sheets import grading_sheets, label_sets, typed_numbers
from .minilm_corpus import CORPUS

ROOT = Path(__file__).resolve().parent.parent
#: The environment variable that names the folder of data for the Node tests.
DATA_ENV = "ATTENTION_WORKSHOP_JS_DATA"


def _plain(a: np.ndarray) -> list:
    """An array as JSON can hold it: -inf (a masked score) becomes null."""
    return np.where(np.isneginf(a), None, a).tolist()


def inside_cases() -> list[dict]:
    """The toy block on inputs other than the page's own: other words, nudges, 1 and 8 tokens."""
    rng = np.random.default_rng(7)
    C = inside.TOY.n_embd
    inputs = [
        (list(inside.WORDS), None),
        (
            ["the", "money", "by", "the", "vault"],
            [[0.0] * C, [0.1, 0.2, 0.0, 0.0, 0.0, -0.1, 0.0, 0.0], *[[0.0] * C] * 3],
        ),
        (["bank"], None),
        (
            ["river", "at", "the", "shore", "money", "bank", "a", "fish"],
            rng.normal(0, 0.3, size=(8, C)).tolist(),
        ),
        (["cash", "cash", "cash"], rng.normal(0, 2.0, size=(3, C)).tolist()),
    ]
    out = []
    for words, nudge in inputs:
        r = inside.compute(words, None if nudge is None else np.array(nudge))
        out.append(
            {
                "words": words,
                "nudge": nudge,
                **{k: _plain(v) for k, v in dataclasses.asdict(r).items()},
                "colours": output_colours(r.weights),
            }
        )
    return out


def output_colours(weights: np.ndarray) -> dict[str, list[list[int]]]:
    """Each output row's colour as red, green, blue (0 to 255, unrounded to the nearest unit the JS
    may round either way): the tokens' colours averaged by the row's weights, per head ("0", "1")
    and for both heads ("both", the mean of the heads' rows). Worked here with NumPy, not model.js."""
    nh, T, _ = weights.shape
    palette = inside_page.TOKEN_COLOURS
    rgb = np.array([[int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in palette])
    rgb = rgb[np.arange(T) % len(palette)]  # (T, 3): token j's colour
    rows = {str(h): weights[h] for h in range(nh)} | {"both": weights.mean(axis=0)}
    return {name: (w @ rgb).tolist() for name, w in rows.items()}  # (T, T) x (T, 3)


def exam_cases() -> dict:
    """The Python grader's verdicts, number readings and joined labels, and the form's shape."""
    qs = exam_page.questions()
    sheets = []
    for answers in grading_sheets():
        score, passed = final_exam_grading.grade(qs, answers)
        sheets.append(
            {
                "answers": answers,
                "score": score,
                "passed": passed,
                "percent": final_exam_grading.percent(score, len(qs)),
                "correct": [
                    q.qid in answers
                    and final_exam_grading.is_correct(q, answers[q.qid])
                    for q in qs
                ],
            }
        )
    return {
        "sheets": sheets,
        "numbers": [[t, final_exam_grading.parse_number(t)] for t in typed_numbers()],
        "labels": [[ls, final_exam.join_labels(ls)] for ls in label_sets()],
        # what exam.js reads from the form: the version and each question's kind and option keys
        "form": {
            "version": exam_page.version(),
            "questions": {
                q.qid: {"kind": q.kind, "options": [o.key for o in q.options]}
                for q in qs
            },
        },
    }


def real_heads_cases() -> dict:
    """Real heads: each sentence's class counts, labels and full-precision weights from the package."""
    f = real_heads.facts()
    sentences = []
    for h in f.heads:
        L, H = h.score.shape
        sentences.append(
            {
                "key": h.sentence.key,
                "counts": [h.count(c) for c in real_heads.CLASSES],
                "short": [
                    [real_heads_page.class_label(h, layer, n) for n in range(H)]
                    for layer in range(L)
                ],
                "names": [
                    [real_heads_page.head_name((layer, n)) for n in range(H)]
                    for layer in range(L)
                ],
                "labels": [
                    [real_heads.LABELS[h.classes[layer][n]] for n in range(H)]
                    for layer in range(L)
                ],
                # what each head's number measures, written here from the class: the share of
                # its place, a broad head's normalised entropy, an other head's largest share
                "numbers": [
                    [
                        {"broad": "normalised entropy", "other": "largest share"}.get(
                            h.classes[layer][n], "share"
                        )
                        + f" {h.score[layer, n]:.2f}"
                        for n in range(H)
                    ]
                    for layer in range(L)
                ],
                "weights": h.attentions.tolist(),
            }
        )
    return {"index": real_heads_page.INDEX_PATH, "sentences": sentences}


def causal_cases() -> tuple[dict, dict[str, str]]:
    """A causal model: each sentence's steps JSON, and what the page shows of some heads and rows
    (head_view, in Python) with the package's own float32 weights and scores."""
    f = causal_facts()
    files, views = {}, []
    picks = [
        (0, 0, 0),
        (f.n_layer - 1, f.n_head - 1, -1),
        (*f.induction_head, f.cat[0]),
        (4, 4, 5),
    ]
    for r in f.runs:
        data = causal_page.steps_data(r, f)
        T = len(r.tokens)
        table = causal_page.ch.step_table(
            T, f.d_model, f.n_head, f.n_kv_head, f.head_size
        )
        files[causal_page.steps_file(r.sentence.key)] = causal_page._json(data)
        for layer, head, token in picks:
            token = token % len(r.tokens)
            views.append(
                {
                    "file": causal_page.steps_file(r.sentence.key),
                    "at": [layer, head, token],
                    "view": causal_page.head_view(data, layer, head, token),
                    "weights": r.attentions[layer, head, token].tolist(),
                    "scores": r.steps.scores[layer, head, token].tolist(),
                    # the page's table of the seven steps at real size, for this T
                    "flops": [[s.smollm, s.gpt2] for s in table],
                }
            )
    levels = [[w, causal_page.level(w)] for w in range(101)]
    return {"views": views, "levels": levels}, files


#: Sentences the browser's forward pass is checked on (none of them a sentence the site builds).
MINILM_PASSES = (
    "A heron waited by the cold river at dawn.",
    "Ok",
    "Der Bäcker öffnet um 6:30, nicht später!",
)


def minilm_labels(att: np.ndarray) -> list[list[list[str]]]:
    """What the page's grid prints under each head of ``att`` (L, H, T, T): its class, then its
    number, by the package's rules (real_heads.head_scores, classify) and its labels."""
    from attention_workshop.experiment import fmt
    from attention_workshop.experiment.head_figures import NUMBER_SHORT, SHORT

    classes, score = real_heads.classify(real_heads.head_scores(att.astype(np.float64)))
    return [
        [
            [
                SHORT[c],
                f"{NUMBER_SHORT[real_heads.NUMBERS[c]]} {fmt.fixed(float(score[layer, n]), 2)}",
            ]
            for n, c in enumerate(row)
        ]
        for layer, row in enumerate(classes)
    ]


def minilm_classes_csv(att: np.ndarray) -> str:
    """The page's grid CSV (real_heads_page.classes_csv) of heads ``att`` (L, H, T, T)."""
    from attention_workshop.experiment.real_heads_page import classes_table

    scores = real_heads.head_scores(att.astype(np.float64))
    return classes_table(*real_heads.classify(scores), scores)


def minilm_cases(folder: Path) -> dict:
    """docs/assets/minilm/minilm.js's expected values: the model file as the build writes it, the
    corpus's tokens from `tokenizers`, and the package's attentions over the file's float16 weights
    (float64) and over the full float32 weights, with the bound the page states between them."""
    from attention_workshop.trained import browser, load_minilm

    path = f"generated/minilm/{browser.FILE_NAME}"
    (folder / path).parent.mkdir(parents=True, exist_ok=True)
    (folder / path).write_bytes(browser.weights_file())
    full, half = load_minilm(np.float32), browser.half_model()
    corpus = [
        {"text": t, "tokens": e.tokens, "ids": e.ids}
        for t, e in ((t, full.tokenizer.encode(t)) for t in CORPUS)
    ]
    passes = [
        {
            "text": t,
            "ids": half(t).ids.tolist(),
            "tokens": list(half(t).tokens),
            "half": half(t).attentions.tolist(),
            "full": full(t).attentions.astype(np.float64).tolist(),
            "labels": minilm_labels(half(t).attentions),
            "classes_csv": minilm_classes_csv(half(t).attentions),
            "head_csv": figures.table_csv(
                ["query", *half(t).tokens],
                [[q, *row] for q, row in zip(half(t).tokens, half(t).attentions[0, 2])],
            ),
        }
        for t in MINILM_PASSES
    ]
    return {
        "file": path,
        "corpus": corpus,
        "passes": passes,
        "bound": real_heads.HALF_BOUND,
        "share": real_heads.SHARE,
        "broad": real_heads.BROAD,
        "places": list(real_heads.PLACES),
    }


def write_js_data(folder: Path) -> None:
    """The site's JSON files (at their paths in the site) and cases.json, into ``folder``."""
    causal, causal_files = causal_cases()
    for path, text in {
        **inside_page.site_files(),
        **exam_page.site_files(),
        **real_heads_page.site_files(),
        **causal_files,
    }.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    cases = {
        "inside_json": inside_page.JSON_PATH,
        "exam_json": exam_page.DATA_PATH,
        "inside": inside_cases(),
        "exam": exam_cases(),
        "real_heads": real_heads_cases(),
        "causal": causal,
        "minilm": minilm_cases(folder),
    }
    (folder / "cases.json").write_text(
        json.dumps(cases, ensure_ascii=False), encoding="utf-8"
    )


def test_js_modules_agree_with_the_package(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip(
            "node is not installed: the JavaScript unit tests in tests/js need Node.js 20 or later"
        )
    write_js_data(tmp_path)
    proc = subprocess.run(
        [node, "--test", "tests/js/"],
        cwd=ROOT,
        env={**os.environ, DATA_ENV: str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, (
        f"node --test tests/js/ failed:\n{proc.stdout}\n{proc.stderr}"
    )
    assert "# fail 0" in proc.stdout and "# pass 0" not in proc.stdout, proc.stdout


if (
    __name__ == "__main__"
):  # python -m tests.test_js DIR: what the Node tests run when started on their own
    write_js_data(Path(sys.argv[1]))
