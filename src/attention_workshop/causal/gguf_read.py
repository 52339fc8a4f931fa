"""SmolLM2's weights, sizes and vocabulary, read from its GGUF file with the ``gguf`` package.

GGUF is llama.cpp's file format: the model's sizes and its tokenizer as metadata, then
each tensor in its own storage type. The "Q4_1" file mixes types: most matrices are
4-bit blocks (``Q4_1``: 32 weights share one scale and one minimum), the token
embeddings are 8-bit (``Q8_0``), the norms' gains plain float32. Each tensor is
dequantized by its own type: the two block types this file uses (``Q4_1``, ``Q8_0``) by
:func:`dequantize`, which gives the bits of :func:`gguf.quants.dequantize` in one pass per
tensor; any other type by :func:`gguf.quants.dequantize` itself.

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

__all__ = ["Config", "GGUFContents", "dequantize", "read_gguf", "unpermute_rotary"]

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


def dequantize(data: NDArray[Any], type_name: str, shape: tuple[int, ...]) -> Array:
    """One tensor's stored bytes to float32 weights, by its storage type.

    ``Q4_1``: blocks of 20 bytes, a float16 scale ``d``, a float16 minimum ``m``, then 16
    bytes; byte ``j`` holds weight ``j`` (low 4 bits) and weight ``j + 16`` (high 4 bits),
    and a weight is ``d * q + m``. ``Q8_0``: blocks of 34 bytes, a float16 scale ``d`` then
    32 signed bytes, a weight is ``d * q``. Every block of every row is done at once, in
    float32 as :func:`gguf.quants.dequantize` does, so the bits are the same.

    Args:
        data: the stored bytes, ``(rows, row bytes)`` (or the float32 values for ``F32``).
        type_name: the storage type, ``"Q4_1"``, ``"Q8_0"``, ``"F32"``, ...
        shape: ``(rows, columns)`` of the weights, PyTorch's ``(out, in)``.

    Returns:
        A new float32 array of ``shape`` (it shares no memory with the file).
    """
    if type_name in ("Q4_1", "Q8_0"):
        size = 20 if type_name == "Q4_1" else 34
        blocks = np.ascontiguousarray(data).view(np.uint8).reshape(-1, size)
        d = blocks[:, 0:2].copy().view(np.float16).astype(np.float32)  # (nb, 1)
        out = np.empty((blocks.shape[0], 32), dtype=np.float32)  # (nb, 32)
        if type_name == "Q4_1":
            m = blocks[:, 2:4].copy().view(np.float16).astype(np.float32)  # (nb, 1)
            q = blocks[:, 4:]  # (nb, 16): two 4-bit weights a byte
            np.multiply(d, q & np.uint8(15), out=out[:, :16])  # weights 0 .. 15
            np.multiply(d, q >> np.uint8(4), out=out[:, 16:])  # weights 16 .. 31
            out += m
        else:
            np.multiply(d, blocks[:, 2:].view(np.int8), out=out)  # (nb, 32)
        return out.reshape(shape)
    from gguf import GGMLQuantizationType
    from gguf.quants import dequantize as gguf_dequantize

    w = gguf_dequantize(np.asarray(data), GGMLQuantizationType[type_name])
    return np.array(w, dtype=np.float32).reshape(shape)


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
    reader = _reader(path)
    config = _config(reader)
    weights: dict[str, Array] = {}
    types: dict[str, str] = {}
    for t in reader.tensors:
        # GGUF lists the sizes innermost first: (in, out) -> (out, in)
        shape = tuple(int(n) for n in reversed(t.shape))
        data = t.data  # (out, row bytes): a view of the file's memory map
        # the rotary order is an order of rows: undo it on the stored bytes, before dequantizing
        if ".attn_q." in t.name:
            data = unpermute_rotary(data, config.n_head)
        elif ".attn_k." in t.name:
            data = unpermute_rotary(data, config.n_kv_head)
        w = dequantize(data, t.tensor_type.name, shape)  # by this tensor's own type
        weights[t.name] = w.astype(dtype, copy=False)
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


def _reader(path: Path) -> GGUFReader:
    """:class:`gguf.GGUFReader` on ``path``, as gguf ships it (its public API; a quicker reader
    would mean overriding its private methods, which the project does not do)."""
    from gguf import GGUFReader

    return GGUFReader(path)


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
