"""The final exam: 18 questions whose answers the build computes, and the rules that grade them.

Every answer that is a number, or whose correct option depends on a computation, is
worked out here from the package (the maths in :mod:`.core`, GPT-2's sizes in
:mod:`.gpt2`, the experiment's results) at build time, so the exam cannot disagree
with the pages. The page shows the questions only (:func:`form_html`); the answers
travel in ``generated/exam.json`` (:func:`site_files`), which the page's script
fetches when the reader asks for a grade.

The grading rules live here (:func:`grade`) and, for the page, in
``docs/assets/exam/exam.js``; a browser test proves the two agree.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .core import scaled_dot_product_attention, simple_attention, softmax
from .gpt2 import GPT2, attention_flops, head_params
from .gpt2 import STEPS as _STEPS
from .toy import AXES, SENT_MONEY, SENT_RIVER, VOCAB, embed

__all__ = [
    "PASS_MARK",
    "DATA_PATH",
    "Option",
    "Question",
    "questions",
    "parse_number",
    "is_correct",
    "grade",
    "percent",
    "pass_count",
    "exam_data",
    "form_html",
    "intro_html",
    "site_files",
]

#: The pass mark, in percent of the questions: 13 of 18 passes, 12 of 18 does not.
PASS_MARK = 70
#: Where the answers are written inside the site.
DATA_PATH = "generated/exam.json"

#: The "the cat sat" chapter's inputs (seed 003), exactly as the chapter gives them.
CAT_WORDS: tuple[str, ...] = ("the", "cat", "sat")
CAT_Q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
CAT_K = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
CAT_V = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])

#: Tolerance for answers typed to two or three decimals.
DECIMALS_TOL = 0.005
#: The end of the hint of a question answered in decimals, with the tolerance taken from the constant.
DECIMALS_HINT = f"answers within {DECIMALS_TOL:g} count."


@dataclass(frozen=True)
class Option:
    """One choice of a single- or multiple-choice question (``key`` is what the form submits)."""

    key: str
    label: str


@dataclass(frozen=True)
class Question:
    """One exam question and its answer.

    ``kind`` is ``"single"`` (answer: one option key), ``"multiple"`` (answer: the exact
    set of option keys) or ``"numeric"`` (answer: a number; a typed number counts when it
    is within ``tol`` of it).
    """

    qid: str
    kind: str
    prompt: str
    answer: str | tuple[str, ...] | float
    explanation: str
    learn: str  # "page.md#anchor" of the section that teaches it
    learn_text: str
    options: tuple[Option, ...] = ()
    tol: float = 0.0
    hint: str = ""  # for numeric questions: the form and tolerance the answer is typed in
    display: str = field(default="")  # the answer as the review shows it

    def answer_text(self) -> str:
        """The correct answer in words, for the review."""
        if self.kind == "numeric":
            return self.display
        labels = {o.key: o.label for o in self.options}
        keys = (self.answer,) if self.kind == "single" else self.answer
        return _join_labels([labels[k] for k in keys])


# --------------------------------------------------------------------------- helpers


def _join_labels(labels: Sequence[str]) -> str:
    """Option labels as one line (mirrored in exam.js): sentences follow each other, short labels take "; "."""
    if labels and all(label.endswith((".", "?", "!")) for label in labels):
        return " ".join(labels)
    return "; ".join(labels)


def _f(x: float, nd: int = 3) -> str:
    return f"{float(x):.{nd}f}"


def _opts(*labels: str) -> tuple[Option, ...]:
    return tuple(Option("abcdefgh"[i], label) for i, label in enumerate(labels))


def _key_of(options: Sequence[Option], label: str) -> str:
    for o in options:
        if o.label == label:
            return o.key
    raise ValueError(f"no option labelled {label!r}; options: {[o.label for o in options]}")


def _bucket(value: float, buckets: Sequence[tuple[float, float, str]], what: str) -> str:
    """The label of the bucket ``[lo, hi]`` that holds ``value``; none fits -> the build fails."""
    for lo, hi, label in buckets:
        if lo <= value <= hi:
            return label
    raise ValueError(f"the exam has no option for {what} = {value!r}; its options: {[b[2] for b in buckets]}")


# --------------------------------------------------------------------------- the questions


def _q_dot() -> Question:
    pairs = (("savings", "bank"), ("river", "savings"), ("river", "bank"), ("the", "bank"))
    dots = [float(embed([a])[0] @ embed([b])[0]) for a, b in pairs]
    best = int(np.argmax(dots))
    if sorted(dots)[-1] == sorted(dots)[-2]:
        raise ValueError(f"the dot-product question needs one clear winner, got {dots}")
    opts = _opts(*(f"{a} · {b}" for a, b in pairs))
    listing = ", ".join(f"{a} · {b} = {_f(d, 2)}" for (a, b), d in zip(pairs, dots))
    return Question(
        "dot", "single",
        "Of these four pairs from the toy vocabulary, which has the largest dot product?",
        opts[best].key,
        f"Multiply the coordinates axis by axis and add: {listing}.",
        "module-0.md#dot-product", "Module 0: the dot product", opts)


def _q_zero_share() -> Question:
    scores = np.array([2.0, 0.0, 0.0])
    w = softmax(scores)
    return Question(
        "zero-share", "numeric",
        "Softmax turns the scores [2, 0, 0] into weights. What weight does the second word, "
        "whose score is 0, receive?",
        float(w[1]),
        f"e^0 = 1, so a zero score still earns a share: 1 / (e^2 + 1 + 1) = {_f(w[1])}. "
        "Only a score of −∞ gives exactly 0.",
        "module-0.md#softmax", "Module 0: softmax",
        tol=DECIMALS_TOL, hint=f"Two or three decimals, for example 0.25; {DECIMALS_HINT}",
        display=_f(w[1]))


def _q_max_trick(r) -> Question:
    d = r.data["softmax"]
    same = d["naive_vs_stable_small"] <= 1e-15
    overflows = bool(np.isnan(d["naive_big"]).any()) and bool(np.isfinite(d["w_big"]).all())
    opts = _opts(
        "It makes the weights sharper, closer to one-hot.",
        "It keeps exp from overflowing on large scores; the weights come out the same.",
        "Without it the weights would not sum to 1.",
        "It gives negative scores a weight of exactly 0.",
    )
    if not (same and overflows):
        raise ValueError("the max-trick question assumes the trick changes nothing but overflow; the build says otherwise")
    return Question(
        "max-trick", "single",
        "Why does the workshop's softmax subtract the largest score from every score before taking exp?",
        opts[1].key,
        "Subtracting the same number from every score cancels between top and bottom of the fraction, "
        f"so the weights do not change (the build measured a difference of {d['naive_vs_stable_small']:.2e} "
        "on small scores), but scores near 1000 make the naive formula overflow to inf and return NaN.",
        "module-0.md#max-trick", "Module 0: why the maximum is subtracted", opts)


def _q_self(r) -> Question:
    w = r.data["simple"]["first"]["weights"]
    sent = r.data["simple"]["first"]["sentence"]
    T = len(w)
    opts = _opts("On itself.", "On the word just before it.", "On the last word of the sentence.",
                 "Evenly on every word.")
    top = np.argmax(w, axis=1)  # (T,)
    if (top == np.arange(T)).all():
        answer = opts[0].key
    elif (top[1:] == np.arange(T - 1)).all():
        answer = opts[1].key
    elif (top == T - 1).all():
        answer = opts[2].key
    else:
        raise ValueError(f"the simple-attention question has no option for argmax rows {top.tolist()}")
    X = r.data["simple"]["first"]["X"]
    s = X @ X.T  # (T, d_model) x (d_model, T) -> (T, T): the scores before scaling
    others = ~np.eye(T, dtype=bool)  # (T, T): every cell but the diagonal
    if answer == opts[0].key and not (np.diag(s) > np.where(others, s, -np.inf).max(axis=1)).all():
        raise ValueError("the simple-attention question says each word's own score is its largest; the build disagrees")
    rows = "; ".join(
        f"\"{word}\" {_f(w[i, i])} on itself, at most {_f(np.max(w[i][others[i]]))} on another word "
        f"(score {_f(s[i, i], 2)} with itself, at most {_f(np.max(s[i][others[i]]), 2)} with another)"
        for i, word in enumerate(sent))
    return Question(
        "self", "single",
        f'With nothing learned (Module 1\'s attention, each embedding in every role), on "{" ".join(sent)}", '
        "where does each word put its largest weight?",
        answer,
        "Each word's score with itself is its embedding's dot product with itself, and in this sentence that "
        f"beats its dot product with every other word, so softmax gives the diagonal the most weight: {rows}. "
        "One vector playing all three roles is the limit that queries, keys and values remove.",
        "module-1.md#limits", "Module 1: its limits", opts)


def _q_two_senses() -> Question:
    X = embed(SENT_MONEY)
    out, _ = simple_attention(X)
    water, money = AXES.index("water"), AXES.index("money")
    if X[-1, water] != X[-1, money]:
        raise ValueError(f'the two-senses question says "bank" starts with as much water as money; it has {X[-1].tolist()}')
    opts = _opts("Toward water: the river sense.", "Toward money: the money sense.",
                 "Neither: water and money stay equal.")
    diff = out[-1, money] - out[-1, water]
    answer = opts[1].key if diff > 1e-12 else opts[0].key if diff < -1e-12 else opts[2].key
    return Question(
        "two-senses", "single",
        f'"{SENT_MONEY[-1]}" starts out with as much water as money ({_f(X[-1, water], 1)} each). After Module 1\'s '
        f'attention on "{" ".join(SENT_MONEY)}", which way does the output for "{SENT_MONEY[-1]}" lean?',
        answer,
        f"Its output has water {_f(out[-1, water])} and money {_f(out[-1, money])}: the words around "
        "it pull it toward their own topic.",
        "module-1.md#two-senses", "Module 1: two senses of bank", opts)


def _q_wired(r) -> Question:
    w = r.data["wired_head"]["weights"]
    sent = r.sentence
    opts = _opts(*(f'"{word}"' for word in sent))
    best = int(np.argmax(w[-1]))
    row = ", ".join(f"{word} {_f(x)}" for word, x in zip(sent, w[-1]))
    return Question(
        "wired", "single",
        f'In Module 2\'s hand-wired head on "{" ".join(sent)}" (no mask), which word receives the largest '
        f'share of the attention that "{sent[-1]}" pays?',
        opts[best].key,
        f'The query of "{sent[-1]}" asks for a topic and only the topic words advertise one. Its row of '
        f"weights: {row}.",
        "module-2.md#wired-head", "Module 2: the hand-wired head", opts)


def _q_saturate(r) -> Question:
    d = r.data["sqrt_dk"]
    opts = _opts("They approach one-hot: almost all the weight lands on one key.",
                 "They approach equal shares for every key.",
                 "Nothing changes: d_k has no effect on the weights.")
    raw = d["max_raw"]
    if raw[-1] > 0.9 and np.all(np.diff(raw) > 0):
        answer = opts[0].key
    elif raw[-1] < 1.5 / d["keys"]:
        answer = opts[1].key
    else:
        raise ValueError(f"the sqrt(d_k) question has no option for these largest weights: {raw.tolist()}")
    return Question(
        "saturate", "single",
        "Random queries and keys, no division by √d_k: as d_k grows, what happens to the softmax weights?",
        answer,
        f"The variance of a dot product grows with d_k, so raw scores spread out and softmax saturates: "
        f"the largest of {d['keys']} weights averages {_f(raw[0])} at d_k = {int(d['dk'][0])} and "
        f"{_f(raw[-1])} at d_k = {int(d['dk'][-1])}. Divided by √d_k it stays between "
        f"{_f(np.min(d['max_scaled']))} and {_f(np.max(d['max_scaled']))} at every size.",
        "module-2.md#sqrt-dk", "Module 2: why divide by √d_k", opts)


def _q_torch(r) -> Question:
    d = r.data["general_head"]
    diff, eps = max(d["diff"], d["diff_causal"]), d["eps"]
    opts = _opts("More than 0.01: the two programs visibly disagree.",
                 "Between a millionth and 0.01: close, but not the same computation.",
                 "At most a few times 2^−52 (machine epsilon): the last bit of rounding.")
    label = _bucket(diff, [(0.01, math.inf, opts[0].label), (1e-6, 0.01, opts[1].label),
                           (0.0, 8 * eps, opts[2].label)], "the largest difference from PyTorch")
    return Question(
        "torch", "single",
        "Module 3 runs the package's head and PyTorch's scaled_dot_product_attention on the same inputs "
        "in float64. How large is the largest difference?",
        _key_of(opts, label),
        f"The build measured {diff:.2e}, which is {diff / eps:.1f} times 2^−52: the two programs add "
        "the same numbers in a slightly different order, nothing more.",
        "module-3.md#does-it-match-pytorch", "Module 3: does it match PyTorch?", opts)


def _q_causal(r) -> Question:
    w = r.data["causal"]["weights"]
    u = r.data["causal"]["unmasked"]
    T = len(w)
    facts = [
        ("The first row puts all its weight on the first word.", w[0, 0] == 1.0 and not w[0, 1:].any()),
        ("Every row still sums to 1.", bool(np.allclose(w.sum(axis=1), 1.0, rtol=0, atol=1e-12))),
        ("The last row equals the last row of the table without the mask.",
         bool(np.allclose(w[-1], u[-1], rtol=0, atol=1e-15))),
        ("Every word puts its largest weight on itself.", bool((np.argmax(w, axis=1) == np.arange(T)).all())),
        ("Every weight in the table is greater than 0.", bool((w > 0).all())),
    ]
    opts = _opts(*(text for text, _ in facts))
    answer = tuple(o.key for o, (_, true) in zip(opts, facts) if true)
    rows = "; ".join(f"{word}: [{', '.join(_f(x) for x in row)}]" for word, row in zip(r.sentence, w))
    return Question(
        "causal", "multiple",
        f'The causal mask is applied to Module 2\'s wired head on "{" ".join(r.sentence)}". '
        "Which statements are true of the masked weight table? Tick every true one.",
        answer,
        f"The masked table, row by row: {rows}. The mask zeroes the future and softmax shares each row "
        "again over what is left, so rows still sum to 1, the first row has only itself, and the last row "
        "never had a future to hide.",
        "module-3.md#the-causal-mask", "Module 3: the causal mask", opts)


def _q_order(r) -> Question:
    d = r.data["order"]
    opts = _opts("Exactly the same, up to rounding.", "Different, because bank now comes first.")
    same = bool(d["same"]) and d["diff"] <= 1e-12
    rev = " ".join(reversed(r.sentence))
    return Question(
        "order", "single",
        f'Module 1\'s attention runs on "{" ".join(r.sentence)}" and on "{rev}". '
        f'How does the output for "{r.sentence[-1]}" compare between the two?',
        opts[0].key if same else opts[1].key,
        f"Largest difference over all rows, after reordering: {d['diff']:.2e}. No formula asks where a word "
        "stands, so attention alone sees a bag of words; real models add position information first.",
        "module-3.md#order", "Module 3: what attention alone cannot see", opts)


def _q_per_head() -> Question:
    n = head_params(GPT2)
    return Question(
        "per-head", "numeric",
        f"One GPT-2 head maps d_model = {GPT2.n_embd} to d_k = {GPT2.head_size}. How many numbers do its "
        "W_q, W_k and W_v hold together (no biases)?",
        float(n),
        f"Three matrices of {GPT2.n_embd} × {GPT2.head_size}: 3 × {GPT2.n_embd} × {GPT2.head_size} = {n:,}.",
        "module-3.md#price-tag", "Module 3: the price tag",
        tol=0.0, hint="A whole number; 12,345 and 12345 are both fine. It must be exact.", display=f"{n:,}")


def _q_share(r) -> Question:
    share = r.data["price"]["share"]
    opts = _opts("Less than a tenth.", "Between a fifth and a quarter.", "About half.", "More than three quarters.")
    label = _bucket(share, [(0.0, 0.1, opts[0].label), (0.2, 0.25, opts[1].label),
                            (0.4, 0.6, opts[2].label), (0.75, 1.0, opts[3].label)], "attention's share of GPT-2")
    return Question(
        "share", "single",
        f"What part of GPT-2 small's parameters sits in its attention layers? Count all {GPT2.n_layer} layers: "
        f"in each, the W_q, W_k and W_v of its {GPT2.n_head} heads and the layer's output projection "
        "(no biases).",
        _key_of(opts, label),
        f"{r.data['price']['attention']:,} of {r.data['price']['total']:,} parameters, "
        f"{100 * share:.1f}%. The rest is mostly the embedding table and the MLPs.",
        "module-3.md#price-tag", "Module 3: the price tag", opts)


def _cat(causal: bool) -> tuple[np.ndarray, np.ndarray]:
    return scaled_dot_product_attention(CAT_Q, CAT_K, CAT_V, causal=causal)


def _q_sat() -> Question:
    _, w = _cat(causal=False)
    return Question(
        "sat", "numeric",
        'In "the cat sat", with Q = K = [[1, 0], [0, 1], [1, 1]] and no mask, what weight does "sat" '
        "(query [1, 1]) put on itself?",
        float(w[2, 2]),
        f"Raw scores [1, 1, 2], divided by √2; exp of each, divided by their sum: "
        f"[{', '.join(_f(x) for x in w[2])}].",
        "step-by-step.md#step-3-softmax", "Step by step: softmax",
        tol=DECIMALS_TOL, hint=f"Two or three decimals; {DECIMALS_HINT}", display=_f(w[2, 2]))


def _q_cat_causal() -> Question:
    _, w = _cat(causal=True)
    return Question(
        "cat-causal", "numeric",
        'Same inputs, now with the causal mask. What weight does "cat" (query [0, 1]) put on "the"?',
        float(w[1, 0]),
        f'"sat" is in the future, so its score becomes −∞ and its weight 0; the other two share the row: '
        f"[{', '.join(_f(x) for x in w[1])}].",
        "step-by-step.md#step-5-causal-mask", "Step by step: the causal mask",
        tol=DECIMALS_TOL, hint=f"Two or three decimals; {DECIMALS_HINT}", display=_f(w[1, 0]))


def _q_causal_off() -> Question:
    _, w = _cat(causal=False)
    opts = _opts(*(f'"{word}"' for word in CAT_WORDS))
    answer = tuple(o.key for o, x in zip(opts, w[0]) if x > 0)
    return Question(
        "causal-off", "multiple",
        'Practice experiment 1: switch the mask off. Which words does "the" now look at '
        "(a weight above 0)? Tick every one.",
        answer,
        f'Without the mask nothing is hidden and every exp is positive; the row of "{CAT_WORDS[0]}": '
        f"[{', '.join(_f(x) for x in w[0])}].",
        "step-by-step.md#practice", "Step by step: practice", opts)


#: The steps of Inside the model, ``(id, title)``.
STEPS: tuple[tuple[str, str], ...] = tuple((s.id, s.title) for s in _STEPS)

#: How each step of the inside-the-model page (:data:`.gpt2.STEPS`) is measured: its
#: ``attention_flops`` key. The causal mask does no arithmetic (the page counts it as 0 FLOPs),
#: so the question leaves it out and says so.
STEP_WORK: dict[str, str | None] = {
    "projections": "qkv", "scores": "scores", "scale": "scale", "causal-mask": None,
    "softmax": "softmax", "weighted-sum": "weighted_sum", "output-projection": "proj",
}


def _q_quadratic() -> Question:
    if list(STEP_WORK) != [sid for sid, _ in STEPS]:
        raise ValueError(f"the quadratic question measures steps {list(STEP_WORK)}; the page has {[s for s, _ in STEPS]}")
    T = GPT2.n_ctx // 2
    f1, f2 = attention_flops(T), attention_flops(2 * T)
    numbered = [(i, sid, title) for i, (sid, title) in enumerate(STEPS, 1)]
    counted = [(i, sid, title) for i, sid, title in numbered if STEP_WORK[sid] is not None]
    skipped = [(i, title) for i, sid, title in numbered if STEP_WORK[sid] is None]
    opts = _opts(*(f"{i}. {title}" for i, _, title in counted))
    ratios = {sid: f2[STEP_WORK[sid]] / f1[STEP_WORK[sid]] for _, sid, _ in counted}
    answer = tuple(o.key for o, (_, sid, _) in zip(opts, counted) if ratios[sid] == 4)
    if sorted(set(ratios.values())) != [2, 4]:
        raise ValueError(f"the quadratic question expects every step to grow 2 or 4 times, got {ratios}")
    listing = ", ".join(f"{title} × {ratios[sid]:g}" for _, sid, title in counted)
    left_out = "; ".join(f"step {i}, {title}" for i, title in skipped)
    return Question(
        "quadratic", "multiple",
        f"Inside the model walks through {len(STEPS)} steps of a GPT-2 attention layer. Double the number of "
        f"tokens: which steps then do four times as many FLOPs? ({left_out.capitalize()}, does no arithmetic "
        "and is not listed.) Tick every one.",
        answer,
        f"From {T} to {2 * T} tokens, the FLOPs of each step grow: {listing}. The steps that work on the "
        "N × N grid of scores grow with its square; the projections grow with N.",
        "inside-the-model.md#scores", "Inside the model: scores", opts)


def _q_divisor() -> Question:
    d = math.sqrt(GPT2.head_size)
    return Question(
        "divisor", "numeric",
        f"GPT-2's heads work in d_head = {GPT2.head_size} dimensions (Inside the model's name for the head "
        "width that Modules 2 and 3 call d_k). By what number are its scores divided before the softmax?",
        d,
        f"√d_head = √{GPT2.head_size} = {d:g}.",
        "inside-the-model.md#scale", "Inside the model: scale",
        tol=0.0, hint="A whole number; it must be exact.", display=f"{d:g}")


def _q_cells() -> Question:
    T = GPT2.n_ctx
    n = attention_flops(T)["score_cells"]
    return Question(
        "cells", "numeric",
        f"GPT-2 reads up to {T:,} tokens. How many cells does one head's grid of scores have at that length?",
        float(n),
        f"One score per (query, key) pair: {T:,} × {T:,} = {n:,}, in every head of every layer.",
        "inside-the-model.md#scores", "Inside the model: scores",
        tol=0.0, hint="A whole number; 12,345 and 12345 are both fine. It must be exact.", display=f"{n:,}")


@lru_cache(maxsize=1)
def _questions(fingerprint: str) -> tuple[Question, ...]:
    import dataclasses
    from types import SimpleNamespace

    from .build.pages import results

    run = results(SENT_RIVER)
    r = SimpleNamespace(sentence=run.sentence, data={k: dataclasses.asdict(v) for k, v in run.data.items()})
    qs = (
        _q_dot(), _q_zero_share(), _q_max_trick(r),  # Module 0
        _q_self(r), _q_two_senses(),  # Module 1
        _q_wired(r), _q_saturate(r),  # Module 2
        _q_torch(r), _q_causal(r), _q_order(r), _q_per_head(), _q_share(r),  # Module 3
        _q_sat(), _q_cat_causal(), _q_causal_off(),  # step by step
        _q_quadratic(), _q_divisor(), _q_cells(),  # inside the model
    )
    ids = [q.qid for q in qs]
    if len(set(ids)) != len(ids):
        raise ValueError(f"question ids must be unique, got {ids}")
    return qs


def questions() -> tuple[Question, ...]:
    """The exam's questions, in order, with answers computed from this build's package."""
    from .build.pages import source_fingerprint

    return _questions(source_fingerprint())


# --------------------------------------------------------------------------- grading (mirrored in exam.js)

#: The whitespace a typed number may contain, after NFKC (which turns no-break and thin spaces
#: into plain ones). Exactly the same set as exam.js's ``SPACES``; anything else makes it not a number.
_SPACES = re.compile(r"[ \t\n\r\f\v]+")
_THOUSANDS = re.compile(r"^[+-]?[1-9][0-9]{0,2}(,[0-9]{3})+(\.[0-9]+)?$")
_DECIMAL_COMMA = re.compile(r"^[+-]?[0-9]+,[0-9]+$")
_NUMBER = re.compile(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")


def parse_number(text: str) -> float | None:
    """A typed number, or ``None`` when it is not one.

    Rules (the page's script applies the same ones, in the same order): the text is
    normalised to NFKC (full-width ``１４７`` becomes ``147``, a no-break space a space);
    spaces, tabs and line breaks are removed; commas between groups of three digits are
    thousands separators (``147,456``, not starting with 0); a single comma between digits
    otherwise is a decimal comma (``0,5``, ``0,503``); then a plain decimal or scientific
    number of ASCII digits. Other digits (``١٤٧``) and invisible characters (U+FEFF,
    U+001C) make it not a number.
    """
    s = _SPACES.sub("", unicodedata.normalize("NFKC", str(text)))
    if _THOUSANDS.fullmatch(s):
        s = s.replace(",", "")
    elif _DECIMAL_COMMA.fullmatch(s):
        s = s.replace(",", ".")
    if not _NUMBER.fullmatch(s):
        return None
    x = float(s)
    return x if math.isfinite(x) else None


#: Slack added to every tolerance so that a typed 0.253 for an answer of 0.248 ± 0.005 is
#: not lost to binary rounding (0.253 - 0.248 is 0.0050000000000000044 in float64).
SLACK = 1e-9


def is_correct(q: Question, response: object) -> bool:
    """Whether one response answers ``q``: the option key, the exact set of keys, or a number within ``tol``."""
    if q.kind == "single":
        return isinstance(response, str) and response == q.answer
    if q.kind == "multiple":
        if isinstance(response, str) or not isinstance(response, (list, tuple, set, frozenset)):
            return False
        return set(response) == set(q.answer)
    if q.kind == "numeric":
        if not isinstance(response, str):
            return False
        x = parse_number(response)
        return x is not None and abs(x - q.answer) <= q.tol + SLACK
    raise ValueError(f"unknown question kind {q.kind!r}")


def pass_count(n: int) -> int:
    """The fewest correct answers out of ``n`` that reach the pass mark."""
    return -(-PASS_MARK * n // 100)


def percent(score: int, n: int) -> str:
    """The score as a percentage with one decimal, as the page shows it (13 of 18 -> "72.2")."""
    return f"{100 * score / n:.1f}"


def grade(answers: Mapping[str, object]) -> tuple[int, bool]:
    """Grade a set of answers: ``{question id: response}`` -> ``(score, passed)``.

    A response is an option key (single choice), a list of option keys (multiple choice,
    the exact set is needed) or the typed text (numeric). A missing response is wrong.
    ``passed`` is ``100 * score >= PASS_MARK * n``: 13 of 18 passes, 12 of 18 does not.
    """
    qs = questions()
    unknown = set(answers) - {q.qid for q in qs}
    if unknown:
        raise ValueError(f"unknown question id(s) {sorted(unknown)}; the exam's ids: {[q.qid for q in qs]}")
    score = sum(is_correct(q, answers[q.qid]) for q in qs if q.qid in answers)
    return score, 100 * score >= PASS_MARK * len(qs)


# --------------------------------------------------------------------------- what the site gets


def exam_data() -> dict:
    """The answers, explanations and pass mark, as the page's script reads them from ``exam.json``."""
    qs = questions()
    return {
        "pass_mark": PASS_MARK,
        "slack": SLACK,
        "questions": [
            {"id": q.qid, "kind": q.kind,
             "answer": list(q.answer) if q.kind == "multiple" else q.answer,
             "tol": q.tol, "answer_text": q.answer_text(), "explanation": q.explanation}
            for q in qs
        ],
    }


def _data_text() -> str:
    return json.dumps(exam_data(), indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def version() -> str:
    """A short hash of the answers: saved progress from a different exam is not restored."""
    return hashlib.sha256(_data_text().encode()).hexdigest()[:12]


def intro_html() -> str:
    """One line for the page: how many questions, and how many correct answers pass."""
    n = len(questions())
    return (f'<p class="exam-rules"><strong>{n} questions.</strong> The pass mark is {PASS_MARK}%: '
            f"{pass_count(n)} correct answers out of {n}.</p>\n")


def _fieldset(i: int, q: Question) -> str:
    e = html.escape
    name = f"q-{q.qid}"
    out = [f'<fieldset class="exam-q" id="{name}" data-qid="{q.qid}" data-kind="{q.kind}">',
           f'<legend><span class="exam-num">Question {i}.</span> {e(q.prompt)}</legend>']
    if q.kind == "numeric":
        out.append(f'<label class="exam-numeric" for="{name}-input">Your answer'
                   f'<input type="text" inputmode="decimal" autocomplete="off" spellcheck="false" '
                   f'id="{name}-input" name="{name}" aria-describedby="{name}-hint"></label>')
        out.append(f'<p class="exam-hint" id="{name}-hint">{e(q.hint)}</p>')
    else:
        typ = "radio" if q.kind == "single" else "checkbox"
        if q.kind == "multiple":
            out.append('<p class="exam-hint">More than one may be true.</p>')
        for o in q.options:
            oid = f"{name}-{o.key}"
            out.append(f'<label class="exam-option" for="{oid}"><input type="{typ}" id="{oid}" '
                       f'name="{name}" value="{o.key}"><span>{e(o.label)}</span></label>')
    out.append(f'<a class="exam-learn" href="{q.learn}" hidden>{e(q.learn_text)}</a>')
    out.append("</fieldset>")
    return "\n".join(out)


def form_html() -> str:
    """The exam as static HTML: a form of fieldsets with native inputs; no answers in it."""
    qs = questions()
    parts = [
        f'<form class="exam" id="exam-form" data-version="{version()}" data-count="{len(qs)}" '
        f'data-pass-mark="{PASS_MARK}" novalidate>',
        f'<a class="exam-data" href="{DATA_PATH}" hidden>answers</a>',
        *(_fieldset(i, q) for i, q in enumerate(qs, 1)),
        '<div class="exam-actions">',
        # A plain button, not a submit button: Enter in an answer box must not grade the exam.
        '<button type="button" class="md-button md-button--primary exam-grade">Grade my answers</button>',
        '<button type="button" class="md-button exam-clear">Clear my answers</button>',
        "</div>",
        '<p class="exam-status" role="status" aria-live="polite"></p>',
        '<section class="exam-result" aria-labelledby="exam-result-title" hidden>',
        '<h2 id="exam-result-title" tabindex="-1">Your result</h2>',
        '<p class="exam-score"></p>',
        '<button type="button" class="md-button exam-retake">Retake the exam</button>',
        '<h3 id="exam-review-title">Review, question by question</h3>',
        '<ol class="exam-review" aria-labelledby="exam-review-title"></ol>',
        "</section>",
        "<noscript><p>Grading runs in your browser and needs JavaScript; the questions above "
        "can still be read.</p></noscript>",
        "</form>",
    ]
    return "\n".join(parts) + "\n"


def site_files() -> dict[str, str]:
    """Files this page needs in the site, ``{path inside the site: text}``: the answers as JSON."""
    return {DATA_PATH: _data_text()}
