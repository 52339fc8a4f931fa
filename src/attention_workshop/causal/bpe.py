"""SmolLM2's tokenizer, built with ``tokenizers`` from the GGUF file's own vocabulary and merges.

A byte-level BPE, as GPT-2's: the text's UTF-8 bytes are spelled as printable
characters (a space is ``Ġ``), cut into words, and each word merged pair by pair in the
order of the merges list. SmolLM2 first cuts every digit apart (llama.cpp's ``smollm``
pre-tokenizer: ``\\p{N}``, then GPT-2's word pattern), so a number is one token per digit.
Control tokens such as ``<|im_start|>`` stay whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tokenizers import Tokenizer

__all__ = ["CONTROL", "bpe_tokenizer"]

#: llama.cpp's token type of a control token (``<|endoftext|>``, ``<|im_start|>``, ...).
CONTROL = 3


def bpe_tokenizer(
    tokens: Sequence[str], merges: Sequence[str], token_types: Sequence[int]
) -> Tokenizer:
    """A ``tokenizers.Tokenizer`` for a GGUF byte-level BPE vocabulary (``tokenizer.ggml.model`` ``gpt2``).

    Args:
        tokens: the vocabulary; token ``i`` has id ``i``.
        merges: ``"a b"`` pairs, best first.
        token_types: llama.cpp's type of each token; :data:`CONTROL` ones become special tokens.

    Returns:
        A tokenizer that adds nothing (no BOS, no padding, no truncation), as SmolLM2's own.
    """
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

    vocab = {token: i for i, token in enumerate(tokens)}
    pairs = [_pair(merge) for merge in merges]
    bpe = models.BPE(vocab=vocab, merges=pairs, fuse_unk=False)
    tokenizer = Tokenizer(bpe)
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Digits(individual_digits=True),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    tokenizer.decoder = decoders.ByteLevel()
    control = [t for t, kind in zip(tokens, token_types) if kind == CONTROL]
    tokenizer.add_special_tokens(
        [AddedToken(t, special=True, normalized=False) for t in control]
    )
    return tokenizer


def _pair(merge: str) -> tuple[str, str]:
    """``"a b"`` -> ``("a", "b")``: a byte-level token never holds a real space (it is ``Ġ``)."""
    a, b = merge.split(" ")
    return a, b
