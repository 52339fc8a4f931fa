"""toy.py: the embedding table and the wired head."""

from __future__ import annotations

import numpy as np
import pytest

from attention_workshop import AXES, VOCAB, W_K_WIRED, W_Q_WIRED, embed
from attention_workshop.toy import parse_sentence


def test_embed_looks_rows_up_in_order():
    X = embed(["the", "river", "bank"])
    assert X.shape == (3, len(AXES)) and X.dtype == np.float64
    for row, word in zip(X, ["the", "river", "bank"]):
        assert tuple(row) == VOCAB[word], word


def test_embed_accepts_a_string():
    np.testing.assert_array_equal(embed("the river bank"), embed(["the", "river", "bank"]))


def test_unknown_word_names_the_known_words():
    with pytest.raises(ValueError) as err:
        embed(["the", "volcano", "bank"])
    msg = str(err.value)
    assert "'volcano'" in msg
    for word in VOCAB:
        assert word in msg, f"the message should list {word!r}"


def test_no_words_is_an_error():
    with pytest.raises(ValueError, match="at least one word"):
        embed([])


def test_parse_sentence_lowercases_and_checks():
    assert parse_sentence("The River bank") == ("the", "river", "bank")
    with pytest.raises(ValueError, match="toy vocabulary knows"):
        parse_sentence("the river banks")


def test_wired_head_is_small_and_read_only():
    assert W_Q_WIRED.shape == (len(AXES), 2) and W_K_WIRED.shape == (len(AXES), 2)
    with pytest.raises(ValueError):
        W_Q_WIRED[0, 0] = 1.0


def test_axes_are_named_and_every_word_has_one_value_per_axis():
    assert len(set(AXES)) == len(AXES)
    assert all(len(v) == len(AXES) for v in VOCAB.values())


def test_embed_of_something_that_is_not_words():
    with pytest.raises(ValueError, match="list of words"):
        embed(None)
