"""The "Inside the model" page's text: costs, shapes, code, the JSON its JavaScript reads, prose values.

Everything here is written from :mod:`attention_workshop.chapters.inside_the_model`'s numbers with
the one formatter (:mod:`.fmt`); the static HTML of the steps is in
:mod:`.inside_html`.

Number format on the page: a shape's dimensions are printed as plain digits, as PyTorch
prints them (``[1024×2304]``, ``(1, 12, 1024, 64)``); a count (tokens, cells, FLOPs) of
1,000 or more gets thousands separators (``1,048,576 cells``).
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import fields

import numpy as np

from ..chapters import inside_the_model as inside
from ..chapters import layer_sizes
from ..chapters.inside_the_model import MAX_TOKENS, TOY, WORDS
from ..gpt2 import GPT2, STEPS, GPT2Config
from ..toy import AXES, VOCAB
from . import fmt

__all__ = [
    "JSON_PATH",
    "TOKEN_COLOURS",
    "GPT2_FIGURES",
    "step_texts",
    "code_lines",
    "page_data",
    "site_files",
    "static_code",
    "sizes_table",
    "growth_table",
    "values",
]

#: Where the build writes the page's data.
JSON_PATH = "generated/inside-the-model.json"

#: Each token's colour in the explorer, in turn (Okabe and Ito's palette, told apart by most
#: colour-blind readers). An output row shows the blend of the colours it draws from.
TOKEN_COLOURS: tuple[str, ...] = (
    "#e69f00",
    "#56b4e9",
    "#009e73",
    "#f0e442",
    "#0072b2",
    "#d55e00",
    "#cc79a7",
    "#999999",
)
#: The page's figures the explorer shows at GPT-2 scale (drawn by :mod:`.figures`).
GPT2_FIGURES: tuple[str, ...] = ("gpt2-blocks.svg", "gpt2-flops.svg")

#: What the FLOP counts count (the JSON and the page show these notes with the steps).
_NOTES = {
    "projections": "a multiply-add counts 2; the {bias} bias adds are left out",
    "scores": "a multiply-add counts 2",
    "scale": "1 per cell",
    "softmax": "counted as 1 per cell, a convention (exp, sum and divide cost more)",
    "weighted-sum": "a multiply-add counts 2",
    "output-projection": "a multiply-add counts 2; the {bias} bias adds are left out",
}


def _flops_short(n: int) -> str:
    """A FLOP count without its exact figure: ``3.5 MFLOPs``, ``384 FLOPs``."""
    return fmt.flops(n).split(" (")[0]


def _ops(T: int, cfg: GPT2Config, cells: int, masked: int) -> dict[str, str]:
    """Each step's operation with its shapes (plain digits), by step id."""
    C, nh, hs, N = cfg.n_embd, cfg.n_head, cfg.head_size, str(T)
    return {
        "projections": f"[{N}×{C}]·[{C}×{3 * C}] + b → [{N}×{3 * C}], split into Q, K, V",
        "scores": f"{nh} heads × [{N}×{hs}]·[{hs}×{N}] → {nh} × [{N}×{N}], {fmt.plural(cells, 'cell')} per head",
        "scale": f"every score ÷ √{hs} = {fmt.short(math.sqrt(hs))}",
        "causal-mask": f"j > i → −∞: {fmt.count(masked)} of {fmt.plural(cells, 'cell')} per head",
        "softmax": f"each row of {nh} × [{N}×{N}] → weights summing to 1",
        "weighted-sum": f"{nh} heads × [{N}×{N}]·[{N}×{hs}] → {nh} × [{N}×{hs}]",
        "output-projection": f"concat → [{N}×{C}]·[{C}×{C}] + b → [{N}×{C}]",
    }


def step_texts(T: int, cfg: GPT2Config = TOY) -> list[dict[str, str | int]]:
    """Each step's operation (with shapes) and its cost for ``T`` tokens at the sizes of ``cfg``.

    Returns:
        One dict per step of :data:`attention_workshop.gpt2.STEPS`: ``id``, ``title``, ``op``
        (shapes), ``flops`` (int), ``cost`` (text), ``per_token`` (text, the steps that act on
        each token alone, else ""), ``note`` (how the FLOPs were counted, else "").
    """
    costs = layer_sizes.step_costs(T, cfg)
    ops = _ops(costs.T, cfg, costs.score_cells, costs.masked_cells)
    return [
        {
            "id": c.step.id,
            "title": c.step.title,
            "op": ops[c.step.id],
            "flops": c.flops,
            "cost": "no arithmetic: cells are overwritten"
            if c.step.flops is None
            else fmt.flops(c.flops),
            "per_token": f"{_flops_short(c.per_token)} per token"
            if c.per_token
            else "",
            "note": _NOTES.get(c.step.id, "").format(bias=fmt.count(c.bias_adds)),
        }
        for c in costs.steps
    ]


def _shape(s: tuple[int, ...]) -> str:
    """A tensor's shape as PyTorch prints its size: ``(1, 12, 1024, 64)``."""
    return "(" + ", ".join(str(d) for d in s) + ")"


def _comments(T: int, cfg: GPT2Config) -> dict[str, str]:
    """The shape comment of each kind of line of ``forward`` (:attr:`CodeLine.comment`).

    The first says what ``x`` is: ``ln_1(h)`` in GPT-2; in the toy (which skips LayerNorm), the raw input.
    """
    s = layer_sizes.shapes(T, cfg)
    bt, heads, grid = _shape(s.x), _shape(s.heads), _shape(s.grid)
    x = "x = ln_1(h)" if cfg == GPT2 else "x: the raw input; the toy skips ln_1"
    return {
        "": "",
        "x": f"{x}: {bt}",
        "c_attn": f"{bt} x {_shape(s.c_attn)} -> {_shape(s.qkv)} -> 3 x {bt}",
        "heads": heads,
        "scores": f"{heads} x {_shape(s.keys_t)} -> {grid}",
        "scale": f"÷ √{s.head_size}: {grid}",
        "mask": f"future -> -inf: {grid}",
        "softmax": f"{grid}, rows sum to 1",
        "weighted_sum": f"{grid} x {heads} -> {heads}",
        "concat": f"heads side by side: {bt}",
        "c_proj": f"{bt} x {_shape(s.c_proj)} -> {bt}",
    }


def code_lines(T: int, cfg: GPT2Config = TOY) -> list[dict[str, object]]:
    """nanoGPT's ``CausalSelfAttention.forward``, line by line, with shape comments at ``cfg``'s sizes.

    Returns:
        One dict per line: ``code``, ``shape`` (comment text) and ``steps`` (the 1-based steps it does).
    """
    comments = _comments(T, cfg)
    return [
        {"code": ln.code, "shape": comments[ln.comment], "steps": list(ln.steps)}
        for ln in layer_sizes.FORWARD
    ]


def _list(a: np.ndarray) -> list[object]:
    return list(np.asarray(a, dtype=np.float64).tolist())


def _gpt2_data(f: layer_sizes.GPT2Facts) -> dict[str, object]:
    C, T = f.cfg.n_embd, f.cfg.n_ctx
    return {
        "n_embd": C,
        "n_head": f.cfg.n_head,
        "head_size": f.cfg.head_size,
        "n_ctx": T,
        "c_attn": [C, 3 * C],
        "c_proj": [C, C],
        "qkv_per_token": f.qkv_per_token,
        "proj_per_token": f.proj_per_token,
        "qkv_per_token_text": _flops_short(f.qkv_per_token),
        "proj_per_token_text": _flops_short(f.proj_per_token),
        "cells_at_ctx": f.cells_at_ctx,
        "cells_at_toy": f.cells_at_toy,
        "costs": step_texts(T, f.cfg),
        "code": code_lines(T, f.cfg),
        "figures": list(GPT2_FIGURES),
    }


def page_data() -> dict[str, object]:
    """Everything the page's JavaScript needs: the toy world, its weights, sizes, costs and code."""
    f = inside.facts()
    w = inside.toy_weights()
    toy = {
        "n_embd": TOY.n_embd,
        "n_head": TOY.n_head,
        "head_size": TOY.head_size,
        "max_tokens": MAX_TOKENS,
        "seed": inside.SEED,
        "words": list(WORDS),
        "features": list(inside.FEATURES),
        "vocab": {word: list(VOCAB[word]) for word in sorted(VOCAB)},
        "positions": _list(inside.positions(MAX_TOKENS)),
        "weights": {field.name: _list(getattr(w, field.name)) for field in fields(w)},
        "costs": {str(T): step_texts(T) for T in range(1, MAX_TOKENS + 1)},
        "code": {str(T): code_lines(T) for T in range(1, MAX_TOKENS + 1)},
        "reference": {"y": _list(f.walk.y), "weights": _list(f.walk.weights)},
        "token_colours": list(TOKEN_COLOURS),
    }
    return {
        "toy": toy,
        "gpt2": _gpt2_data(f.gpt2),
        "steps": [{"id": s.id, "title": s.title} for s in STEPS],
        "growth": [{"T": row.T, "cells": row.cells} for row in f.growth],
    }


def site_files() -> dict[str, str]:
    """Files this page needs in the site, ``{path inside the site: text}``."""
    return {
        JSON_PATH: json.dumps(
            page_data(), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        + "\n"
    }


# --------------------------------------------------------------------------- Markdown pieces


def static_code(T: int = len(WORDS), cfg: GPT2Config = TOY) -> str:
    """The ``forward`` code with shape comments at ``cfg``'s sizes, as HTML the page's CSS lays out.

    One ``ins-line`` per line, as the explorer's code panel writes it: on a narrow screen a long
    line wraps under its own start, and its shape comment moves, whole, to the next line, so
    nothing is cut off and no line loses its indentation.
    """
    lines = code_lines(T, cfg)
    width = max(len(str(ln["code"])) for ln in lines) + 2
    body = "".join(
        f'<span class="ins-line">{html.escape(str(ln["code"]).ljust(width) if ln["shape"] else str(ln["code"]))}'
        + (
            f'<span class="ins-shape"># {html.escape(str(ln["shape"]))}</span>'
            if ln["shape"]
            else ""
        )
        + "\n</span>"
        for ln in lines
    )
    return f'<pre class="ins-code-static" tabindex="0"><code>{body}</code></pre>\n'


def sizes_table() -> str:
    """The toy block's sizes beside GPT-2's, as a Markdown table."""
    toy, big = TOY, GPT2
    rows = [
        ("tokens (T)", str(len(WORDS)), f"up to {fmt.count(big.n_ctx)}"),
        ("d_model (n_embd)", str(toy.n_embd), str(big.n_embd)),
        ("head width d_k (head_size)", str(toy.head_size), str(big.head_size)),
        ("heads (n_head)", str(toy.n_head), str(big.n_head)),
        (
            "c_attn weight",
            f"{toy.n_embd} × {3 * toy.n_embd}",
            f"{big.n_embd} × {3 * big.n_embd}",
        ),
        (
            "c_proj weight",
            f"{toy.n_embd} × {toy.n_embd}",
            f"{big.n_embd} × {big.n_embd}",
        ),
    ]
    lines = ["| | toy | GPT-2 small |", "|:--|--:|--:|"] + [
        f"| {a} | {b} | {c} |" for a, b, c in rows
    ]
    return "\n".join(lines) + "\n"


def growth_table() -> str:
    """How the score grid grows with the number of tokens: toy sizes, then GPT-2's context, as Markdown."""
    f = inside.facts()
    cells = {row.T: row.cells for row in f.growth}
    toy = [
        f"| {T} | {fmt.count(n)} | {'×' + str(n // cells[T // 2]) if T % 2 == 0 else ''} |"
        for T, n in cells.items()
    ]
    ctx, half, full = f.gpt2.cfg.n_ctx, f.gpt2.cells_at_half_ctx, f.gpt2.cells_at_ctx
    big = [
        f"| {fmt.count(ctx // 2)} | {fmt.count(half)} | |",
        f"| {fmt.count(ctx)} | {fmt.count(full)} | ×{full // half} |",
    ]
    head = [
        "| tokens T | score cells per head (T × T) | vs T / 2 tokens |",
        "|--:|--:|--:|",
    ]
    return "\n".join([*head, *toy, *big]) + "\n"


def values() -> dict[str, str]:
    """The values the page's prose quotes as ``{{ inside.name }}``: GPT-2's costs, the input, the weights."""
    f = inside.facts()
    g, w = f.gpt2, inside.toy_weights()
    C = g.cfg.n_embd
    shapes = {
        f"{field.name}_shape": "×".join(map(str, getattr(w, field.name).shape))
        for field in fields(w)
    }
    return {
        "gpt2_c_attn": f"{C} × {3 * C}",
        "gpt2_c_proj": f"{C} × {C}",
        "gpt2_qkv_per_token": _flops_short(g.qkv_per_token),
        "gpt2_proj_per_token": _flops_short(g.proj_per_token),
        "cells_at_toy": fmt.plural(g.cells_at_toy, "cell"),
        "toy_tokens": fmt.plural(len(WORDS), "token"),
        "cells_at_ctx": fmt.plural(g.cells_at_ctx, "cell"),
        "gpt2_tokens": fmt.plural(g.cfg.n_ctx, "token"),
        "gpt2_c_attn_bias": fmt.count(g.c_attn_bias_adds),
        "gpt2_c_proj_bias": fmt.count(g.c_proj_bias_adds),
        "gpt2_bias_adds": fmt.count(g.c_attn_bias_adds + g.c_proj_bias_adds),
        "gpt2_bias_share": fmt.fixed(100 * g.bias_share, 3) + "%",
        "n_axes": str(f.n_axes),
        "axes": ", ".join(AXES),
        "n_positions": str(f.n_positions),
        "n_embd": str(f.n_embd),
        "seed": str(inside.SEED),
        **shapes,
        "tolerance": fmt.short(inside.TOLERANCE),
    }
