"""The exam of a run, and the premises its questions rest on, as claims.

:func:`exam` puts each question's words (:mod:`.questions`) and its worked answer
(:data:`.answers_late.WORK`) together; :data:`CLAIMS` are the premises (one clear winner, an
option for every outcome), checked by the build's claims runner like every section's claims.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ...toy import AXES
from .. import module_0, module_1, module_2, module_3
from .._section import EVERY, FACT, MAX, SOME, Claim
from .answers_early import dots, saturate_pattern, self_pattern
from .answers_late import WORK, mask_off_changes, order_pattern, ratios, torch_diff
from .questions import Question, question, texts
from .worked import SHARE_BUCKETS, TORCH_BUCKETS, Run, bucket

__all__ = ["Exam", "exam", "BUCKETS", "CLAIMS"]


@dataclass(frozen=True)
class Exam:
    """The questions, and what the claims check they rest on.

    Attributes:
        questions: in the order of the data file.
        unmatched: ids with words but no computation, or a computation but no words.
        dots: the dot question's dot products, in its options' order.
        softmax: Module 0's softmax demo (the max-trick question's premise).
        simple: Module 1's attention on the workshop's sentence (the self question's premise).
        bank: ``(d_model,)``, "bank" before attention in "the savings bank" (the two-senses premise).
        sqrt_dk: Module 2's measurement (the saturate question's outcomes).
        bucketed: the value each bucketed question sorts into its options, by question id.
        ratios: the quadratic question's FLOP ratio at twice the tokens, by step id.
        order: Module 3's order test (the order question's outcomes).
        mask_off: for each word of "the cat sat", whether its row changes without the mask.
    """

    questions: tuple[Question, ...]
    unmatched: tuple[str, ...]
    dots: tuple[float, ...]
    softmax: module_0.SoftmaxDemo
    simple: module_1.SimpleRun
    bank: np.ndarray
    sqrt_dk: module_2.SqrtDk
    bucketed: Mapping[str, float]
    ratios: Mapping[str, float]
    order: module_3.Order
    mask_off: tuple[bool, ...]


def exam(run: Run) -> Exam:
    """The exam of this run (the build passes its results for the workshop's sentence)."""
    words = texts()
    questions = tuple(question(t, WORK[t.qid](run)) for t in words if t.qid in WORK)
    ids = [t.qid for t in words]
    unmatched = tuple(sorted(set(ids) ^ set(WORK)))
    simple = run[module_1.SIMPLE]
    return Exam(
        questions,
        unmatched,
        dots(),
        run[module_0.SOFTMAX],
        simple.first,
        simple.contrast.X[-1],
        run[module_2.SQRT_DK],
        {"torch": torch_diff(run), "share": run[module_3.PRICE].share},
        ratios(),
        run[module_3.ORDER],
        mask_off_changes(),
    )


#: The buckets of each bucketed question, by question id.
BUCKETS = {"torch": TORCH_BUCKETS, "share": SHARE_BUCKETS}


def _answers_are_options(e: Exam) -> bool:
    for q in e.questions:
        keys = {o.key for o in q.options}
        if q.kind == "single" and q.answer not in keys:
            return False
        if q.kind == "multiple" and not (
            isinstance(q.answer, tuple) and set(q.answer) <= keys
        ):
            return False
    return True


def _one_winner(d: Sequence[float]) -> bool:
    top = sorted(d)
    return top[-1] != top[-2]


def _max_trick_premise(e: Exam) -> bool:
    s = e.softmax  # the same weights on [2, 1, 0]; NaN from the naive formula near 1000, finite from the stable one
    return (
        s.naive_vs_stable_small <= 1e-15
        and bool(np.isnan(s.naive_big).any())
        and bool(np.isfinite(s.w_big).all())
    )


def _self_has_option(e: Exam) -> bool:
    return self_pattern(e.simple.weights) is not None


def _own_score_largest(e: Exam) -> bool:
    X = e.simple.X  # (T, d_model)
    s = X @ X.T  # (T, d_model) x (d_model, T) -> (T, T)
    others = ~np.eye(len(s), dtype=bool)  # (T, T)
    return bool((np.diag(s) > np.where(others, s, -np.inf).max(axis=1)).all())


def _bank_balanced(e: Exam) -> bool:
    return bool(e.bank[AXES.index("water")] == e.bank[AXES.index("money")])


def _saturate_has_option(e: Exam) -> bool:
    return saturate_pattern(e.sqrt_dk) is not None


def _buckets_found(e: Exam) -> bool:
    return all(bucket(v, BUCKETS[qid]) is not None for qid, v in e.bucketed.items())


def _mask_off_some_rows(e: Exam) -> bool:
    """Some rows change without the mask, and not all: the last word's row stays."""
    return any(e.mask_off) and not e.mask_off[-1]


def _ratios_2_or_4(e: Exam) -> bool:
    return sorted(set(e.ratios.values())) == [2, 4]


#: What the exam's questions rest on; each is checked at every build of the workshop's sentence.
#: Their words are the questions' (questions.toml), not a page's sentences: ``sentence=None``.
CLAIMS: tuple[Claim[Exam], ...] = tuple(
    Claim(
        f"final_exam.{key}", text, test, quantifier=q, sentence=None, default_only=True
    )
    for key, text, test, q in (
        (
            "words_match_work",
            "every question in questions.toml is worked out, and has words",
            lambda e: not e.unmatched,
            EVERY,
        ),
        (
            "ids_unique",
            "question ids are unique",
            lambda e: len({q.qid for q in e.questions}) == len(e.questions),
            EVERY,
        ),
        (
            "answers_are_options",
            "every choice question's answer is among its options",
            _answers_are_options,
            EVERY,
        ),
        (
            "dot_one_winner",
            "one pair has the largest dot product, with no tie",
            lambda e: _one_winner(e.dots),
            MAX,
        ),
        (
            "max_trick_premise",
            "the max trick changes nothing but the naive formula's overflow",
            _max_trick_premise,
            EVERY,
        ),
        (
            "self_has_option",
            "the self question offers the pattern of Module 1's largest weights",
            _self_has_option,
            FACT,
        ),
        (
            "self_own_score_largest",
            "with nothing learned, each word's own score is its largest",
            _own_score_largest,
            EVERY,
        ),
        (
            "two_senses_premise",
            '"bank" starts with as much water as money',
            _bank_balanced,
            FACT,
        ),
        (
            "saturate_has_option",
            "the sqrt(d_k) question offers what the unscaled softmax does",
            _saturate_has_option,
            FACT,
        ),
        (
            "buckets_found",
            "the PyTorch difference and attention's share each fall in an option",
            _buckets_found,
            EVERY,
        ),
        (
            "order_has_option",
            "the order question offers what reversing the sentence does to the output rows",
            lambda e: order_pattern(e.order) is not None,
            FACT,
        ),
        (
            "mask_off_some_rows",
            "without the mask some rows of 'the cat sat' change, and the last word's row does not",
            _mask_off_some_rows,
            SOME,
        ),
        (
            "quadratic_ratios",
            "at twice the tokens, each counted step does 2 or 4 times the FLOPs",
            _ratios_2_or_4,
            EVERY,
        ),
    )
)
