"""experiment/torch_refs.py: the PyTorch references measure real differences, and GPT-2's attention is GPT-2's.

The references are checked against a second, independent PyTorch formulation (``F.linear`` and
``F.scaled_dot_product_attention``), and shown to report a difference when the package is wrong.
"""

from __future__ import annotations

import os
import platform
import sys

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from attention_workshop.experiment import torch_refs

EPS = sys.float_info.epsilon


def _inputs(seed=0, T=6, d_model=4, d_k=3):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((T, d_model)), *(
        rng.standard_normal((d_model, d_k)) for _ in range(3)
    )


def _gpt2_params(seed=1, B=2, T=5, C=8):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((B, T, C))
    return x, (
        rng.standard_normal((C, 3 * C)),
        rng.standard_normal(3 * C),
        rng.standard_normal((C, C)),
        rng.standard_normal(C),
    )


def test_versions_are_this_environments():
    v = torch_refs.versions()
    assert list(v) == ["os", "python", "numpy", "torch", "matplotlib"]
    assert v["python"] == platform.python_version() and v["numpy"] == np.__version__
    assert v["torch"] == f"{torch.__version__} (CPU kernels: default; MKL: compatible)"
    assert os.environ["ATEN_CPU_CAPABILITY"] == "default"
    assert os.environ["MKL_CBWR"] == "COMPATIBLE"


@pytest.mark.parametrize("causal", [False, True])
def test_compare_with_torch_is_rounding_for_the_package(causal):
    assert 0 <= torch_refs.compare_with_torch(*_inputs(), causal=causal) <= 4 * EPS


@pytest.mark.parametrize("causal", [False, True])
def test_compare_with_torch_reports_a_wrong_head(monkeypatch, causal):
    real = torch_refs.attention
    monkeypatch.setattr(
        torch_refs, "attention", lambda *a, **k: (real(*a, **k)[0] + 1e-3, None)
    )
    assert abs(torch_refs.compare_with_torch(*_inputs(), causal=causal) - 1e-3) < 1e-12


def test_torch_gpt2_attention_is_gpt2s_causal_attention():
    x, (w_attn, b_attn, w_proj, b_proj) = _gpt2_params()
    B, T, C, nh = *x.shape, 2
    tx = torch.from_numpy(x)
    qkv = F.linear(tx, torch.from_numpy(w_attn).T, torch.from_numpy(b_attn))
    q, k, v = (
        t.reshape(B, T, nh, C // nh).permute(0, 2, 1, 3) for t in qkv.chunk(3, dim=-1)
    )
    y = (
        F.scaled_dot_product_attention(q, k, v, is_causal=True)
        .permute(0, 2, 1, 3)
        .reshape(B, T, C)
    )
    expected = F.linear(y, torch.from_numpy(w_proj).T, torch.from_numpy(b_proj)).numpy()
    got = torch_refs.torch_gpt2_attention(
        tx, *(torch.from_numpy(a) for a in (w_attn, b_attn, w_proj, b_proj)), nh
    )
    np.testing.assert_allclose(got.numpy(), expected, rtol=0, atol=1e-13)


def test_gpt2_attention_diff_is_rounding_and_reports_a_wrong_package(monkeypatch):
    x, params = _gpt2_params()
    refs = torch_refs.TorchReferences()
    assert 0 < refs.gpt2_attention_diff(x, params, 2) <= 16 * EPS
    real = torch_refs.multi_head_attention
    monkeypatch.setattr(
        torch_refs,
        "multi_head_attention",
        lambda *a, **k: (real(*a, **k)[0] - 1e-6, None),
    )
    assert abs(refs.gpt2_attention_diff(x, params, 2) - 1e-6) < 1e-12
