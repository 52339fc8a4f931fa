"""The reference the causal model is checked against: transformers' LlamaForCausalLM and its
tokenizer, both loaded by transformers from the same GGUF file (its own GGUF loader, its own
permutation of the query and key rows, its own tokenizer builder). Nothing here calls the
package, except :func:`attention_workshop.causal.model_file` to find the file.

transformers computes three things in float32 even in a float64 model: RMSNorm, the rotary
angles and the attention softmax. :func:`float64_exactly` lifts exactly those three casts (the
formulas are transformers' own, written in the input's dtype), so that a float64 comparison
measures the two forward passes and not float32 rounding. On float32 inputs they compute what
transformers computes.
"""

from __future__ import annotations

import copy
import functools
import os

# Never reach for a model hub: the one file comes from the pinned wheel.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

from typing import Any

import numpy as np
import pytest
import torch

from attention_workshop.causal import model_file


def llama(dtype: type) -> Any:
    """``LlamaForCausalLM`` from the GGUF file, eager attention, in ``dtype``.

    The float32 model is loaded once per test process and shared by the tests that ask for it
    (loading it dequantizes the whole file): none of them changes its weights, and the hooks they
    add come off in a ``finally``. The float64 one (1 GB) is made each time it is asked for, as a
    copy of the float32 one cast to float64: transformers' GGUF loader dequantizes every tensor
    to float32 and casts it to the model's dtype, so a float64 load is that cast, weight for
    weight (checked on the pinned transformers: the same state dict, bit for bit, and the same
    logits and attentions), in under a second instead of 12 to 25 s. The package's own float64
    model is made the same way (``gguf_read.dequantize``, then ``astype``)."""
    if dtype is np.float32:
        return _llama_float32()
    model = copy.deepcopy(_llama_float32()).to(torch.float64)
    model.config.dtype = torch.float64
    return model


@functools.cache
def _llama_float32() -> Any:
    return _load_llama(np.float32)


def _load_llama(dtype: type) -> Any:
    from transformers import AutoModelForCausalLM
    from transformers.utils import logging

    logging.disable_progress_bar()
    path = model_file()
    return AutoModelForCausalLM.from_pretrained(
        path.parent,
        gguf_file=path.name,
        attn_implementation="eager",
        dtype=torch.float64 if dtype is np.float64 else torch.float32,
        local_files_only=True,
    ).eval()


@functools.cache
def tokenizer() -> Any:
    """transformers' tokenizer built from the GGUF file's metadata (built once per process)."""
    from transformers import AutoTokenizer

    path = model_file()
    return AutoTokenizer.from_pretrained(
        path.parent, gguf_file=path.name, local_files_only=True
    )


def float64_exactly(mp: pytest.MonkeyPatch) -> None:
    """Patch transformers' Llama so RMSNorm, RoPE's angles and softmax run in the input's dtype."""
    from transformers.models.llama import modeling_llama as ml

    def rms_norm(self: Any, x: torch.Tensor) -> torch.Tensor:
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(variance + self.variance_epsilon))

    def rotary(self: Any, x: torch.Tensor, position_ids: torch.Tensor) -> Any:
        dim = 2 * self.inv_freq.shape[0]
        base = self.config.rope_parameters["rope_theta"]
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=x.dtype) / dim))
        freqs = position_ids[..., None].to(x.dtype) * inv_freq
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos() * self.attention_scaling, emb.sin() * self.attention_scaling

    def eager(module, query, key, value, attention_mask, scaling, dropout=0.0, **kw):
        key_states = ml.repeat_kv(key, module.num_key_value_groups)
        value_states = ml.repeat_kv(value, module.num_key_value_groups)
        w = torch.matmul(query, key_states.transpose(2, 3)) * scaling
        if attention_mask is not None:
            w = w + attention_mask
        w = torch.nn.functional.softmax(w, dim=-1)  # in the input's dtype
        out = torch.matmul(w, value_states).transpose(1, 2).contiguous()
        return out, w

    mp.setattr(ml.LlamaRMSNorm, "forward", rms_norm)
    mp.setattr(ml.LlamaRotaryEmbedding, "forward", rotary)
    mp.setattr(ml, "eager_attention_forward", eager)


def run(model: Any, ids: list[int]) -> dict[str, np.ndarray]:
    """One forward pass of the reference: attentions, hidden states and logits as NumPy.

    ``hidden`` follows the package's convention: the embeddings, then every layer's output
    before the final norm (transformers' last hidden state is after it, so the last layer's
    output is caught with a hook).
    """
    caught: list[torch.Tensor] = []
    hook = model.model.layers[-1].register_forward_hook(
        lambda _module, _inputs, output: caught.append(
            output[0] if isinstance(output, tuple) else output
        )
    )
    try:
        with torch.no_grad():
            out = model(
                torch.tensor([ids]), output_attentions=True, output_hidden_states=True
            )
    finally:
        hook.remove()
    hidden = [h[0] for h in out.hidden_states[:-1]] + [caught[0][0]]
    return {
        "attentions": torch.stack(out.attentions)[:, 0].numpy(),  # (n_layer, nh, T, T)
        "hidden": torch.stack(hidden).numpy(),  # (n_layer + 1, T, C)
        "logits": out.logits[0].numpy(),  # (T, V)
        "last_hidden_normed": out.hidden_states[-1][0].numpy(),  # (T, C)
    }
