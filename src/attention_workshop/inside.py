"""The "Inside the model" page: one causal attention block at toy scale beside GPT-2.

The toy block has GPT-2's layout (``c_attn`` makes queries, keys and values in one
matrix product, ``c_proj`` mixes the heads) at a size whose every number can be read:
5 tokens, ``n_embd`` 8, 2 heads of width 4. Its weights are drawn once from
``numpy.random.default_rng(0)``.

A token's 8 input numbers are its word's 4 named toy axes (:data:`attention_workshop.toy.AXES`)
followed by 4 position numbers (:func:`positions`): GPT-2 also tells attention where each
token sits before the first block, by adding a learned position vector.

:func:`compute` runs the block one step at a time and checks that the steps reproduce
:func:`attention_workshop.core.multi_head_attention`; :func:`page_data` is everything the
page's JavaScript needs (written to ``generated/inside-the-model.json`` by :func:`site_files`),
and :func:`static_step` renders each step as HTML for readers without JavaScript.

Number format on the page: a shape's dimensions are printed as plain digits, as PyTorch
prints them (``[1024×2304]``, ``(1, 12, 1024, 64)``); a count (tokens, cells, FLOPs) of
1,000 or more gets thousands separators (``1,048,576 cells``).
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from .core import causal_mask, multi_head_attention, scaled_dot_product_attention, softmax
from .gpt2 import GPT2, GPT2Config, attention_flops
from .toy import AXES, VOCAB, embed

__all__ = [
    "TOY",
    "SEED",
    "WORDS",
    "MAX_TOKENS",
    "FEATURES",
    "STEPS",
    "JSON_PATH",
    "positions",
    "toy_weights",
    "token_inputs",
    "compute",
    "step_costs",
    "code_lines",
    "growth",
    "gpt2_facts",
    "page_data",
    "site_files",
    "static_step",
    "static_code",
    "sizes_table",
    "explorer_html",
    "growth_table",
    "gpt2_costs_text",
    "cost_convention_text",
    "input_text",
    "weights_text",
]

#: The toy block's sizes, in GPT-2's own names (one layer; ``n_ctx`` is the most tokens the page offers).
TOY = GPT2Config(n_layer=1, n_head=2, n_embd=8, n_ctx=8, vocab_size=len(VOCAB))
#: The seed of the toy weights.
SEED = 0
#: The input the page starts with (5 tokens).
WORDS: tuple[str, ...] = ("the", "boat", "by", "the", "bank")
#: The tokens control goes from 1 to this many tokens.
MAX_TOKENS = TOY.n_ctx
#: Names of the 8 input features: the 4 toy axes, then 4 position numbers.
FEATURES: tuple[str, ...] = (*AXES, "pos sin", "pos cos", "pos sin/4", "pos cos/4")
#: Where the build writes the page's data.
JSON_PATH = "generated/inside-the-model.json"

#: The seven steps: (section id, title).
STEPS: tuple[tuple[str, str], ...] = (
    ("projections", "Projections"),
    ("scores", "Scores"),
    ("scale", "Scale"),
    ("causal-mask", "Causal mask"),
    ("softmax", "Softmax"),
    ("weighted-sum", "Weighted sum"),
    ("output-projection", "Output projection"),
)

#: How close the step-by-step walk must be to ``multi_head_attention`` (float64).
TOLERANCE = 1e-12


def _need_T(T: int, most: int = MAX_TOKENS) -> None:
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or not 1 <= T <= most:
        raise ValueError(f"the toy block takes 1 to {most} tokens, got {T!r}")


def positions(T: int) -> np.ndarray:
    """Position numbers of tokens ``0 .. T-1``: half-size sine and cosine waves, two speeds.

    Returns:
        ``(T, 4)`` float64: ``0.5 * [sin t, cos t, sin t/4, cos t/4]`` for position ``t``.
    """
    _need_T(T)
    t = np.arange(T, dtype=np.float64)[:, None]  # (T, 1)
    return 0.5 * np.hstack([np.sin(t), np.cos(t), np.sin(t / 4), np.cos(t / 4)])  # (T, 4)


@lru_cache(maxsize=4)
def _weights(seed: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    C = TOY.n_embd
    w = (
        rng.normal(0.0, 0.5, size=(C, 3 * C)),  # c_attn.weight: (C, 3C)
        rng.normal(0.0, 0.1, size=(3 * C,)),  # c_attn.bias: (3C,)
        rng.normal(0.0, 0.3, size=(C, C)),  # c_proj.weight: (C, C)
        rng.normal(0.0, 0.1, size=(C,)),  # c_proj.bias: (C,)
    )
    for a in w:
        a.setflags(write=False)
    return w


def toy_weights(seed: int = SEED) -> dict[str, np.ndarray]:
    """The toy block's weights in GPT-2's layout, drawn from ``default_rng(seed)``.

    Returns:
        ``c_attn_weight`` ``(8, 24)``, ``c_attn_bias`` ``(24,)``, ``c_proj_weight`` ``(8, 8)``,
        ``c_proj_bias`` ``(8,)`` (read-only arrays).
    """
    names = ("c_attn_weight", "c_attn_bias", "c_proj_weight", "c_proj_bias")
    return dict(zip(names, _weights(seed)))


def token_inputs(words: Sequence[str], nudge: np.ndarray | Sequence[Sequence[float]] | None = None) -> np.ndarray:
    """The block's input ``x``: each word's 4 toy axes, its 4 position numbers, plus a nudge.

    Args:
        words: 1 to ``MAX_TOKENS`` words of the toy vocabulary.
        nudge: optional ``(T, 8)`` amounts added to ``x`` (the page's "nudge" buttons).

    Returns:
        ``(T, 8)`` float64.
    """
    words = list(words)
    if len(words) > MAX_TOKENS:
        raise ValueError(f"the toy block takes 1 to {MAX_TOKENS} tokens, got {len(words)} words")
    x = np.hstack([embed(words), positions(len(words))])  # (T, 4) | (T, 4) -> (T, 8)
    if nudge is not None:
        d = np.asarray(nudge, dtype=np.float64)
        if d.shape != x.shape:
            raise ValueError(f"nudge must have shape {x.shape} (one row per word, {TOY.n_embd} features), got shape {d.shape}")
        if not np.isfinite(d).all():
            raise ValueError("nudge must hold finite numbers")
        x = x + d  # (T, 8)
    return x


def compute(
    words: Sequence[str] = WORDS,
    nudge: np.ndarray | Sequence[Sequence[float]] | None = None,
    seed: int = SEED,
) -> dict[str, np.ndarray]:
    """Run the toy block step by step and keep every intermediate.

    Raises ``RuntimeError`` when the steps do not reproduce ``multi_head_attention``
    (a claim of the page, checked on every build), or when a claimed property of the
    weights (rows sum to 1, nothing above the diagonal, the first row all on itself) fails.

    Returns:
        ``x`` ``(T, C)``; ``qkv`` ``(T, 3C)``; ``q``, ``k``, ``v`` ``(nh, T, hs)``;
        ``scores``, ``scaled``, ``masked``, ``weights`` ``(nh, T, T)``;
        ``heads`` ``(nh, T, hs)``; ``concat`` and ``y`` ``(T, C)``.
    """
    w = toy_weights(seed)
    x = token_inputs(words, nudge)  # (T, C)
    T, C = x.shape
    nh, hs = TOY.n_head, TOY.head_size
    qkv = x @ w["c_attn_weight"] + w["c_attn_bias"]  # (T, C) x (C, 3C) -> (T, 3C)
    q, k, v = (a.reshape(T, nh, hs).transpose(1, 0, 2) for a in np.split(qkv, 3, axis=-1))  # 3 x (nh, T, hs)
    scores = q @ k.transpose(0, 2, 1)  # (nh, T, hs) x (nh, hs, T) -> (nh, T, T)
    scaled = scores / math.sqrt(hs)  # (nh, T, T)
    masked = np.where(causal_mask(T), -np.inf, scaled)  # (nh, T, T), -inf above the diagonal
    weights = softmax(masked, axis=-1)  # (nh, T, T)
    heads = weights @ v  # (nh, T, T) x (nh, T, hs) -> (nh, T, hs)
    concat = heads.transpose(1, 0, 2).reshape(T, C)  # heads side by side: (T, C)
    y = concat @ w["c_proj_weight"] + w["c_proj_bias"]  # (T, C) x (C, C) -> (T, C)

    ref_y, ref_att = multi_head_attention(x, w["c_attn_weight"], w["c_attn_bias"], w["c_proj_weight"],
                                          w["c_proj_bias"], nh, causal=True)
    sdpa_out, sdpa_att = scaled_dot_product_attention(q, k, v, causal=True)
    for name, a, b in (("y", y, ref_y), ("weights", weights, ref_att), ("heads", heads, sdpa_out),
                       ("weights (sdpa)", weights, sdpa_att)):
        gap = float(np.max(np.abs(a - b)))
        if not gap <= TOLERANCE:
            raise RuntimeError(f"inside the model: the step-by-step {name} differs from the package by {gap:.3g}")
    if not np.allclose(weights.sum(axis=-1), 1.0, rtol=0, atol=1e-12):
        raise RuntimeError("inside the model: a row of attention weights does not sum to 1")
    if np.any(weights[:, causal_mask(T)] != 0.0) or np.any(weights[:, 0, 0] != 1.0):
        raise RuntimeError("inside the model: the causal mask let a token see the future")
    return {"x": x, "qkv": qkv, "q": q, "k": k, "v": v, "scores": scores, "scaled": scaled, "masked": masked,
            "weights": weights, "heads": heads, "concat": concat, "y": y}


# --------------------------------------------------------------------------- sizes and costs


def _flops_text(n: int) -> str:
    """A FLOP count for people: 3538944 -> '3.5 MFLOPs', 420 -> '420 FLOPs'."""
    for size, unit in ((1e9, "GFLOPs"), (1e6, "MFLOPs"), (1e3, "kFLOPs")):
        if n >= size:
            return f"{n / size:.1f} {unit} ({n:,})"
    return f"{n} FLOPs"


def _n(n: int) -> str:
    """A count with thousands separators (shapes are printed with plain digits)."""
    return f"{n:,}"


def _plural(n: int, word: str, many: str | None = None) -> str:
    """``1 token``, ``2 tokens``, ``1,024 tokens``."""
    return f"{_n(n)} {word if n == 1 else (many or word + 's')}"


#: What the FLOP counts count (the JSON and the page show these notes with the steps).
_NOTES = {
    "projections": "a multiply-add counts 2; the {bias} bias adds are left out",
    "scores": "a multiply-add counts 2",
    "scale": "1 per cell",
    "softmax": "counted as 1 per cell, a convention (exp, sum and divide cost more)",
    "weighted-sum": "a multiply-add counts 2",
    "output-projection": "a multiply-add counts 2; the {bias} bias adds are left out",
}


def step_costs(T: int, cfg: GPT2Config = TOY) -> list[dict[str, str | int]]:
    """Each step's operation (with shapes) and its cost for ``T`` tokens at the sizes of ``cfg``.

    Returns:
        One dict per step of :data:`STEPS`: ``id``, ``title``, ``op`` (shapes), ``flops`` (int),
        ``cost`` (text), ``per_token`` (text, the linear steps only, else ""), ``note`` (how the
        FLOPs were counted, else ""). Shapes use plain digits, counts thousands separators.
    """
    _need_T(T, cfg.n_ctx)
    f = attention_flops(int(T), cfg)
    one = attention_flops(1, cfg)
    C, nh, hs = cfg.n_embd, cfg.n_head, cfg.head_size
    N = str(T)  # a dimension: plain digits
    masked = T * (T - 1) // 2
    cells = f["score_cells"]
    ops = {
        "projections": (f"[{N}×{C}]·[{C}×{3 * C}] + b → [{N}×{3 * C}], split into Q, K, V", f["qkv"], one["qkv"]),
        "scores": (f"{nh} heads × [{N}×{hs}]·[{hs}×{N}] → {nh} × [{N}×{N}], {_plural(cells, 'cell')} per head",
                   f["scores"], 0),
        "scale": (f"every score ÷ √{hs} = {math.sqrt(hs):g}", f["scale"], 0),
        "causal-mask": (f"j > i → −∞: {_n(masked)} of {_plural(cells, 'cell')} per head", 0, 0),
        "softmax": (f"each row of {nh} × [{N}×{N}] → weights summing to 1", f["softmax"], 0),
        "weighted-sum": (f"{nh} heads × [{N}×{N}]·[{N}×{hs}] → {nh} × [{N}×{hs}]", f["weighted_sum"], 0),
        "output-projection": (f"concat → [{N}×{C}]·[{C}×{C}] + b → [{N}×{C}]", f["proj"], one["proj"]),
    }
    out = []
    for sid, title in STEPS:
        op, flops, per_token = ops[sid]
        cost = "no arithmetic: cells are overwritten" if sid == "causal-mask" else _flops_text(flops)
        out.append({"id": sid, "title": title, "op": op, "flops": flops, "cost": cost,
                    "per_token": f"{_flops_text(per_token).split(' (')[0]} per token" if per_token else "",
                    "note": _NOTES.get(sid, "").format(bias=_n(T * (3 * C if sid == "projections" else C)))})
    return out


def code_lines(T: int, cfg: GPT2Config = TOY) -> list[dict[str, object]]:
    """nanoGPT's ``CausalSelfAttention.forward``, line by line, with shape comments at ``cfg``'s sizes.

    Returns:
        One dict per line: ``code``, ``shape`` (comment text) and ``steps`` (the 1-based steps it does).
    """
    _need_T(T, cfg.n_ctx)
    B, C, nh, hs = 1, cfg.n_embd, cfg.n_head, cfg.head_size
    bt = f"({B}, {T}, {C})"
    heads = f"({B}, {nh}, {T}, {hs})"
    grid = f"({B}, {nh}, {T}, {T})"
    rows = [
        ("def forward(self, x):", "", []),
        ("    B, T, C = x.size()", f"x = ln_1(h): {bt}", []),
        ("    q, k, v = self.c_attn(x).split(self.n_embd, dim=2)", f"{bt} x ({C}, {3 * C}) -> ({B}, {T}, {3 * C}) -> 3 x {bt}", [1]),
        ("    q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)", heads, [1]),
        ("    k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)", heads, [1]),
        ("    v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)", heads, [1]),
        ("    att = q @ k.transpose(-2, -1)", f"{heads} x ({B}, {nh}, {hs}, {T}) -> {grid}", [2]),
        ("    att = att * (1.0 / math.sqrt(k.size(-1)))", f"÷ √{hs}: {grid}", [3]),
        ('    att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))', f"future -> -inf: {grid}", [4]),
        ("    att = F.softmax(att, dim=-1)", f"{grid}, rows sum to 1", [5]),
        ("    y = att @ v", f"{grid} x {heads} -> {heads}", [6]),
        ("    y = y.transpose(1, 2).contiguous().view(B, T, C)", f"heads side by side: {bt}", [7]),
        ("    y = self.c_proj(y)", f"{bt} x ({C}, {C}) -> {bt}", [7]),
        ("    return y", "", []),
    ]
    return [{"code": c, "shape": s, "steps": st} for c, s, st in rows]


def growth(most: int = MAX_TOKENS, cfg: GPT2Config = TOY) -> list[dict[str, int]]:
    """Score cells per head for 1 .. ``most`` tokens; checks that doubling the tokens quadruples them."""
    rows = [{"T": T, "cells": attention_flops(T, cfg)["score_cells"]} for T in range(1, most + 1)]
    for r in rows:
        if 2 * r["T"] <= most and rows[2 * r["T"] - 1]["cells"] != 4 * r["cells"]:
            raise RuntimeError("inside the model: doubling the tokens did not quadruple the score grid")
    return rows


def gpt2_facts(cfg: GPT2Config = GPT2) -> dict[str, object]:
    """GPT-2's sizes and the costs the page quotes, each checked against what the prose says of it."""
    C, T = cfg.n_embd, cfg.n_ctx
    one, full = attention_flops(1, cfg), attention_flops(T, cfg)
    facts = {
        "n_embd": C, "n_head": cfg.n_head, "head_size": cfg.head_size, "n_ctx": T,
        "c_attn": [C, 3 * C], "c_proj": [C, C],
        "qkv_per_token": one["qkv"], "proj_per_token": one["proj"],
        "qkv_per_token_text": _flops_text(one["qkv"]).split(" (")[0],
        "proj_per_token_text": _flops_text(one["proj"]).split(" (")[0],
        "cells_at_ctx": full["score_cells"], "cells_at_toy": attention_flops(len(WORDS), cfg)["score_cells"],
    }
    if not (facts["qkv_per_token_text"] == "3.5 MFLOPs" and facts["proj_per_token_text"] == "1.2 MFLOPs"):
        raise RuntimeError(f"inside the model: GPT-2's per-token costs are not the ones the page describes: {facts}")
    one_wide = attention_flops(T, GPT2Config(n_layer=cfg.n_layer, n_head=1, n_embd=C, n_ctx=T, vocab_size=cfg.vocab_size))
    if (one_wide["scores"], one_wide["weighted_sum"]) != (full["scores"], full["weighted_sum"]):
        raise RuntimeError("inside the model: several narrow heads do not cost what one wide head costs")
    if not facts["cells_at_ctx"] > 10**6:
        raise RuntimeError("inside the model: the score grid at GPT-2's context is not over a million cells")
    return facts


# --------------------------------------------------------------------------- the page's data


def _list(a: np.ndarray) -> list:
    return np.asarray(a, dtype=np.float64).tolist()


def page_data() -> dict[str, object]:
    """Everything the page's JavaScript needs: the toy world, its weights, sizes, costs and code."""
    w = toy_weights()
    ref = compute(WORDS)
    gpt2 = gpt2_facts()
    return {
        "toy": {
            "n_embd": TOY.n_embd, "n_head": TOY.n_head, "head_size": TOY.head_size, "max_tokens": MAX_TOKENS,
            "seed": SEED, "words": list(WORDS), "features": list(FEATURES),
            "vocab": {word: list(VOCAB[word]) for word in sorted(VOCAB)},
            "positions": _list(positions(MAX_TOKENS)),
            "weights": {name: _list(a) for name, a in w.items()},
            "costs": {str(T): step_costs(T) for T in range(1, MAX_TOKENS + 1)},
            "code": {str(T): code_lines(T) for T in range(1, MAX_TOKENS + 1)},
            "reference": {"y": _list(ref["y"]), "weights": _list(ref["weights"])},
        },
        "gpt2": {**gpt2, "costs": step_costs(gpt2["n_ctx"], GPT2), "code": code_lines(gpt2["n_ctx"], GPT2)},
        "steps": [{"id": sid, "title": title} for sid, title in STEPS],
        "growth": growth(),
    }


def site_files() -> dict[str, str]:
    """Files this page needs in the site, ``{path inside the site: text}``."""
    return {JSON_PATH: json.dumps(page_data(), sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"}


# --------------------------------------------------------------------------- static HTML (no JavaScript needed)


def _cell(v: float, nd: int = 2) -> str:
    """One coloured cell that also prints its value (colour is never the only carrier)."""
    if np.isneginf(v):
        return '<td class="ins-cell ins-masked">−∞</td>'
    a = min(abs(float(v)), 1.0)
    sign = "pos" if v >= 0 else "neg"
    return f'<td class="ins-cell ins-{sign}" style="--a:{a:.2f}">{v:.{nd}f}</td>'.replace(">-", ">−")


def _matrix(M: np.ndarray, rows: Sequence[str], cols: Sequence[str], caption: str) -> str:
    head = "".join(f'<th scope="col">{html.escape(c)}</th>' for c in cols)
    body = "".join(f'<tr><th scope="row">{html.escape(r)}</th>{"".join(_cell(v) for v in row)}</tr>'
                   for r, row in zip(rows, M))
    return (f'<div class="ins-matrix"><table class="ins-grid"><caption>{caption}</caption>'
            f"<thead><tr><th></th>{head}</tr></thead><tbody>{body}</tbody></table></div>")


def _labels(words: Sequence[str]) -> list[str]:
    return [f"{i + 1} {w}" for i, w in enumerate(words)]


def static_step(step_id: str, words: Sequence[str] = WORDS, head: int = 0) -> str:
    """One step as static HTML: its operation and cost at both scales, then its toy matrices (head ``head``).

    Raises:
        ValueError: an unknown step id (the message lists the known ones).
    """
    ids = [sid for sid, _ in STEPS]
    if step_id not in ids:
        raise ValueError(f"unknown step {step_id!r}; the steps are: {', '.join(ids)}")
    n = ids.index(step_id)
    r = compute(words)
    T = len(words)
    toy, big = step_costs(T)[n], step_costs(GPT2.n_ctx, GPT2)[n]
    rows = [("toy", toy, _plural(T, "token")), ("GPT-2", big, _plural(GPT2.n_ctx, "token"))]
    table = "".join(
        f"<tr><th scope=\"row\">{name}</th><td>{html.escape(str(c['op']))}</td><td>{html.escape(str(c['cost']))}"
        f"{'<br>' + html.escape(str(c['per_token'])) if c['per_token'] else ''}"
        f"{'<br><small>' + html.escape(str(c['note'])) + '</small>' if c['note'] else ''}</td><td>{at}</td></tr>"
        for name, c, at in rows
    )
    cost = (f'<div class="ins-matrix"><table class="ins-costs"><thead><tr><th>scale</th><th>operation (shapes)</th><th>cost</th>'
            f"<th>at</th></tr></thead><tbody>{table}</tbody></table></div>")
    L, h = _labels(words), f"head {head + 1}"
    qk = [f"{i + 1}" for i in range(TOY.head_size)]
    mats = {
        "projections": [(r["x"], FEATURES, "x: the input, one row per token"), (r["q"][head], qk, f"Q ({h})"),
                        (r["k"][head], qk, f"K ({h})"), (r["v"][head], qk, f"V ({h})")],
        "scores": [(r["scores"][head], L, f"Q·Kᵀ ({h})")],
        "scale": [(r["scaled"][head], L, f"Q·Kᵀ / √{TOY.head_size} ({h})")],
        "causal-mask": [(r["masked"][head], L, f"masked scores ({h})")],
        "softmax": [(r["weights"][head], L, f"attention weights A ({h}); every row sums to 1")],
        "weighted-sum": [(r["heads"][head], qk, f"A·V ({h}): this head's output")],
        "output-projection": [(r["concat"], [f"h{1 + j // TOY.head_size}·{1 + j % TOY.head_size}" for j in range(TOY.n_embd)],
                               "both heads side by side"), (r["y"], [str(j + 1) for j in range(TOY.n_embd)], "y = concat · W_O + b")],
    }[step_id]
    grids = "".join(_matrix(M, L, cols, cap) for M, cols, cap in mats)
    return f'<div class="ins-static" data-step="{n + 1}">\n{cost}\n<div class="ins-matrices">{grids}</div>\n</div>\n'


def static_code(T: int = len(WORDS), cfg: GPT2Config = TOY) -> str:
    """The ``forward`` code with shape comments at ``cfg``'s sizes, as a Python code block."""
    lines = code_lines(T, cfg)
    width = max(len(str(ln["code"])) for ln in lines) + 2
    text = "\n".join(f"{ln['code']:<{width}}# {ln['shape']}".rstrip() if ln["shape"] else str(ln["code"]) for ln in lines)
    return f"```python\n{text}\n```\n"


def sizes_table() -> str:
    """The toy block's sizes beside GPT-2's, as a Markdown table."""
    rows = [("tokens (T)", len(WORDS), f"up to {GPT2.n_ctx:,}"), ("n_embd (d_model)", TOY.n_embd, GPT2.n_embd),
            ("head size (d_head)", TOY.head_size, GPT2.head_size), ("heads (n_head)", TOY.n_head, GPT2.n_head),
            ("c_attn weight", f"{TOY.n_embd} × {3 * TOY.n_embd}", f"{GPT2.n_embd} × {3 * GPT2.n_embd}"),
            ("c_proj weight", f"{TOY.n_embd} × {TOY.n_embd}", f"{GPT2.n_embd} × {GPT2.n_embd}")]
    lines = ["| | toy | GPT-2 small |", "|:--|--:|--:|"] + [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return "\n".join(lines) + "\n"


def explorer_html() -> str:
    """The mount point of the interactive explorer; says plainly what happens without JavaScript."""
    return (f'<div class="ins-app" id="inside-explorer" data-src="{JSON_PATH}">'
            '<p class="ins-nojs">The interactive explorer needs JavaScript. Every step is also shown below as '
            "static tables, computed when this site was built.</p></div>\n")


def growth_table(cfg: GPT2Config = GPT2) -> str:
    """How the score grid grows with the number of tokens: toy sizes, then GPT-2's context, as Markdown."""
    rows = growth()
    toy = [f"| {r['T']} | {r['cells']:,} | {'×' + str(r['cells'] // rows[r['T'] // 2 - 1]['cells']) if r['T'] % 2 == 0 else ''} |"
           for r in rows]
    half, full = attention_flops(cfg.n_ctx // 2, cfg)["score_cells"], attention_flops(cfg.n_ctx, cfg)["score_cells"]
    big = [f"| {cfg.n_ctx // 2:,} | {half:,} | |", f"| {cfg.n_ctx:,} | {full:,} | ×{full // half} |"]
    return "\n".join(["| tokens T | score cells per head (T × T) | vs T / 2 tokens |", "|--:|--:|--:|", *toy, *big]) + "\n"


def gpt2_costs_text() -> str:
    """The sentence of GPT-2 figures the page's prose relies on (computed, never typed)."""
    f = gpt2_facts()
    return (f"At GPT-2's size, the one matrix product that makes Q, K and V (c_attn, "
            f"{f['c_attn'][0]} × {f['c_attn'][1]}) costs about **{f['qkv_per_token_text']} per token**, and the "
            f"output projection (c_proj, {f['c_proj'][0]} × {f['c_proj'][1]}) about **{f['proj_per_token_text']} per "
            f"token**. The score grid of one head has **{_plural(f['cells_at_toy'], 'cell')}** for our "
            f"{_plural(len(WORDS), 'token')} and **{_plural(f['cells_at_ctx'], 'cell')}** at GPT-2's full context of "
            f"{_plural(f['n_ctx'], 'token')}.\n")


def cost_convention_text(cfg: GPT2Config = GPT2) -> str:
    """How the page counts FLOPs, with the share of the bias adds it leaves out at ``cfg``'s sizes.

    Raises ``RuntimeError`` if the left-out bias adds are not under 0.1% of the two matrix
    products they belong to (what the sentence claims).
    """
    C = cfg.n_embd
    one = attention_flops(1, cfg)
    bias = 3 * C + C  # c_attn's and c_proj's bias adds, per token
    share = bias / (one["qkv"] + one["proj"])
    if not share < 1e-3:
        raise RuntimeError(f"inside the model: the bias adds are {share:.3%} of the projections, not under 0.1%")
    return (f"**How the costs are counted.** A multiply-add counts as 2 FLOPs (one multiplication, one "
            f"addition). Scaling counts 1 per score cell, and softmax is counted as 1 per cell too: a "
            f"convention, since its exponential, sum and division cost more. The mask's overwrite counts "
            f"nothing. The bias adds of c_attn and c_proj are left out: at GPT-2's size they are "
            f"{_n(3 * C)} + {_n(C)} = {_n(bias)} adds per token, {share:.3%} of those two matrix products.\n")


def input_text() -> str:
    """The toy input's make-up, printed from the package (axes, position columns, ``n_embd``).

    Raises ``RuntimeError`` if the word axes and position columns do not add up to ``TOY.n_embd``.
    """
    n_pos = positions(1).shape[1]
    if len(AXES) + n_pos != TOY.n_embd or len(FEATURES) != TOY.n_embd:
        raise RuntimeError(f"inside the model: {len(AXES)} axes + {n_pos} position numbers is not n_embd {TOY.n_embd}")
    return (f"Each token's row of `x`: its word's **{len(AXES)} named axes** ({', '.join(AXES)}), then "
            f"**{n_pos} position numbers**; **{TOY.n_embd} numbers per token** in all, the toy's n_embd "
            f"(d_model).\n")


def weights_text() -> str:
    """Where the toy weights come from, and how closely the build checks the step-by-step walk."""
    shapes = ", ".join(f"`{name}` {'×'.join(map(str, a.shape))}" for name, a in toy_weights().items())
    return (f"The weights are drawn from `numpy.random.default_rng({SEED})` ({shapes}). On every build, the "
            f"step-by-step walk below must match `multi_head_attention` to within {TOLERANCE:g} in every number "
            f"(float64 rounding), or the build fails.\n")
