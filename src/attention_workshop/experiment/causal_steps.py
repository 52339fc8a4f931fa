"""A causal model's explorer, the seven steps on a real head: what the build writes of each
sentence (:func:`steps_data`) and what the page shows of one head and token (:func:`head_view`,
the same object as ``headView`` in ``docs/assets/causal/model.js``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..chapters.causal_heads import CausalHeads, Run, step_table
from ..gpt2 import GPT2
from . import fmt

__all__ = ["steps_data", "LEVELS", "level", "head_view"]


def steps_data(run: Run, f: CausalHeads) -> dict[str, Any]:
    """What the explorer shows of one sentence, rounded as it shows it: the scores before the
    mask in tenths (``(L, H, T, T)``), the weights in hundredths (row ``i`` keeps its ``i + 1``
    visible weights), each weighted sum's length in tenths (``(L, H, T)``), both models' sizes, and
    each step's FLOPs in one layer of each model for the sentence's ``T`` (:func:`step_table`, as
    the page's table of the seven steps at real size counts them)."""
    st, T = run.steps, len(run.tokens)
    flops = step_table(T, f.d_model, f.n_head, f.n_kv_head, f.head_size)
    weights = np.rint(run.attentions * 100).astype(int)  # (L, H, T, T)
    return {
        "key": run.sentence.key,
        "text": run.sentence.text,
        "tokens": list(run.tokens),
        "model": {
            "n_layer": f.n_layer,
            "n_head": f.n_head,
            "n_kv_head": f.n_kv_head,
            "d_model": f.d_model,
            "head_size": f.head_size,
        },
        "gpt2": {
            "n_head": GPT2.n_head,
            "d_model": GPT2.n_embd,
            "head_size": GPT2.head_size,
        },
        "scores": np.rint(st.scores * 10).astype(int).tolist(),
        "weights": [
            [[row[i][: i + 1] for i in range(T)] for row in layer]
            for layer in weights.tolist()
        ],
        "sizes": np.rint(st.sizes * 10).astype(int).tolist(),
        "flops": [[s.smollm, s.gpt2] for s in flops],  # (7, 2): SmolLM2, GPT-2
    }


#: A weight's shade in the explorer's heatmap: the number of these it reaches (0 .. 5).
LEVELS = (0.05, 0.15, 0.3, 0.5, 0.75)


def level(hundredths: int) -> int:
    """The shade of a weight given in hundredths, as ``docs/assets/causal/model.js`` finds it."""
    return sum(hundredths >= round(t * 100) for t in LEVELS)


def _tenths(x: int) -> str:
    """Tenths as the page prints them: ``−1.7`` with a true minus sign."""
    return fmt.minus(fmt.fixed(x / 10, 1))


def _shapes(data: dict[str, Any], head: int, T: int) -> list[list[str]]:
    """The shapes table: each step, then SmolLM2's shape and FLOPs, GPT-2's shape and FLOPs; last,
    one layer's FLOPs in all."""
    m, g = data["model"], data["gpt2"]
    hs, group = m["head_size"], m["n_head"] // m["n_kv_head"]
    t = f"({T}, {hs})"
    shapes = [
        [
            "1. project",
            f"q {t}; k, v {t} of key/value head {head // group + 1}",
            f"q, k, v {t}",
        ],
        ["2. score", f"({T}, {T})", f"({T}, {T})"],
        [
            "3. scale",
            f"÷ {fmt.num(hs**0.5, 3)}",
            f"÷ {fmt.num(g['head_size'] ** 0.5, 3)}",
        ],
        ["4. mask", f"({T}, {T})", f"({T}, {T})"],
        ["5. softmax", f"({T}, {T})", f"({T}, {T})"],
        ["6. weighted sum", t, f"({T}, {g['head_size']})"],
        [
            "7. output",
            f"{m['n_head']} heads: ({T}, {m['n_head'] * hs}) → ({T}, {m['d_model']})",
            f"{g['n_head']} heads: ({T}, {g['n_head'] * g['head_size']}) → ({T}, {g['d_model']})",
        ],
    ]
    flops = data["flops"]  # (7, 2): each step's FLOPs in one layer, SmolLM2 then GPT-2
    rows = [
        [step, ours, fmt.count(f[0]), theirs, fmt.count(f[1])]
        for (step, ours, theirs), f in zip(shapes, flops)
    ]
    total = [fmt.count(sum(f[n] for f in flops)) for n in (0, 1)]
    rows.append(["one layer", "", total[0], "", total[1]])
    return rows


def head_view(
    data: dict[str, Any], layer: int, head: int, token: int
) -> dict[str, Any]:
    """What the explorer shows of one head (counted from 0) and one token's row, from
    :func:`steps_data`'s JSON: the same object ``headView`` of ``model.js`` returns."""
    tokens, T = data["tokens"], len(data["tokens"])
    scores = data["scores"][layer][head]  # (T, T), tenths
    weights = data["weights"][layer][head]  # row i: i + 1 hundredths
    return {
        "title": f"Layer {layer + 1}, head {head + 1}, row of token {token + 1} ({tokens[token]})",
        "shapes": _shapes(data, head, T),
        "tokens": tokens,
        "before": [_tenths(x) for x in scores[token]],
        "after": [
            _tenths(x) if j <= token else "−∞" for j, x in enumerate(scores[token])
        ],
        "weights": [fmt.fixed(w / 100, 2) for w in weights[token]]
        + ["0"] * (T - token - 1),
        "width": data["model"]["head_size"],
        "size": _tenths(data["sizes"][layer][head][token]),
        "heat": [[[fmt.fixed(w / 100, 2), level(w)] for w in row] for row in weights],
        "picked": token,
    }
