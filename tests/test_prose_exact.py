"""The prose as exact as the numbers (issue 21, point 8): sentences that misled a reader who moves
on to papers stay corrected, and the build's promise to check is made once per page at most.

Read from the Markdown sources and the exam's and the notation's data files, as a contributor
edits them; the numbers these sentences quote are asserted by the chapters' claims.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
NOTATION = ROOT / "src/workshop_site/notation.toml"
QUESTIONS = ROOT / "src/attention_workshop/chapters/final_exam/questions.toml"


def prose(page: str) -> str:
    """A page's Markdown with its line breaks and indentation folded: sentences on one line."""
    return " ".join((DOCS / page).read_text(encoding="utf-8").split())


def explanation(qid: str) -> str:
    qs = tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["question"]
    q = next(q for q in qs if q["id"] == qid)
    return " ".join((q["prompt"] + " " + q["explanation"]).split())


#: (page, a sentence that must be gone, a phrase that says what is true instead)
CORRECTED = [
    ("module-0.md", r"Only \$-\\infty\$ silences", "{{ softmax_shift.gap_float64 }}"),
    ("module-0.md", "not exotic", "{{ softmax_shift.exp_float16 }}"),
    ("module-2.md", "random with a spread", "each with mean 0"),
    ("module-3.md", "simplified any more", "attention dropout"),
    ("module-3.md", "to attention, a sentence is a bag of words", "without a mask"),
    ("module-3.md", "fix this before attention runs", "ALiBi"),
    ("module-3.md", "a small network", "{{ price.mlp_ratio }} times"),
    ("module-3.md", "merges the", "mixes the"),
    ("module-3.md", "around both halves", "`ln_f`"),
    ("module-3.md", "GPT-2's {{ price.total_millions }}", "117 million"),
    ("module-3.md", "GPT-2 code is usually written", "nanoGPT"),
    ("module-3.md", "slightly different order", "square root of $1/\\sqrt{d_k}$"),
    ("inside-the-model.md", "GPT-2's code calls it `head_size`", "`head_dim`"),
    ("inside-the-model.md", "tends to grow with the width", "standard deviation"),
    (
        "inside-the-model.md",
        "everything earlier blocks wrote",
        "starts as each token's embedding",
    ),
    ("notation.md", "`head_size` for $d_k$", "nanoGPT"),
    ("real-heads.md", "copy head", "duplicate-token head"),
    (
        "real-heads.md",
        "only a model that reads in both directions",
        "cannot take the ending in",
    ),
    ("real-heads.md", None, "TransformerLens and Hugging Face count from 0"),
    ("real-heads.md", "weight is the same as influence", "not the same as influence"),
]


@pytest.mark.parametrize(
    ("page", "gone", "instead"), CORRECTED, ids=lambda x: str(x)[:32]
)
def test_the_misleading_sentence_is_corrected(page, gone, instead):
    text = prose(page)
    assert gone is None or not re.search(gone, text), f"{page} still says {gone!r}"
    assert instead in text, f"{page} should say {instead!r}"


def test_the_exam_explanations_are_exact():
    assert "Only a score of −∞" not in explanation("zero-share")
    assert "only the topic words advertise" not in explanation("wired")
    assert "itself included" in explanation("wired")
    assert "slightly different order" not in explanation("torch")
    assert "RoPE" in explanation("order") and "Without a mask" in explanation("order")
    assert "calls it head_dim" in explanation("divisor")
    assert "the width of the head, not of the row" in explanation("divisor")


#: Names that nanoGPT uses and GPT-2's own code (OpenAI's TensorFlow, Hugging Face's) does not.
NANOGPT_ONLY = (
    "head_size",
    "hs",
    "masked_fill",
    "self.bias",
    "att",
    "k.transpose",
    "C",
    "nh",
)


def test_notation_names_nanogpt_for_nanogpts_names():
    entries = tomllib.loads(NOTATION.read_text(encoding="utf-8"))["entry"]
    for e in entries:
        for part in e["code"].split(","):
            names = re.findall(r"`([^`]+)`", part)
            if "GPT-2's code" in part:
                wrong = [n for n in names if n.split("(")[0] in NANOGPT_ONLY]
                assert not wrong, f"{e['name']}: {wrong} are nanoGPT's, not GPT-2's"
    mask = next(e for e in entries if e.get("tex") == "M")
    assert "0/1 lower triangle" in mask["code"], (
        "self.bias is not the 0 / -inf matrix M"
    )


#: A sentence telling the reader that the build (or the tests) checks something.
PROMISE = re.compile(
    r"[^.]*\b(?:(?:the build|the tests)\b[^.]*\b(?:checks?|checked|asserts?|compares?|fails)"
    r"|checked by the build)\b[^.]*\.",
    re.IGNORECASE,
)


@pytest.mark.parametrize(
    "page",
    sorted(
        p.name
        for p in DOCS.glob("*.md")
        if p.name not in {"reproducing.md", "print.md"}
    ),
)
def test_the_build_promises_to_check_once_per_page_at_most(page):
    found = [m.group(0).strip() for m in PROMISE.finditer(prose(page))]
    assert len(found) <= 1, f"{page}: {len(found)} sentences promise a check: {found}"
