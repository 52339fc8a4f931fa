"""causal/gguf_read.py: the rotary permutation on its own, each storage type decoded by hand,
and the sizes against transformers' reading of the same metadata.

The permutation's references are llama.cpp's own (its converter's ``permute``, written out
below from convert_hf_to_gguf.py) and transformers' inverse of it; the quantized weights are
decoded from the file's raw bytes with the block layouts of ggml (``Q4_1``: a float16 scale
``d``, a float16 minimum ``m``, then 32 four-bit values ``q``, ``w = d * q + m``; ``Q8_0``: a
float16 scale, then 32 signed bytes, ``w = d * q``).
"""

from __future__ import annotations

from pathlib import Path

import gguf
import numpy as np
import pytest

from attention_workshop.causal import (
    load_smollm,
    model_file,
    read_gguf,
    unpermute_rotary,
)

RNG = np.random.default_rng(2022)


def llama_cpp_permute(w: np.ndarray, n_head: int) -> np.ndarray:
    """llama.cpp's converter (convert_hf_to_gguf.py, ``LlamaModel.permute``): HF rows -> GGUF rows."""
    return (
        w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:])
        .swapaxes(1, 2)
        .reshape(w.shape)
    )


def adjacent_rope(x: np.ndarray, pos: int, theta: float = 100000.0) -> np.ndarray:
    """llama.cpp's rotary ("normal" mode): pair i is ``(x[2i], x[2i+1])``, turned by ``pos * theta**(-2i/hs)``."""
    hs = x.shape[-1]
    out = np.empty_like(x)
    for i in range(hs // 2):
        a = pos / theta ** (2 * i / hs)
        c, s = np.cos(a), np.sin(a)
        out[..., 2 * i] = x[..., 2 * i] * c - x[..., 2 * i + 1] * s
        out[..., 2 * i + 1] = x[..., 2 * i] * s + x[..., 2 * i + 1] * c
    return out


def half_rope(x: np.ndarray, pos: int, theta: float = 100000.0) -> np.ndarray:
    """Hugging Face's rotary ("rotate half"): pair i is ``(x[i], x[i + hs/2])``."""
    hs = x.shape[-1]
    perm = np.concatenate(
        [np.arange(0, hs, 2), np.arange(1, hs, 2)]
    )  # adjacent -> halves
    inv = np.argsort(perm)
    return adjacent_rope(x[..., inv], pos, theta)[..., perm]


# ---------------------------------------------------------------- the permutation, on its own


@pytest.mark.parametrize("n_head", [9, 3], ids=["query heads", "key/value heads"])
def test_unpermute_undoes_llama_cpps_permute(n_head: int) -> None:
    w = RNG.normal(size=(n_head * 64, 576))
    assert np.array_equal(unpermute_rotary(llama_cpp_permute(w, n_head), n_head), w)
    assert not np.array_equal(llama_cpp_permute(w, n_head), w), (
        "the permutation moves rows"
    )


@pytest.mark.reference
@pytest.mark.parametrize("n_head", [9, 3], ids=["query heads", "key/value heads"])
def test_unpermute_is_transformers_reverse_permute(n_head: int) -> None:
    from transformers.modeling_gguf_pytorch_utils import LlamaTensorProcessor

    w = RNG.normal(size=(n_head * 64, 576))
    expected = LlamaTensorProcessor()._reverse_permute_weights(w, n_head)
    assert np.array_equal(unpermute_rotary(w, n_head), expected)


def test_the_permutation_is_why_the_two_rotary_orders_agree() -> None:
    """llama.cpp's rotation of permuted weights scores as Hugging Face's rotation of the original ones."""
    hs, C = 64, 48
    w_q, w_k = (
        RNG.normal(size=(hs, C)),
        RNG.normal(size=(hs, C)),
    )  # one head, HF's row order
    x_m, x_n = (
        RNG.normal(size=C),
        RNG.normal(size=C),
    )  # two tokens, at positions 7 and 3
    hf = half_rope(w_q @ x_m, 7) @ half_rope(w_k @ x_n, 3)
    gguf_rows = adjacent_rope(llama_cpp_permute(w_q, 1) @ x_m, 7) @ adjacent_rope(
        llama_cpp_permute(w_k, 1) @ x_n, 3
    )
    assert np.isclose(gguf_rows, hf, rtol=1e-12), (
        "permuted rows + adjacent pairs = HF's score"
    )
    wrong = half_rope(llama_cpp_permute(w_q, 1) @ x_m, 7) @ half_rope(
        llama_cpp_permute(w_k, 1) @ x_n, 3
    )
    assert not np.isclose(wrong, hf, rtol=1e-3), (
        "left permuted, rotate-half scores wrongly"
    )


# ---------------------------------------------------------------- every storage type, by hand


@pytest.fixture(scope="module")
def raw() -> dict[str, gguf.ReaderTensor]:
    """The file's tensors as stored (raw bytes for the quantized ones)."""
    return {t.name: t for t in gguf.GGUFReader(model_file()).tensors}


def _q4_1(row: np.ndarray) -> np.ndarray:
    blocks = np.asarray(row).reshape(-1, 20)  # 18 blocks of 2 + 2 + 16 bytes
    d = blocks[:, 0:2].copy().view(np.float16).astype(np.float32)  # (18, 1)
    m = blocks[:, 2:4].copy().view(np.float16).astype(np.float32)  # (18, 1)
    q = blocks[
        :, 4:
    ]  # byte j holds weight j (low 4 bits) and weight j + 16 (high 4 bits)
    return np.concatenate([d * (q & 15) + m, d * (q >> 4) + m], axis=1).reshape(-1)


def _q8_0(row: np.ndarray) -> np.ndarray:
    blocks = np.asarray(row).reshape(-1, 34)  # 18 blocks of 2 + 32 bytes
    d = blocks[:, 0:2].copy().view(np.float16).astype(np.float32)  # (18, 1)
    return (d * blocks[:, 2:].copy().view(np.int8)).reshape(-1)


@pytest.mark.reference
def test_q4_1_weights_are_the_files_blocks(raw) -> None:
    w = load_smollm().weights
    assert raw["blk.3.attn_v.weight"].tensor_type.name == "Q4_1"
    for r in (0, 1, 191):
        assert np.array_equal(
            w["blk.3.attn_v.weight"][r], _q4_1(raw["blk.3.attn_v.weight"].data[r])
        )
    assert np.array_equal(
        w["blk.5.ffn_down.weight"][7], _q4_1(raw["blk.5.ffn_down.weight"].data[7])
    )


@pytest.mark.reference
def test_q4_1_query_rows_are_the_files_rows_permuted_back(raw) -> None:
    w_q = load_smollm().weights["blk.0.attn_q.weight"]  # (576, 576), HF's row order
    stored = llama_cpp_permute(np.asarray(w_q), 9)  # back to the file's row order
    for r in (0, 1, 33, 575):
        assert np.array_equal(stored[r], _q4_1(raw["blk.0.attn_q.weight"].data[r])), (
            f"row {r}"
        )


@pytest.mark.reference
def test_q8_0_embeddings_are_the_files_blocks(raw) -> None:
    emb = load_smollm().weights["token_embd.weight"]
    assert raw["token_embd.weight"].tensor_type.name == "Q8_0"
    for r in (0, 504, 49151):
        assert np.array_equal(emb[r], _q8_0(raw["token_embd.weight"].data[r])), (
            f"token {r}"
        )


@pytest.mark.reference
def test_float32_gains_are_the_files_values(raw) -> None:
    gain = raw["blk.0.attn_norm.weight"]
    assert gain.tensor_type.name == "F32"
    assert np.array_equal(load_smollm().weights["blk.0.attn_norm.weight"], gain.data)


@pytest.mark.reference
def test_every_weight_is_gguf_s_own_dequantization(raw) -> None:
    """All 272 tensors, bit for bit, against ``gguf.quants.dequantize`` (the package's reference)."""
    from gguf.quants import dequantize

    model = load_smollm()
    for name, t in raw.items():
        ours = np.asarray(model.weights[name])
        if ".attn_q." in name or ".attn_k." in name:  # back to the file's row order
            ours = llama_cpp_permute(ours, 9 if ".attn_q." in name else 3)
        ref = dequantize(t.data, t.tensor_type).reshape(ours.shape)
        assert ours.dtype == ref.dtype == np.float32, name
        assert np.array_equal(ours, ref), name
    # the comparison sees one block's minimum changed
    blocks = np.array(raw["blk.0.ffn_up.weight"].data[:1])
    blocks[0, 2:4] = np.array([0.5], dtype=np.float16).view(np.uint8)
    changed = dequantize(blocks, gguf.GGMLQuantizationType.Q4_1).reshape(-1)
    assert not np.array_equal(model.weights["blk.0.ffn_up.weight"][0], changed)


# ---------------------------------------------------------------- the metadata


@pytest.mark.reference
def test_sizes_are_transformers_reading_of_the_metadata() -> None:
    from transformers import AutoConfig

    path = model_file()
    ref = AutoConfig.from_pretrained(
        path.parent, gguf_file=path.name, local_files_only=True
    )
    c = load_smollm().config
    assert (c.n_layer, c.n_head, c.n_kv_head) == (
        ref.num_hidden_layers,
        ref.num_attention_heads,
        ref.num_key_value_heads,
    )
    assert (c.d_model, c.d_ff, c.vocab_size) == (
        ref.hidden_size,
        ref.intermediate_size,
        ref.vocab_size,
    )
    assert c.head_size == ref.hidden_size // ref.num_attention_heads
    assert c.rope_theta == ref.rope_parameters["rope_theta"]
    assert c.eps == ref.rms_norm_eps
    assert ref.tie_word_embeddings, "no output.weight: logits use the embeddings"


def test_the_metadata_names_the_model_and_its_licence() -> None:
    meta = load_smollm().metadata
    assert meta["general.license"] == "apache-2.0"
    assert meta["general.organization"] == "HuggingFaceTB"
    assert meta["tokenizer.ggml.pre"] == "smollm"


def test_a_file_of_another_architecture_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bert.gguf"
    writer = gguf.GGUFWriter(path, arch="bert")
    writer.add_tokenizer_model("bert")
    writer.add_tensor("token_embd.weight", np.zeros((4, 8), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    with pytest.raises(ValueError, match=r"Llama model.*architecture 'bert'"):
        read_gguf(path)
