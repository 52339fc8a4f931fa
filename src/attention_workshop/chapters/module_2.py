"""Module 2, "Queries, keys and values": a head wired by hand, and why scores are divided by sqrt(d_k).

Sections of results.log: ``wired_parts`` (what each word asks and advertises, the scores,
and where the last word's sense goes), ``wired_head`` (the head's weights), ``sqrt_dk``
(random queries and keys: the variance of a dot product and the softmax's saturation).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import simple_attention, softmax
from ..toy import SENT_MONEY, WIRED_CHANNELS, WiredHead, embed, lean, wired_head
from ._section import EVERY, MAX, Claim, Context, Section

__all__ = [
    "DK_VALUES",
    "DK_KEYS",
    "DK_TRIALS",
    "WiredParts",
    "Wired",
    "SqrtDk",
    "SECTIONS",
]

#: The head widths the sqrt(d_k) experiment tries, keys per query, and queries per width.
DK_VALUES: tuple[int, ...] = (4, 16, 64, 256, 1024)
DK_KEYS = 8
DK_TRIALS = 400


# --------------------------------------------------------------------------- what the head asks


@dataclass(frozen=True)
class WiredParts:
    """The wired head on the running sentence, and the last word's lean with it and with Module 1."""

    wired: WiredHead
    # "first" (running sentence), "contrast" ("the savings bank"): wired head
    lean: dict[str, float]
    lean_simple: dict[str, float]  # the same with Module 1's attention


def _wired_parts(ctx: Context) -> WiredParts:
    f = ctx.fmt
    words = ctx.sentence
    h = wired_head(embed(words))
    ctx.log(
        f"Q = X W_Q (what each word asks), channels {', '.join(WIRED_CHANNELS)}:",
        *("  " + x for x in f.table(h.Q, words, WIRED_CHANNELS, 1)),
        "K = X W_K (what each word advertises):",
        *("  " + x for x in f.table(h.K, words, WIRED_CHANNELS, 1)),
        f"scores Q K^T / sqrt({h.K.shape[1]}):",
        *("  " + x for x in f.table(h.scores, words, words)),
    )
    ctx.show(top_of_first=words[int(np.argmax(h.weights[0]))])
    for i in range(len(words)):
        ctx.show(
            **{
                f"q_{i}": "[" + ", ".join(f.fixed(v, 1) for v in h.Q[i]) + "]",
                f"k_{i}": "[" + ", ".join(f.fixed(v, 1) for v in h.K[i]) + "]",
            }
        )
    wired, simple = {}, {}
    for name, sent in (("first", words), ("contrast", SENT_MONEY)):
        Xs = embed(sent)
        after, plain = (
            float(lean(wired_head(Xs).out[-1])),
            float(lean(simple_attention(Xs)[0][-1])),
        )
        ctx.log(
            f'{sent[-1]} in "{" ".join(sent)}", water - money:',
            f"  wired head {f.signed(after)}, Module 1 {f.signed(plain)}",
        )
        wired[name], simple[name] = after, plain
        ctx.show(
            **{
                f"{name}_lean": f.minus(f.signed(after)),
                f"{name}_lean_simple": f.minus(f.signed(plain)),
            }
        )
    return WiredParts(h, wired, simple)


WIRED_PARTS = Section(
    "wired_parts",
    "Module 2: what the wired head asks and advertises",
    _wired_parts,
    claims=(
        Claim(
            "wired_parts.the_looks_at_bank",
            "the wired head sends 'the' mostly to bank (the place channel)",
            lambda r: int(np.argmax(r.wired.weights[0])) == 2,
            default_only=True,
            quantifier=MAX,
            sentence='"the" sends its largest share, {{ wired_head.w_0_2 }}, to "{{ wired_parts.top_of_first }}"',
        ),
        Claim(
            "wired_parts.the_top_share_under_half",
            "the wired head's largest share of 'the' is under one half",
            lambda r: float(np.max(r.wired.weights[0])) < 0.5,
            default_only=True,
            quantifier=MAX,
            sentence="its largest single share, though under half",
        ),
        Claim(
            "wired_parts.the_advertises_nothing",
            "'the' advertises nothing: its key is zero, so every score on it is 0",
            lambda r: not r.wired.K[0].any() and not r.wired.scores[:, 0].any(),
            default_only=True,
            quantifier=EVERY,
            sentence='so every score on "the" is zero',
        ),
        Claim(
            "wired_parts.stronger_than_simple",
            "the wired head moves bank further than Module 1 did, in both sentences",
            lambda r: all(
                abs(r.lean[k]) > abs(r.lean_simple[k]) > 0
                for k in ("first", "contrast")
            ),
            default_only=True,
            quantifier=EVERY,
            sentence="bank's lean toward water grows from",
        ),
    ),
)


# --------------------------------------------------------------------------- the head's weights


@dataclass(frozen=True)
class Wired:
    """The wired head's weights on the running sentence, no mask.

    ``X`` is ``(T, 4)``; ``scores`` and ``weights`` are ``(T, T)``.
    """

    sentence: tuple[str, ...]
    X: np.ndarray
    scores: np.ndarray
    weights: np.ndarray


def _wired(ctx: Context) -> Wired:
    f = ctx.fmt
    words = ctx.sentence
    X = embed(words)
    h = wired_head(X)
    w = h.weights
    ctx.log(
        f'hand-wired head on "{" ".join(words)}" (no mask):',
        *("  " + line for line in f.table(w, words, words)),
        "  row sums: " + ", ".join(f.fixed(s, 6) for s in w.sum(axis=1)),
    )
    ctx.show(
        **{f"w_{i}_{j}": f.fixed(w[i, j]) for i in range(len(w)) for j in range(len(w))}
    )
    return Wired(words, X, h.scores, w)


WIRED_HEAD = Section(
    "wired_head",
    "Module 2: the hand-wired head's weights",
    _wired,
    claims=(
        Claim(
            "wired.rows_sum_to_one",
            "every row of the wired head's table sums to 1",
            lambda r: bool(np.allclose(r.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)),
            quantifier=EVERY,
            sentence=None,
        ),
        Claim(
            "wired.bank_looks_at_river",
            "the wired head sends bank's attention mostly to river",
            lambda r: int(np.argmax(r.weights[-1])) == 1,
            default_only=True,
            quantifier=MAX,
            sentence='"bank" now gives {{ wired_head.w_2_1 }} of its attention to "river"',
        ),
    ),
)


# --------------------------------------------------------------------------- why divide by sqrt(d_k)


@dataclass(frozen=True)
class SqrtDk:
    """For each ``d_k`` of :data:`DK_VALUES`: the variance of ``q . k`` and the mean largest softmax weight,
    raw and divided by ``sqrt(d_k)`` (arrays of ``len(DK_VALUES)``)."""

    dk: np.ndarray
    var_raw: np.ndarray
    var_scaled: np.ndarray
    max_raw: np.ndarray
    max_scaled: np.ndarray
    keys: int
    trials: int


def _measure(seed: int) -> np.ndarray:
    """``(len(DK_VALUES), 5)``: d_k, var raw, var scaled, mean max weight raw, scaled."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in DK_VALUES:
        q = rng.standard_normal((DK_TRIALS, d))
        k = rng.standard_normal((DK_TRIALS, DK_KEYS, d))
        raw = np.einsum("nd,nkd->nk", q, k)  # (N, d) . (N, keys, d) -> (N, keys)
        scaled = raw / np.sqrt(d)
        rows.append(
            (
                d,
                raw.var(),
                scaled.var(),
                softmax(raw).max(axis=1).mean(),
                softmax(scaled).max(axis=1).mean(),
            )
        )
    return np.array(rows)


def _sqrt_dk(ctx: Context) -> SqrtDk:
    f = ctx.fmt
    arr = _measure(ctx.seed)
    ctx.log(
        f"random queries and keys, standard normal (seed {ctx.seed}):",
        f"{DK_TRIALS} queries x {DK_KEYS} keys each, for every d_k",
        f"  {'':>5}   {'variance of q.k':^21}   {'mean largest weight':^21}",
        f"  {'d_k':>5}   {'raw':>9} {'/ sqrt(d_k)':>11}   {'raw':>9} {'/ sqrt(d_k)':>11}",
    )
    for d, vr, vs, mr, ms in arr:
        ctx.log(
            f"  {int(d):>5}   {f.fixed(vr, 1):>9} {f.fixed(vs, 3):>11}   {f.fixed(mr, 3):>9} {f.fixed(ms, 3):>11}"
        )
    _show_sqrt_dk(ctx, arr)
    return SqrtDk(
        np.array(DK_VALUES),
        arr[:, 1],
        arr[:, 2],
        arr[:, 3],
        arr[:, 4],
        DK_KEYS,
        DK_TRIALS,
    )


def _show_sqrt_dk(ctx: Context, arr: np.ndarray) -> None:
    """The values Module 2's prose quotes from the measurement ``arr`` (one row per d_k)."""
    f = ctx.fmt
    check = DK_VALUES[-2]  # the size the self-check asks about
    ctx.show(
        seed=str(ctx.seed),
        trials=str(DK_TRIALS),
        keys=str(DK_KEYS),
        n_sizes=str(len(DK_VALUES)),
        dk_first=str(DK_VALUES[0]),
        dk_last=str(DK_VALUES[-1]),
        dk_check=str(check),
        sqrt_check=f"{np.sqrt(check):g}",
        var_raw_last=f.fixed(arr[-1, 1], 1),
        var_scaled_last=f.fixed(arr[-1, 2]),
        max_raw_first=f.fixed(arr[0, 3]),
        max_raw_last=f.fixed(arr[-1, 3]),
        max_scaled_last=f.fixed(arr[-1, 4]),
        var_raw_check=f.fixed(arr[-2, 1], 1),
        var_scaled_check=f.fixed(arr[-2, 2]),
        var_ratio_min=f.fixed(np.min(arr[:, 1] / arr[:, 0])),
        var_ratio_max=f.fixed(np.max(arr[:, 1] / arr[:, 0])),
    )
    for d, vr, vs, mr, ms in arr:
        n = int(d)
        ctx.show(
            **{
                f"var_raw_{n}": f.fixed(vr, 1),
                f"var_scaled_{n}": f.fixed(vs),
                f"max_raw_{n}": f.fixed(mr),
                f"max_scaled_{n}": f.fixed(ms),
            }
        )


SQRT_DK = Section(
    "sqrt_dk",
    "Module 2: why divide by sqrt(d_k)",
    _sqrt_dk,
    claims=(
        Claim(
            "sqrt_dk.variance_grows",
            "the variance of raw dot products grows with d_k",
            lambda r: bool(np.all(np.diff(r.var_raw) > 0)),
            quantifier=EVERY,
            sentence="the variance follows $d_k$",
        ),
        Claim(
            "sqrt_dk.variance_follows_dk",
            "without scaling, the variance of q.k is within 5% of d_k at every d_k",
            lambda r: bool(np.all(np.abs(r.var_raw / r.dk - 1) < 0.05)),
            quantifier=EVERY,
            sentence="at every size it is within 5% of $d_k$",
        ),
        Claim(
            "sqrt_dk.scaled_variance_near_one",
            "scaling keeps the variance near 1",
            lambda r: bool(np.all(np.abs(r.var_scaled - 1) < 0.2)),
            quantifier=EVERY,
            sentence="the variance stays near 1",
        ),
        Claim(
            "sqrt_dk.raw_saturates",
            "without scaling, softmax approaches one-hot as d_k grows",
            lambda r: bool(r.max_raw[-1] > 0.9 and np.all(np.diff(r.max_raw) > 0)),
            quantifier=EVERY,
            sentence="weights climbs from {{ sqrt_dk.max_raw_first }}",
        ),
        Claim(
            "sqrt_dk.scaled_stays_responsive",
            "with scaling, the largest weight stays far from one-hot",
            lambda r: bool(np.all(r.max_scaled < 0.6)),
            quantifier=EVERY,
            sentence="the largest weight stays around {{ sqrt_dk.max_scaled_last }}",
        ),
    ),
)

SECTIONS: tuple[Section[Any], ...] = (WIRED_PARTS, WIRED_HEAD, SQRT_DK)
