"""The sizes, shapes and costs of one attention layer at any GPT-2-shaped size, as numbers.

Inside the model quotes them for its toy block and for GPT-2 (the build writes them as text,
HTML and JSON: :mod:`attention_workshop.experiment.inside_page`). A multiply-add counts 2 FLOPs,
as in :func:`attention_workshop.gpt2.attention_flops`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..gpt2 import GPT2, STEPS, GPT2Config, Step, attention_flops

__all__ = [
    "StepCost",
    "Costs",
    "step_costs",
    "CodeLine",
    "FORWARD",
    "Shapes",
    "shapes",
    "GrowthRow",
    "growth",
    "GPT2Facts",
    "gpt2_facts",
]


def _need_tokens(T: int, cfg: GPT2Config) -> None:
    if (
        isinstance(T, bool)
        or not isinstance(T, (int, np.integer))
        or not 1 <= T <= cfg.n_ctx
    ):
        raise ValueError(
            f"the layer takes 1 to {cfg.n_ctx} tokens (its n_ctx), got {T!r}"
        )


#: The steps that act on each token alone, with the width of their bias in units of ``n_embd``.
_PER_TOKEN_BIAS = {"projections": 3, "output-projection": 1}


@dataclass(frozen=True)
class StepCost:
    """One step's FLOPs (a multiply-add counts 2; see :func:`attention_workshop.gpt2.attention_flops`).

    Attributes:
        step: the step (:data:`attention_workshop.gpt2.STEPS`).
        flops: its FLOPs; 0 for the causal mask, which only overwrites cells.
        per_token: the FLOPs of one token, for the steps that act on each token alone; else 0.
        bias_adds: the bias adds left out of ``flops`` (the two projections); else 0.
    """

    step: Step
    flops: int
    per_token: int
    bias_adds: int


@dataclass(frozen=True)
class Costs:
    """Every step's cost for ``T`` tokens at ``cfg``'s sizes.

    Attributes:
        T: tokens. cfg: the sizes. score_cells: ``T * T``, one head's grid.
        masked_cells: the cells above the diagonal of one head's grid. steps: one per step, in order.
    """

    T: int
    cfg: GPT2Config
    score_cells: int
    masked_cells: int
    steps: tuple[StepCost, ...]


def step_costs(T: int, cfg: GPT2Config) -> Costs:
    """Each step's FLOPs for ``T`` tokens (1 to ``cfg.n_ctx``) at the sizes of ``cfg``."""
    _need_tokens(T, cfg)
    f, one, C = attention_flops(int(T), cfg), attention_flops(1, cfg), cfg.n_embd
    steps = tuple(
        StepCost(
            s,
            f[s.flops] if s.flops else 0,
            one[s.flops] if s.flops and s.id in _PER_TOKEN_BIAS else 0,
            T * _PER_TOKEN_BIAS.get(s.id, 0) * C,
        )
        for s in STEPS
    )
    return Costs(int(T), cfg, f["score_cells"], T * (T - 1) // 2, steps)


@dataclass(frozen=True)
class CodeLine:
    """One line of nanoGPT's ``CausalSelfAttention.forward``.

    Attributes:
        code: the line as nanoGPT writes it.
        comment: the kind of shape comment the line gets (``"c_attn"``, ``"heads"``, ``"scores"``...: the
            build writes one per kind from :class:`Shapes`), "" for none.
        steps: the steps it does, numbered from 1 as in :data:`attention_workshop.gpt2.STEPS`.
    """

    code: str
    comment: str
    steps: tuple[int, ...]


#: nanoGPT's ``CausalSelfAttention.forward``, line by line.
FORWARD: tuple[CodeLine, ...] = (
    CodeLine("def forward(self, x):", "", ()),
    CodeLine("    B, T, C = x.size()", "x", ()),
    CodeLine("    q, k, v = self.c_attn(x).split(self.n_embd, dim=2)", "c_attn", (1,)),
    CodeLine(
        "    q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)",
        "heads",
        (1,),
    ),
    CodeLine(
        "    k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)",
        "heads",
        (1,),
    ),
    CodeLine(
        "    v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)",
        "heads",
        (1,),
    ),
    CodeLine("    att = q @ k.transpose(-2, -1)", "scores", (2,)),
    CodeLine("    att = att * (1.0 / math.sqrt(k.size(-1)))", "scale", (3,)),
    CodeLine(
        '    att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))',
        "mask",
        (4,),
    ),
    CodeLine("    att = F.softmax(att, dim=-1)", "softmax", (5,)),
    CodeLine("    y = att @ v", "weighted_sum", (6,)),
    CodeLine("    y = y.transpose(1, 2).contiguous().view(B, T, C)", "concat", (7,)),
    CodeLine("    y = self.c_proj(y)", "c_proj", (7,)),
    CodeLine("    return y", "", ()),
)


@dataclass(frozen=True)
class Shapes:
    """The tensor shapes of ``forward`` for one sequence (``B = 1``) of ``T`` tokens at a config's sizes.

    Attributes:
        x: ``(B, T, C)``. c_attn: ``(C, 3C)``. qkv: ``(B, T, 3C)``. heads: ``(B, nh, T, hs)``.
        keys_t: ``(B, nh, hs, T)``. grid: ``(B, nh, T, T)``. c_proj: ``(C, C)``. head_size: ``hs``.
    """

    x: tuple[int, ...]
    c_attn: tuple[int, ...]
    qkv: tuple[int, ...]
    heads: tuple[int, ...]
    keys_t: tuple[int, ...]
    grid: tuple[int, ...]
    c_proj: tuple[int, ...]
    head_size: int


def shapes(T: int, cfg: GPT2Config) -> Shapes:
    """The shapes of ``forward`` for ``T`` tokens (1 to ``cfg.n_ctx``) at ``cfg``'s sizes."""
    _need_tokens(T, cfg)
    B, C, nh, hs = 1, cfg.n_embd, cfg.n_head, cfg.head_size
    return Shapes(
        (B, T, C),
        (C, 3 * C),
        (B, T, 3 * C),
        (B, nh, T, hs),
        (B, nh, hs, T),
        (B, nh, T, T),
        (C, C),
        hs,
    )


@dataclass(frozen=True)
class GrowthRow:
    """One head's score grid for ``T`` tokens: ``cells`` = ``T * T``."""

    T: int
    cells: int


def growth(most: int, cfg: GPT2Config) -> tuple[GrowthRow, ...]:
    """Score cells per head for 1 .. ``most`` tokens."""
    return tuple(
        GrowthRow(T, attention_flops(T, cfg)["score_cells"]) for T in range(1, most + 1)
    )


@dataclass(frozen=True)
class GPT2Facts:
    """GPT-2's sizes and the costs the page quotes (a multiply-add counts 2).

    Attributes:
        cfg: GPT-2's sizes.
        qkv_per_token, proj_per_token: FLOPs of ``c_attn`` and ``c_proj`` for one token.
        c_attn_bias_adds, c_proj_bias_adds: their bias adds per token (left out of the FLOPs).
        cells_at_toy, cells_at_half_ctx, cells_at_ctx: one head's score grid for the toy's
            ``toy_tokens``, for half the context and for the full context.
        narrow_heads, one_wide_head: FLOPs of the scores and of the weighted sum at the full
            context with ``n_head`` heads, and with one head as wide as ``n_embd``.
    """

    cfg: GPT2Config
    qkv_per_token: int
    proj_per_token: int
    c_attn_bias_adds: int
    c_proj_bias_adds: int
    cells_at_toy: int
    cells_at_half_ctx: int
    cells_at_ctx: int
    narrow_heads: tuple[int, int]
    one_wide_head: tuple[int, int]

    @property
    def bias_share(self) -> float:
        """The left-out bias adds as a fraction of the two projections' FLOPs."""
        return (self.c_attn_bias_adds + self.c_proj_bias_adds) / (
            self.qkv_per_token + self.proj_per_token
        )


def gpt2_facts(toy_tokens: int, cfg: GPT2Config = GPT2) -> GPT2Facts:
    """GPT-2's sizes and the costs the page quotes, computed from :func:`attention_workshop.gpt2.attention_flops`."""
    C, T = cfg.n_embd, cfg.n_ctx
    one, full = attention_flops(1, cfg), attention_flops(T, cfg)
    wide = attention_flops(
        T,
        GPT2Config(
            n_layer=cfg.n_layer, n_head=1, n_embd=C, n_ctx=T, vocab_size=cfg.vocab_size
        ),
    )
    return GPT2Facts(
        cfg,
        one["qkv"],
        one["proj"],
        3 * C,
        C,
        attention_flops(toy_tokens, cfg)["score_cells"],
        attention_flops(T // 2, cfg)["score_cells"],
        full["score_cells"],
        (full["scores"], full["weighted_sum"]),
        (wide["scores"], wide["weighted_sum"]),
    )
