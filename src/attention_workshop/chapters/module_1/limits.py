"""Module 1's second section, ``simple_limits``: what attention with nothing learned cannot do.

The symmetric score table, the outputs, what each word keeps for itself, bank's lean, and a
longer neighbour that outscores the word itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...core import simple_attention
from ...toy import AXES, SENT_MONEY, embed, lean
from .._section import EVERY, FACT, Claim, Context, Section
from .simple import simple_scores

__all__ = [
    "SENT_LONGER",
    "self_and_best_other",
    "Longer",
    "longer_neighbour",
    "SimpleLimits",
    "SIMPLE_LIMITS",
]

#: Module 1's counterexample: "vault" and "bank" point much the same way, and bank is the longer row.
SENT_LONGER: tuple[str, ...] = ("the", "vault", "bank")


def self_and_best_other(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each row of a square weight table: the weight on itself, and the largest weight on another word."""
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 2 or w.shape[0] != w.shape[1] or len(w) < 2:
        raise ValueError(
            f"weights must be a square table of at least 2 words, got shape {w.shape}"
        )
    others = np.where(np.eye(len(w), dtype=bool), -np.inf, w)
    return np.diag(w).copy(), others.max(axis=1)


@dataclass(frozen=True)
class Longer:
    """One word's own score and weight against its strongest neighbour's (dots are unscaled ``x . y``)."""

    word: str
    neighbour: str
    self_dot: float
    other_dot: float
    self_w: float
    other_w: float
    len_self: float
    len_other: float


def longer_neighbour(sentence: Sequence[str] = SENT_LONGER, word: int = 1) -> Longer:
    """Simple attention of one word: its own score and weight against its strongest neighbour's.

    The raw dot product rewards length as well as direction: ``x . x`` is the squared
    length of ``x``, so a longer neighbour pointing much the same way can outscore it.

    Args:
        sentence: words of the toy vocabulary (``T`` of them).
        word: the row that looks (0-based).

    Returns:
        A :class:`Longer`: the neighbour is the other word with the largest weight.
    """
    words = tuple(sentence)
    if not 0 <= word < len(words) or len(words) < 2:
        raise ValueError(
            f"word must be a row of a sentence of at least 2 words, got {word} for {len(words)} words"
        )
    X = embed(words)  # (T, d_model)
    _, w = simple_attention(X)  # (T, T)
    dots = X @ X[word]  # (T, d_model) x (d_model,) -> (T,)
    j = max((k for k in range(len(words)) if k != word), key=lambda k: w[word, k])
    return Longer(
        words[word],
        words[j],
        float(dots[word]),
        float(dots[j]),
        float(w[word, word]),
        float(w[word, j]),
        float(np.linalg.norm(X[word])),
        float(np.linalg.norm(X[j])),
    )


# --------------------------------------------------------------------------- its limits


@dataclass(frozen=True)
class SimpleLimits:
    """The limits of simple attention on the running sentence."""

    asymmetry: float  # largest |score[i, j] - score[j, i]|
    out: np.ndarray  # (T, 4)
    self_w: np.ndarray  # (T,) each word's weight on itself
    best_other: np.ndarray  # (T,) the most it gives another word
    self_dot: np.ndarray  # (T,) x . x
    best_other_dot: np.ndarray  # (T,) the largest x . y with another word
    # the last word's water - money, before and after, in the running sentence
    lean_first: tuple[float, float]
    lean_contrast: tuple[float, float]  # the same in "the savings bank"
    longer: Longer


def _own_and_others(
    words: tuple[str, ...], X: np.ndarray, w: np.ndarray
) -> tuple[np.ndarray, ...]:
    T = len(words)
    own, other = self_and_best_other(w) if T > 1 else (np.ones(1), np.zeros(1))
    # (T, d_model) x (d_model, T) -> (T, T): unscaled; the diagonal holds squared lengths
    D = X @ X.T
    own_dot = np.diag(D).copy()
    other_dot = (
        np.where(np.eye(T, dtype=bool), -np.inf, D).max(axis=1)
        if T > 1
        else np.full(1, -np.inf)
    )
    return own, other, own_dot, other_dot


def _simple_limits(ctx: Context) -> SimpleLimits:
    f = ctx.fmt
    words = ctx.sentence
    X = embed(words)
    S = simple_scores(X)
    out, w = simple_attention(X)
    own, other, own_dot, other_dot = _own_and_others(words, X, w)
    asym = float(np.max(np.abs(S - S.T)))
    ctx.log(
        f"largest |score[i, j] - score[j, i]| = {asym:.1f}  (the table is symmetric)",
        "output rows on the axes (weights x the same rows X):",
        *("  " + x for x in f.table(out, words, AXES)),
    )
    _log_self_and_others(ctx, own, other, own_dot, other_dot)
    ctx.show(asymmetry=f"{asym:.1f}")
    leans = {
        name: _log_lean(ctx, name, sent)
        for name, sent in (("first", words), ("contrast", SENT_MONEY))
    }
    ctx.show(last=words[-1])
    ln = longer_neighbour()
    _log_longer(ctx, ln)
    return SimpleLimits(
        asym, out, own, other, own_dot, other_dot, leans["first"], leans["contrast"], ln
    )


def _log_self_and_others(
    ctx: Context,
    own: np.ndarray,
    other: np.ndarray,
    own_dot: np.ndarray,
    other_dot: np.ndarray,
) -> None:
    """Each word's squared length, its best dot with another word, and its weights on itself and others."""
    f, words, T = ctx.fmt, ctx.sentence, len(ctx.sentence)
    ctx.log(
        "each word: x.x (its squared length), its largest x.y with another",
        "word, its weight on itself, and the most it gives another word:",
        f"  {'':<8}{'x.x':>7}{'max x.y':>9}{'self':>8}{'max other':>11}",
    )
    ctx.log(
        *(
            f"  {wd:<8}{f.fixed(a):>7}{f.fixed(b) if np.isfinite(b) else 'none':>9}{f.fixed(c):>8}"
            f"{f.fixed(d) if T > 1 else 'none':>11}"
            for wd, a, b, c, d in zip(words, own_dot, other_dot, own, other)
        )
    )
    ctx.show(
        self_wins=str(int(np.sum(own > other))),
        T=str(T),
        self_max=f.fixed(own.max()),
        self_min=f.fixed(own.min()),
    )
    for i in range(T):
        ctx.show(
            **{
                f"self_{i}": f.fixed(own[i]),
                f"other_{i}": f.fixed(other[i]),
                f"self_dot_{i}": f.fixed(own_dot[i]),
                f"other_dot_{i}": f.fixed(other_dot[i]),
            }
        )


def _log_lean(ctx: Context, name: str, sent: tuple[str, ...]) -> tuple[float, float]:
    """The last word's water - money before and after simple attention: ``(before, after)``."""
    f = ctx.fmt
    Xs = embed(sent)
    o, _ = simple_attention(Xs)
    before, after = float(lean(Xs[-1])), float(lean(o[-1]))
    ctx.log(
        f'{sent[-1]} in "{" ".join(sent)}", water - money: '
        f"{f.signed(before)} before, {f.signed(after)} after"
    )
    ctx.show(
        **{
            f"{name}_lean_before": f.minus(f.signed(before)),
            f"{name}_lean_after": f.minus(f.signed(after)),
        }
    )
    return before, after


def _log_longer(ctx: Context, ln: Longer) -> None:
    f = ctx.fmt
    a, b = ln.word, ln.neighbour
    ctx.log(
        f'a longer neighbour can win, in "{" ".join(SENT_LONGER)}":',
        f"  {a} . {a} = {f.fixed(ln.self_dot)} (its squared length), {a} . {b} = {f.fixed(ln.other_dot)}",
        f"  lengths: |{a}| = {f.fixed(ln.len_self)}, |{b}| = {f.fixed(ln.len_other)}",
        f"  {a}'s weights: on itself {f.fixed(ln.self_w)}, on {b} {f.fixed(ln.other_w)}",
    )
    ctx.show(
        long_sentence=" ".join(SENT_LONGER),
        long_word=a,
        long_neighbour=b,
        long_self_dot=f.fixed(ln.self_dot),
        long_other_dot=f.fixed(ln.other_dot),
        long_self=f.fixed(ln.self_w),
        long_other=f.fixed(ln.other_w),
        long_len_self=f.fixed(ln.len_self),
        long_len_other=f.fixed(ln.len_other),
    )


def _longer_wins(ln: Longer) -> bool:
    return (
        ln.neighbour == "bank"
        and ln.len_other > ln.len_self
        and ln.other_dot > ln.self_dot
        and ln.other_w > ln.self_w
    )


SIMPLE_LIMITS = Section(
    "simple_limits",
    "Module 1: the outputs, and the limits",
    _simple_limits,
    claims=(
        Claim(
            "simple_limits.symmetric",
            "with one vector per word, the score table is symmetric",
            lambda r: r.asymmetry == 0.0,
            quantifier=EVERY,
            sentence="the score table is symmetric",
        ),
        Claim(
            "simple_limits.bank_leans_both_ways",
            "bank leans to water in 'the river bank' and to money in 'the savings bank'",
            lambda r: (
                r.lean_first[1] > 0 > r.lean_contrast[1]
                and r.lean_first[0] == 0 == r.lean_contrast[0]
            ),
            default_only=True,
            quantifier=FACT,
            sentence="bank sits on the dashed line where water equals money",
        ),
        Claim(
            "simple_limits.own_dot_largest",
            "each word's dot with itself (its squared length) beats its dot with any other word",
            lambda r: bool((r.self_dot > r.best_other_dot).all()),
            default_only=True,
            quantifier=EVERY,
            sentence="every word's $x \\cdot x$ beats its largest $x \\cdot y$",
        ),
        Claim(
            "simple_limits.longer_neighbour_wins",
            "in 'the vault bank', the longer bank outscores vault's own row and gets more of vault's attention",
            lambda r: _longer_wins(r.longer),
            quantifier=FACT,
            sentence='"{{ simple_limits.long_word }}" gives {{ simple_limits.long_other }} to',
        ),
    ),
)
