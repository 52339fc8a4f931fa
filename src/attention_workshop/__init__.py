"""attention-workshop: self-attention from first principles, in NumPy.

The public API: the maths (``matmul``, ``softmax`` ... ``multi_head_attention``), the toy
world (``embed``, the vocabulary, the hand-wired head) and GPT-2's sizes.
"""

from .core import (
    attention,
    causal_mask,
    matmul,
    multi_head_attention,
    scaled_dot_product_attention,
    simple_attention,
    softmax,
)
from .gpt2 import (
    GPT2,
    GPT2Config,
    attention_flops,
    attention_params,
    attention_params_with_bias,
    head_params,
    mlp_params,
    total_params,
)
from .toy import (
    AXES,
    D_MODEL,
    SENT_MONEY,
    SENT_RIVER,
    VOCAB,
    W_K_WIRED,
    W_Q_WIRED,
    embed,
)

__all__ = [
    "matmul",
    "softmax",
    "causal_mask",
    "scaled_dot_product_attention",
    "attention",
    "simple_attention",
    "multi_head_attention",
    "embed",
    "AXES",
    "D_MODEL",
    "VOCAB",
    "SENT_RIVER",
    "SENT_MONEY",
    "W_Q_WIRED",
    "W_K_WIRED",
    "GPT2",
    "GPT2Config",
    "head_params",
    "attention_params",
    "attention_params_with_bias",
    "mlp_params",
    "total_params",
    "attention_flops",
]

__version__ = "0.1.0"
