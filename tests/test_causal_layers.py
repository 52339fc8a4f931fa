"""causal/layers.py against PyTorch and transformers' Llama pieces, in float64, on random inputs.

Each reference is independent of the code under test: ``torch.nn.functional.rms_norm`` and
``silu``, transformers' ``apply_rotary_pos_emb``, ``repeat_kv`` and ``LlamaMLP``, and the
rotary angles written out from their definition, one ``math.cos`` at a time.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
import torch

from attention_workshop.causal import (
    rms_norm,
    rope,
    rope_angles,
    share_kv_heads,
    silu,
    swiglu,
)

RNG = np.random.default_rng(22)


def _llama() -> Any:
    """transformers' Llama module, imported by the tests that use it: imported with this file, it
    cost every worker about 3 s while collecting, make test-fast's included."""
    from transformers.models.llama import modeling_llama

    return modeling_llama


def _t(a: np.ndarray) -> torch.Tensor:
    return torch.tensor(a, dtype=torch.float64)


def test_rms_norm_is_torchs() -> None:
    x, w = RNG.normal(size=(5, 7, 576)) * 30, RNG.normal(size=576)
    expected = torch.nn.functional.rms_norm(_t(x), (576,), _t(w), eps=1e-5).numpy()
    got = rms_norm(x, w, 1e-5)
    assert got.shape == x.shape and got.dtype == np.float64
    assert np.allclose(got, expected, rtol=1e-12, atol=1e-12), "RMSNorm"


def test_rms_norm_keeps_float32() -> None:
    x = RNG.normal(size=(3, 8)).astype(np.float32)
    assert rms_norm(x, np.ones(8, np.float32), 1e-5).dtype == np.float32


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rope_angles_are_their_definition(dtype: type) -> None:
    T, hs, theta = 40, 64, 100000.0
    cos, sin = rope_angles(T, hs, theta, dtype)
    assert cos.shape == sin.shape == (T, hs // 2) and cos.dtype == np.dtype(dtype)
    # position t turns pair i by t / theta**(2i / hs)
    angle = [[t / theta ** (2 * i / hs) for i in range(hs // 2)] for t in range(T)]
    tol = 1e-5 if dtype is np.float32 else 1e-13
    assert np.allclose(cos, [[math.cos(a) for a in row] for row in angle], atol=tol)
    assert np.allclose(sin, [[math.sin(a) for a in row] for row in angle], atol=tol)


def test_rope_is_transformers_rotate_half() -> None:
    ml = _llama()
    nh, T, hs = 9, 12, 64
    q, k = RNG.normal(size=(nh, T, hs)), RNG.normal(size=(3, T, hs))
    cos, sin = rope_angles(T, hs, 100000.0, np.float64)
    full_cos, full_sin = (_t(np.concatenate([c, c], axis=-1))[None] for c in (cos, sin))
    q_ref, _ = ml.apply_rotary_pos_emb(_t(q)[None], _t(q)[None], full_cos, full_sin)
    k_ref, _ = ml.apply_rotary_pos_emb(_t(k)[None], _t(k)[None], full_cos, full_sin)
    assert np.allclose(rope(q, cos, sin), q_ref[0].numpy(), rtol=0, atol=1e-13), (
        "queries"
    )
    assert np.allclose(rope(k, cos, sin), k_ref[0].numpy(), rtol=0, atol=1e-13), "keys"


def test_rope_scores_depend_on_the_distance_alone() -> None:
    """A rotated query at m and a rotated key at n: their dot product is a function of m - n."""
    hs, T = 64, 30
    q, k = RNG.normal(size=hs), RNG.normal(size=hs)
    cos, sin = rope_angles(T, hs, 100000.0, np.float64)
    rq = rope(np.tile(q, (T, 1)), cos, sin)  # the same query at every position: (T, hs)
    rk = rope(np.tile(k, (T, 1)), cos, sin)  # the same key at every position: (T, hs)
    scores = (
        rq @ rk.T
    )  # (T, T): [m, n] = score of position m's query on position n's key
    for d in range(-5, 6):
        diagonal = np.diagonal(scores, offset=-d)  # every (m, m - d)
        assert np.allclose(diagonal, diagonal[0], atol=1e-11), f"distance {d}"
    assert np.allclose(np.linalg.norm(rq, axis=-1), np.linalg.norm(q)), (
        "rotations keep length"
    )
    assert not np.allclose(scores[5, 0], scores[5, 4]), "but the distance does matter"


def test_share_kv_heads_is_transformers_repeat_kv() -> None:
    kv = RNG.normal(size=(3, 10, 64))
    expected = _llama().repeat_kv(_t(kv)[None], 3)[0].numpy()
    got = share_kv_heads(kv, 9)
    assert got.shape == (9, 10, 64)
    assert np.array_equal(got, expected), (
        "heads 0-2 read kv head 0, 3-5 head 1, 6-8 head 2"
    )
    assert np.array_equal(got[4], kv[1]), "query head 4 reads key/value head 1"


def test_share_kv_heads_refuses_uneven_groups() -> None:
    with pytest.raises(
        ValueError, match="8 query heads cannot share 3 key/value heads"
    ):
        share_kv_heads(np.zeros((3, 2, 4)), 8)


def test_silu_is_torchs_without_warnings() -> None:
    x = np.concatenate([RNG.normal(size=50) * 10, [-1000.0, -50.0, 0.0, 50.0, 1000.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning for very negative inputs
        got = silu(x)
        got32 = silu(x.astype(np.float32))
    assert np.allclose(
        got, torch.nn.functional.silu(_t(x)).numpy(), rtol=1e-13, atol=1e-300
    )
    assert got32.dtype == np.float32 and np.all(np.isfinite(got32))


def test_swiglu_is_transformers_llama_mlp() -> None:
    ml = _llama()
    C, F, T = 16, 40, 6
    x = RNG.normal(size=(T, C))
    gate, up, down = (
        RNG.normal(size=(F, C)),
        RNG.normal(size=(F, C)),
        RNG.normal(size=(C, F)),
    )
    config = ml.LlamaConfig(
        hidden_size=C, intermediate_size=F, num_attention_heads=4, hidden_act="silu"
    )
    mlp = ml.LlamaMLP(config).double()
    with torch.no_grad():
        for layer, w in (
            (mlp.gate_proj, gate),
            (mlp.up_proj, up),
            (mlp.down_proj, down),
        ):
            layer.weight.copy_(_t(w))
        expected = mlp(_t(x)).numpy()
    assert np.allclose(swiglu(x, gate, up, down), expected, rtol=1e-12, atol=1e-12)
