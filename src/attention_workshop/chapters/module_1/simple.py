"""Module 1's first section, ``simple``: every word blends in every other word, nothing learned.

Scores and weights on the running sentence and on "the savings bank", and bank's output.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...core import simple_attention
from ...toy import AXES, SENT_MONEY, embed
from .._section import EVERY, FACT, Claim, Context, Section

__all__ = ["simple_scores", "SimpleRun", "Simple", "SIMPLE"]


def simple_scores(X: np.ndarray) -> np.ndarray:
    """Module 1's score table, before softmax: ``X X^T / sqrt(d_model)``, ``(T, T)``."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must have shape (T, d_model), got shape {X.shape}")
    return X @ X.T / math.sqrt(X.shape[1])  # (T, d) x (d, T) -> (T, T)


# --------------------------------------------------------------------------- simple


@dataclass(frozen=True)
class SimpleRun:
    """Simple attention on one sentence: its rows ``X`` ``(T, 4)``, scores and weights ``(T, T)``, outputs."""

    sentence: tuple[str, ...]
    X: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    out: np.ndarray


@dataclass(frozen=True)
class Simple:
    """The running sentence (``first``) and "the savings bank" (``contrast``)."""

    first: SimpleRun
    contrast: SimpleRun


def _simple(ctx: Context) -> Simple:
    f = ctx.fmt
    runs = {}
    for name, sent in (("first", ctx.sentence), ("contrast", SENT_MONEY)):
        X = embed(sent)
        out, w = simple_attention(X)
        S = simple_scores(X)  # (T, T), before softmax
        ctx.log(
            f'simple attention on "{" ".join(sent)}" (row = who is looking)',
            f"  scores X X^T / sqrt({X.shape[1]}), before softmax:",
            *("    " + line for line in f.table(S, sent, sent)),
            "  weights, softmax of each row:",
            *("    " + line for line in f.table(w, sent, sent)),
            f"  {sent[-1]}'s output ({', '.join(AXES)}):",
            f"    {f.vec(out[-1])}",
        )
        runs[name] = SimpleRun(tuple(sent), X, S, w, out)
        ctx.show(**{f"{name}_last_out": f.vec(out[-1])})
        for a, ax in enumerate(AXES):
            ctx.show(
                **{
                    f"{name}_last_{ax}": f.fixed(out[-1, a]),
                    f"{name}_last_{ax}_before": f.fixed(X[-1, a]),
                }
            )
        ctx.show(**{f"{name}_self_min": f.fixed(np.min(np.diag(w)))})
    return Simple(runs["first"], runs["contrast"])


def _self_dominates(r: Simple) -> bool:
    return all(
        bool((np.argmax(s.weights, axis=1) == np.arange(len(s.weights))).all())
        for s in (r.first, r.contrast)
    )


SIMPLE = Section(
    "simple",
    "Module 1: attention with nothing learned",
    _simple,
    claims=(
        Claim(
            "simple.self_attention_dominates",
            "on the workshop's two sentences, each word's largest single share is on itself",
            _self_dominates,
            default_only=True,
            quantifier=EVERY,
            sentence="In every row of the weight tables the biggest single weight sits on the diagonal",
        ),
        Claim(
            "simple.rows_sum_to_one",
            "in both sentences, every row of weights sums to 1",
            lambda r: all(
                bool(np.allclose(s.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12))
                for s in (r.first, r.contrast)
            ),
            quantifier=EVERY,
            sentence="the row's weights add up to 1",
        ),
        Claim(
            "simple.bank_moves_to_water",
            "in 'the river bank', bank's output moves toward water",
            lambda r: bool(r.first.out[-1, 0] > r.first.out[-1, 1]),
            default_only=True,
            quantifier=FACT,
            sentence="toward water in one sentence",
        ),
        Claim(
            "simple.bank_moves_to_money",
            "in 'the savings bank', bank's output moves toward money",
            lambda r: bool(r.contrast.out[-1, 1] > r.contrast.out[-1, 0]),
            quantifier=FACT,
            sentence="toward money in the other",
        ),
        Claim(
            "simple_limits.self_below_half",
            "no word keeps half of its attention for itself, in either sentence",
            lambda r: all(
                bool((np.diag(s.weights) < 0.5).all()) for s in (r.first, r.contrast)
            ),
            default_only=True,
            quantifier=EVERY,
            sentence="no word keeps even half for itself, in either sentence",
        ),
    ),
)
