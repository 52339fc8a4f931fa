"""causal/bpe.py: the tokenizer built from the GGUF vocabulary, against transformers' own GGUF
tokenizer on awkward texts, and on a vocabulary small enough to merge by hand."""

from __future__ import annotations

from typing import Any

import pytest

from attention_workshop.causal import bpe_tokenizer, load_smollm

from . import causal_reference

AWKWARD = [
    "Numbers: 2024, 3.14159 and 1,000,000.",
    "  two leading spaces,\ttabs\tand\nnew\n\nlines  ",
    "don't, I'll, we've, she'd, THEY'RE",
    "naïve café, Straße, Ελληνικά, 日本語, русский",
    "emoji 🦦🚲 and ‘curly’ “quotes” — dashes…",
    "<|im_start|>user\nHello!<|im_end|>",
    "def f(x):\n    return x ** 2  # square",
]


@pytest.fixture(scope="module")
def hf_tokenizer() -> Any:
    return causal_reference.tokenizer()


@pytest.mark.reference
@pytest.mark.parametrize("text", AWKWARD)
def test_tokens_are_transformers_gguf_tokenizers(hf_tokenizer, text: str) -> None:
    enc = load_smollm().tokenizer.encode(text, add_special_tokens=False)
    assert enc.ids == hf_tokenizer(text)["input_ids"], f"ids of {text!r}"
    assert enc.tokens == hf_tokenizer.convert_ids_to_tokens(enc.ids), (
        f"tokens of {text!r}"
    )


@pytest.mark.parametrize("text", AWKWARD)
def test_decoding_gives_the_text_back(text: str) -> None:
    tokenizer = load_smollm().tokenizer
    ids = tokenizer.encode(text, add_special_tokens=False).ids
    assert tokenizer.decode(ids, skip_special_tokens=False) == text


def test_every_digit_is_a_token_and_control_tokens_stay_whole() -> None:
    tokens = load_smollm().tokenize("<|im_start|>In 2024")[0]
    assert tokens == ("<|im_start|>", "In", "Ġ", "2", "0", "2", "4"), tokens


def test_a_tiny_vocabulary_merges_as_by_hand() -> None:
    """Merges apply best first: "l o" before "lo w", and "Ġ" (a space) joins the word after it."""
    tokens = ["l", "o", "w", "e", "r", "Ġ", "lo", "low", "Ġlow", "er", "<|end|>"]
    merges = ["l o", "lo w", "Ġ low", "e r"]
    types = [1] * 10 + [3]
    tokenizer = bpe_tokenizer(tokens, merges, types)
    enc = tokenizer.encode("lower low<|end|>", add_special_tokens=False)
    # "lower" -> l o w e r -> lo w e r -> low e r -> low er; " low" -> Ġ l o w -> ... -> Ġlow
    assert enc.tokens == ["low", "er", "Ġlow", "<|end|>"]
    assert enc.ids == [7, 9, 8, 10]
