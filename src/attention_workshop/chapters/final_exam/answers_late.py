"""The final exam's answers for Module 3, Step by step and Inside the model, and :data:`WORK`,
how every question of ``questions.toml`` is worked out, by its id.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ...causal.layers import share_kv_heads
from ...core import scaled_dot_product_attention
from ...gpt2 import GPT2, STEPS, attention_flops, head_params
from ...handcalc import K_CAT, Q_CAT, V_CAT, WORDS
from .. import module_3
from ..causal_heads.measures import induction_pairs
from ..causal_heads.sentences import GQA, PHRASE
from .answers_early import (
    _dot,
    _max_trick,
    _saturate,
    _self,
    _two_senses,
    _wired,
    _zero_share,
)
from .worked import SHARE_BUCKETS, TORCH_BUCKETS, Rows, Run, Worked, _numbers, bucket

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
    values = {
        "n_embd": GPT2.n_embd,
        "n_head": GPT2.n_head,
        "head_size": GPT2.head_size,
        "d": d,
    }
    return Worked(d, values)


# --------------------------------------------------------------------------- A causal model

#: The induction question's text, cut into words: a phrase, then its first word again.
INDUCTION_WORDS = (
    "the",
    PHRASE[0],
    PHRASE[1],
    "on",
    "the",
    "mat",
    "and",
    "the",
    PHRASE[0],
)


def _induction(run: Run) -> Worked:
    words = INDUCTION_WORDS
    targets = dict(induction_pairs(words))  # query -> the token after its first copy
    q = len(words) - 1
    t = targets[q]
    options: Rows = [
        {"name": str(i), "word": w, "i": i + 1} for i, w in enumerate(words[:q])
    ]
    values = {
        "text": " ".join(words),
        "word": words[q],
        "first": words.index(words[q]) + 1,
        "target": t + 1,
        "answer_word": words[t],
    }
    return Worked(str(t), values, options)


def _gqa(run: Run) -> Worked:
    n_head, n_kv_head, hs = GQA
    kv = np.arange(n_kv_head, dtype=float).reshape(
        n_kv_head, 1, 1
    )  # (nkv, 1, 1): each head's number
    shared = share_kv_heads(kv, n_head)[
        :, 0, 0
    ]  # (nh,): the key head each query head reads
    served = [i + 1 for i, h in enumerate(shared) if h == 0]
    values = {
        "n_head": n_head,
        "n_kv_head": n_kv_head,
        "hs": hs,
        "n": n_kv_head * hs,
        "nq": n_head * hs,
        "group": len(served),
        "served": served,
    }
    return Worked(float(n_kv_head * hs), values)


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
    "causal-off": _causal_off,  # step by step
    "quadratic": _quadratic,
    "divisor": _divisor,  # inside the model
    "induction": _induction,
    "gqa": _gqa,  # a causal model
}
