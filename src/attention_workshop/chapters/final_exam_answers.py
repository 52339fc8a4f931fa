"""The final exam's answers: for each question, its answer and the values its words quote.

Each function here works one question of ``final_exam.toml`` out of the maths layer and
the experiment's typed results (a :class:`Run`: the build passes its ``Results``), and
returns a :class:`Worked`. A choice answer is given by option *name*; the words of the
options are in the data file. Nothing here checks the premises a question rests on:
:mod:`.final_exam` states them as claims, and the build verifies them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import numpy as np

from ..core import scaled_dot_product_attention
from ..gpt2 import GPT2, STEPS, attention_flops, head_params
from ..handcalc import K_CAT, Q_CAT, V_CAT, WORDS
from ..toy import AXES, embed
from . import module_0, module_1, module_2, module_3
from ._section import Section

__all__ = [
    "DOT_PAIRS",
    "SHARE_BUCKETS",
    "TORCH_BUCKETS",
    "WORK",
    "Run",
    "Worked",
    "bucket",
    "dots",
    "mask_off_changes",
    "order_pattern",
    "ratios",
    "saturate_pattern",
    "self_pattern",
    "torch_diff",
]

R = TypeVar("R")

#: The pairs of the dot-product question, in the order of its options.
DOT_PAIRS: tuple[tuple[str, str], ...] = (
    ("savings", "bank"),
    ("river", "savings"),
    ("river", "bank"),
    ("the", "bank"),
)
#: Which option of the PyTorch question holds a difference: ``(name, lo, hi)``, the first that holds it wins.
TORCH_BUCKETS: tuple[tuple[str, float, float], ...] = (
    ("visible", 0.01, math.inf),
    ("close", 1e-6, 0.01),
    ("rounding", 0.0, 8 * module_3.EPS),
)
#: Which option of the share question holds attention's share of GPT-2's parameters.
SHARE_BUCKETS: tuple[tuple[str, float, float], ...] = (
    ("tenth", 0.0, 0.1),
    ("fifth", 0.2, 0.25),
    ("half", 0.4, 0.6),
    ("most", 0.75, 1.0),
)


class Run(Protocol):
    """What the exam reads from a run of the experiment (the build's ``Results``)."""

    @property
    def sentence(self) -> tuple[str, ...]: ...
    def __getitem__(self, section: Section[R]) -> R: ...


Rows = list[Mapping[str, object]]


@dataclass(frozen=True)
class Worked:
    """One question worked out.

    Attributes:
        answer: a number (numeric), an option name (single) or the names of every true option (multiple);
            ``None`` where no option fits (a claim then fails).
        values: the fields the question's templates quote; a list value is a list of rows
            (mappings, or plain numbers quoted as ``{x}``) the data file's ``lists`` says how to join.
        options: for ``option_each`` questions, one row of values per option, its ``name`` included.
    """

    answer: float | str | tuple[str, ...] | None
    values: Mapping[str, object] = field(default_factory=dict)
    options: Rows = field(default_factory=list)


def bucket(value: float, buckets: Sequence[tuple[str, float, float]]) -> str | None:
    """The name of the first bucket ``[lo, hi]`` that holds ``value``; ``None`` when none does."""
    return next((name for name, lo, hi in buckets if lo <= value <= hi), None)


def _numbers(v: np.ndarray) -> list[float]:
    return [float(x) for x in v]


# --------------------------------------------------------------------------- Module 0


def dots() -> tuple[float, ...]:
    """The dot product of each pair of :data:`DOT_PAIRS`."""
    return tuple(float(embed([a])[0] @ embed([b])[0]) for a, b in DOT_PAIRS)


def _dot(run: Run) -> Worked:
    d = dots()
    rows: Rows = [
        {"name": f"{a}.{b}", "a": a, "b": b, "dot": x}
        for (a, b), x in zip(DOT_PAIRS, d)
    ]
    return Worked(str(rows[int(np.argmax(d))]["name"]), {"listing": rows}, rows)


def _zero_share(run: Run) -> Worked:
    w = float(run[module_0.SOFTMAX].w_zero[1])  # softmax([2, 0, 0])[1]
    return Worked(w, {"weight": w})


def _max_trick(run: Run) -> Worked:
    return Worked("overflow", {"diff": run[module_0.SOFTMAX].naive_vs_stable_small})


# --------------------------------------------------------------------------- Module 1


def self_pattern(w: np.ndarray) -> str | None:
    """Where every row of ``w`` ``(T, T)`` puts its largest weight, as an option name of the self question."""
    T = len(w)
    top = np.argmax(w, axis=1)  # (T,)
    if (top == np.arange(T)).all():
        return "itself"
    if (top[1:] == np.arange(T - 1)).all():
        return "before"
    if (top == T - 1).all():
        return "last"
    return None


def _self(run: Run) -> Worked:
    first = run[module_1.SIMPLE].first
    w, X, T = first.weights, first.X, len(first.weights)
    s = X @ X.T  # (T, d_model) x (d_model, T) -> (T, T): the scores before scaling
    others = ~np.eye(T, dtype=bool)  # (T, T): every cell but the diagonal
    rows: Rows = [
        {
            "word": word,
            "own": float(w[i, i]),
            "other": float(np.max(w[i][others[i]])),
            "own_score": float(s[i, i]),
            "other_score": float(np.max(s[i][others[i]])),
        }
        for i, word in enumerate(first.sentence)
    ]
    return Worked(self_pattern(w), {"sentence": " ".join(first.sentence), "rows": rows})


def _two_senses(run: Run) -> Worked:
    contrast = run[module_1.SIMPLE].contrast  # "the savings bank"
    water, money = AXES.index("water"), AXES.index("money")
    out = contrast.out[-1]  # (d_model,)
    diff = out[money] - out[water]
    answer = "money" if diff > 1e-12 else "water" if diff < -1e-12 else "neither"
    return Worked(
        answer,
        {
            "bank": contrast.sentence[-1],
            "sentence": " ".join(contrast.sentence),
            "water": float(contrast.X[-1, water]),
            "out_water": float(out[water]),
            "out_money": float(out[money]),
        },
    )


# --------------------------------------------------------------------------- Module 2


def _wired(run: Run) -> Worked:
    wired = run[module_2.WIRED_HEAD]
    last = wired.weights[-1]  # (T,): what the last word pays
    options: Rows = [
        {"name": str(i), "word": word} for i, word in enumerate(wired.sentence)
    ]
    row: Rows = [{"word": word, "x": float(x)} for word, x in zip(wired.sentence, last)]
    return Worked(
        str(int(np.argmax(last))),
        {"sentence": " ".join(wired.sentence), "last": wired.sentence[-1], "row": row},
        options,
    )


def saturate_pattern(d: module_2.SqrtDk) -> str | None:
    """What the unscaled softmax does as d_k grows, as an option name of the saturate question."""
    if d.max_raw[-1] > 0.9 and np.all(np.diff(d.max_raw) > 0):
        return "one-hot"
    if d.max_raw[-1] < 1.5 / d.keys:
        return "equal"
    return None


def _saturate(run: Run) -> Worked:
    d = run[module_2.SQRT_DK]
    return Worked(
        saturate_pattern(d),
        {
            "keys": d.keys,
            "raw_first": float(d.max_raw[0]),
            "dk_first": int(d.dk[0]),
            "raw_last": float(d.max_raw[-1]),
            "dk_last": int(d.dk[-1]),
            "scaled_min": float(np.min(d.max_scaled)),
            "scaled_max": float(np.max(d.max_scaled)),
        },
    )


# --------------------------------------------------------------------------- Module 3


def torch_diff(run: Run) -> float:
    """The largest difference between the package's head and PyTorch's, with or without the mask."""
    g = run[module_3.GENERAL_HEAD]
    return max(g.diff, g.diff_causal)


def _torch(run: Run) -> Worked:
    diff = torch_diff(run)
    return Worked(
        bucket(diff, TORCH_BUCKETS),
        {"diff": diff, "ulps": diff / run[module_3.GENERAL_HEAD].eps},
    )


def _causal(run: Run) -> Worked:
    c = run[module_3.CAUSAL]
    w, u, T = c.weights, c.unmasked, len(c.weights)
    facts = {
        "first-row": w[0, 0] == 1.0 and not w[0, 1:].any(),
        "sums-to-one": bool(np.allclose(w.sum(axis=1), 1.0, rtol=0, atol=1e-12)),
        "last-row": bool(np.allclose(w[-1], u[-1], rtol=0, atol=1e-15)),
        "on-itself": bool((np.argmax(w, axis=1) == np.arange(T)).all()),
        "positive": bool((w > 0).all()),
    }
    rows: Rows = [
        {"word": word, "row": _numbers(row)} for word, row in zip(c.sentence, w)
    ]
    return Worked(
        tuple(name for name, true in facts.items() if true),
        {"sentence": " ".join(c.sentence), "rows": rows},
    )


def order_pattern(d: module_3.Order, tol: float = 1e-12) -> str | None:
    """What reversing the sentence does to the output rows, as an option name of the order question.

    ``"reversed"``: the reversed run's rows, read backwards, are the first run's rows. ``None`` when the
    rows are all alike (then "reversed" and "same order" could not be told apart) or nothing fits.
    """
    fwd, rev = d.out_fwd, d.out_rev  # (T, d_model) each
    if np.allclose(fwd, fwd[0], rtol=0, atol=tol):
        return None
    if np.allclose(fwd, rev[::-1], rtol=0, atol=tol):
        return "reversed"
    if np.allclose(fwd, rev, rtol=0, atol=tol):
        return "same-order"
    same = [
        bool(np.allclose(fwd[i], rev[-1 - i], rtol=0, atol=tol))
        for i in range(len(fwd))
    ]
    return "last-moves" if not same[-1] and all(same[:-1]) else "all-change"


def _order(run: Run) -> Worked:
    d = run[module_3.ORDER]
    sent = run.sentence
    return Worked(
        order_pattern(d),
        {
            "sentence": " ".join(sent),
            "reversed": " ".join(reversed(sent)),
            "first": sent[0],
            "last": sent[-1],
            "diff": d.diff,
        },
    )


def _per_head(run: Run) -> Worked:
    n = head_params(GPT2)
    return Worked(
        float(n), {"n_embd": GPT2.n_embd, "head_size": GPT2.head_size, "n": n}
    )


def _share(run: Run) -> Worked:
    p = run[module_3.PRICE]
    return Worked(
        bucket(p.share, SHARE_BUCKETS),
        {
            "n_layer": GPT2.n_layer,
            "n_head": GPT2.n_head,
            "attention": p.attention,
            "total": p.total,
            "percent": 100 * p.share,
        },
    )


# --------------------------------------------------------------------------- step by step: "the cat sat"


def _sat(run: Run) -> Worked:
    _, w = scaled_dot_product_attention(Q_CAT, K_CAT, V_CAT, causal=False)  # w: (3, 3)
    return Worked(float(w[2, 2]), {"row": _numbers(w[2])})


def _cat_causal(run: Run) -> Worked:
    _, w = scaled_dot_product_attention(Q_CAT, K_CAT, V_CAT, causal=True)  # w: (3, 3)
    return Worked(float(w[1, 0]), {"row": _numbers(w[1])})


def mask_off_changes() -> tuple[bool, ...]:
    """For each word of "the cat sat": whether its row of weights changes when the mask is switched off."""
    _, masked = scaled_dot_product_attention(Q_CAT, K_CAT, V_CAT, causal=True)  # (3, 3)
    _, unmasked = scaled_dot_product_attention(
        Q_CAT, K_CAT, V_CAT, causal=False
    )  # (3, 3)
    return tuple(
        not bool(np.allclose(a, b, rtol=0, atol=1e-15))
        for a, b in zip(masked, unmasked)
    )


def _causal_off(run: Run) -> Worked:
    _, masked = scaled_dot_product_attention(Q_CAT, K_CAT, V_CAT, causal=True)  # (3, 3)
    _, unmasked = scaled_dot_product_attention(Q_CAT, K_CAT, V_CAT, causal=False)
    options: Rows = [{"name": str(i), "word": word} for i, word in enumerate(WORDS)]

    def rows(w: np.ndarray) -> Rows:
        return [{"word": word, "row": _numbers(r)} for word, r in zip(WORDS, w)]

    return Worked(
        tuple(str(i) for i, changed in enumerate(mask_off_changes()) if changed),
        {"masked": rows(masked), "unmasked": rows(unmasked), "last": WORDS[-1]},
        options,
    )


# --------------------------------------------------------------------------- inside the model


def ratios() -> dict[str, float]:
    """How many times more FLOPs each counted step of :data:`.gpt2.STEPS` does at twice the tokens, by step id.

    The causal mask does no arithmetic (its ``flops`` key is ``None``): it is left out.
    """
    T = GPT2.n_ctx // 2
    f1, f2 = attention_flops(T), attention_flops(2 * T)
    return {s.id: f2[s.flops] / f1[s.flops] for s in STEPS if s.flops is not None}


def _quadratic(run: Run) -> Worked:
    T = GPT2.n_ctx // 2
    r = ratios()
    numbered = list(enumerate(STEPS, 1))
    options: Rows = [
        {"name": s.id, "i": i, "title": s.title} for i, s in numbered if s.id in r
    ]
    skipped: Rows = [
        {"i": i, "title_lower": s.title.lower()} for i, s in numbered if s.id not in r
    ]
    listing: Rows = [{"title": s.title, "ratio": r[s.id]} for s in STEPS if s.id in r]
    return Worked(
        tuple(sid for sid, x in r.items() if x == 4),
        {
            "n_steps": len(STEPS),
            "skipped": skipped,
            "T": T,
            "T2": 2 * T,
            "listing": listing,
        },
        options,
    )


def _divisor(run: Run) -> Worked:
    d = math.sqrt(GPT2.head_size)
    return Worked(d, {"head_size": GPT2.head_size, "d": d})


def _cells(run: Run) -> Worked:
    T = GPT2.n_ctx
    n = attention_flops(T)["score_cells"]
    return Worked(float(n), {"T": T, "n": n})


#: How each question of the data file is worked out, by question id.
WORK: dict[str, Callable[[Run], Worked]] = {
    "dot": _dot,
    "zero-share": _zero_share,
    "max-trick": _max_trick,  # Module 0
    "self": _self,
    "two-senses": _two_senses,  # Module 1
    "wired": _wired,
    "saturate": _saturate,  # Module 2
    "torch": _torch,
    "causal": _causal,
    "order": _order,
    "per-head": _per_head,
    "share": _share,  # Module 3
    "sat": _sat,
    "cat-causal": _cat_causal,
    "causal-off": _causal_off,  # step by step
    "quadratic": _quadratic,
    "divisor": _divisor,
    "cells": _cells,  # inside the model
}
