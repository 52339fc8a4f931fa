"""SmolLM2's weights, sizes and vocabulary, read from its GGUF file with the ``gguf`` package.

GGUF is llama.cpp's file format: the model's sizes and its tokenizer as metadata, then
each tensor in its own storage type. The "Q4_1" file mixes types: most matrices are
4-bit blocks (``Q4_1``: 32 weights share one scale and one minimum), the token
embeddings are 8-bit (``Q8_0``), the norms' gains plain float32. Each tensor is
dequantized by its own type (:func:`gguf.quants.dequantize`).

llama.cpp also reorders the rows of every query and key matrix for its own rotary
kernel; :func:`unpermute_rotary` puts them back in Hugging Face's order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import DTypeLike, NDArray

if TYPE_CHECKING:
    from gguf import GGUFReader

__all__ = ["Config", "GGUFContents", "read_gguf", "unpermute_rotary"]

Array = NDArray[np.floating[Any]]


@dataclass(frozen=True)
class Config:
    """The sizes GGUF's metadata states (``llama.*`` keys), under GPT-2's names where it has them."""

    n_layer: int  # llama.block_count
    n_head: int  # llama.attention.head_count: query heads
    n_kv_head: int  # llama.attention.head_count_kv: key/value heads
    d_model: int  # llama.embedding_length
    head_size: int  # llama.rope.dimension_count
    d_ff: int  # llama.feed_forward_length
    vocab_size: int  # llama.vocab_size
    rope_theta: float  # llama.rope.freq_base
    eps: float  # llama.attention.layer_norm_rms_epsilon


@dataclass(frozen=True, eq=False)
class GGUFContents:
    """What :func:`read_gguf` read: sizes, dequantized weights, storage types, vocabulary."""

    config: Config
    #: GGUF's names ("blk.0.attn_q.weight"), PyTorch's (out, in) layout
    weights: Mapping[str, Array]
    #: each tensor's storage type in the file ("Q4_1", "Q8_0", "F32")
    types: Mapping[str, str]
    tokens: tuple[str, ...]  # the BPE vocabulary, spelled byte-to-character as GPT-2's
    merges: tuple[str, ...]  # the BPE merges, best first, "a b"
    token_types: tuple[int, ...]  # llama.cpp's token types: 1 normal, 3 control
    #: every other scalar of the metadata (general.name, general.license, ...)
    metadata: Mapping[str, Any]


def unpermute_rotary(w: Array, n_head: int) -> Array:
    """Undo llama.cpp's row order of a query or key weight: rows back in Hugging Face's order.

    llama.cpp rotates the adjacent pairs ``(x[2i], x[2i+1])`` of each head; Hugging Face
    rotates ``(x[i], x[i + hs/2])``. Its converter therefore moves row ``i + hs/2`` of each
    head next to row ``i``. This is the inverse (transformers' ``_reverse_permute_weights``).

    Args:
        w: ``(n_head * hs, C)``, as stored in the GGUF file.
        n_head: the heads of this matrix (query heads for ``attn_q``, key/value heads for ``attn_k``).

    Returns:
        ``(n_head * hs, C)``, the same rows reordered.
    """
    out, C = w.shape
    hs = out // n_head
    # llama.cpp's order: rows 2i and 2i+1 of a head are its pair i
    w = w.reshape(n_head, hs // 2, 2, C)  # (nh, hs/2, 2, C)
    # the first members of the pairs, then the second members
    w = w.swapaxes(1, 2)  # (nh, 2, hs/2, C)
    return w.reshape(out, C)  # (nh * hs, C)


def read_gguf(path: Path, dtype: DTypeLike = np.float32) -> GGUFContents:
    """Read a Llama-architecture GGUF file with a byte-level BPE vocabulary.

    Args:
        path: the ``.gguf`` file.
        dtype: float32 or float64, the dtype of the dequantized weights.

    Returns:
        The file's sizes, weights (query and key rows in Hugging Face's order), types and vocabulary.

    Raises:
        ValueError: the file is not a Llama model with a GPT-2-style BPE vocabulary.
    """
    from gguf import GGUFReader
    from gguf.quants import dequantize

    reader = GGUFReader(path)
    config = _config(reader)
    weights: dict[str, Array] = {}
    types: dict[str, str] = {}
    for t in reader.tensors:
        w = dequantize(t.data, t.tensor_type)  # by this tensor's own storage type
        # GGUF lists the sizes innermost first: (in, out) -> (out, in)
        w = w.reshape([int(n) for n in reversed(t.shape)])
        if ".attn_q." in t.name:
            w = unpermute_rotary(w, config.n_head)
        elif ".attn_k." in t.name:
            w = unpermute_rotary(w, config.n_kv_head)
        weights[t.name] = w.astype(dtype)  # a copy: nothing keeps the file's memory map
        types[t.name] = t.tensor_type.name
    return GGUFContents(
        config=config,
        weights=weights,
        types=types,
        tokens=tuple(_field(reader, "tokenizer.ggml.tokens")),
        merges=tuple(_field(reader, "tokenizer.ggml.merges")),
        token_types=tuple(int(n) for n in _field(reader, "tokenizer.ggml.token_type")),
        metadata=_scalars(reader),
    )


def _config(reader: GGUFReader) -> Config:
    arch = _field(reader, "general.architecture")
    bpe = _field(reader, "tokenizer.ggml.model")
    if arch != "llama" or bpe != "gpt2":
        raise ValueError(
            f"expected a Llama model with a byte-level BPE vocabulary, "
            f"got architecture {arch!r} and tokenizer {bpe!r}"
        )

    def size(key: str) -> int:
        return int(_field(reader, f"llama.{key}"))

    return Config(
        n_layer=size("block_count"),
        n_head=size("attention.head_count"),
        n_kv_head=size("attention.head_count_kv"),
        d_model=size("embedding_length"),
        head_size=size("rope.dimension_count"),
        d_ff=size("feed_forward_length"),
        vocab_size=size("vocab_size"),
        rope_theta=float(_field(reader, "llama.rope.freq_base")),
        eps=float(_field(reader, "llama.attention.layer_norm_rms_epsilon")),
    )


def _field(reader: GGUFReader, key: str) -> Any:
    field = reader.get_field(key)
    if field is None:
        raise ValueError(f"the GGUF file has no {key!r} in its metadata")
    return field.contents()


def _scalars(reader: GGUFReader) -> dict[str, Any]:
    """Every metadata value that is not an array (sizes, names, licence, token ids)."""
    return {
        key: field.contents()
        for key, field in reader.fields.items()
        if len(field.types) == 1 and not key.startswith("GGUF.")
    }
