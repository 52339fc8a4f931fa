"""The PyTorch references the experiment checks the package against, and the versions it stamps.

Everything here imports PyTorch, which the maths never needs: the chapters reach these
functions through :class:`TorchReferences` (their ``ctx.refs``).
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

import numpy as np

from ..core import attention, matmul, multi_head_attention

# PyTorch picks CPU kernels by processor (AVX-512, AVX2, ...), and so does the MKL it multiplies
# matrices with; their rounding differs in the last bit. The cross-checks print differences of that
# size, so the experiment asks for PyTorch's portable kernels and for MKL's conditional numerical
# reproducibility (MKL_CBWR=COMPATIBLE: one code path whatever the processor or its
# MKL_ENABLE_INSTRUCTIONS): the same log on every x86-64 processor. Both are read when torch is
# first imported; make and the tests set them too. An explicit setting wins, and is stamped in the log.
NUMERIC_ENV = {"ATEN_CPU_CAPABILITY": "default", "MKL_CBWR": "COMPATIBLE"}
for _name, _value in NUMERIC_ENV.items():
    os.environ.setdefault(_name, _value)

__all__ = ["versions", "compare_with_torch", "torch_gpt2_attention", "TorchReferences"]


def versions() -> dict[str, str]:
    """The versions this run depends on, as stamped at the top of results.log."""
    import matplotlib
    import torch

    os_name = f"{platform.system()} {platform.machine()}"
    try:
        for line in Path("/etc/os-release").read_text(encoding="utf-8").splitlines():
            if line.startswith("PRETTY_NAME="):
                os_name += f" ({line.split('=', 1)[1].strip(chr(34))})"
    except OSError:
        pass
    return {
        "os": os_name,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "torch": f"{torch.__version__} (CPU kernels: {torch.backends.cpu.get_cpu_capability().lower()};"
        f" MKL: {os.environ.get('MKL_CBWR', 'auto').lower()})",
        "matplotlib": matplotlib.__version__,
    }


def compare_with_torch(
    X: np.ndarray, W_Q: np.ndarray, W_K: np.ndarray, W_V: np.ndarray, causal: bool
) -> float:
    """Largest |difference| between our head and PyTorch's fused attention.

    PyTorch's function takes Q, K, V already projected, so both sides start from the
    same projections and the comparison tests the attention core itself.
    """
    import torch
    import torch.nn.functional as F

    ours, _ = attention(X, W_Q, W_K, W_V, causal=causal)
    tQ = torch.from_numpy(matmul(X, W_Q))  # (T, d_k), float64
    tK = torch.from_numpy(matmul(X, W_K))  # (T, d_k)
    tV = torch.from_numpy(matmul(X, W_V))  # (T, d_v)
    theirs = F.scaled_dot_product_attention(tQ, tK, tV, is_causal=causal).numpy()
    return float(np.max(np.abs(ours - theirs)))


def torch_gpt2_attention(
    x, c_attn_weight, c_attn_bias, c_proj_weight, c_proj_bias, n_head
):
    """GPT-2's causal self-attention in PyTorch, written the way nanoGPT writes it.

    x: (B, T, C) float64 tensor; weights in GPT-2's (in, out) layout.
    Returns y: (B, T, C).
    """
    import math

    import torch

    B, T, C = x.size()
    qkv = x @ c_attn_weight + c_attn_bias  # c_attn: (B, T, C) -> (B, T, 3C)
    q, k, v = qkv.split(C, dim=2)  # 3 x (B, T, C)
    q = q.view(B, T, n_head, C // n_head).transpose(1, 2)  # (B, nh, T, hs)
    k = k.view(B, T, n_head, C // n_head).transpose(1, 2)  # (B, nh, T, hs)
    v = v.view(B, T, n_head, C // n_head).transpose(1, 2)  # (B, nh, T, hs)
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))  # (B, nh, T, T)
    bias = torch.tril(torch.ones(T, T, dtype=torch.bool))
    att = att.masked_fill(~bias, float("-inf"))
    att = torch.softmax(att, dim=-1)
    y = att @ v  # (B, nh, T, T) x (B, nh, T, hs) -> (B, nh, T, hs)
    y = y.transpose(1, 2).contiguous().view(B, T, C)  # (B, T, C)
    return y @ c_proj_weight + c_proj_bias  # c_proj


class TorchReferences:
    """The references a chapter may ask for (:class:`attention_workshop.chapters.References`)."""

    def compare_with_torch(
        self,
        X: np.ndarray,
        W_Q: np.ndarray,
        W_K: np.ndarray,
        W_V: np.ndarray,
        causal: bool,
    ) -> float:
        return compare_with_torch(X, W_Q, W_K, W_V, causal)

    def gpt2_attention_diff(
        self,
        x: np.ndarray,
        params: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        n_head: int,
    ) -> float:
        """Largest |difference| between ``multi_head_attention`` and :func:`torch_gpt2_attention`."""
        import torch

        ours, _ = multi_head_attention(x, *params, n_head=n_head)
        with torch.no_grad():
            tx, tw, tb, tpw, tpb = (torch.from_numpy(a) for a in (x, *params))
            theirs = torch_gpt2_attention(tx, tw, tb, tpw, tpb, n_head).numpy()
        return float(np.max(np.abs(ours - theirs)))
