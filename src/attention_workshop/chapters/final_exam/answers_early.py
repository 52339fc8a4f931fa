"""The final exam's answers for Modules 0 to 2, each worked out from the maths and the run.

Each function works one question of ``questions.toml`` out (see :mod:`.worked`); a choice answer
is given by option *name*. Nothing here checks the premises a question rests on: :mod:`.premises`
states them as claims.
"""

from __future__ import annotations

import numpy as np

from ...toy import AXES, W_K_WIRED, embed
from .. import module_0, module_1, module_2
from .worked import DOT_PAIRS, Rows, Run, Worked

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
    k_last = float((wired.X @ W_K_WIRED)[-1, 0])  # the last word's key, topic channel
    values = {
        "sentence": " ".join(wired.sentence),
        "last": wired.sentence[-1],
        "row": row,
    }
    return Worked(str(int(np.argmax(last))), {**values, "k_last": k_last}, options)


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
